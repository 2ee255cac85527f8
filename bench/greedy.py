"""The outside baseline of the strength table: a greedy one-ply bot per game, written from the rulebooks.

It is not the search and shares nothing with it but the seat's knowledge: for each legal command it draws
``WORLDS`` worlds from what its seat knows (``SeatKnowledge.resample``, as the AI does; it never reads the real
state), plays the command in each, and scores the position reached by a simple evaluation of the game's own
goal as the rulebook states it (fewest Madness tokens, most Locations facing, highest score, most Elder Signs,
Sanity left). A command that ends the game won scores above any evaluation, one that ends it lost below.
Ties are broken at random. This is what issue 46 measured ``hard`` and ``easy`` against.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from shared.ai import SeatKnowledge
from shared.ai.step import step
from shared.kernel.commands import Command

WORLDS = 2
END = 1000.0  # a game won (or lost) outweighs any evaluation


def _others(state: Any, seat: int) -> list[int]:
    return [s for s in range(state.players) if s != seat]


def pocket_madness(state: Any, seat: int) -> float:
    """Pocket Madness: "the player with the fewest Madness tokens wins"; when the deck runs out each different
    Location card left in hand costs a Madness token, and emptying one's hand ends the round well, so fewer cards
    (fewer kinds above all) are better; a Portal in front of one is a power to come."""
    mad = state.madness
    others = _others(state, seat)
    hand = state.cards.hands[seat]
    kinds, cards = sum(1 for n in hand if n), sum(hand)
    portals = sum(1 for owner in state.cards.portals if owner == seat)
    return sum(mad[o] for o in others) / len(others) - mad[seat] - 0.5 * kinds - 0.1 * cards + 0.3 * portals


def rise_of_cthulhu(state: Any, seat: int) -> float:
    """Rise of Cthulhu: the most Locations facing you wins, ties (or Azathoth) by the points of cards in play."""
    from shared.games.rise_of_cthulhu.state import locations_facing, other, points

    rival = other(seat)
    return (3.0 * (locations_facing(state, seat) - locations_facing(state, rival))
            + 0.2 * (points(state, seat) - points(state, rival)))


def great_old_one(state: Any, seat: int) -> float:
    """The Great Old One: the highest score wins (matched pairs 2, linked 1, Horrors 1, the Cultist -1), ties by
    pairs; holding the Great Old One card when the game ends loses, so it is worth getting rid of."""
    from shared.games.great_old_one.cards import GREAT_OLD_ONE
    from shared.games.great_old_one.rules import score

    def mine(s: int) -> float:
        area = state.areas[s]
        return score(area) + 0.1 * len(area.pairs)

    best_other = max(mine(o) for o in _others(state, seat))
    return mine(seat) - best_other - (2.0 if GREAT_OLD_ONE in state.hands[seat] else 0.0)


def rites_of_cthulhu(state: Any, seat: int) -> float:
    """Rites of Cthulhu: the most Elder Sign points on captured Artifacts wins; within a rite, fewer cards in hand
    is closer to winning it."""
    from shared.games.rites_of_cthulhu.artifacts import points

    lead = points(state, seat) - max(points(state, o) for o in _others(state, seat))
    return lead - 0.05 * len(state.table.hands[seat])


def arkham_ritual(state: Any, seat: int) -> float:
    """Arkham Ritual: the first to run out of Sanity loses; keep more than the weakest other seat."""
    return state.sanity[seat] - min(state.sanity[o] for o in _others(state, seat))


EVALUATIONS: dict[str, Callable[[Any, int], float]] = {
    "pocket-madness": pocket_madness,
    "rise-of-cthulhu": rise_of_cthulhu,
    "great-old-one": great_old_one,
    "rites-of-cthulhu": rites_of_cthulhu,
    "arkham-ritual": arkham_ritual,
}


def choose(game_id: str, knowledge: SeatKnowledge, rng: random.Random) -> Command:
    """The legal command with the best mean evaluation over ``WORLDS`` worlds drawn from the seat's knowledge."""
    legal = list(knowledge.legal)
    if len(legal) == 1:
        return legal[0]
    evaluate = EVALUATIONS.get(game_id, lambda state, seat: 0.0)
    rules, seat = knowledge.game.decider, knowledge.seat
    worlds = [knowledge.resample(rng) for _ in range(WORLDS)]
    scored: list[tuple[float, float, int]] = []
    for i, command in enumerate(legal):
        total = 0.0
        for world in worlds:
            try:
                after = step(rules, world, command, seat, rng).state
            except Exception:  # noqa: BLE001 - illegal in this world (it depends on what the seat cannot see)
                total -= END
                continue
            final = rules.outcome(after)
            if final is not None:
                total += END if seat in final.winners else -END
            else:
                total += evaluate(after, seat)
        scored.append((total, rng.random(), i))
    return legal[max(scored)[2]]
