"""Arkham Ritual's views and hidden information: what a seat may know, the worlds it cannot tell apart, and the
conservation laws.

Every seat sees every held card but its own; the card being passed is seen by the Active Player who drew it
(and by whoever saw it on top of the Deck); Dummy players' cards are public; the Deck's order is nobody's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from shared.kernel import EVERYONE, replace, sees
from shared.kernel.events import Viewer

from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.rules import current, others, outcome, to_act
from shared.games.arkham_ritual.state import ArkhamRitualState, Finished, Offered, Passing, Peeking, Round


def _knows(r: Round, card: int, viewer: Viewer) -> bool:
    return viewer is EVERYONE or (viewer is not None and (card, viewer) in r.known)


def _colour(card: int) -> str:
    return C.SANE if C.is_sane(card) else C.CURSED


def view(state: ArkhamRitualState, viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` may know: every held card but its own, public piles, and what it saw face down itself."""
    r = state.round
    phase = state.phase
    if r is None:  # between the setup's first event and the first deal (only reachable by time travel)
        early = {"game": "arkham-ritual", "players": state.players, "phase": "setting_up", "sanity": list(state.sanity)}
        if isinstance(viewer, int) and 0 <= viewer < state.players:
            early |= {"seat": viewer,
                      "remembered": {"own_card": None, "own_card_colour": None, "deck_top": None, "removed": []}}
        return early
    out: dict[str, Any] = {
        "game": "arkham-ritual",
        "players": state.players,
        "phase": type(phase).__name__.lower(),
        "round": r.number,
        "to_act": sorted(to_act(state)),
        "active": r.active,
        "sanity": list(state.sanity),
        "doom_track": state.doom_track,
        "doom": state.doom if state.doom_track else None,
        "competitive": state.competitive,
        "cards_in_play": list(state.cards),
        "cards": [
            card if sees(viewer, others(state.players, seat)) else None for seat, card in enumerate(r.hands)
        ],
        "dummies": list(r.dummies),
        "deck_size": len(r.deck),
        "deck_top_colour": _colour(r.deck[0]) if r.deck and r.deck[0] in r.shown_colour else None,
        "discards": list(r.discards),
        "removed_count": len(r.removed),
        "hands_on_table": [] if isinstance(phase, Finished) else sorted(r.on_table),
        "cleared_of_great_old_one": [s for s, c in enumerate(r.hands) if c in r.cleared],
        "passed_card": None,
        "peeking": None,
        "last_round": None,
        "outcome": None,
    }
    if isinstance(phase, (Passing, Offered)):
        passed = {
            "holder": r.active if isinstance(phase, Passing) else phase.holder,
            "passers": list(phase.passers) if isinstance(phase, Offered) else [],
            "colour": _colour(phase.card) if phase.card in r.shown_colour else None,
        }
        if _knows(r, phase.card, viewer):
            passed["card"] = phase.card
        out["passed_card"] = passed
    if isinstance(phase, Peeking):
        out["peeking"] = {"seat": phase.seat}
        if _knows(r, phase.card, viewer):
            out["peeking"]["card"] = phase.card
    if isinstance(viewer, int) and 0 <= viewer < state.players:
        own = r.hands[viewer]
        out["seat"] = viewer
        out["remembered"] = {
            "own_card": own if (own, viewer) in r.known else None,
            "own_card_colour": _colour(own) if own in r.shown_colour else None,
            "deck_top": r.deck[0] if r.deck and (r.deck[0], viewer) in r.known else None,
            "removed": [c for c in r.removed if (c, viewer) in r.known],
        }
    if viewer is EVERYONE:
        out["deck"] = list(r.deck)
        out["removed"] = list(r.removed)
    if state.last_result is not None:
        res = state.last_result
        out["last_round"] = {
            "round": res.number,
            "cause": res.cause,
            "cards": list(res.cards),
            "dummy_cards": list(res.dummy_cards),
            "survived": None if res.survived is None else list(res.survived),
            "great_old_one_holder": res.great_old_one,
        }
    result = outcome(state)
    if result is not None:
        out["outcome"] = result.to_json()
    return out


