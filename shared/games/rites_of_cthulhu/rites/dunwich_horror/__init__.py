"""The Dunwich Horror (rulebook "Dunwich Horror", p. 29): free the twins Wilbur Whateley (7) and The Dunwich
Horror (6) by revealing and capturing their face-down farmhouse walls with card pairs whose elder sign sum or
difference matches; the most captured points wins."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import assemble
from shared.games.rites_of_cthulhu.rites.dunwich_horror import rules, views
from shared.games.rites_of_cthulhu.rites.dunwich_horror.cards import TWINS
from shared.games.rites_of_cthulhu.rites.dunwich_horror.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.dunwich_horror.events import FACTS
from shared.games.rites_of_cthulhu.rites.dunwich_horror.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.dunwich_horror.state import STATE_TYPES

RITE = assemble(
    rules,
    views,
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
)
