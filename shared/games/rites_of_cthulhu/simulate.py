"""Rites of Cthulhu's moves for the AI's playouts (``AiHooks.simulate``): ``decide``'s state, built directly.

A playout plays a command the game itself just listed, in a world the search drew, and reads only the state it
leaves. ``decide`` checks it (a shedding rite works out every play it allows to see that this one is among them),
emits its facts and ``evolve`` reads each back through the overarching game's facts before the rite folds it and
the whole state is rebuilt. Here a rite that offers a fast path (``Rite.simulate``: The Tree on the Hill and At the
Mountains of Madness, two thirds of a playout's commands) folds the move's facts itself, and the state is rebuilt
once. The end of a rite, forced trades, power-plays, artifacts and the other rites go to ``decide``.
``tests/unit/test_ai_simulate.py`` checks that the state is exactly ``decide``'s.
"""

from __future__ import annotations

from shared.kernel import Command, replace

from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rules import decide
from shared.games.rites_of_cthulhu.state import Performing, RitesState


def simulate(state: RitesState, command: Command, seat: int, entropy: bytes) -> RitesState:
    """The state ``decide(state, command, seat, entropy)`` leaves, for a legal ``command``."""
    stage = state.stage
    if isinstance(stage, Performing) and stage.begun and state.table.trade is None:
        rite = RITES[stage.rite_id]
        if rite.simulate is not None and command.type in rite.commands:
            moved = rite.simulate(state.table, stage.rite, command, seat)
            if moved is not None:
                table, rite_state, moves = moved
                if rite.result(table, rite_state) is None:  # the rite goes on (its end: decide)
                    return replace(state, table=replace(table, moves=table.moves + moves),
                                   stage=replace(stage, rite=rite_state))
    return decide(state, command, seat, entropy).state
