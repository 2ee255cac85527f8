"""Arkham Ritual: hand the card on to the sanest seat that may take it (it can best afford a cursed card), and never
take a card passed to it while it still has Sanity to spare."""

from session_service.cli.bot.games.arkham_ritual import Command, PassCard, TakeCard, View


def choose(view: View, legal: list[Command]) -> Command:
    sanity = view["sanity"]
    passes = [c for c in legal if isinstance(c, PassCard)]
    if any(isinstance(c, TakeCard) for c in legal) and sanity[view.get("seat", 0)] <= 2:
        return TakeCard()
    return max(passes, key=lambda c: -1 if c.to is None else sanity[c.to], default=legal[0])
