"""Rites of Cthulhu: never a power-play; as the Grand Cultist the rite least played, else what the rite asks for with
its highest-ranked card."""

from shared.games.rites_of_cthulhu.cards import rank

from session_service.cli.bot.games.rites_of_cthulhu import (
    BecomeGrandCultist, ChooseRite, Command, ExcavateArtifact, InvokeArtifact, StealArtifact, View,
)

POWER_PLAYS = (BecomeGrandCultist, ExcavateArtifact, InvokeArtifact, StealArtifact)


def choose(view: View, legal: list[Command]) -> Command:
    calm = [c for c in legal if not isinstance(c, POWER_PLAYS)] or legal
    rites = [c for c in calm if isinstance(c, ChooseRite)]
    if rites:
        return min(rites, key=lambda c: sum(played == c.rite for played in view["rites_played"]))
    card = lambda c: rank(c.card) if isinstance(getattr(c, "card", None), int) else -1  # noqa: E731
    return max(calm, key=card)
