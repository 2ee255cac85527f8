"""The Tree on the Hill's events in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.kernel.narration import Narrator, Text, Voice, say

from shared.games.rites_of_cthulhu.rites.narration import SHEDDING_NARRATOR, card, grave
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.events import CardPlayedToTree


def _played(data: Mapping[str, Any], voice: Voice) -> Text:
    template = "{seat} planted tree {tree} with {card}" if data["planted"] else "{seat} played {card} on tree {tree}"
    if data["double_play"]:
        template += ": a double play"
    return say(template, seat=voice.seat(data["seat"]), card=card(data["card"]), tree=grave(data["tree"]))


NARRATOR = SHEDDING_NARRATOR | Narrator({CardPlayedToTree.TYPE: _played})
