"""Pocket Madness (2-4 players): meld sets to open portals, runs to publish, and stay the sanest cultist.

Rulebook: ``shared/rulebooks/pocket-madness.txt``; rulings: ``docs/rulings/pocket-madness.md``.
"""

from __future__ import annotations

from shared.kernel import AiHooks, Catalogue, Decider, Game

from shared.games.pocket_madness.cards import CARD_DATA, MAX_PLAYERS, MIN_PLAYERS
from shared.games.pocket_madness.commands import COMMANDS
from shared.games.pocket_madness.events import FACTS
from shared.games.pocket_madness.narration import NARRATOR
from shared.games.pocket_madness.shapes import SHAPES
from shared.games.pocket_madness.rules import Reason, decide, evolve, legal_commands, outcome, setup, to_act, winners_among
from shared.games.pocket_madness.simulate import simulate
from shared.games.pocket_madness.state import STATE_TYPES
from shared.games.pocket_madness.views import invariant, resample, resample_unrevealable, view

GAME = Game(
    id="pocket-madness",
    rules_version="pocket-madness/2",
    decider=Decider(
        setup=setup, decide=decide, evolve=evolve, legal_commands=legal_commands, to_act=to_act, view=view,
        outcome=outcome, winners_among=winners_among, invariant=invariant, reasons=Reason, state_types=STATE_TYPES, facts=FACTS,
    ),
    catalogue=Catalogue(
        narrator=NARRATOR, shapes=SHAPES,
        title="Pocket Madness", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, commands=COMMANDS, card_data=CARD_DATA,
    ),
    ai=AiHooks(resample=resample, resample_unrevealable=resample_unrevealable, simulate=simulate),
)

__all__ = ["GAME"]
