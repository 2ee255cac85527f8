"""Rites of Cthulhu's moves for the AI's playouts (``AiHooks.simulate``): ``decide``'s state, built directly.

A playout plays a command the game itself just listed, in a world the search drew, and reads only the state it
leaves. ``decide`` checks it, emits its facts, and ``evolve`` reads each back through the overarching game's facts
before the rite folds it and the whole state is rebuilt. Here, in a rite under way:

- a rite with a fast path (``Rite.simulate``: The Tree on the Hill, At the Mountains of Madness, Cthulhu Rises, most
  of a playout's commands) folds the move's facts itself, without the checks (a shedding rite works out every play
  it allows to see that this one is among them) and mostly without building the facts;
- the answer to a forced card is the fold of its table fact (then the rite's ``settle``, where it has one);
- any other rite move is decided by the rite's own ``decide`` (and ``settle``) on a ``RiteMove``: a decision that
  folds the rite's and the table's facts straight into the table and the rite's state, the whole state being built
  once at the end.

Where that move ends the rite, ``rules.end_rite`` goes on from the state built (the result, the next deal) in a
``Decision`` of the move's entropy, as ``decide`` would after the move's own steps (a move that drew randomness and
ends the rite goes to ``decide``, whose end draws on from the same PRNG). Power-plays, artifacts, choosing a rite and
claiming artifacts go to ``decide``, as does anything a rite emits that is not its own fact or the table's.
``tests/unit/test_ai_simulate.py`` checks that the state is exactly ``decide``'s.
"""

from __future__ import annotations

import random
from typing import Any, cast

from shared.kernel import Command, Decision, Fact, replace, rng

from shared.games.rites_of_cthulhu.commands import ReturnCard
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.base import Rite, RiteResult
from shared.games.rites_of_cthulhu.rites.table import TABLE_FACTS, fold_table, returned
from shared.games.rites_of_cthulhu.rules import MAX_SETTLE, decide, end_rite, evolve
from shared.games.rites_of_cthulhu.state import Performing, RitesState


def simulate(state: RitesState, command: Command, seat: int, entropy: bytes) -> RitesState:
    """The state ``decide(state, command, seat, entropy)`` leaves, for a legal ``command``."""
    stage = state.stage
    if isinstance(stage, Performing) and stage.begun:
        rite = RITES[stage.rite_id]
        after = _moved(state, stage, rite, command, seat, entropy)
        if after is not None:
            return _ended(after, rite, entropy)
    return decide(state, command, seat, entropy).state


def _moved(state: RitesState, stage: Performing, rite: Rite, command: Command, seat: int, entropy: bytes
           ) -> RitesState | None:
    """The state after a rite's move, or the answer to a forced card, and the rite's follow-ups (not its end); None
    for a command left to ``decide``."""
    trade = state.table.trade
    if trade is None and command.type in rite.commands:
        after = _fast(state, stage, rite, command, seat)
        if after is not None:
            return after
        return RiteMove(state, stage, rite, entropy).decided(lambda d: rite.decide(d, command, seat))
    if trade is not None and isinstance(command, ReturnCard):  # the fold of ``table.return_card``'s fact
        after = replace(state, table=returned(state.table, trade.giver, trade.receiver, command.card, trade.card))
        return RiteMove(after, stage, rite, entropy).decided(lambda d: None) if rite.settles else after
    return None


def _fast(state: RitesState, stage: Performing, rite: Rite, command: Command, seat: int) -> RitesState | None:
    if rite.simulate is None:
        return None
    moved = rite.simulate(state.table, stage.rite, command, seat)
    if moved is None:
        return None
    table, rite_state, moves = moved
    return replace(state, table=replace(table, moves=table.moves + moves), stage=replace(stage, rite=rite_state))


def _ended(state: RitesState, rite: Rite, entropy: bytes) -> RitesState:
    """``state``, a rite's move settled, with the rite's end where it is over (``rules.end_rite``, in a ``Decision``
    of the move's entropy: the move drew none)."""
    result = _result(state, rite)
    if result is None:
        return state
    d = Decision(state, evolve, entropy)
    end_rite(d, result)
    return d.state


def _result(state: RitesState, rite: Rite) -> RiteResult | None:
    """The rite's end, once a move is settled (a forced card waits for its answer before anything settles)."""
    table = state.table
    return None if table.trade is not None else rite.result(table, state.stage.rite)  # type: ignore[union-attr]


class _Elsewhere(Exception):
    """A fact that is neither the rite's nor the table's: the move goes to ``decide``."""


class RiteMove:
    """A ``Decision`` for a rite's own rules inside a playout: what they read of it (``d.state.table``, the rite's
    state through ``here``, ``d.state.players``, ``d.rng``, ``d.emitted``) is kept up to date as each fact is folded
    by the table's or the rite's own fold (with ``rules.evolve``'s count of the cultists' moves), and the state is
    built once, at the end."""

    __slots__ = ("table", "stage", "players", "moves", "emitted", "events", "_base", "_rite", "_entropy", "_rng")

    def __init__(self, state: RitesState, stage: Performing, rite: Rite, entropy: bytes):
        self.table, self.stage, self.players = state.table, stage, state.players
        self.moves = self.emitted = 0
        self.events: list[Any] = []  # none kept, as inside simulating()
        self._base, self._rite, self._entropy = state, rite, entropy
        self._rng: random.Random | None = None

    @property
    def state(self) -> RiteMove:
        return self

    @property
    def rng(self) -> random.Random:
        if self._rng is None:
            self._rng = rng(self._entropy)
        return self._rng

    def emit(self, fact: Fact, secret: Any = None) -> RiteMove:
        self.emitted += 1
        if isinstance(fact, TABLE_FACTS):
            self.table = fold_table(self.table, fact)
        elif isinstance(fact, self._rite.facts):
            self.table, rite_state = self._rite.evolve(self.table, self.stage.rite, fact)
            self.stage = replace(self.stage, rite=rite_state)
            if not isinstance(fact, self._rite.not_moves):
                self.moves += 1
        else:
            raise _Elsewhere()
        return self

    def decided(self, move: Any) -> RitesState | None:
        """The state after ``move(d)`` and the rite's follow-ups (``rules._settle`` up to the rite's end); None where
        it reaches beyond the rite, or ends it after drawing randomness (the end would draw on from the same PRNG)."""
        d = cast(Decision[RitesState], self)
        try:
            move(d)
            if self.table.trade is None:  # a forced card waits for its answer before anything settles
                for _ in range(MAX_SETTLE):
                    before = self.emitted
                    self._rite.settle(d)
                    if self.emitted == before:
                        break
        except _Elsewhere:
            return None
        after = replace(self._base, table=replace(self.table, moves=self.table.moves + self.moves), stage=self.stage)
        if self._rng is not None and _result(after, self._rite) is not None:
            return None
        return after
