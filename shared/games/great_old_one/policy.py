"""Where the AI's playouts stop in The Great Old One (``AiHooks.playout_value``), and how they judge the position there.

A random two-player game is ~80 commands over ~15 turns, and the search spends nearly all its time playing the
turns after a move out at random to the end. Those turns mostly add noise: the move's effect is what it changes
in the next few turns. So a two-player playout stops once ``HORIZON`` turns have begun since the world it began
from, and judges each seat there by its chance of winning as random play goes on from such a position: a
logistic model (``COEFFICIENTS``) of the public tally and of who holds the Great Old One, fitted to random games
by ``python -m bench.ai_value_fit`` (the numbers below are its output for seeds 0-1999: even seeds fitted, odd
ones held out).

The features (``features``) are a seat's lead in points and in pairs over its best rival, how far the game has
run (the deck drawn, the most pairs down, of seven), who holds the Great Old One (which loses at the end unless
its holder's Cultist is in play), and the pairs each hand could lay now. They read the world the search drew:
the hands there are the resampled ones, never the real state's.

Above two players the position is not judged (a model for them would need their own games): playouts run to the
end of the game, as before.
"""

from __future__ import annotations

import math
from shared.games.great_old_one.cards import (
    CENTRE_SIZE, DECK_SIZE, GREAT_OLD_ONE, HAND_SIZE, PAIRS_TO_END, pair_count,
)
from shared.games.great_old_one.rules import score
from shared.games.great_old_one.state import GreatOldOneState, Step, Turn, last_turn

HORIZON = 4  # turns begun after the drawn world's before a playout is judged
JUDGED_PLAYERS = 2  # the table size the model was fitted to

FEATURES = (
    "bias", "lead", "lead_x_progress", "pair_lead", "ready_lead", "hand_lead",
    "holds_goo", "holds_goo_x_progress", "holds_goo_with_cultist",
    "rival_goo", "rival_goo_x_progress", "rival_goo_with_cultist",
)
COEFFICIENTS = {  # python -m bench.ai_value_fit --games 2000: held-out log loss 0.603 (lead alone 0.678, a coin 0.693)
    "bias": 0.0000,
    "lead": -0.0131,
    "lead_x_progress": 0.2982,
    "pair_lead": 0.1139,
    "ready_lead": 0.0476,
    "hand_lead": 0.0989,
    "holds_goo": 0.5864,
    "holds_goo_x_progress": -2.8940,
    "holds_goo_with_cultist": 5.2756,
    "rival_goo": -0.5864,
    "rival_goo_x_progress": 2.8940,
    "rival_goo_with_cultist": -5.2756,
}


_WEIGHTS = tuple(COEFFICIENTS[name] for name in FEATURES)


class _Tally:
    """What every seat's features read of a position, worked out once for all of them: each seat's score, pairs down,
    pairs it could lay now (overlapping: a count of chances, not a plan) and hand size, how far the game has run, who
    holds the Great Old One and whether that seat's Cultist is down."""

    __slots__ = ("players", "scores", "pairs", "ready", "sizes", "progress", "holder", "cult")

    def __init__(self, state: GreatOldOneState):
        players, areas, hands = state.players, state.areas, state.hands
        self.players = players
        self.scores = [score(area) for area in areas]
        self.pairs = pairs = [len(a.pairs) for a in areas]
        self.ready = [pair_count(h) for h in hands]
        self.sizes = [len(h) for h in hands]
        dealt = DECK_SIZE - CENTRE_SIZE - HAND_SIZE * players
        self.progress = max(1.0 - len(state.deck) / dealt, max(pairs) / PAIRS_TO_END)
        self.holder = holder = next((s for s in range(players) if GREAT_OLD_ONE in hands[s]), None)
        self.cult = holder is not None and areas[holder].cultist

    def features(self, seat: int) -> list[float]:
        scores, pairs, ready, sizes, progress, holder, cult = (self.scores, self.pairs, self.ready, self.sizes,
                                                               self.progress, self.holder, self.cult)
        rival = max((s for s in range(self.players) if s != seat), key=lambda s: (scores[s], pairs[s]))
        mine = holder == seat
        theirs = holder is not None and not mine
        lead = scores[seat] - scores[rival]
        return [
            1.0, lead, lead * progress, pairs[seat] - pairs[rival], ready[seat] - ready[rival], sizes[seat] - sizes[rival],
            float(mine and not cult), float(mine and not cult) * progress, float(mine and cult),
            float(theirs and not cult), float(theirs and not cult) * progress, float(theirs and cult),
        ]


def features(state: GreatOldOneState, seat: int) -> list[float]:
    """``seat``'s features (in ``FEATURES`` order) against its best rival (the highest score, then most pairs)."""
    return _Tally(state).features(seat)


def _chance(features: list[float]) -> float:
    z = sum(w * x for w, x in zip(_WEIGHTS, features))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def win_chance(state: GreatOldOneState, seat: int) -> float:
    return _chance(features(state, seat))


def playout_value(start: GreatOldOneState, state: GreatOldOneState) -> list[float] | None:
    """Each seat's reward once ``HORIZON`` turns have begun since ``start`` at two players, else ``None``."""
    turn = state.phase
    if state.players != JUDGED_PLAYERS or not isinstance(turn, Turn) or turn.step is not Step.DRAW:
        return None
    began = last_turn(start)
    if turn.number < (began.number if began is not None else 0) + HORIZON:
        return None
    tally = _Tally(state)
    mine, theirs = _chance(tally.features(0)), _chance(tally.features(1))
    total = mine + theirs
    return [mine / total, theirs / total] if total > 0 else [0.5, 0.5]
