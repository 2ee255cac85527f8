"""Arkham Ritual's rules: setup, decide, evolve, the seats the game waits on, legal commands and the outcome.

Rulebook: ``shared/rulebooks/arkham-ritual.md`` (sections cited as "5-1", "10-4"…); rulings where it is silent:
``docs/rulings/arkham-ritual.md``. Every seat sees every held card but its own; the card being passed is seen by
the Active Player who drew it (and by whoever saw it on top of the Deck); Dummy players' cards are public.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

from shared.kernel import Command, Decided, Decision, Event, Outcome, interned, replace, replace_at, RuleViolation
from shared.kernel.errors import require

from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.commands import DrawCard, PassCard, RemoveTopCard, ReturnTopCard, TakeCard
from shared.games.arkham_ritual.events import (
    FACTS, ActivePlayerChosen, CardDrawn, CardPassed, CardTaken, CardUnclaimed, DeckFormed, DeckPassed, DoomAdvanced,
    DummyDealt, GameEnded, GameStarted, GateFoundNoGreatOldOne, GreatOldOneAwakened, HandDealt, RitualJudged,
    RoundEnded, RoundStarted, SanityChanged, TopCardRemoved, TopCardReturned, TopCardSeen,
)
from shared.games.arkham_ritual.state import (
    ArkhamRitualState, Drawing, Finished, GameEnd, Offered, Passing, Peeking, Resolving, Round, RoundEnd,
    RoundResult,
)

State = ArkhamRitualState
FAILED_RITUAL = "failed_ritual"  # the cause of a 7-3 loss


class FirstActive(StrEnum):
    """5-1: how a round's first Active Player is chosen."""

    RANDOM = "random"
    LOWEST_SANITY = "lowest_sanity"


# -- small helpers ------------------------------------------------------------------------------------------


def dummies_for(players: int) -> int:
    """14: two Dummy players at 3 players, one at 4, none from 5."""
    return max(0, C.FULL_TABLE - players)


def others(players: int, seat: int) -> list[int]:
    """Every seat but ``seat``: the audience of a card ``seat`` holds."""
    return [s for s in range(players) if s != seat]


def participants(state: State) -> int:
    """14: Dummy players count as players when counting players."""
    return state.players + state.dummy_count


def current(state: State) -> Round:
    """The round being played: there is one from the first deal on, so in every position anyone acts in."""
    assert state.round is not None
    return state.round


def active_seat(state: State) -> int:
    """The round's Active Player: chosen (5-1) before anyone acts in the round."""
    active = current(state).active
    assert active is not None
    return active


def held_card(r: Round, seat: int) -> int:
    """The card ``seat`` holds: every seat holds one from its deal to the end of the round."""
    card = r.hands[seat]
    assert card is not None
    return card


def held_cards(r: Round) -> list[int]:
    """The cards of every seat, then every Dummy player (participant order)."""
    return [c for c in r.hands if c is not None] + [c for c in r.dummies if c is not None]


# -- setup --------------------------------------------------------------------------------------------------


def setup(players: int, options: Mapping[str, Any], entropy: bytes) -> list[Event]:
    """3: 7 Sanity each, the 22 cards chosen by the options; then the first round (5, 5-1)."""
    chosen = C.cards_in_play({group: options.get(group, keys[0]) for group, keys in C.GROUPS.items()})
    decision: Decision[Any] = Decision(None, evolve, entropy)
    decision.emit(GameStarted(players=players, dummies=dummies_for(players), cards=list(chosen),
                              doom_track=bool(options.get("doom_track", False)),
                              competitive=bool(options.get("competitive", False)), sanity=C.START_SANITY))
    _start_round(decision)
    return decision.events


