"""Pocket Madness's views and hidden information: what a seat may know, the worlds it cannot tell apart, and
the conservation laws.

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
from collections.abc import Iterator
from typing import Any, TypeGuard

from shared.kernel import EVERYONE, sees
from shared.kernel.events import Viewer

from shared.games.pocket_madness.cards import (
    COPIES,
    FACE_DOWN_CARDS,
    LOCATIONS,
    MADNESS_LIMIT,
    MADNESS_TOKENS,
    MAX_MELDS_PER_TURN,
    PORTAL_NAMES,
    SHUB_NIGGURATH,
)
from shared.games.pocket_madness.position import designator, opponents, shoggoth_binds, start_player
from shared.games.pocket_madness.rules import outcome, to_act
from shared.games.pocket_madness.state import (
    Designating,
    Playing,
    PocketMadnessState,
    RoundCards,
    RoundEnd,
    RoundOver,
    hand_cards,
    hand_minus,
    hand_of,
    slot,
)

State = PocketMadnessState


def _is_seat(viewer: Viewer, players: int) -> TypeGuard[int]:
    return isinstance(viewer, int) and 0 <= viewer < players


def _cards_view(cards: RoundCards, viewer: Viewer, players: int) -> dict[str, Any]:
    deck = []
    for loc, up in cards.deck:
        if up:
            deck.append({"location": loc, "face_up": True})
        elif viewer is EVERYONE:
            deck.append({"location": loc, "face_up": False})
        else:
            deck.append({"face_up": False})
    out: dict[str, Any] = {
        "deck": deck,
        "deck_size": len(deck),
        "face_down_in_deck": sum(1 for _, up in cards.deck if not up),
        "hand_counts": [sum(h) for h in cards.hands],
        "known_cards": [hand_cards(k) for k in cards.known],
        "melds": [
            [{"kind": "run" if m.location is None else "set", "location": m.location, "count": m.count} for m in melds]
            for melds in cards.melds
        ],
        "discards": [list(d) for d in cards.discards],
        "portals": [{"portal": p, "name": PORTAL_NAMES[p], "owner": cards.portals[slot(p)]} for p in LOCATIONS],
    }
    if _is_seat(viewer, players):
        out["hand"] = hand_cards(cards.hands[viewer])
    if viewer is EVERYONE:
        out["hands"] = [hand_cards(h) for h in cards.hands]
    return out


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """Build the viewer's picture from public facts and the viewer's own hand."""
    out: dict[str, Any] = {
        "players": state.players,
        "round": state.round,
        "madness": list(state.madness),
        "madness_supply": max(0, MADNESS_TOKENS - sum(state.madness)),
        "madness_limit": MADNESS_LIMIT,
        "to_act": sorted(to_act(state)),
        **_cards_view(state.cards, viewer, state.players),
    }
    if _is_seat(viewer, state.players):
        out["seat"] = viewer
    match state.phase:
        case Designating(chooser=chooser):
            out.update(phase="designating", previous_start=state.start, chooser=chooser)
        case Playing() as playing:
            out.update(_playing_view(state, playing, viewer))
        case RoundOver() as over:
            result = outcome(state)
            out.update(
                phase="round_over" if result is None else "game_over",
                start_player=state.start,
                reason=over.reason,
                ender=over.ender,
                gained=list(over.gained),
                designator=None if result is not None else designator(state.madness, start_player(state)),
                outcome=None if result is None else result.to_json(),
            )
            if over.reason == RoundEnd.DECK_EXHAUSTED:
                out["hands"] = [hand_cards(h) for h in state.cards.hands]
    return out


def _playing_view(state: State, playing: Playing, viewer: Viewer) -> dict[str, Any]:
    turn = playing.turn
    out: dict[str, Any] = {
        "phase": "playing",
        "start_player": state.start,
        "runs_this_round": playing.runs,
        "next_run_madness": playing.runs + 1,
        "shoggoth": playing.shoggoth,
        "bound_by_shoggoth": shoggoth_binds(state, turn.seat),
        "last_turns": None if playing.last_turns is None else list(playing.last_turns),
        "turn": {
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
        "pending": None,
    }
    power = playing.pending
    if power is not None:
        out["pending"] = {"portal": power.portal, "name": PORTAL_NAMES[power.portal], "target": power.target,
                          "given": power.given}
        if power.portal == SHUB_NIGGURATH and power.target is not None and sees(viewer, [turn.seat]):
            out["pending"]["target_hand"] = hand_cards(state.cards.hands[power.target])
    return out


def _laid_down(state: State) -> bool:
    """Every hand is public once laid down at the end of a round whose deck ran out."""
    return isinstance(state.phase, RoundOver) and state.phase.reason == RoundEnd.DECK_EXHAUSTED


def _redealt_deck(deck: tuple[tuple[int, bool], ...], dealt: Iterator[int]) -> tuple[tuple[int, bool], ...]:
    """The deck with its face-down places filled from ``dealt``, in deck order (face-up cards stay)."""
    return tuple((loc, True) if up else (next(dealt), False) for loc, up in deck)


def resample(state: State, seat: int, rand: random.Random) -> State:
    """A world ``seat`` cannot tell from this one, drawn directly from what it knows: the cards it has not seen
    (the face-down deck cards, and in each other hand whatever is not among the cards it knows are there,
    publicly or from its own Shub-Niggurath look, gift or theft) are sorted, shuffled and dealt back into the same
    places and hand sizes. What other seats learnt privately is not the seat's to know: in the drawn world they
    know what everyone knows of the hands that moved, and what they knew of ``seat``'s own hand, which it holds."""
    cards = state.cards
    if _laid_down(state):
        return replace(state)  # nothing is hidden any more: the deck is empty and every hand is on the table
    mine = cards.learned[seat]
    pool = [loc for loc, up in cards.deck if not up]
    for s in opponents(state, seat):
        pool += hand_cards(hand_minus(cards.hands[s], mine[s]))
    pool.sort()
    rand.shuffle(pool)
    dealt = iter(pool)
    deck = _redealt_deck(cards.deck, dealt)
    hands = tuple(cards.hands[s] if s == seat else
                  hand_of([*hand_cards(mine[s]), *(next(dealt) for _ in range(sum(cards.hands[s]) - sum(mine[s])))])
                  for s in range(state.players))
    learned = tuple(row if o == seat else tuple(row[h] if h == seat else cards.known[h] for h in range(state.players))
                    for o, row in enumerate(cards.learned))
    return replace(state, cards=replace(cards, deck=deck, hands=hands, learned=learned))


