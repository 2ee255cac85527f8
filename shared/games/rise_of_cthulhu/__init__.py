"""Rise of Cthulhu (Chuck D Yager, 2014), two players: rulebook ``shared/rulebooks/rise-of-cthulhu.md``.

Cultists fight for the influence of Arkham, Dunwich, Innsmouth and Kingsport until three Old Ones have woken.
The rulebook prints no card text: the Cultist deck, Monsters, Artifacts and Old Ones are project data in
``cards.py``; every ruling is in ``docs/rulings/rise-of-cthulhu.md``.
"""

from shared.games.rise_of_cthulhu import rules, views
from shared.games.rise_of_cthulhu.cards import CARD_DATA
from shared.games.rise_of_cthulhu.commands import COMMANDS
from shared.games.rise_of_cthulhu.state import STATE_TYPES, to_act
from shared.kernel import Game

GAME = Game(
    id="rise-of-cthulhu",
    title="Rise of Cthulhu",
    min_players=2,
    max_players=2,
    rules_version="rise-of-cthulhu/1",
    setup=rules.setup,
    decide=rules.decide,
    evolve=rules.evolve,
    legal_commands=rules.legal_commands,
    to_act=to_act,
    view=views.view,
    outcome=views.outcome,
    resample=views.resample,
    invariant=views.invariant,
    commands=COMMANDS,
    state_types=STATE_TYPES,
    options={},
    card_data=CARD_DATA,
)

__all__ = ["GAME"]