def _start_round(decision: Decision[State]) -> None:
    """5: shuffle all 22 cards, deal one to each player (Dummies face up), the rest is the Deck; 5-1: Active Player."""
    state: State = decision.state
    number = 1 if state.round is None else state.round.number + 1
    decision.emit(RoundStarted(round=number))
    order = sorted(state.cards)
    decision.rng.shuffle(order)
    for seat in range(state.players):
        decision.emit(HandDealt(seat=seat, card=order[seat]), secret={"card": others(state.players, seat)})
    for dummy in range(state.dummy_count):
        decision.emit(DummyDealt(dummy=dummy, card=order[state.players + dummy]))
    deck = order[state.players + state.dummy_count :]
    decision.emit(DeckFormed(size=len(deck), cards=deck), secret={"cards": []})
    if state.round is None:
        decision.emit(ActivePlayerChosen(seat=decision.rng.randrange(state.players), rule=FirstActive.RANDOM))
    else:
        decision.emit(ActivePlayerChosen(seat=lowest_sanity_seat(state), rule=FirstActive.LOWEST_SANITY))


def lowest_sanity_seat(state: State) -> int:
    """5-1: lowest Sanity; on a tie, the closest clockwise from the last Active Player (who comes last: ruling 8)."""
    last = active_seat(state)
    lowest = min(state.sanity)
    return next(seat for step in range(1, state.players + 1)
                if state.sanity[seat := (last + step) % state.players] == lowest)


# -- who acts, legal commands, outcome ------------------------------------------------------------------------


def to_act(state: State) -> frozenset[int]:
    match state.phase:
        case Drawing() | Passing():
            return frozenset({active_seat(state)})
        case Offered(holder=holder):
            return frozenset({holder})
        case Peeking(seat=seat):
            return frozenset({seat})
    return frozenset()


def legal_commands(state: State, seat: int) -> list[Command]:
    """The commands of ``seat``, which ``to_act`` waits on (each phase's check here is ``to_act``'s)."""
    match state.phase:
        case Drawing():
            return [_DRAW] if seat == active_seat(state) else []
        case Passing():
            return [_pass(to=to) for to in sorted(current(state).on_table)] if seat == active_seat(state) else []
        case Offered(holder=holder) if seat == holder:
            return [_TAKE, *([_pass(to=to) for to in sorted(current(state).on_table)] or [_pass(to=None)])]
        case Peeking(seat=peeker) if seat == peeker:
            return [_RETURN, _REMOVE]
    return []


# one record per distinct command (``interned``): the AI's playouts list them on every move
_pass = interned(PassCard)
_DRAW, _TAKE, _RETURN, _REMOVE = DrawCard(), TakeCard(), ReturnTopCard(), RemoveTopCard()


def outcome(state: State) -> Outcome | None:
    if not isinstance(state.phase, Finished):
        return None
    return Outcome(
        reason=state.phase.reason,
        winners=state.phase.winners,
        scores=tuple(state.sanity),
        details={"competitive": state.competitive, "rounds": current(state).number},
    )


def winners_among(state: State, standing: frozenset[int]) -> tuple[int, ...]:
    """8: the seats of ``standing`` with no Sanity left are consumed and lose, the others win; the competitive
    variant crowns the most Sanity among them."""
    survivors = [s for s in sorted(standing) if state.sanity[s] > 0]
    if state.competitive and survivors:
        most = max(state.sanity[s] for s in survivors)
        survivors = [s for s in survivors if state.sanity[s] == most]
    return tuple(survivors)


# -- decide -------------------------------------------------------------------------------------------------


