"""Cthulhu: The Great Old One: play a pair whenever it can, then a Horror; keep its Signs; otherwise pass or end the
turn."""

from session_service.cli.bot.games.great_old_one import (
    Command, EndTurn, PassCall, PassRecruit, PlayHorror, PlayPair, PlaySign, View,
)


def choose(view: View, legal: list[Command]) -> Command:
    wanted = [c for c in legal if isinstance(c, (PlayPair, PlayHorror))]
    quiet = [c for c in legal if isinstance(c, (PassCall, PassRecruit, EndTurn))]
    return (wanted + quiet + [c for c in legal if not isinstance(c, PlaySign)] + legal)[0]
