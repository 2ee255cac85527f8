"""The Hound (rulebook "The Hound", p. 45): send ghouls to peek at and dig up face-down graves with a digging
partner; sealed henchmen of the ghoul's cult decide who loots; the most looted points wins."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import Rite
from shared.games.rites_of_cthulhu.rites.the_hound.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.the_hound.events import FACTS
from shared.games.rites_of_cthulhu.rites.the_hound.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.the_hound.state import STATE_TYPES
from shared.games.rites_of_cthulhu.rites.the_hound.rules import (
    begin, decide, evolve, initial, legal_commands, result, simulate, timeout_command, to_act,
)
from shared.games.rites_of_cthulhu.rites.the_hound.views import (
    cards, invariant, resample, resample_unrevealable, view,
)

RITE = Rite(
    id="the_hound",
    title="The Hound",
    summary=(
        "Send ghouls to peek at and dig up face-down graves with a digging partner; sealed henchmen of the ghoul's "
        "cult decide who loots. Most looted elder sign points wins."
    ),
    privilege="Before the first turn, peeks at any one grave; takes the first turn.",
    commands=COMMANDS,
    facts=FACTS,
    narrator=NARRATOR,
    state_types=STATE_TYPES,
    initial=initial, to_act=to_act, legal_commands=legal_commands, decide=decide, evolve=evolve, result=result,
    begin=begin, timeout_command=timeout_command,
    view=view, cards=cards, resample=resample, resample_unrevealable=resample_unrevealable, invariant=invariant,
    simulate=simulate,
)
