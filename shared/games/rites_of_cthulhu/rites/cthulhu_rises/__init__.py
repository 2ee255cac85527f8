"""Cthulhu Rises (rulebook "Cthulhu Rises", p. 14): gates (tricks) with green as trump; capture Cthulhu and keep
him to the last gate, or overthrow (open a gate, capture Cthulhu, close a later gate)."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import Rite
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.events import FACTS
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.state import STATE_TYPES
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.rules import (
    begin, decide, evolve, initial, keeps_in_hand, legal_commands, result, settle, simulate, timeout_command, to_act,
)
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.views import cards, invariant, resample, resample_unrevealable, view

RITE = Rite(
    id="cthulhu_rises",
    title="Cthulhu Rises",
    summary="Gates (tricks) with green as trump; capture Cthulhu and keep him, or overthrow.",
    privilege="The Grand Cultist opens the first gate and is at once eligible to summon Cthulhu.",
    commands=COMMANDS,
    facts=FACTS,
    narrator=NARRATOR,
    state_types=STATE_TYPES,
    initial=initial, to_act=to_act, legal_commands=legal_commands, decide=decide, evolve=evolve, result=result,
    begin=begin, settle=settle, keeps_in_hand=keeps_in_hand, timeout_command=timeout_command, simulate=simulate,
    view=view, cards=cards, resample=resample, resample_unrevealable=resample_unrevealable, invariant=invariant,
)
