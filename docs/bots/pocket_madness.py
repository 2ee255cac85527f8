"""Pocket Madness: meld whatever it can (a run first, then the largest set), end its turn once it has acted, else draw
as many cards as it may, fewer once its hand is large."""

from session_service.cli.bot.games.pocket_madness import Command, DrawCards, EndTurn, MeldRun, MeldSet, View


def choose(view: View, legal: list[Command]) -> Command:
    melds = [c for c in legal if isinstance(c, MeldRun)] + sorted(
        (c for c in legal if isinstance(c, MeldSet)), key=lambda c: -c.count)
    draws = sorted((c for c in legal if isinstance(c, DrawCards)), key=lambda c: c.count,
                   reverse=len(view.get("hand", [])) < 8)
    return (melds + [c for c in legal if isinstance(c, EndTurn)] + draws + legal)[0]