# -- resample, invariant -------------------------------------------------------------------------------------


def hidden_from(state: ArkhamRitualState, seat: int) -> list[int]:
    """The cards ``seat`` cannot see or remember: its own, the Deck, the passed card, removed cards."""
    r = current(state)
    spots = [r.hands[seat], *r.deck, *r.removed]
    if isinstance(state.phase, (Passing, Offered)):
        spots.append(state.phase.card)
    return [c for c in spots if c is not None and (c, seat) not in r.known]


def _kind(card: int) -> str:
    """What a hidden place may be asked to hold: a sane card, a plain cursed one, or a Great Old One."""
    return C.GREAT_OLD_ONE if C.is_great_old_one(card) else C.SANE if C.is_sane(card) else C.CURSED


_ANY = frozenset({C.SANE, C.CURSED, C.GREAT_OLD_ONE})
_SANE, _CURSED = frozenset({C.SANE}), frozenset({C.CURSED})
_CURSED_OR_GOO, _SANE_OR_CURSED = frozenset({C.CURSED, C.GREAT_OLD_ONE}), frozenset({C.SANE, C.CURSED})


def _may_hold(r: Round, card: int) -> frozenset[str]:
    """The kinds of card the place of ``card`` may hold given what everyone saw: its colour shown by the Shining
    Trapezohedron, or its holder cleared of a Great Old One by a Gate that awakened nothing (one of five sets,
    made once: every playout's world asks it of each hidden card)."""
    cleared = card in r.cleared
    if card in r.shown_colour:
        return _SANE if C.is_sane(card) else _CURSED if cleared else _CURSED_OR_GOO
    return _SANE_OR_CURSED if cleared else _ANY