def decide(state: State, command: Command, seat: int, entropy: bytes) -> Decided[State]:
    phase = state.phase
    decision = Decision(state, evolve, entropy)
    match phase:
        case Drawing():
            require(isinstance(command, DrawCard), "rules/must_draw_first", "Draw the top card of the Deck first.")
            decision.emit(CardDrawn(seat=seat, card=current(state).deck[0]), secret={"card": [seat]})
        case Passing():
            require(not isinstance(command, TakeCard), "rules/active_player_may_not_keep_the_card",
                    "The Active Player must pass the card to a Follower and may not keep it.")
            if not isinstance(command, PassCard):
                raise RuleViolation("rules/must_pass_the_card", "Pass the card you drew to a Follower.")
            decision.emit(CardPassed(seat=seat, to=_check_target(state, command.to, seat)))
        case Offered():
            match command:
                case TakeCard():
                    _take(decision, seat)
                case PassCard(to=None):
                    require(not current(state).on_table, "rules/must_pass_to_a_hand_on_the_table",
                            "Some players still have a hand on the table: pass the card to one of them.",
                            on_table=sorted(current(state).on_table))
                    decision.emit(CardUnclaimed(seat=seat, card=phase.card))
                    _end_round(decision, RoundEnd.ALL_PASSED)
                case PassCard(to=to):
                    decision.emit(CardPassed(seat=seat, to=_check_target(state, to, seat)))
                case _:
                    raise RuleViolation("rules/must_take_or_pass",
                                        "Take the card you were passed, or pass it on without looking.")
        case Peeking():
            match command:
                case ReturnTopCard():
                    decision.emit(TopCardReturned(seat=seat))
                case RemoveTopCard():
                    decision.emit(TopCardRemoved(seat=seat, card=phase.card), secret={"card": [seat]})
                case _:
                    raise RuleViolation(
                        "rules/must_return_or_remove_the_top_card",
                        "Return the card you looked at to the top of the Deck, or remove it from the game face down.",
                    )
            _end_turn(decision)
    return decision.decided()


def _check_target(state: State, to: int | None, seat: int) -> int:
    """6-1 (3), 6-2-2, 14: the card goes to a seat with a hand on the table; never to a Dummy, never kept. The seat
    it goes to."""
    if to is not None and state.players <= to < participants(state):
        raise RuleViolation("rules/dummy_players_never_receive_cards", "A Dummy player never receives a card.")
    if to is None or not 0 <= to < state.players:
        raise RuleViolation("rules/no_such_player", "Name the seat you pass the card to.")
    require(to != seat, "rules/must_pass_to_a_hand_on_the_table", "You may not pass the card to yourself.")
    require(to in current(state).on_table, "rules/must_pass_to_a_hand_on_the_table",
            "Pass the card to a player who still has a hand on the table.", on_table=sorted(current(state).on_table))
    return to


def _take(decision: Decision[State], seat: int) -> None:
    """6-2-1: discard your card face up, take the passed card, then resolve the discarded Event (10-2)."""
    state: State = decision.state
    discarded = held_card(current(state), seat)
    assert isinstance(state.phase, Offered)
    decision.emit(CardTaken(seat=seat, card=state.phase.card, discarded=discarded),
                  secret={"card": others(state.players, seat)})
    deck = current(decision.state).deck
    match C.key(discarded):
        case C.ELDER_SIGN:
            _end_round(decision, RoundEnd.ELDER_SIGN)
        case C.GATE:
            holder = great_old_one_holder(decision.state)
            if holder is None:
                decision.emit(GateFoundNoGreatOldOne(seat=seat))
                _end_turn(decision)
            else:
                _end_round(decision, RoundEnd.GREAT_OLD_ONE, holder)
        case C.MAGICAL_ORB if deck:
            decision.emit(TopCardSeen(seat=seat, card=deck[0], by=C.MAGICAL_ORB), secret={"card": [seat]})
        case C.SHINING_TRAPEZOHEDRON if deck:
            sane = C.is_sane(deck[0])
            decision.emit(TopCardSeen(seat=seat, card=deck[0], by=C.SHINING_TRAPEZOHEDRON, sane=sane),
                          secret={"card": [seat]})
            _change_sanity(decision, seat, 1 if sane else -1, C.SHINING_TRAPEZOHEDRON)
            if decision.state.sanity[seat] == 0:
                _end_game(decision)
            else:
                _end_turn(decision)
        case _:
            _end_turn(decision)


