"""A tiny hidden-information game for testing the services and the generic suites without a real game.

Twelve cards valued 1–12 are shuffled; each seat is dealt one card. In turn, a seat draws the top card
(only it sees which) or plays a card from its hand face up for its value in points. The game ends when
someone reaches 15 points or no one can move; the most points win.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from marshmallow import Schema, fields

from shared.kernel import EVERYONE, Game, Option, Outcome, RuleViolation, ev, rng, sees
from shared.kernel.errors import require

TARGET = 15


@dataclass(frozen=True, slots=True)
class ToyState:
    players: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    points: tuple[int, ...]
    turn: int


def setup(players, options, entropy):
    deck = list(range(1, 13))
    rng(entropy).shuffle(deck)
    deals = [ev("card_dealt", seat=s, card=deck[s], secret={"card": [s]}) for s in range(players)]
    return [ev("game_started", players=players, deck=deck[players:], secret={"deck": []}), *deals]


def evolve(state, event):
    d = event.data
    match event.type:
        case "game_started":
            return ToyState(d["players"], ((),) * d["players"], tuple(d["deck"]), (0,) * d["players"], 0)
        case "card_dealt":
            return replace(state, hands=_with(state.hands, d["seat"], state.hands[d["seat"]] + (d["card"],)))
        case "card_drawn":
            seat = d["seat"]
            return replace(state, deck=state.deck[1:], hands=_with(state.hands, seat, state.hands[seat] + (d["card"],)), turn=(seat + 1) % state.players)
        case "card_played":
            seat = d["seat"]
            hand = list(state.hands[seat])
            hand.remove(d["card"])
            points = _with(state.points, seat, state.points[seat] + d["card"])
            return replace(state, hands=_with(state.hands, seat, tuple(hand)), points=points, turn=(seat + 1) % state.players)
        case _:
            raise TypeError(f"toy: unknown event {event.type}")


def _with(items, index, value):
    return items[:index] + (value,) + items[index + 1 :]


def decide(state, command, seat, entropy):
    require(seat == state.turn, "rules/not_your_turn", "it is not your turn")
    if command["type"] == "draw_card":
        require(bool(state.deck), "rules/deck_empty", "the deck is empty")
        return [ev("card_drawn", seat=seat, card=state.deck[0], secret={"card": [seat]})]
    card = command["card"]
    require(card in state.hands[seat], "rules/card_not_in_hand", "you do not hold that card")
    return [ev("card_played", seat=seat, card=card)]


def legal_commands(state, seat):
    if outcome(state) or seat != state.turn:
        return []
    plays = [{"type": "play_card", "card": c} for c in sorted(set(state.hands[seat]))]
    return ([{"type": "draw_card"}] if state.deck else []) + plays


def to_act(state):
    return frozenset() if outcome(state) else frozenset({state.turn})


def view(state, viewer):
    return {
        "turn": state.turn,
        "points": list(state.points),
        "deck_size": len(state.deck),
        "hands": [list(h) if sees(viewer, [s]) else len(h) for s, h in enumerate(state.hands)],
        **({"deck": list(state.deck)} if viewer is EVERYONE else {}),
    }


def outcome(state):
    stuck = not state.deck and not state.hands[state.turn]
    if max(state.points) < TARGET and not stuck:
        return None
    best = max(state.points)
    return Outcome("points", tuple(s for s, p in enumerate(state.points) if p == best), tuple(state.points))


def resample(state, seat, rand: random.Random):
    pool = list(state.deck) + [c for s, h in enumerate(state.hands) if s != seat for c in h]
    rand.shuffle(pool)
    hands, i = [], 0
    for s, h in enumerate(state.hands):
        if s == seat:
            hands.append(h)
        else:
            hands.append(tuple(pool[i : i + len(h)]))
            i += len(h)
    return replace(state, hands=tuple(hands), deck=tuple(pool[i:]))


def invariant(state):
    cards = list(state.deck) + [c for h in state.hands for c in h]
    assert len(cards) + sum(state.points) >= len(cards)
    assert len(set(cards)) == len(cards)


class PlayCard(Schema):
    card = fields.Integer(required=True, strict=True)


GAME = Game(
    id="toy",
    title="Toy",
    min_players=2,
    max_players=4,
    rules_version="toy/1",
    setup=setup,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_act=to_act,
    view=view,
    outcome=outcome,
    resample=resample,
    invariant=invariant,
    commands={"draw_card": Schema, "play_card": PlayCard},
    state_types=(ToyState,),
    options={"target": Option("int", 15, "unused; exercises option checks", minimum=1, maximum=99)},
    card_data={"cards": [{"value": v, "source": "project"} for v in range(1, 13)]},
)

__all__ = ["GAME", "RuleViolation"]
