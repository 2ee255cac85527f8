"""At the Mountains of Madness's events in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, say

from shared.games.rites_of_cthulhu.rites.mountains_of_madness.events import RidgeExtended, SlopePlayed
from shared.games.rites_of_cthulhu.rites.narration import SHEDDING_NARRATOR, card, cards


def _slope(data: Mapping[str, Any], voice: Voice) -> Text:
    template = "{seat} played {cards} on the slope " + ("above" if data["side"] == "above" else "below") + " {ridge}"
    if data["cliff"]:
        template += ": a cliff"
    return say(template, seat=voice.seat(data["seat"]), cards=cards(data["cards"]), ridge=card(data["ridge_card"]))


NARRATOR = SHEDDING_NARRATOR | Narrator({
    RidgeExtended.TYPE: lambda data, voice: say("{seat} laid {card} on the ridge", seat=voice.seat(data["seat"]),
                                                card=card(data["card"])),
    SlopePlayed.TYPE: _slope,
})