def great_old_one_holder(state: State) -> int | None:
    """10-2 Gate, FAQ Q4: the participant (seat, then Dummy ``players + d``) holding a Great Old One, if any."""
    r = current(state)
    held = r.hands + r.dummies
    return next((i for i, card in enumerate(held) if card is not None and C.is_great_old_one(card)), None)


def _change_sanity(decision: Decision[State], seat: int, change: int, cause: str) -> None:
    """Q5: Sanity stays between 0 and 7; only a real change is recorded."""
    before = decision.state.sanity[seat]
    after = max(0, min(C.MAX_SANITY, before + change))
    if after != before:
        decision.emit(SanityChanged(seat=seat, change=after - before, sanity=after, cause=cause))


def _end_turn(decision: Decision[State]) -> None:
    """6-3: the round ends when the Deck is empty; otherwise the Deck goes clockwise to the next hand on the table."""
    state: State = decision.state
    r = current(state)
    if not r.deck:
        _end_round(decision, RoundEnd.DECK_EMPTY)
        return
    active = active_seat(state)
    clockwise = [(active + step) % state.players for step in range(1, state.players)]
    decision.emit(DeckPassed(seat=active, to=next((s for s in clockwise if s in r.on_table), clockwise[0])))


def revealed(hands: tuple[int | None, ...]) -> list[int]:
    """7: the cards revealed at a round's end, when every hand (a seat's, a Dummy's) holds one."""
    held = [c for c in hands if c is not None]
    assert len(held) == len(hands), "every hand holds a card when a round ends"
    return held


def _end_round(decision: Decision[State], cause: RoundEnd, goo_holder: int | None = None) -> None:
    """7 (or 10-4): reveal, judge or resolve the Great Old One, then 8: the game ends or a new round starts."""
    r = current(decision.state)
    decision.emit(RoundEnded(round=r.number, cause=cause, cards=revealed(r.hands), dummy_cards=revealed(r.dummies)))
    if goo_holder is None:
        _judge(decision)
    else:
        _resolve_great_old_one(decision, goo_holder)
    if 0 in decision.state.sanity:
        _end_game(decision)
        return
    if decision.state.doom_track:
        decision.emit(DoomAdvanced(spot=decision.state.doom + 1))
    _start_round(decision)


def survivors(state: State) -> list[bool]:
    """7-1, 7-2 and the character cards (10-3): who survives the ritual, seats then Dummies."""
    held = held_cards(current(state))
    keys = {C.key(c) for c in held}
    types = Counter(C.artifact_type(c) for c in held if C.is_artifact(c))
    out = []
    for card in held:
        clash = C.is_artifact(card) and types[C.artifact_type(card)] > 1
        ok = (not C.is_sane(card) if C.CULTIST in keys else C.is_sane(card)) and not clash
        if C.MAD_PROFESSOR in keys and not C.is_artifact(card):
            ok = False
        out.append(ok and C.key(card) != C.WARY_STUDENT)
    return out


def normal_loss(state: State, failed: int) -> int:
    """7-3: the number of players who did not survive; 13: the Doom Track spot instead."""
    return state.doom if state.doom_track else failed


def _judge(decision: Decision[State]) -> None:
    """7-1 to 7-3 with Investigator and Wary Student (10-3)."""
    survived, failed, loss, changes = judgement(decision.state)
    decision.emit(RitualJudged(survived=survived, failed=failed, loss=loss))
    for seat, change, cause in changes:
        _change_sanity(decision, seat, change, cause)


def judgement(state: State) -> tuple[list[bool], int, int, list[tuple[int, int, str]]]:
    """The ritual judged (7-1 to 7-3, 10-3): who survived, how many failed, the loss, and each seat's Sanity change
    with its cause (one a seat at most, each from its own Sanity: they apply in any order)."""
    survived = survivors(state)
    failed = survived.count(False)
    loss = normal_loss(state, failed)
    changes = []
    for seat in range(state.players):
        key = C.key(held_card(current(state), seat))
        if not survived[seat]:
            wary = key == C.WARY_STUDENT
            changes.append((seat, -(1 if wary else loss), C.WARY_STUDENT if wary else FAILED_RITUAL))
        elif key == C.INVESTIGATOR:
            changes.append((seat, 1, C.INVESTIGATOR))
    return survived, failed, loss, changes


