"""Pocket Madness's moves for the AI's playouts (``AiHooks.simulate``): ``decide``'s state, built directly.

A playout plays a command the game itself just listed, in a world the search drew, and reads only the state it
leaves. ``decide`` checks the command, emits two or three facts (a draw, the end of the turn, the next turn) and
``evolve`` rebuilds the records of the state once for each; here the commands that make most of a playout (a draw,
a set, a seal, the end of a turn: 88% of them), a portal power's choice and a round's end build each record once,
from the same helpers ``evolve`` uses (``started``, ``round_ended``); a run and a round's deal fold their one fact
with ``evolve`` itself.
``tests/unit/test_ai_simulate.py`` checks that the state is exactly ``decide``'s, for every legal command of
positions of random games and of worlds drawn from them.
"""

from __future__ import annotations

from shared.kernel import Command, replace, replace_at, rng

from shared.games.pocket_madness.cards import (
    AZATHOTH, CTHULHU, DAGON, GUG, LOCATIONS, MAX_GIFTS, NYARLATHOTEP, SHOGGOTH, SHUB_NIGGURATH,
)
from shared.games.pocket_madness.commands import (
    ChooseFirstPlayer, DealNextRound, DrawCards, EndTurn, GiveCard, LookAtHand, MeldRun, MeldSet, SealPortal,
    StopGiving, TakeCard, TakeDeckCard,
)
from shared.games.pocket_madness.events import RunMelded
from shared.games.pocket_madness.position import action_closed, sealable
from shared.games.pocket_madness.rules import dealt, decide, evolve, round_ended, round_gains, started
from shared.games.pocket_madness.state import (
    Action, Designating, Meld, Playing, PocketMadnessState, Power, RoundCards, RoundEnd, RoundOver, Turn, hand_add,
    hand_cards, looked_at, moved_secretly, seen_by_all, slot,
)

State = PocketMadnessState
_FIRST = LOCATIONS[0]


def simulate(state: State, command: Command, seat: int, entropy: bytes) -> State:
    """The state ``decide(state, command, seat, entropy)`` leaves, for a legal ``command``."""
    phase = state.phase
    if isinstance(phase, Playing):
        if phase.pending is None:
            after = _turn_move(state, phase, command, seat, entropy)
        else:
            after = _power_move(state, phase, phase.pending, command, seat)
        if after is not None:
            return after
    elif isinstance(phase, RoundOver) and isinstance(command, DealNextRound):
        return evolve(state, dealt(rng(entropy), state.players, state.round + 1, seat))  # type: ignore[arg-type]  # a fact as it is
    elif isinstance(phase, Designating) and isinstance(command, ChooseFirstPlayer):
        return replace(state, start=command.seat, phase=Playing(Turn(command.seat)))
    return decide(state, command, seat, entropy).state


def _turn_move(state: State, playing: Playing, command: Command, seat: int, entropy: bytes) -> State | None:
    cards, turn = state.cards, playing.turn
    match command:
        case DrawCards(count=count):
            hand = list(cards.hands[seat])
            deck = cards.deck
            revealed = [0] * len(LOCATIONS)
            for loc, up in deck[:count]:
                hand[loc - _FIRST] += 1
                if up:
                    revealed[loc - _FIRST] += 1
            cards = replace(cards, hands=replace_at(cards.hands, seat, tuple(hand)), deck=deck[count:])
            if any(revealed):
                cards = seen_by_all(cards, seat, lambda known: tuple(k + r for k, r in zip(known, revealed)))
            last_turns = playing.last_turns
            if not cards.deck and last_turns is None:
                last_turns = tuple((seat + k) % state.players for k in range(1, state.players + 1))
            turn = replace(turn, action=Action.DREW)
            return _maybe_end_turn(replace(state, cards=cards, phase=replace(playing, turn=turn, last_turns=last_turns)))
        case MeldSet(location=loc, count=count):
            i = slot(loc)
            hands = cards.hands
            held = hands[seat]
            cards = replace(cards, hands=replace_at(hands, seat, replace_at(held, i, held[i] - count)),
                            melds=replace_at(cards.melds, seat, cards.melds[seat] + (Meld(loc, count),)))
            cards = seen_by_all(cards, seat, lambda known: replace_at(known, i, max(0, known[i] - count)))
            changes: dict[str, object] = {"action": Action.SETS, "melds": turn.melds + 1}
            if cards.portals[i] != seat:
                cards = replace(cards, portals=replace_at(cards.portals, i, seat))
                changes["claimed"] = turn.claimed | {loc}
            turn = replace(turn, **changes)
            return _after_cards_played(replace(state, cards=cards, phase=replace(playing, turn=turn)), seat)
        case MeldRun():
            number = playing.runs + 1
            ran = evolve(state, RunMelded(seat=seat, number=number, madness=number))  # type: ignore[arg-type]  # a fact as it is
            return _after_cards_played(ran, seat)
        case SealPortal(portal=portal):
            return _seal(state, playing, cards, portal, seat, entropy)
        case EndTurn():
            return _end_turn(state)
    return None


