"""Cthulhu: The Great Old One, Elder Edition (2–6 players), by Dann Kriss Games.

Rulebook: ``shared/rulebooks/cthulhu-the-great-old-one.txt``; rulings: ``docs/rulings/great-old-one.md``.
The card list is not in the rulebook: the deck in ``cards.py`` is project data.
"""

from __future__ import annotations

from shared.kernel import AiHooks, Catalogue, Decider, Game, Option

from shared.games.great_old_one.cards import CARD_DATA, PAIRS_TO_END
from shared.games.great_old_one.commands import COMMANDS
from shared.games.great_old_one.events import FACTS
from shared.games.great_old_one.narration import NARRATOR
from shared.games.great_old_one.shapes import SHAPES
from shared.games.great_old_one.policy import playout_value
from shared.games.great_old_one.rules import Reason, decide, evolve, legal_commands, outcome, setup, to_act, winners_among
from shared.games.great_old_one.simulate import simulate
from shared.games.great_old_one.state import STATE_TYPES
from shared.games.great_old_one.views import invariant, resample, resample_unrevealable, view

MAX_PLAYERS = 6

GAME = Game(
    id="great-old-one",
    rules_version="great-old-one/3",
    decider=Decider(
        setup=setup, decide=decide, evolve=evolve, legal_commands=legal_commands, to_act=to_act, view=view,
        outcome=outcome, winners_among=winners_among, invariant=invariant, reasons=Reason, state_types=STATE_TYPES, facts=FACTS,
        out_of_turn=frozenset({"play_sign"}),
    ),
    catalogue=Catalogue(
        narrator=NARRATOR, shapes=SHAPES,
        title="Cthulhu: The Great Old One, Elder Edition", min_players=2, max_players=MAX_PLAYERS, commands=COMMANDS,
        card_data=CARD_DATA,
        options={
            "first_player": Option(
                "int", 0,
                "The seat of the youngest player, who takes the first turn (seat the youngest at seat 0 to keep the default).",
                minimum=0, maximum=MAX_PLAYERS - 1,
            ),
            "finish_round": Option(
                "bool", False,
                f"Variant: a {PAIRS_TO_END}th pair does not end the game at once; the round is played out so every player "
                "has had the same number of turns (off: the rulebook's immediate end).",
            ),
        },
    ),
    ai=AiHooks(resample=resample, resample_unrevealable=resample_unrevealable, playout_value=playout_value,
               simulate=simulate),
)

__all__ = ["GAME"]
