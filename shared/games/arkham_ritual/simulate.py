"""Arkham Ritual's moves for the AI's playouts (``AiHooks.simulate``): ``decide``'s state, built directly.

A playout plays a command the game itself just listed, in a world the search drew, and reads only the state it
leaves. A round's end is a dozen facts (the reveal, the judgement or the Great Old One, each Sanity change, the next
deal card by card), each rebuilding the round or the state; here every command of a round (a draw, a pass, a take
with the Event it resolves, the turn or the round it ends and the next deal, a Magical Orb's choice) builds each
record once, from the rules' own reads (``judgement``, ``strike``, the lowest Sanity).
``tests/unit/test_ai_simulate.py`` checks that the state is exactly ``decide``'s.
"""

from __future__ import annotations

from shared.kernel import Command, replace, replace_at, rng

from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.commands import DrawCard, PassCard, RemoveTopCard, ReturnTopCard, TakeCard
from shared.games.arkham_ritual.rules import (
    decide, great_old_one_holder, held_cards, judgement, lowest_sanity_seat, others, revealed, strike, winners_among,
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
            r = replace(r, hands=replace_at(r.hands, seat, phase.card), discards=(*r.discards, gone),
                        known=frozenset(k for k in r.known if k[0] != gone), shown_colour=r.shown_colour - {gone},
                        cleared=r.cleared - {gone})
            return _discarded(state, r, C.key(gone), seat, entropy)
        case ReturnTopCard():
            return _end_turn(state, r, entropy)
        case RemoveTopCard():
            assert isinstance(phase, Peeking)
            return _end_turn(state, replace(r, deck=r.deck[1:], removed=(*r.removed, phase.card)), entropy)
    return decide(state, command, seat, entropy).state


def _discarded(state: State, r: Round, kind: str, seat: int, entropy: bytes) -> State:
    """``rules._take`` after the card is taken: the discarded Event resolves (10-2)."""
    if kind == C.ELDER_SIGN:
        return _end_round(state, r, RoundEnd.ELDER_SIGN, entropy)
    if kind == C.GATE:
        holder = great_old_one_holder(replace(state, round=r))
        if holder is not None:
            return _end_round(state, r, RoundEnd.GREAT_OLD_ONE, entropy, holder)
        return _end_turn(state, replace(r, cleared=r.cleared | set(held_cards(r))), entropy)
    if kind == C.MAGICAL_ORB and r.deck:
        top = r.deck[0]
        return replace(state, round=replace(r, known=r.known | {(top, seat)}), phase=Peeking(seat, top))
    if kind == C.SHINING_TRAPEZOHEDRON and r.deck:
        top = r.deck[0]
        sane = C.is_sane(top)
        r = replace(r, known=r.known | {(top, seat)}, shown_colour=r.shown_colour | {top})
        sanity = state.sanity
        after = max(0, min(C.MAX_SANITY, sanity[seat] + (1 if sane else -1)))
        state = replace(state, sanity=replace_at(sanity, seat, after))
        if after == 0:
            return _game_over(replace(state, round=r))
    return _end_turn(state, r, entropy)


def _end_turn(state: State, r: Round, entropy: bytes) -> State:
    """``rules._end_turn``: the Deck goes to the next hand on the table clockwise, or the round ends."""
    if not r.deck:
        return _end_round(state, r, RoundEnd.DECK_EMPTY, entropy)
    active = r.active
    assert active is not None
    clockwise = [(active + step) % state.players for step in range(1, state.players)]
    to = next((s for s in clockwise if s in r.on_table), clockwise[0])
    return replace(state, round=replace(r, active=to, on_table=frozenset(others(state.players, to))), phase=Drawing())


def _end_round(state: State, r: Round, cause: RoundEnd, entropy: bytes, goo_holder: int | None = None) -> State:
    """``rules._end_round``: the reveal, the judgement or the Great Old One, then the game's end or the next deal."""
    state = replace(state, round=r)
    sanity = list(state.sanity)

    def change(seat: int, by: int) -> None:
        sanity[seat] = max(0, min(C.MAX_SANITY, sanity[seat] + by))  # rules._change_sanity

    if goo_holder is None:
        survived, _, _, changes = judgement(state)
        for seat, by, _ in changes:
            change(seat, by)
        judged: tuple[bool, ...] | None = tuple(survived)
    else:
        card = (r.hands + r.dummies)[goo_holder]
        assert card is not None
        strike(state, goo_holder if goo_holder < state.players else None, C.key(card), change, lambda: tuple(sanity))
        judged = None
    result = RoundResult(number=r.number, cause=cause, cards=tuple(revealed(r.hands)),
                         dummy_cards=tuple(revealed(r.dummies)), survived=judged, great_old_one=goo_holder)
    state = replace(state, sanity=tuple(sanity), last_result=result)
    if 0 in sanity:
        return _game_over(state)
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


def _game_over(state: State) -> State:
    """``rules._end_game``: a seat has no Sanity left."""
    winners = winners_among(state, frozenset(range(state.players)))
    return replace(state, phase=Finished(reason=GameEnd.SANITY_LOST, winners=winners))