def resample_unrevealable(state: State, seat: int, rand: random.Random) -> State:
    """Reshuffle only what no single move of another seat can show ``seat``: the face-down deck cards among
    their own places. Hands stay as they are (one Azathoth seal or the round's last turn can show any of them)."""
    pool = sorted(loc for loc, up in state.cards.deck if not up)
    rand.shuffle(pool)
    return replace(state, cards=replace(state.cards, deck=_redealt_deck(state.cards.deck, iter(pool))))


def invariant(state: State) -> None:
    """Every Location card exactly once; hands non-negative; publicly known cards are really held; portal
    owners are seats; Madness never negative."""
    cards = state.cards
    assert len(cards.hands) == len(cards.melds) == len(cards.discards) == len(cards.known) == state.players
    assert all(all(k <= h for k, h in zip(known, hand)) for known, hand in zip(cards.known, cards.hands)), "known cards"
    for row in cards.learned:
        assert all(all(k <= n <= h for k, n, h in zip(*triple)) for triple in zip(cards.known, row, cards.hands)), "learned"
    assert len(state.madness) == state.players and all(m >= 0 for m in state.madness)
    count: Counter[int] = Counter()
    for hand in cards.hands:
        assert len(hand) == len(LOCATIONS) and all(n >= 0 for n in hand), hand
        count.update(hand_cards(hand))
    count.update(loc for loc, _ in cards.deck)
    for melds in cards.melds:
        for meld in melds:
            count.update([meld.location] * meld.count if meld.location is not None else LOCATIONS)
    for discards in cards.discards:
        count.update(discards)
    assert dict(count) == {loc: COPIES[loc] for loc in LOCATIONS}, dict(count)
    assert sum(1 for _, up in cards.deck if not up) <= FACE_DOWN_CARDS
    assert all(owner is None or 0 <= owner < state.players for owner in cards.portals)
    match state.phase:
        case Playing() as playing:
            assert 0 <= playing.turn.seat < state.players
            assert playing.turn.melds <= MAX_MELDS_PER_TURN
            assert playing.last_turns is None or not cards.deck
            if playing.pending is not None:
                assert playing.turn.sealed and cards.portals[slot(playing.pending.portal)] is None
        case RoundOver(reason=RoundEnd.DECK_EXHAUSTED):
            assert not cards.deck
