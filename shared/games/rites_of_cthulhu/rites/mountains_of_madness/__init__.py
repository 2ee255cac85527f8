"""At the Mountains of Madness (rulebook "At the Mountains of Madness", p. 35): build a four-card ridge, slopes
stepping by one and cliffs with forbidden books; the first cultist to play out the hand wins."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import Rite
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.events import FACTS
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.state import STATE_TYPES
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.rules import (
    decide, evolve, initial, legal_commands, result, simulate, timeout_command, to_act,
)
from shared.games.rites_of_cthulhu.rites.mountains_of_madness.views import cards, invariant, resample, view

RITE = Rite(
    id="mountains_of_madness",
    title="At the Mountains of Madness",
    summary="Build a four-card ridge, slopes stepping by one, cliffs with forbidden books; empty your hand.",
    privilege="The Grand Cultist declares the Elder Sign (the first ridge card) and may play on.",
    commands=COMMANDS,
    facts=FACTS,
    narrator=NARRATOR,
    state_types=STATE_TYPES,
    initial=initial, to_act=to_act, legal_commands=legal_commands, decide=decide, evolve=evolve, result=result,
    timeout_command=timeout_command, simulate=simulate,
    view=view, cards=cards, resample=resample, invariant=invariant,
)