def _comb(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def _kinds_dealt(places: list[frozenset[str]], count: Mapping[str, int], rnd: random.Random) -> list[str]:
    """A kind for each place, uniform among the ways to give each place a kind it may hold using ``count`` of
    each (every kind counted, if none). Every place may hold one of: sane only, cursed only, cursed or Great Old
    One, sane or cursed, any."""
    where: dict[frozenset[str], list[int]] = {}
    for index, allowed in enumerate(places):
        where.setdefault(allowed, []).append(index)
    cursed_or_goo = where.get(_CURSED_OR_GOO, [])
    sane_or_cursed = where.get(_SANE_OR_CURSED, [])
    anything = where.get(_ANY, [])
    cursed_only = len(where.get(_CURSED, []))
    goo = count[C.GREAT_OLD_ONE]

    def free_cursed(in_cursed_places: int) -> int:
        """Cursed cards left for the sane-or-cursed and any places once ``in_cursed_places`` of the Great Old
        Ones sit in the cursed-or-Great-Old-One places, whose other places take cursed cards."""
        return count[C.CURSED] - cursed_only - (len(cursed_or_goo) - in_cursed_places)

    weights = [_comb(len(cursed_or_goo), g) * _comb(len(anything), goo - g)
               * _comb(len(sane_or_cursed) + len(anything) - goo + g, free_cursed(g)) for g in range(goo + 1)]
    g = rnd.choices(range(goo + 1), weights)[0]
    kinds = [next(iter(k)) if len(k) == 1 else C.SANE for k in places]
    goo_places = rnd.sample(cursed_or_goo, g) + rnd.sample(anything, goo - g)
    for index in cursed_or_goo:
        kinds[index] = C.CURSED
    for index in goo_places:
        kinds[index] = C.GREAT_OLD_ONE
    flexible = sane_or_cursed + [i for i in anything if i not in goo_places]
    for index in rnd.sample(flexible, free_cursed(g)):
        kinds[index] = C.CURSED
    return kinds


def _redeal(state: ArkhamRitualState, hidden: list[int], rnd: random.Random) -> ArkhamRitualState:
    """The position with the ``hidden`` cards (listed in the order of their places) dealt afresh among their
    places, uniformly among the deals consistent with what everyone saw, from their sorted list: two worlds that
    differ only in which hidden card is where redeal alike."""
    r = current(state)
    places = [_may_hold(r, card) for card in hidden]
    by_kind: dict[str, list[int]] = {}
    for card in sorted(hidden):
        by_kind.setdefault(_kind(card), []).append(card)
    kinds = _kinds_dealt(places, {kind: len(by_kind.get(kind, ())) for kind in _ANY}, rnd)
    for cards in by_kind.values():
        rnd.shuffle(cards)
    dealt = {kind: iter(cards) for kind, cards in by_kind.items()}
    return relabel(state, {card: next(dealt[kind]) for card, kind in zip(hidden, kinds)})


def resample(state: ArkhamRitualState, seat: int, rnd: random.Random) -> ArkhamRitualState:
    """Re-deal what ``seat`` cannot know (own card, Deck, passed card, removed cards) consistently with what it saw."""
    if state.round is None:
        return replace(state)  # nothing is dealt yet
    return _redeal(state, hidden_from(state, seat), rnd)


def resample_unrevealable(state: ArkhamRitualState, seat: int, rnd: random.Random) -> ArkhamRitualState:
    """Re-deal only what no other seat's next move can show ``seat``: the Deck below its top card, removed cards.

    The kernel's non-interference check compares the events of another seat's next move in both worlds. In this
    game such moves legitimately reveal the rest of what ``seat`` cannot see (a taken card faces the table, a Gate
    shows who holds a Great Old One, the Trapezohedron shows the top card's colour, the round end shows every
    card), so that check runs against this narrower resample; ``resample`` is the full one (see the rulings).
    """
    if state.round is None:
        return replace(state)
    r = state.round
    return _redeal(state, [c for c in (*r.deck[1:], *r.removed) if (c, seat) not in r.known], rnd)


def relabel(state: ArkhamRitualState, mapping: Mapping[int, int]) -> ArkhamRitualState:
    """The same position with the hidden cards renamed by ``mapping`` (knowledge follows the place, not the name;
    an empty hand, ``None``, is no card's name)."""
    m = mapping.get
    r = current(state)
    new_round = replace(
        r,
        hands=tuple([m(c, c) for c in r.hands]),  # type: ignore[arg-type]  # an empty hand (None) stays empty
        dummies=tuple([m(c, c) for c in r.dummies]),  # type: ignore[arg-type]
        deck=tuple([m(c, c) for c in r.deck]),
        removed=tuple([m(c, c) for c in r.removed]),
        known=frozenset([(m(c, c), s) for c, s in r.known]),
        shown_colour=frozenset([m(c, c) for c in r.shown_colour]),
        cleared=frozenset([m(c, c) for c in r.cleared]),
    )
    phase = state.phase
    if isinstance(phase, (Passing, Offered, Peeking)):
        phase = replace(phase, card=m(phase.card, phase.card))
    return replace(state, round=new_round, phase=phase)


def invariant(state: ArkhamRitualState) -> None:
    """Every card in play is exactly once somewhere; Sanity stays within 0..7."""
    assert len(state.cards) == C.CARDS_IN_PLAY, "22 cards are in play"
    assert all(0 <= s <= C.MAX_SANITY for s in state.sanity), state.sanity
    r = state.round
    if r is None:
        return
    where = [*r.hands, *r.dummies, *r.deck, *r.discards, *r.removed]
    if isinstance(state.phase, (Passing, Offered)):
        where.append(state.phase.card)
    assert None not in where, "every player holds a card"
    assert sorted(c for c in where if c is not None) == sorted(state.cards), "every card is in exactly one place"
    if isinstance(state.phase, Peeking):
        assert r.deck and r.deck[0] == state.phase.card, "the Orb's card is the top of the Deck"
    if isinstance(state.phase, Offered):
        assert state.phase.holder not in r.on_table and state.phase.holder != r.active
    if not isinstance(state.phase, Finished):
        assert all(s > 0 for s in state.sanity), "a running game has no consumed player"
