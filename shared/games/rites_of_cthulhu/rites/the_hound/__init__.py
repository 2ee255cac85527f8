"""The Hound (rulebook "The Hound", p. 45): send ghouls to peek at and dig up face-down graves with a digging
partner; sealed henchmen of the ghoul's cult decide who loots; the most looted points wins."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import assemble
from shared.games.rites_of_cthulhu.rites.the_hound import rules, views
from shared.games.rites_of_cthulhu.rites.the_hound.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.the_hound.events import FACTS
from shared.games.rites_of_cthulhu.rites.the_hound.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.the_hound.state import STATE_TYPES

RITE = assemble(
    rules,
    views,
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
)
