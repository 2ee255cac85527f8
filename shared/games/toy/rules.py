"""Toy's rules: setup, decide, evolve, the seats the game waits on, legal commands and the outcome.

1. Each seat is dealt one card from the twelve, shuffled. 2. In turn, a seat draws the top card (only it sees
which) or 3. plays a card from its hand face up for its value in points. 4. The game ends when someone
reaches 15 points or the seat to play can do neither; the most points win.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from shared.kernel import Command, Decided, Decision, Event, Outcome, replace, replace_at
from shared.kernel.errors import require

from shared.games.toy.cards import CARDS, TARGET
from shared.games.toy.commands import DrawCard, PlayCard
from shared.games.toy.events import FACTS, CardDealt, CardDrawn, CardPlayed, GameStarted
from shared.games.toy.state import ToyState


class Reason(StrEnum):
    TARGET_REACHED = "target_reached"
    STUCK = "stuck"


def setup(players: int, options: Mapping[str, Any], entropy: bytes) -> list[Event]:
    """Rule 1: shuffle the twelve cards and deal one to each seat (randomness, as in ``decide``, only from the
    decision's own ``rng``, seeded by the entropy it is given)."""
    decision: Decision[Any] = Decision(None, evolve, entropy)
    deck = list(CARDS)
    decision.rng.shuffle(deck)
    decision.emit(GameStarted(players=players, deck=deck[players:]), secret={"deck": []})
    for seat in range(players):
        decision.emit(CardDealt(seat=seat, card=deck[seat]), secret={"card": [seat]})
    return decision.events


def decide(state: ToyState, command: Command, seat: int, entropy: bytes) -> Decided[ToyState]:
    decision = Decision(state, evolve, entropy)
    match command:
        case DrawCard():
            require(bool(state.deck), "rules/deck_empty", "the deck is empty")
            decision.emit(CardDrawn(seat=seat, card=state.deck[0]), secret={"card": [seat]})
        case PlayCard(card=card):
            require(card in state.hands[seat], "rules/card_not_in_hand", "you do not hold that card")
            decision.emit(CardPlayed(seat=seat, card=card))
        case _:
            raise TypeError(f"toy: no rule for {command!r}")
    return decision.decided()


def evolve(state: ToyState | None, event: Event) -> ToyState:
    match FACTS.parse(event):
        case GameStarted(players=players, deck=deck):
            return ToyState(players, ((),) * players, tuple(deck), (0,) * players, 0)
        case CardDealt(seat=seat, card=card):
            assert state is not None
            return replace(state, hands=replace_at(state.hands, seat, state.hands[seat] + (card,)))
        case CardDrawn(seat=seat, card=card):
            assert state is not None
            hands = replace_at(state.hands, seat, state.hands[seat] + (card,))
            return replace(state, deck=state.deck[1:], hands=hands, turn=(seat + 1) % state.players)
        case CardPlayed(seat=seat, card=card):
            assert state is not None
            hand = list(state.hands[seat])
            hand.remove(card)
            return replace(state, hands=replace_at(state.hands, seat, tuple(hand)),
                           points=replace_at(state.points, seat, state.points[seat] + card), turn=(seat + 1) % state.players)
        case fact:
            raise TypeError(f"toy: no fold for {fact!r}")


def to_act(state: ToyState) -> frozenset[int]:
    return frozenset() if outcome(state) else frozenset({state.turn})


def legal_commands(state: ToyState, seat: int) -> list[Command]:
    if outcome(state) or seat != state.turn:
        return []
    plays: list[Command] = [PlayCard(card=c) for c in sorted(set(state.hands[seat]))]
    return ([DrawCard()] if state.deck else []) + plays


def outcome(state: ToyState) -> Outcome | None:
    """Rule 4."""
    stuck = not state.deck and not state.hands[state.turn]
    if max(state.points) < TARGET and not stuck:
        return None
    best = max(state.points)
    reason = Reason.STUCK if stuck and best < TARGET else Reason.TARGET_REACHED
    return Outcome(reason, winners_among(state, frozenset(range(state.players))), tuple(state.points))


def winners_among(state: ToyState, standing: frozenset[int]) -> tuple[int, ...]:
    """Rule 4 among ``standing``: the most points win; ties share."""
    best = max(state.points[s] for s in standing)
    return tuple(s for s in sorted(standing) if state.points[s] == best)
