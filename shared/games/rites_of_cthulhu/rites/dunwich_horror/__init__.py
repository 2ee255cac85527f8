"""The Dunwich Horror (rulebook "Dunwich Horror", p. 29): free the twins Wilbur Whateley (7) and The Dunwich
Horror (6) by revealing and capturing their face-down farmhouse walls with card pairs whose elder sign sum or
difference matches; the most captured points wins."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import Rite
from shared.games.rites_of_cthulhu.rites.dunwich_horror.cards import TWINS
from shared.games.rites_of_cthulhu.rites.dunwich_horror.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.dunwich_horror.events import FACTS
from shared.games.rites_of_cthulhu.rites.dunwich_horror.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.dunwich_horror.state import STATE_TYPES
from shared.games.rites_of_cthulhu.rites.dunwich_horror.rules import (
    begin, decide, drawable, evolve, initial, legal_commands, replacement_draw, result, simulate, timeout_command,
    to_act,
)
from shared.games.rites_of_cthulhu.rites.dunwich_horror.views import (
    cards, invariant, resample, resample_unrevealable, view,
)

RITE = Rite(
    id="dunwich_horror",
    title="The Dunwich Horror",
    summary=(
        "Free the twins Wilbur Whateley (7) and The Dunwich Horror (6) by revealing and capturing their face-down "
        "farmhouse walls with card pairs whose elder sign sum or difference matches; most captured points wins."
    ),
    privilege="Takes the first turn. (Arbitrating simultaneous knocks is never needed: the first knock applied wins.)",
    revealed_by_begin=frozenset(TWINS),
    commands=COMMANDS,
    facts=FACTS,
    narrator=NARRATOR,
    state_types=STATE_TYPES,
    initial=initial, to_act=to_act, legal_commands=legal_commands, decide=decide, evolve=evolve, result=result,
    begin=begin, timeout_command=timeout_command, replacement_draw=replacement_draw, drawable=drawable,
    view=view, cards=cards, resample=resample, resample_unrevealable=resample_unrevealable, invariant=invariant,
    simulate=simulate,
)