def _power_move(state: State, playing: Playing, power: Power, command: Command, seat: int) -> State | None:
    """A portal power's choice (``rules._decide_power``); ``None`` where it empties the hand (the round ends)."""
    cards = state.cards
    match command:
        case GiveCard(seat=to, location=loc):
            given = power.given + 1
            if sum(cards.hands[seat]) == 1:  # her last card: the round ends
                after = replace(state, cards=moved_secretly(cards, seat, to, loc),
                                phase=replace(playing, pending=replace(power, given=given)))
                return _round_ended(after, RoundEnd.HAND_EMPTIED, seat)
            pending = replace(power, given=given) if given < MAX_GIFTS else None
            return _resolved(state, playing, moved_secretly(cards, seat, to, loc), pending)
        case StopGiving():
            return _resolved(state, playing, cards, None)
        case LookAtHand(seat=target):
            return replace(state, cards=looked_at(cards, seat, target), phase=replace(playing, pending=replace(power, target=target)))
        case TakeCard(location=loc):
            assert power.target is not None
            return _resolved(state, playing, moved_secretly(cards, power.target, seat, loc), None)
        case TakeDeckCard(position=pos):
            loc, up = cards.deck[pos]
            cards = replace(cards, hands=replace_at(cards.hands, seat, hand_add(cards.hands[seat], loc)),
                            deck=cards.deck[:pos] + cards.deck[pos + 1 :])
            if up:
                cards = seen_by_all(cards, seat, lambda known: hand_add(known, loc))
            last_turns = playing.last_turns
            if not cards.deck and last_turns is None:
                last_turns = tuple((seat + k) % state.players for k in range(1, state.players + 1))
            return _maybe_end_turn(replace(state, cards=cards, phase=replace(playing, pending=None, last_turns=last_turns)))
    return None


def _resolved(state: State, playing: Playing, cards: RoundCards, pending: Power | None) -> State:
    after = replace(state, cards=cards, phase=replace(playing, pending=pending))
    return after if pending is not None else _maybe_end_turn(after)


def _seal(state: State, playing: Playing, cards: RoundCards, portal: int, seat: int, entropy: bytes) -> State:
    turn = playing.turn
    cards = replace(cards, portals=replace_at(cards.portals, slot(portal), None))
    changes: dict[str, object] = {"sealed": True, "closed": turn.action in (Action.SETS, Action.RUNS)}
    pending, shoggoth = None, playing.shoggoth
    if portal in (CTHULHU, SHUB_NIGGURATH, NYARLATHOTEP):
        pending = Power(portal)
    elif portal == DAGON:
        changes["dagon"] = True
    elif portal == SHOGGOTH:
        shoggoth = seat
    elif portal == GUG:
        changes["action"] = Action.PASSED
    elif portal == AZATHOTH:
        draw = rng(entropy)
        for victim in range(state.players):
            if victim == seat:
                continue
            held = hand_cards(cards.hands[victim])
            if held:
                cards = _discarded(cards, victim, draw.choice(held))
    turn = replace(turn, **changes)
    after = replace(state, cards=cards, phase=replace(playing, turn=turn, pending=pending, shoggoth=shoggoth))
    return after if pending is not None else _maybe_end_turn(after)


def _discarded(cards: RoundCards, seat: int, card: int) -> RoundCards:
    """Azathoth: ``card`` leaves ``seat``'s hand face up (``evolve``'s ``CardDiscarded``)."""
    i = slot(card)
    hand = cards.hands[seat]
    cards = replace(cards, hands=replace_at(cards.hands, seat, replace_at(hand, i, hand[i] - 1)),
                    discards=replace_at(cards.discards, seat, cards.discards[seat] + (card,)))
    return seen_by_all(cards, seat, lambda known: replace_at(known, i, max(0, known[i] - 1)))


def _after_cards_played(state: State, seat: int) -> State:
    """``rules._after_cards_played``: a player who has played all her cards ends the round at once."""
    if not sum(state.cards.hands[seat]):
        return _round_ended(state, RoundEnd.HAND_EMPTIED, seat)
    return _maybe_end_turn(state)


def _round_ended(state: State, reason: RoundEnd, ender: int | None) -> State:
    return round_ended(state, reason, ender, round_gains(state, reason, ender))


def _maybe_end_turn(state: State) -> State:
    """``rules._maybe_end_turn``: the turn ends by itself once nothing is left to do."""
    turn = state.phase.turn  # type: ignore[union-attr]  # a turn move leaves the round being played
    if action_closed(turn) and not sealable(state, turn.seat):
        return _end_turn(state)
    return state


def _end_turn(state: State) -> State:
    """``rules._end_turn``: the next turn (``evolve``'s ``TurnStarted``); the round's end goes to ``decide``."""
    playing: Playing = state.phase  # type: ignore[assignment]
    seat = playing.turn.seat
    if playing.turn.dagon:
        return started(state, seat, True)
    if playing.last_turns is None:
        return started(state, (seat + 1) % state.players, False)
    if playing.last_turns:
        return started(state, playing.last_turns[0], False)
    return _round_ended(state, RoundEnd.DECK_EXHAUSTED, None)  # the last turn is over: the round is scored
