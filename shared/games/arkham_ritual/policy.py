"""Where the AI's playouts stop in Arkham Ritual (``Game.playout_value``), and how they judge the position there.

A game is rounds until someone has lost all their Sanity, and a move bears on the round it is made in (which
card goes to whom, who keeps what). A playout that went on to play the later rounds at random would add their
noise to what the move changed, at several times the cost. So a playout stops once a round has ended since the
world it began from, and judges each seat by its chance of being among the winners from the Sanity left.

That chance comes from a small model of the rounds to come (``win_chances``), not from playing them: each round,
every participant (seats and Dummy players) fails the ritual independently with probability ``FAIL``, and each
seat that fails loses the number that failed (section 7-3; with the Doom Track, the spot it has reached). The
game ends when a seat has no Sanity left, and its winners are the seats with some left (in the competitive
variant, those with the most). The model's chances are exact for it (a recursion over the Sanity left, the same
for every seat up to their order), cached, and cheap. They see what a ratio of Sanity does not: that a seat
at 2 against two at 7 is all but lost, and that a table where everyone is low risks all losing together.

Against random play at three players (300 games, seeds 0-299), a round left no seat hurt 12% of the time and a
third of rounds cost two seats the same amount: ``FAIL`` = 1/2 fits both. It ignores the Great Old One and the
Investigator, which move a round's losses by a Sanity or so.

It reads only the Sanity markers and the Doom Track, which are public.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from math import comb

from shared.games.arkham_ritual.state import ArkhamRitualState, Drawing

FAIL = 0.5  # a participant's chance of failing a round's ritual, in the model of the rounds to come
DOOM_CAP = 8  # the Doom Track's spot beyond which the model stops advancing it (7 consumes anyone)


def playout_value(start: ArkhamRitualState, state: ArkhamRitualState) -> list[float] | None:
    """Each seat's reward once a round has ended since ``start`` (the next one dealt), else ``None``: its
    chance of winning from the Sanity left (``win_chances``)."""
    if not isinstance(state.phase, Drawing) or state.round is None or start.round is None:
        return None
    if state.round.number <= start.round.number:
        return None
    return win_chances(state.sanity, state.dummy_count, state.doom if state.doom_track else 0, state.competitive)


def win_chances(sanity: tuple[int, ...], dummies: int, doom: int = 0, competitive: bool = False) -> list[float]:
    """Each seat's chance of being among the winners in the model of the rounds to come (see the module).
    ``doom`` is the Doom Track's spot (0 without the Track)."""
    order = sorted(range(len(sanity)), key=lambda s: -sanity[s])
    chances = _chances(tuple(sanity[s] for s in order), dummies, min(doom, DOOM_CAP), competitive)
    out = [0.0] * len(sanity)
    for place, seat in enumerate(order):
        out[seat] = chances[place]
    return out


@lru_cache(maxsize=None)
def _chances(sanity: tuple[int, ...], dummies: int, doom: int, competitive: bool) -> tuple[float, ...]:
    """``win_chances`` for Sanity sorted from most to least (so that equal tables share one entry).

    Seats with the same Sanity are alike, so a round's outcomes are counted per group of them: how many of each
    group fail (and how many Dummy players), not which."""
    groups = [(value, sanity.count(value)) for value in dict.fromkeys(sanity)]
    chance = dict.fromkeys(sanity, 0.0)  # a seat's chance by its Sanity now
    stay = 0.0  # the chance of a round that changes nothing (no one fails, no Doom to advance)
    next_doom = min(doom + 1, DOOM_CAP) if doom else 0
    for fails in product(*(range(count + 1) for _, count in groups)):
        p_seats = 1.0
        for (_, count), k in zip(groups, fails):
            p_seats *= comb(count, k) * FAIL ** k * (1 - FAIL) ** (count - k)
        for d in range(dummies + 1):
            p = p_seats * comb(dummies, d) * FAIL ** d * (1 - FAIL) ** (dummies - d)
            loss = doom or sum(fails) + d
            after = sorted((v for (value, count), k in zip(groups, fails)
                            for v in [max(0, value - loss)] * k + [value] * (count - k)), reverse=True)
            if next_doom == doom and tuple(after) == sanity:
                stay += p
                continue
            if after[-1] == 0:
                later = {v: float(v > 0 and (not competitive or v == after[0])) for v in after}
            else:
                later = dict(zip(after, _chances(tuple(after), dummies, next_doom, competitive)))
            for (value, count), k in zip(groups, fails):
                hurt = k * later[max(0, value - loss)] if k else 0.0
                chance[value] += p * (hurt + (count - k) * later.get(value, 0.0)) / count
    return tuple(chance[value] / (1 - stay) for value in sanity)
