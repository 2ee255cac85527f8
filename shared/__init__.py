"""Mythos Tables' pure core: the game kernel, the five games, and the wire schemas both services share."""
