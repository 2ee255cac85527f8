"""Rites of Cthulhu (2-6 players): a series of mini-games ("rites") played for artifacts.

Rulebook: /work/shared/rulebooks/rites-of-cthulhu.txt. Rulings: docs/rulings/rites-of-cthulhu.md.
The overarching game is ``game.py``; each rite is a pluggable ``Rite`` in ``rites/`` (see ``rites/base.py``).
"""

from __future__ import annotations

from shared.kernel import Game, Option
from shared.games.rites_of_cthulhu import game as _g
from shared.games.rites_of_cthulhu.cards import CARD_DATA
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.state import STATE_TYPES


def _state_types() -> tuple[type, ...]:
    out = list(STATE_TYPES)
    for rite in RITES.values():
        out += [t for t in rite.state_types if t not in out]
    return tuple(out)


GAME = Game(
    id="rites-of-cthulhu",
    title="Rites of Cthulhu",
    min_players=2,
    max_players=6,
    rules_version="rites-of-cthulhu/1",
    setup=_g.setup,
    decide=_g.decide,
    evolve=_g.evolve,
    legal_commands=_g.legal_commands,
    to_act=_g.to_act,
    view=_g.view,
    outcome=_g.outcome,
    resample=_g.resample,
    resample_unrevealable=_g.resample_unrevealable,
    invariant=_g.invariant,
    commands=_g.all_commands(),
    state_types=_state_types(),
    options={
        "play_all_rites": Option(
            type="bool", default=False,
            description="Perform every available rite whatever the player count (may skew the balance).",
        ),
    },
    card_data={**CARD_DATA, "rites": [{"id": r.id, "title": r.title, "summary": r.summary,
                                       "privilege": r.privilege} for r in RITES.values()]},
)

__all__ = ["GAME"]
