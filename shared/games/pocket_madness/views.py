"""Pocket Madness views, resampling, invariants and outcome.

What is public: the splayed deck's order and its face-up cards, hand sizes, melds, discards (face up),
portals, Madness tokens, and every hand once laid down at the end of a round whose deck ran out. What is
private: each hand (its owner), the 17 face-down cards (nobody, until drawn or taken), and the hand a
Shub-Niggurath sealer is looking at (that sealer).

Two resamples: ``resample`` reshuffles everything the seat cannot know (for its view, its legal commands and
for bots); ``resample_unrevealable`` only what no single move of another seat can show it. Any card in any
hand can be shown by one move (Azathoth discards a random card of each opponent face up; the last
``end_turn`` of a round whose deck ran out lays every hand down), so only the face-down deck cards stay
hidden whatever another seat does: they are drawn or taken face down, seen by the taker only.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from shared.games.pocket_madness.cards import (
    COPIES,
    FACE_DOWN_CARDS,
    LOCATIONS,
    MADNESS_LIMIT,
    MADNESS_TOKENS,
    PORTAL_NAMES,
    SHUB_NIGGURATH,
)
from shared.games.pocket_madness.rules import designator, shoggoth_binds, to_act
from shared.games.pocket_madness.state import (
    Designating,
    Playing,
    RoundOver,
    Table,
    hand_cards,
    hand_minus,
    hand_of,
)
from shared.kernel import EVERYONE, Outcome


def _is_seat(viewer: Any, players: int) -> bool:
    return viewer is not EVERYONE and isinstance(viewer, int) and 0 <= viewer < players


def _table_view(table: Table, viewer: Any, players: int) -> dict[str, Any]:
    deck = []
    for loc, up in table.deck:
        if up:
            deck.append({"location": loc, "face_up": True})
        elif viewer is EVERYONE:
            deck.append({"location": loc, "face_up": False})
        else:
            deck.append({"face_up": False})
    out: dict[str, Any] = {
        "deck": deck,
        "deck_size": len(deck),
        "face_down_in_deck": sum(1 for _, up in table.deck if not up),
        "hand_counts": [sum(h) for h in table.hands],
        "known_cards": [hand_cards(k) for k in table.known],
        "melds": [
            [{"kind": "run" if m.location is None else "set", "location": m.location, "count": m.count} for m in melds]
            for melds in table.melds
        ],
        "discards": [list(d) for d in table.discards],
        "portals": [
            {"portal": p, "name": PORTAL_NAMES[p], "owner": table.portals[i]} for i, p in enumerate(LOCATIONS)
        ],
    }
    if _is_seat(viewer, players):
        out["hand"] = hand_cards(table.hands[viewer])
    if viewer is EVERYONE:
        out["hands"] = [hand_cards(h) for h in table.hands]
    return out


def view(state: Designating | Playing | RoundOver, viewer: Any) -> dict[str, Any]:
    """Build the viewer's picture from public facts and the viewer's own hand."""
    out: dict[str, Any] = {
        "players": state.players,
        "round": state.round,
        "madness": list(state.madness),
        "madness_supply": max(0, MADNESS_TOKENS - sum(state.madness)),
        "madness_limit": MADNESS_LIMIT,
        "to_act": sorted(to_act(state)),
        **_table_view(state.table, viewer, state.players),
    }
    if _is_seat(viewer, state.players):
        out["seat"] = viewer
    match state:
        case Designating():
            out.update(phase="designating", previous_start=state.start, chooser=state.chooser)
        case Playing():
            turn = state.turn
            out.update(
                phase="playing",
                start_player=state.start,
                runs_this_round=state.runs,
                next_run_madness=state.runs + 1,
                shoggoth=state.shoggoth,
                bound_by_shoggoth=shoggoth_binds(state, turn.seat),
                last_turns=None if state.last_turns is None else list(state.last_turns),
                turn={
                    "seat": turn.seat,
                    "extra": turn.extra,
                    "last": turn.last,
                    "action": turn.action,
                    "melds": turn.melds,
                    "sealed": turn.sealed,
                    "claimed": sorted(turn.claimed),
                    "gug_claimed_before": turn.gug_claimed_before,
                    "extra_turn_owed": turn.dagon,
                },
                pending=None,
            )
            power = state.pending
            if power is not None:
                out["pending"] = {"portal": power.portal, "name": PORTAL_NAMES[power.portal], "target": power.target, "given": power.given}
                if power.portal == SHUB_NIGGURATH and power.target is not None and (viewer is EVERYONE or viewer == turn.seat):
                    out["pending"]["target_hand"] = hand_cards(state.table.hands[power.target])
        case RoundOver():
            over = max(state.madness) >= MADNESS_LIMIT
            out.update(
                phase="game_over" if over else "round_over",
                start_player=state.start,
                reason=state.reason,
                ender=state.ender,
                gained=list(state.gained),
                designator=None if over else designator(state.madness, state.start),
            )
            if state.reason == "deck_exhausted":
                out["hands"] = [hand_cards(h) for h in state.table.hands]
            result = outcome(state)
            out["outcome"] = None if result is None else result.to_json()
    return out


def _known_hands(state: Designating | Playing | RoundOver, seat: Any) -> set[int]:
    known = {seat} if _is_seat(seat, state.players) else set()
    if isinstance(state, RoundOver) and state.reason == "deck_exhausted":
        known = set(range(state.players))
    if isinstance(state, Playing) and state.pending is not None and state.pending.portal == SHUB_NIGGURATH:
        if state.pending.target is not None and seat == state.turn.seat:
            known.add(state.pending.target)
    return known


def resample(state: Designating | Playing | RoundOver, seat: Any, rand: random.Random):
    """Redistribute what ``seat`` cannot see: the unknown part of other hands (sizes kept; publicly known
    cards stay) and the face-down deck cards (places kept)."""
    table = state.table
    known = _known_hands(state, seat)
    pool = [loc for loc, up in table.deck if not up]
    for s in range(state.players):
        if s not in known:
            pool += hand_cards(hand_minus(table.hands[s], table.known[s]))
    rand.shuffle(pool)
    cards = iter(pool)
    deck = tuple((loc, True) if up else (next(cards), False) for loc, up in table.deck)
    hands = tuple(
        table.hands[s]
        if s in known
        else hand_of([*hand_cards(table.known[s]), *(next(cards) for _ in range(sum(table.hands[s]) - sum(table.known[s])))])
        for s in range(state.players)
    )
    return replace(state, table=replace(table, deck=deck, hands=hands))


def resample_unrevealable(state: Designating | Playing | RoundOver, seat: Any, rand: random.Random):
    """Reshuffle only what no single move of another seat can show ``seat``: the face-down deck cards among
    their own places. Hands stay as they are (one Azathoth seal or the round's last turn can show any of them)."""
    table = state.table
    pool = [loc for loc, up in table.deck if not up]
    rand.shuffle(pool)
    cards = iter(pool)
    deck = tuple((loc, True) if up else (next(cards), False) for loc, up in table.deck)
    return replace(state, table=replace(table, deck=deck))


def invariant(state: Designating | Playing | RoundOver) -> None:
    """Every Location card exactly once; hands non-negative; publicly known cards are really held; portal owners are seats; Madness never negative."""
    table = state.table
    assert len(table.hands) == len(table.melds) == len(table.discards) == len(table.known) == state.players
    assert all(all(k <= h for k, h in zip(known, hand)) for known, hand in zip(table.known, table.hands)), "known cards"
    assert len(state.madness) == state.players and all(m >= 0 for m in state.madness)
    count: Counter[int] = Counter()
    for hand in table.hands:
        assert len(hand) == len(LOCATIONS) and all(n >= 0 for n in hand), hand
        count.update(hand_cards(hand))
    count.update(loc for loc, _ in table.deck)
    for melds in table.melds:
        for meld in melds:
            count.update([meld.location] * meld.count if meld.location is not None else LOCATIONS)
    for discards in table.discards:
        count.update(discards)
    assert dict(count) == {loc: COPIES[loc] for loc in LOCATIONS}, dict(count)
    assert sum(1 for _, up in table.deck if not up) <= FACE_DOWN_CARDS
    assert all(owner is None or 0 <= owner < state.players for owner in table.portals)
    if isinstance(state, Playing):
        assert 0 <= state.turn.seat < state.players
        assert state.turn.melds <= 3
        assert state.last_turns is None or not table.deck
        power = state.pending
        if power is not None:
            assert state.turn.sealed and table.portals[power.portal - LOCATIONS[0]] is None
    if isinstance(state, RoundOver) and state.reason == "deck_exhausted":
        assert not table.deck


def outcome(state: Designating | Playing | RoundOver) -> Outcome | None:
    """At a round's end with a player at 10+ Madness: the fewest Madness tokens win; ties share the victory."""
    if not isinstance(state, RoundOver) or max(state.madness) < MADNESS_LIMIT:
        return None
    least = min(state.madness)
    return Outcome(
        reason="madness",
        winners=tuple(s for s, m in enumerate(state.madness) if m == least),
        scores=tuple(float(m) for m in state.madness),
        details={"madness": list(state.madness), "lower_is_better": True, "rounds": state.round},
    )


__all__ = ["invariant", "outcome", "resample", "resample_unrevealable", "view"]
