"""Rise of Cthulhu (Chuck D Yager, 2014), two players: rulebook ``shared/rulebooks/rise-of-cthulhu.md``.

Cultists fight for the influence of Arkham, Dunwich, Innsmouth and Kingsport until three Old Ones have woken.
The rulebook prints no card text: the Cultist deck, Monsters, Artifacts and Old Ones are project data in
``cards.py``; every ruling is in ``docs/rulings/rise-of-cthulhu.md``. The rulebook implies no timeout policy,
so a silent seat's turn timer plays the kernel's default (a random legal command).
"""

from __future__ import annotations

from shared.kernel import AiHooks, Catalogue, Decider, Game

from shared.games.rise_of_cthulhu.cards import CARD_DATA
from shared.games.rise_of_cthulhu.commands import COMMANDS
from shared.games.rise_of_cthulhu.events import FACTS
from shared.games.rise_of_cthulhu.narration import NARRATOR
from shared.games.rise_of_cthulhu.policy import playout_value, rollout_policy
from shared.games.rise_of_cthulhu.shapes import SHAPES
from shared.games.rise_of_cthulhu.rules import Reason, decide, evolve, legal_commands, outcome, setup, to_act, winners_among
from shared.games.rise_of_cthulhu.simulate import simulate
from shared.games.rise_of_cthulhu.state import STATE_TYPES
from shared.games.rise_of_cthulhu.views import invariant, resample, view

GAME = Game(
    id="rise-of-cthulhu",
    rules_version="rise-of-cthulhu/2",
    decider=Decider(
        setup=setup, decide=decide, evolve=evolve, legal_commands=legal_commands, to_act=to_act, view=view,
        outcome=outcome, winners_among=winners_among, invariant=invariant, reasons=Reason, state_types=STATE_TYPES, facts=FACTS,
    ),
    catalogue=Catalogue(title="Rise of Cthulhu", min_players=2, max_players=2, commands=COMMANDS, card_data=CARD_DATA,
                        narrator=NARRATOR, shapes=SHAPES),
    ai=AiHooks(resample=resample, simulate=simulate, playout_value=playout_value, rollout_policy=rollout_policy),
)

__all__ = ["GAME"]
