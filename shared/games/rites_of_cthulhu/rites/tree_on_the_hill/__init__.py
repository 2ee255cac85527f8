"""The Tree on the Hill (rulebook "Tree on the Hill", p. 24): grow trees of four-card runs; a double play forces
another play; the first cultist with an empty hand wins (or the fewest cards when the last card is drawn)."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import Rite
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.events import FACTS
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.state import STATE_TYPES
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.rules import (
    decide, evolve, initial, legal_commands, result, simulate, timeout_command, to_act,
)
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill.views import cards, invariant, resample, view

RITE = Rite(
    id="tree_on_the_hill",
    title="The Tree on the Hill",
    summary="Grow trees of four-card runs; a double play forces another play; first with an empty hand wins.",
    privilege="The Grand Cultist plays first and plants the first tree with any card.",
    commands=COMMANDS,
    facts=FACTS,
    narrator=NARRATOR,
    state_types=STATE_TYPES,
    initial=initial, to_act=to_act, legal_commands=legal_commands, decide=decide, evolve=evolve, result=result,
    timeout_command=timeout_command, simulate=simulate,
    view=view, cards=cards, resample=resample, invariant=invariant,
)
