"""Rites of Cthulhu (2-6 players): a series of mini-games ("rites") played for artifacts.

Rulebook: ``shared/rulebooks/rites-of-cthulhu.txt``; rulings: ``docs/rulings/rites-of-cthulhu.md``.
The overarching game is ``rules.py`` (with ``power_plays.py`` and ``artifacts.py``) and ``views.py``; each rite
is a ``Rite`` subpackage of the same shape in ``rites/`` (``rites/base.py`` says what a rite is).
"""

from __future__ import annotations

from shared.kernel import AiHooks, Catalogue, Decider, Game, Option

from shared.games.rites_of_cthulhu.cards import CARD_DATA
from shared.games.rites_of_cthulhu.commands import COMMANDS
from shared.games.rites_of_cthulhu.events import FACTS
from shared.games.rites_of_cthulhu.narration import NARRATOR
from shared.games.rites_of_cthulhu.shapes import SHAPES
from shared.games.rites_of_cthulhu.policy import playout_value, rollout_policy
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rules import (
    OUT_OF_TURN,
    Reason,
    decide,
    evolve,
    legal_commands,
    outcome,
    setup,
    timeout_command,
    to_act,
    winners_among,
)
from shared.games.rites_of_cthulhu.simulate import simulate
from shared.games.rites_of_cthulhu.state import STATE_TYPES
from shared.games.rites_of_cthulhu.views import invariant, resample, resample_unrevealable, view

GAME = Game(
    id="rites-of-cthulhu",
    rules_version="rites-of-cthulhu/8",
    decider=Decider(
        setup=setup, decide=decide, evolve=evolve, legal_commands=legal_commands, to_act=to_act, view=view,
        outcome=outcome, winners_among=winners_among, invariant=invariant, reasons=Reason,
        state_types=tuple(dict.fromkeys((*STATE_TYPES, *(t for rite in RITES.values() for t in rite.state_types)))),
        facts=FACTS, out_of_turn=OUT_OF_TURN, timeout_command=timeout_command,
    ),
    catalogue=Catalogue(
        narrator=NARRATOR, shapes=SHAPES,
        title="Rites of Cthulhu", min_players=2, max_players=6, commands=COMMANDS,
        options={
            "play_all_rites": Option(
                type="bool", default=False,
                description="Perform every available rite whatever the player count (may skew the balance).",
            ),
        },
        card_data={**CARD_DATA, "rites": [{"id": r.id, "title": r.title, "summary": r.summary,
                                           "privilege": r.privilege} for r in RITES.values()]},
    ),
    ai=AiHooks(resample=resample, resample_unrevealable=resample_unrevealable, rollout_policy=rollout_policy,
               playout_value=playout_value, simulate=simulate),
)

__all__ = ["GAME"]
