"""Out of the Aeons's cards (rulebook "Out of the Aeons", p. 41): the yellow sub-deck and the deal."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.cards import entity

YELLOW = 2
"""The Brotherhood of the Kings, whose 14 cards form the sub-deck bid for."""
BOOK_OF_AZATHOTH = entity("The Book of Azathoth")
DEAL = {2: 14, 3: 14, 4: 10, 5: 8, 6: 7}
"""Cards dealt to each cultist by player count (the rulebook's table; at most 14, one per yellow card)."""
