"""The Hound's view and hidden information: face-down graves, private peeks and sealed henchmen."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from shared.kernel import sees
from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu.cards import HAND_SIZE, cult
from shared.games.rites_of_cthulhu.rites.table import opener, pooled_resample, resample_below
from shared.games.rites_of_cthulhu.rites.the_hound.cards import Choice
from shared.games.rites_of_cthulhu.rites.the_hound.rules import ghoul_of, points
from shared.games.rites_of_cthulhu.rites.the_hound.state import Digging, HoundState, Laying, PeekPrivilege, Placed, Placing
from shared.games.rites_of_cthulhu.state import Tabletop


def view(table: Tabletop, state: HoundState, viewer: Viewer) -> dict[str, Any]:
    phase = state.phase
    graves = []
    for i, g in enumerate(state.graves):
        item: dict[str, Any] = {"grave": i, "ghouls": [{"seat": s, "card": c} for s, c in g.ghouls]}
        if g.looted_by is not None:
            item.update(status="looted", card=g.card, looted_by=g.looted_by)
        elif g.face_up:
            item.update(status="face_up", card=g.card)
        else:
            item["status"] = "face_down"
            if viewer is not None and (sees(viewer, []) or (viewer, i) in state.peeks):
                item["card"] = g.card
                item["peeked"] = True
        graves.append(item)
    out: dict[str, Any] = {
        "phase": type(phase).__name__.lower(),
        "graves": graves,
        "points": {str(s): p for s, p in enumerate(points(state, table.players))},
        "discards": list(state.discards),
    }
    if isinstance(phase, PeekPrivilege):
        out["turn"] = opener(table)
    if isinstance(phase, (Placing, Placed, Digging)):
        out["turn"] = phase.seat
    if isinstance(phase, Placed):
        out["placed_at"] = phase.grave
    if isinstance(phase, Digging):
        dig: dict[str, Any] = {"grave": phase.grave, "sealed": [s for s, _, _ in phase.sealed]}
        for s, choice, card in phase.sealed:
            if sees(viewer, [s]):
                dig.setdefault("choices", {})[str(s)] = {"choice": choice, "card": card}
            elif s in phase.open_seals:
                dig.setdefault("cards", {})[str(s)] = card
        out["dig"] = dig
    return out


def cards(state: HoundState) -> tuple[int, ...]:
    out = [g.card for g in state.graves] + [c for g in state.graves for _, c in g.ghouls] + list(state.discards)
    if isinstance(state.phase, Digging):
        out += [c for _, _, c in state.phase.sealed if c is not None]
    return tuple(out)


def resample(table: Tabletop, state: HoundState, seat: int, rng: random.Random,
             keep: frozenset[int] = frozenset()) -> tuple[Tabletop, HoundState]:
    """Everything ``seat`` cannot know: other hands, the pile, the face-down graves it has not peeked at and
    other seats' sealed cards, together (its own peeks stay: knowledge of one seat)."""
    graves = [i for i, g in enumerate(state.graves) if not g.face_up and (seat, i) not in state.peeks]
    phase = state.phase
    sealed: list[int] = []
    extra = [state.graves[i].card for i in graves]
    if isinstance(phase, Digging):
        sealed = [i for i, (s, _, c) in enumerate(phase.sealed)
                  if s != seat and c is not None and s not in phase.open_seals]
        extra += [c for i, (_, _, c) in enumerate(phase.sealed) if i in sealed and c is not None]
    table, tail = pooled_resample(table, seat, rng, extra, keep)
    new_graves = list(state.graves)
    for i in graves:
        new_graves[i] = replace(new_graves[i], card=tail.pop(0))
    state = replace(state, graves=tuple(new_graves))
    if sealed:
        assert isinstance(phase, Digging)
        entries = list(phase.sealed)
        for i in sealed:
            s, _, _ = entries[i]
            card = tail.pop(0)
            # whether a sealed card is a henchman is as hidden as the card: drawn afresh, never kept from the
            # real world (a card of another cult than the seat's ghoul can only be a dummy)
            fits = cult(card) == cult(ghoul_of(state, phase.grave, s))
            entries[i] = (s, Choice.HENCHMAN if fits and rng.random() < 0.5 else Choice.DUMMY, card)
        state = replace(state, phase=replace(phase, sealed=tuple(entries)))
    return table, state


def resample_unrevealable(table: Tabletop, state: HoundState, seat: int, rng: random.Random,
             keep: frozenset[int] = frozenset()) -> tuple[Tabletop, HoundState]:
    """What no other seat's next move can show ``seat``: other hands and the pile below its top 5 cards.

    Another seat's move may dig up any grave, reveal the sealed henchmen and refill ``seat`` from the pile, so
    those stay in place."""
    return resample_below(table, seat, rng, HAND_SIZE, keep), state


def invariant(table: Tabletop, state: HoundState) -> None:
    if isinstance(state.phase, Laying):
        return
    assert len(state.graves) == table.players + 1
    for g in state.graves:
        assert len(g.ghouls) <= 2 and len({s for s, _ in g.ghouls}) == len(g.ghouls)
        assert g.looted_by is None or (g.face_up and not g.ghouls)
    phase = state.phase
    if isinstance(phase, Digging):
        assert len(state.graves[phase.grave].ghouls) == 2 and state.graves[phase.grave].face_up
        assert len(phase.sealed) <= 2
    else:
        placed = phase.grave if isinstance(phase, Placed) else None
        assert all(len(g.ghouls) < 2 for i, g in enumerate(state.graves) if i != placed)
