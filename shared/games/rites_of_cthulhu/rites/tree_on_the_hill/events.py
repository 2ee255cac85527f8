"""The Tree on the Hill's facts (with the shedding rites' shared ``drew_unable_to_play`` and ``turn_passed``)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Fact

from shared.games.rites_of_cthulhu.rites.shedding import DrewUnableToPlay, TurnPassed


@dataclass(frozen=True, slots=True)
class CardPlayedToTree(Fact, type="card_played_to_tree"):
    """``seat`` played ``card`` on tree ``tree`` (``planted``: as a new tree), scoring a double play or not."""

    seat: int
    card: int
    tree: int
    planted: bool
    double_play: bool


FACTS = (CardPlayedToTree, DrewUnableToPlay, TurnPassed)
