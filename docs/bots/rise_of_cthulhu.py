"""Rise of Cthulhu: a monster or an artifact before a cultist, a cultist before the Valley, and a card drawn only when
nothing else is to be done."""

from session_service.cli.bot.games.rise_of_cthulhu import (
    Command, DrawCard, PlayArtifact, PlayCultist, PlayMonster, PlayToValley, View,
)

ORDER = (PlayMonster, PlayArtifact, PlayCultist, PlayToValley, DrawCard)


def choose(view: View, legal: list[Command]) -> Command:
    rank = {kind: i for i, kind in enumerate(ORDER)}
    return min(legal, key=lambda c: rank.get(type(c), -1))  # what the game asks first (a power's target) goes first
