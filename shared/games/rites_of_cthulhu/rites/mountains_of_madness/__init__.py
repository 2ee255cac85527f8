"""At the Mountains of Madness (rulebook "At the Mountains of Madness", p. 35): build a four-card ridge, slopes
stepping by one and cliffs with forbidden books; the first cultist to play out the hand wins."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import assemble
from shared.games.rites_of_cthulhu.rites.mountains_of_madness import rules, views
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.events import FACTS
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.state import STATE_TYPES

RITE = assemble(
    rules,
    views,
    id="mountains_of_madness",
    title="At the Mountains of Madness",
    summary="Build a four-card ridge, slopes stepping by one, cliffs with forbidden books; empty your hand.",
    privilege="The Grand Cultist declares the Elder Sign (the first ridge card) and may play on.",
    commands=COMMANDS,
    facts=FACTS,
    narrator=NARRATOR,
    state_types=STATE_TYPES,
)
