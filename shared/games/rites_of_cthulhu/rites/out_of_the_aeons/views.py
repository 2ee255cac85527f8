"""Out of the Aeons's view and hidden information: the sub-deck order, the remainders and the sealed bids."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from shared.kernel import sees
from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu.cards import cult
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.cards import YELLOW
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.rules import points
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.state import AeonsState, Bidding, Dealing, Privilege
from shared.games.rites_of_cthulhu.rites.table import opener, pooled_resample
from shared.games.rites_of_cthulhu.state import Tabletop


def view(table: Tabletop, state: AeonsState, viewer: Viewer) -> dict[str, Any]:
    phase = state.phase
    out: dict[str, Any] = {
        "phase": type(phase).__name__.lower(),
        "sub_deck": len(state.sub_deck),
        "revealed": state.revealed,
        "privilege_used": state.privilege_used,
        "captured": {str(s): list(cards) for s, cards in enumerate(state.captured)},
        "points": {str(s): p for s, p in enumerate(points(state))},
        "discards": list(state.discards),
        "remainders": len(state.remainders),
        "bids_sealed": [s for s, _ in state.bids],
    }
    if isinstance(phase, Privilege):
        out["privileged"] = opener(table)
    if isinstance(phase, Bidding):
        out["waiting"] = sorted(phase.waiting)
    if sees(viewer, ()):  # full information only (the audit)
        out["sub_deck_order"] = list(state.sub_deck)
        out["remainder_cards"] = list(state.remainders)
    shown = {s: c for s, c in state.bids if s in state.open_bids or sees(viewer, [s])}
    if shown:
        out["bids"] = {str(s): c for s, c in shown.items()}
    return out


def cards(state: AeonsState) -> tuple[int, ...]:
    revealed = () if state.revealed is None else (state.revealed,)
    captured = tuple(c for cards in state.captured for c in cards)
    return state.sub_deck + revealed + tuple(c for _, c in state.bids) + captured + state.discards + state.remainders


def resample(table: Tabletop, state: AeonsState, seat: int, rng: random.Random,
             keep: frozenset[int] = frozenset()) -> tuple[Tabletop, AeonsState]:
    """Everything ``seat`` cannot know: other hands, others' sealed bids and the remainders together; the yellow
    sub-deck's order."""
    sub_deck = sorted(state.sub_deck)
    rng.shuffle(sub_deck)
    return _pool(table, replace(state, sub_deck=tuple(sub_deck)), seat, rng, keep, with_bids=True)


def resample_unrevealable(table: Tabletop, state: AeonsState, seat: int, rng: random.Random,
             keep: frozenset[int] = frozenset()) -> tuple[Tabletop, AeonsState]:
    """What no other seat's next move can show ``seat``: other hands, the remainders, the sub-deck below its top.

    The last bid reveals every sealed bid and turns over the next yellow card, so those stay in place."""
    rest = list(state.sub_deck[1:])
    rng.shuffle(rest)
    return _pool(table, replace(state, sub_deck=state.sub_deck[:1] + tuple(rest)), seat, rng, keep, with_bids=False)


def _pool(table: Tabletop, state: AeonsState, seat: int, rng: random.Random, keep: frozenset[int],
          with_bids: bool) -> tuple[Tabletop, AeonsState]:
    hidden = [i for i, (s, _) in enumerate(state.bids) if with_bids and s != seat and s not in state.open_bids]
    extra = list(state.remainders) + [state.bids[i][1] for i in hidden]
    table, tail = pooled_resample(table, seat, rng, extra, keep)
    remainders, bid_cards = tuple(tail[: len(state.remainders)]), tail[len(state.remainders):]
    bids = list(state.bids)
    for i, card in zip(hidden, bid_cards):
        bids[i] = (bids[i][0], card)
    return table, replace(state, remainders=remainders, bids=tuple(bids))


def invariant(table: Tabletop, state: AeonsState) -> None:
    if isinstance(state.phase, Dealing):
        return
    assert all(cult(c) == YELLOW for c in state.sub_deck)
    assert state.revealed is None or cult(state.revealed) == YELLOW
    assert all(cult(c) == YELLOW for cards in state.captured for c in cards)
    assert len({s for s, _ in state.bids}) == len(state.bids)
    if isinstance(state.phase, (Privilege, Bidding)):
        assert state.revealed is not None
    if isinstance(state.phase, Bidding):
        assert not state.phase.waiting & {s for s, _ in state.bids}
