"""Cthulhu Rises's view and hidden information: the gates are face up; only Cthulhu's place needs care."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu.cards import CTHULHU, CULTS, cult
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.cards import GRAND_CULT
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.rules import next_to_play
from shared.games.rites_of_cthulhu.rites.cthulhu_rises.state import CthulhuRisesState
from shared.games.rites_of_cthulhu.rites.table import Slot, resample_table, unseen_slots, with_cards_at
from shared.games.rites_of_cthulhu.state import Tabletop


def view(table: Tabletop, state: CthulhuRisesState, viewer: Viewer) -> dict[str, Any]:
    return {
        "gate_number": state.gate_number,
        "gate": [{"seat": s, "card": c, "vertical": s in state.eligible} for s, c in state.gate],
        "dominant_cult": CULTS[cult(state.gate[0][1])] if state.gate else None,
        "grand_cult": CULTS[GRAND_CULT],
        "to_play": None if state.forcing is not None else next_to_play(table, state),
        "eligible": sorted(state.eligible),
        "cthulhu": "center" if state.center else ("captured" if state.captor is not None else "unseen"),
        "captor": state.captor,
        "taken": {str(s): list(p) for s, p in enumerate(state.taken)},
        "forcing": state.forcing,
    }


def cards(state: CthulhuRisesState) -> tuple[int, ...]:
    out = [c for _, c in state.gate] + [c for pile in state.taken for c in pile]
    if (state.center or state.captor is not None) and CTHULHU not in out:
        out.append(CTHULHU)
    return tuple(out)


def resample(table: Tabletop, state: CthulhuRisesState, seat: int, rng: random.Random,
             keep: frozenset[int] = frozenset()) -> tuple[Tabletop, CthulhuRisesState]:
    """Other hands, the pile and the unseen set-aside cards, Cthulhu among them: his place is drawn from what the
    seat has seen, every place it cannot rule out in proportion to the unseen cards there. A failed summoning showed
    that no hand held him, so from then on a hand counts only the cards it drew since (see the rulings)."""
    world = resample_table(table, seat, rng, keep)
    if state.drawn_at_failure is None:
        return world, state  # pooled with every unseen card: each place in proportion to its unseen cards
    unseen = unseen_slots(world, seat, keep)
    here = next((i for i, (_, card) in enumerate(unseen) if card == CTHULHU), None)
    if here is None:  # the seat sees where he is (its hand, a peek, open hands), or he is off the table
        return world, state
    weights = _weights_since_failure(world, state.drawn_at_failure, unseen)
    there = rng.choices(range(len(unseen)), weights)[0]
    cards = [card for _, card in unseen]
    cards[here], cards[there] = cards[there], cards[here]  # the other cards were shuffled alike: still uniform
    return with_cards_at(world, unseen, cards), state


def _weights_since_failure(table: Tabletop, at_failure: tuple[int, ...], unseen: list[tuple[Slot, int]]) -> list[float]:
    """How likely each unseen place is to hold Cthulhu after a failed summoning: a pile card or a card set aside
    unseen 1; a hand's card (a forced card in transit counts with its giver's hand) the share of that hand's unseen
    cards drawn since the failure. (A card an artifact moved since counts as a pile card: it cannot be ruled out.)"""
    drawn = table.drawn or (0,) * table.players

    def owner(slot: Slot) -> int | None:
        kind, where = slot
        if kind == "hand":
            return where
        if kind == "trade":
            assert table.trade is not None
            return table.trade.giver
        return None

    sizes = Counter(owner(slot) for slot, _ in unseen)
    weights = []
    for slot, _ in unseen:
        s = owner(slot)
        weights.append(1.0 if s is None else min(drawn[s] - at_failure[s], sizes[s]) / sizes[s])
    return weights if any(weights) else [1.0] * len(weights)


def resample_unrevealable(table: Tabletop, state: CthulhuRisesState, seat: int, rng: random.Random,
                          keep: frozenset[int] = frozenset()) -> tuple[Tabletop, CthulhuRisesState]:
    """Cthulhu stays where he is: a summoning spell, another seat's move, shows who holds him."""
    return resample_table(table, seat, rng, keep | {CTHULHU}), state


def invariant(table: Tabletop, state: CthulhuRisesState) -> None:
    assert not (state.center and state.captor is not None)
    assert len(state.gate) <= table.players