def _resolve_great_old_one(decision: Decision[State], holder: int) -> None:
    """10-4: skip the normal end of round; the Great Old One's effect replaces it (characters have no effect)."""
    state: State = decision.state
    r = current(state)
    card = (r.hands + r.dummies)[holder]
    assert card is not None
    holder_seat = holder if holder < state.players else None
    decision.emit(GreatOldOneAwakened(card=card, holder=holder_seat,
                                      dummy=None if holder_seat is not None else holder - state.players))
    goo = C.key(card)
    strike(state, holder_seat, goo, lambda seat, change: _change_sanity(decision, seat, change, goo),
           lambda: decision.state.sanity)


def strike(state: State, holder_seat: int | None, goo: str, change: Callable[[int, int], None],
           sanity_now: Callable[[], tuple[int, ...]]) -> None:
    """10-4: the Great Old One ``goo`` strikes, held by ``holder_seat`` (None: a Dummy): each Sanity change in turn
    through ``change(seat, change)``, as ``_change_sanity`` makes it (``sanity_now``: the Sanity after those so far)."""
    r = current(state)
    seats = range(state.players)
    sanity = state.sanity
    match goo:
        case C.CTHULHU:
            for seat in seats:
                if seat != holder_seat:
                    change(seat, -(participants(state) - 1))
        case C.NYARLATHOTEP:
            rivals = [s for s in seats if s != holder_seat]
            most = max(sanity[s] for s in rivals)
            tied = [s for s in rivals if sanity[s] == most]
            loss = normal_loss(state, len(tied))
            for seat in tied:
                change(seat, -loss)
            if holder_seat is not None:
                change(holder_seat, sum(sanity) - sum(sanity_now()))
        case C.YOG_SOTHOTH:
            lowest = [s for s in seats if sanity[s] == min(sanity)]
            for seat in seats:
                if len(lowest) > 1:
                    change(seat, 1 - sanity[seat] if seat == holder_seat else -1)
                elif seat not in (lowest[0], holder_seat):
                    change(seat, -sanity[seat])
        case C.HASTUR:
            held = held_cards(r)
            with_artifact = [i for i, c in enumerate(held) if C.is_artifact(c)]
            loss = normal_loss(state, len(with_artifact)) + sum(1 for c in held if not C.is_sane(c))
            for index in with_artifact:
                if index < state.players:
                    change(index, -loss)
        case _:
            raise AssertionError(f"{goo} is not a Great Old One")


def _end_game(decision: Decision[State]) -> None:
    """8: players with no Sanity lose, the others win; the competitive variant crowns the most Sanity."""
    state = decision.state
    decision.emit(GameEnded(reason=GameEnd.SANITY_LOST, winners=list(winners_among(state, frozenset(range(state.players))))))


# -- evolve -------------------------------------------------------------------------------------------------


