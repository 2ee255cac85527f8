"""Cthulhu Rises (rulebook "Cthulhu Rises", p. 14): gates (tricks) with green as trump; capture Cthulhu and keep
him to the last gate, or overthrow (open a gate, capture Cthulhu, close a later gate)."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import assemble
from shared.games.rites_of_cthulhu.rites.cthulhu_rises import rules, views
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.events import FACTS
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.state import STATE_TYPES

RITE = assemble(
    rules,
    views,
    id="cthulhu_rises",
    title="Cthulhu Rises",
    summary="Gates (tricks) with green as trump; capture Cthulhu and keep him, or overthrow.",
    privilege="The Grand Cultist opens the first gate and is at once eligible to summon Cthulhu.",
    commands=COMMANDS,
    facts=FACTS,
    narrator=NARRATOR,
    state_types=STATE_TYPES,
)
