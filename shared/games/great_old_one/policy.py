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
from itertools import combinations

from shared.games.great_old_one.cards import (
    CENTRE_SIZE, DECK_SIZE, GREAT_OLD_ONE, HAND_SIZE, PAIRS_TO_END, STORY_CARDS, pair_connections,
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


def _ready(hand: tuple[int, ...]) -> int:
    """Pairs the hand could lay now (overlapping: a count of chances, not a plan)."""
    stories = [c for c in hand if c in STORY_CARDS]
    return sum(1 for a, b in combinations(stories, 2) if pair_connections(a, b) is not None)


def features(state: GreatOldOneState, seat: int) -> list[float]:
    """``seat``'s features (in ``FEATURES`` order) against its best rival (the highest score, then most pairs)."""
    players = state.players
    scores = [score(area) for area in state.areas]
    pairs = [len(a.pairs) for a in state.areas]
    ready = [_ready(h) for h in state.hands]
    rival = max((s for s in range(players) if s != seat), key=lambda s: (scores[s], pairs[s]))
    dealt = DECK_SIZE - CENTRE_SIZE - HAND_SIZE * players
    progress = max(1.0 - len(state.deck) / dealt, max(pairs) / PAIRS_TO_END)
    holder = next((s for s in range(players) if GREAT_OLD_ONE in state.hands[s]), None)
    mine = holder == seat
    theirs = holder is not None and not mine
    cult = holder is not None and state.areas[holder].cultist
    lead = scores[seat] - scores[rival]
    return [
        1.0, lead, lead * progress, pairs[seat] - pairs[rival], ready[seat] - ready[rival],
        len(state.hands[seat]) - len(state.hands[rival]),
        float(mine and not cult), float(mine and not cult) * progress, float(mine and cult),
        float(theirs and not cult), float(theirs and not cult) * progress, float(theirs and cult),
    ]


def win_chance(state: GreatOldOneState, seat: int) -> float:
    z = sum(COEFFICIENTS[name] * x for name, x in zip(FEATURES, features(state, seat)))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def playout_value(start: GreatOldOneState, state: GreatOldOneState) -> list[float] | None:
    """Each seat's reward once ``HORIZON`` turns have begun since ``start`` at two players, else ``None``."""
    turn = state.phase
    if state.players != JUDGED_PLAYERS or not isinstance(turn, Turn) or turn.step is not Step.DRAW:
        return None
    began = last_turn(start)
    if turn.number < (began.number if began is not None else 0) + HORIZON:
        return None
    mine, theirs = win_chance(state, 0), win_chance(state, 1)
    total = mine + theirs
    return [mine / total, theirs / total] if total > 0 else [0.5, 0.5]