def evolve(state: State | None, event: Event) -> State:
    fact = FACTS.parse(event)
    if isinstance(fact, GameStarted):
        return State(players=fact.players, dummy_count=fact.dummies, cards=tuple(fact.cards),
                     doom_track=fact.doom_track, competitive=fact.competitive,
                     sanity=(fact.sanity,) * fact.players, doom=1, round=None, phase=Resolving(),
                     last_result=None)
    assert state is not None
    match fact:
        case RoundStarted(round=number):
            fresh = Round(number=number, hands=(None,) * state.players, dummies=(None,) * state.dummy_count, deck=(),
                          discards=(), removed=(), active=None, on_table=frozenset(), known=frozenset(),
                          shown_colour=frozenset(), cleared=frozenset())
            return replace(state, round=fresh, phase=Resolving())
        case HandDealt(seat=seat, card=card):
            return _round(state, hands=replace_at(current(state).hands, seat, card))
        case DummyDealt(dummy=dummy, card=card):
            return _round(state, dummies=replace_at(current(state).dummies, dummy, card))
        case DeckFormed(cards=cards):
            return _round(state, deck=tuple(cards))
        case ActivePlayerChosen(seat=active) | DeckPassed(to=active):
            on_table = frozenset(others(state.players, active))
            return replace(_round(state, active=active, on_table=on_table), phase=Drawing())
        case CardDrawn(seat=seat, card=card):
            r = current(state)
            return replace(_round(state, deck=r.deck[1:], known=r.known | {(card, seat)}), phase=Passing(card=card))
        case CardPassed(seat=seat, to=to):
            phase = state.phase
            assert isinstance(phase, (Passing, Offered))
            passers = (*phase.passers, phase.holder) if isinstance(phase, Offered) else (seat,)
            new = _round(state, on_table=current(state).on_table - {to})
            return replace(new, phase=Offered(card=phase.card, holder=to, passers=passers))
        case CardTaken(seat=seat, card=card, discarded=gone):
            r = current(state)
            new = _round(state, hands=replace_at(r.hands, seat, card), discards=(*r.discards, gone),
                         known=frozenset(k for k in r.known if k[0] != gone), shown_colour=r.shown_colour - {gone},
                         cleared=r.cleared - {gone})
            return replace(new, phase=Resolving())
        case CardUnclaimed(card=gone):
            r = current(state)
            new = _round(state, discards=(*r.discards, gone), known=frozenset(k for k in r.known if k[0] != gone),
                         shown_colour=r.shown_colour - {gone})
            return replace(new, phase=Resolving())
        case GateFoundNoGreatOldOne():
            return _round(state, cleared=current(state).cleared | set(held_cards(current(state))))
        case TopCardSeen(seat=seat, card=card, by=by, sane=sane):
            r = current(state)
            shown = r.shown_colour if sane is None else r.shown_colour | {card}
            new = _round(state, known=r.known | {(card, seat)}, shown_colour=shown)
            return replace(new, phase=Peeking(seat=seat, card=card) if by == C.MAGICAL_ORB else Resolving())
        case TopCardReturned():
            return replace(state, phase=Resolving())
        case TopCardRemoved(card=card):
            r = current(state)
            return replace(_round(state, deck=r.deck[1:], removed=(*r.removed, card)), phase=Resolving())
        case SanityChanged(seat=seat, sanity=sanity):
            return replace(state, sanity=replace_at(state.sanity, seat, sanity))
        case RoundEnded(round=number, cause=cause, cards=cards, dummy_cards=dummy_cards):
            result = RoundResult(number=number, cause=RoundEnd(cause), cards=tuple(cards),
                                 dummy_cards=tuple(dummy_cards), survived=None, great_old_one=None)
            return replace(state, phase=Resolving(), last_result=result)
        case RitualJudged(survived=survived):
            assert state.last_result is not None
            return replace(state, last_result=replace(state.last_result, survived=tuple(survived)))
        case GreatOldOneAwakened(holder=holder, dummy=dummy):
            assert state.last_result is not None
            if holder is None:
                assert dummy is not None  # held by a seat, else by a Dummy player
                holder = state.players + dummy
            return replace(state, last_result=replace(state.last_result, great_old_one=holder))
        case DoomAdvanced(spot=spot):
            return replace(state, doom=spot)
        case GameEnded(reason=reason, winners=winners):
            return replace(state, phase=Finished(reason=GameEnd(reason), winners=tuple(winners)))
        case fact:
            raise TypeError(f"arkham-ritual: no fold for {fact!r}")


def _round(state: State, **changes: Any) -> State:
    return replace(state, round=replace(current(state), **changes))
