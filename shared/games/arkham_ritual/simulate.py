"""Arkham Ritual's moves for the AI's playouts (``AiHooks.simulate``): ``decide``'s state, built directly.

A playout plays a command the game itself just listed, in a world the search drew, and reads only the state it
leaves. A round's end is a dozen facts (the reveal, the judgement, each Sanity change, the next deal card by card),
each rebuilding the round or the state; here a draw, a pass, a take (with the turn or the round it ends, and the
next deal) and a Magical Orb's choice build each record once, from the rules' own reads (``survivors``, the
lowest Sanity). A take that resolves a Gate or a Shining Trapezohedron goes to ``decide``, as does anything else.
``tests/unit/test_ai_simulate.py`` checks that the state is exactly ``decide``'s.
"""

from __future__ import annotations

from shared.kernel import Command, replace, replace_at, rng

from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.commands import DrawCard, PassCard, RemoveTopCard, ReturnTopCard, TakeCard
from shared.games.arkham_ritual.rules import (
    decide, lowest_sanity_seat, normal_loss, others, revealed, survivors, winners_among,
)
from shared.games.arkham_ritual.state import (
    ArkhamRitualState, Drawing, Finished, GameEnd, Offered, Passing, Peeking, Round, RoundEnd, RoundResult,
)

State = ArkhamRitualState


def simulate(state: State, command: Command, seat: int, entropy: bytes) -> State:
    """The state ``decide(state, command, seat, entropy)`` leaves, for a legal ``command``."""
    phase, r = state.phase, state.round
    assert r is not None  # a command is played in a round
    match command:
        case DrawCard():
            card = r.deck[0]
            return replace(state, round=replace(r, deck=r.deck[1:], known=r.known | {(card, seat)}), phase=Passing(card))
        case PassCard(to=to) if to is not None:
            assert isinstance(phase, (Passing, Offered))
            passers = (*phase.passers, phase.holder) if isinstance(phase, Offered) else (seat,)
            return replace(state, round=replace(r, on_table=r.on_table - {to}),
                           phase=Offered(card=phase.card, holder=to, passers=passers))
        case PassCard():  # no hand is left on the table: the card is discarded and the round ends
            assert isinstance(phase, Offered)
            lost = phase.card
            r = replace(r, discards=(*r.discards, lost), known=frozenset(k for k in r.known if k[0] != lost),
                        shown_colour=r.shown_colour - {lost})
            return _end_round(state, r, RoundEnd.ALL_PASSED, entropy)
        case TakeCard():
            assert isinstance(phase, Offered)
            gone = r.hands[seat]
            assert gone is not None
            kind = C.key(gone)
            if kind in (C.GATE, C.SHINING_TRAPEZOHEDRON):
                return decide(state, command, seat, entropy).state
            r = replace(r, hands=replace_at(r.hands, seat, phase.card), discards=(*r.discards, gone),
                        known=frozenset(k for k in r.known if k[0] != gone), shown_colour=r.shown_colour - {gone},
                        cleared=r.cleared - {gone})
            if kind == C.ELDER_SIGN:
                return _end_round(state, r, RoundEnd.ELDER_SIGN, entropy)
            if kind == C.MAGICAL_ORB and r.deck:
                top = r.deck[0]
                return replace(state, round=replace(r, known=r.known | {(top, seat)}), phase=Peeking(seat, top))
            return _end_turn(state, r, entropy)
        case ReturnTopCard():
            return _end_turn(state, r, entropy)
        case RemoveTopCard():
            assert isinstance(phase, Peeking)
            return _end_turn(state, replace(r, deck=r.deck[1:], removed=(*r.removed, phase.card)), entropy)
    return decide(state, command, seat, entropy).state


def _end_turn(state: State, r: Round, entropy: bytes) -> State:
    """``rules._end_turn``: the Deck goes to the next hand on the table clockwise, or the round ends."""
    if not r.deck:
        return _end_round(state, r, RoundEnd.DECK_EMPTY, entropy)
    active = r.active
    assert active is not None
    clockwise = [(active + step) % state.players for step in range(1, state.players)]
    to = next((s for s in clockwise if s in r.on_table), clockwise[0])
    return replace(state, round=replace(r, active=to, on_table=frozenset(others(state.players, to))), phase=Drawing())


def _end_round(state: State, r: Round, cause: RoundEnd, entropy: bytes) -> State:
    """``rules._end_round`` without a Great Old One: the reveal, the judgement, then the game's end or the next deal."""
    state = replace(state, round=r)
    survived = survivors(state)
    loss = normal_loss(state, survived.count(False))
    sanity = list(state.sanity)
    for seat in range(state.players):
        card = r.hands[seat]
        assert card is not None
        key = C.key(card)
        if not survived[seat]:
            change = -1 if key == C.WARY_STUDENT else -loss
        elif key == C.INVESTIGATOR:
            change = 1
        else:
            continue
        sanity[seat] = max(0, min(C.MAX_SANITY, sanity[seat] + change))
    result = RoundResult(number=r.number, cause=cause, cards=tuple(revealed(r.hands)),
                         dummy_cards=tuple(revealed(r.dummies)), survived=tuple(survived), great_old_one=None)
    state = replace(state, sanity=tuple(sanity), last_result=result)
    if 0 in sanity:
        winners = winners_among(state, frozenset(range(state.players)))
        return replace(state, phase=Finished(reason=GameEnd.SANITY_LOST, winners=winners))
    doom = state.doom + 1 if state.doom_track else state.doom
    order = sorted(state.cards)
    rng(entropy).shuffle(order)
    players, dummies = state.players, state.dummy_count
    active = lowest_sanity_seat(state)
    fresh = Round(number=r.number + 1, hands=tuple(order[:players]), dummies=tuple(order[players : players + dummies]),
                  deck=tuple(order[players + dummies :]), discards=(), removed=(), active=active,
                  on_table=frozenset(others(players, active)), known=frozenset(), shown_colour=frozenset(),
                  cleared=frozenset())
    return replace(state, doom=doom, round=fresh, phase=Drawing())
