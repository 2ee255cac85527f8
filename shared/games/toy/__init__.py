"""Toy: the smallest hidden-information game, and the template for a new game (docs/adding-a-game.md).

Twelve cards valued 1–12 are shuffled; each seat is dealt one. In turn, a seat draws the top card (only it
sees which) or plays a card from its hand face up for its value; the game ends at 15 points or when the seat
to play can do neither. It is not in the registry: tests register it to exercise the services and suites.
"""

from __future__ import annotations

from shared.kernel import AiHooks, Catalogue, Decider, Game, Option

from shared.games.toy.cards import CARD_DATA
from shared.games.toy.commands import COMMANDS
from shared.games.toy.events import FACTS
from shared.games.toy.narration import NARRATOR
from shared.games.toy.shapes import SHAPES
from shared.games.toy.rules import Reason, decide, evolve, legal_commands, outcome, setup, to_act, winners_among
from shared.games.toy.state import STATE_TYPES
from shared.games.toy.views import invariant, resample, view

GAME = Game(
    id="toy",
    rules_version="toy/1",
    decider=Decider(
        setup=setup, decide=decide, evolve=evolve, legal_commands=legal_commands, to_act=to_act, view=view,
        outcome=outcome, winners_among=winners_among, invariant=invariant, reasons=Reason, state_types=STATE_TYPES, facts=FACTS,
    ),
    catalogue=Catalogue(
        narrator=NARRATOR, shapes=SHAPES,
        title="Toy", min_players=2, max_players=4, commands=COMMANDS, card_data=CARD_DATA,
        options={"target": Option("int", 15, "unused; exercises option checks", minimum=1, maximum=99)},
    ),
    ai=AiHooks(resample=resample),
)

__all__ = ["GAME"]
