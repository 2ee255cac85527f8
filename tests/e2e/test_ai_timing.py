"""An AI seat's think time tells nobody about its hand (issue 33, item 2), measured as any spectator measures it;
a seat's turn is paced as one, however many commands it holds (issue 46).

The review read, from public ``at`` timestamps alone, that a gap under 50 ms meant the AI had exactly one legal
move (119 of 119 forced moves, 189 of 190 free ones, Rites of Cthulhu, ``medium``). Here all-AI Rites of Cthulhu
tables with fixed seeds play to the end on the real stack (worker, publisher thread and all); from each finished
game's export, each AI turn's gap (the ``at`` of its first event less that of the event before; a turn is the seat's
consecutive commands) is sorted by whether its seat had one legal command at each of them or more somewhere, and the two samples are compared with the two-sample
Kolmogorov–Smirnov test: they must not be told apart (p above 0.01), and no turn may come before its level's least
delay. ``make test`` runs one game of ``easy`` seats at a tenth of the time scale (``AI_TIME_SCALE``); ``make
soak`` runs ``medium`` at full scale (``MYTHOS_AI_TIMING_*``), and its figures are in docs/reliability.md.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from deploy.stacks.dev import Stack
from shared.ai import LEVELS
from tests.support.real_stack import running_stack
from tests.support.client import ApiClient
from tests.support.timing import ai_turn_gaps, ks_two_sample
from tests.trust.helpers import record_figures

pytestmark = pytest.mark.e2e

SCALE = os.environ.get("MYTHOS_AI_TIMING_SCALE", "0.1")
LEVEL = os.environ.get("MYTHOS_AI_TIMING_LEVEL", "easy")
GAMES = int(os.environ.get("MYTHOS_AI_TIMING_GAMES", "1"))
GAME = os.environ.get("MYTHOS_AI_TIMING_GAME", "rites-of-cthulhu")
SEEDS = ["a1" * 32, "b2" * 32, "c3" * 32, "d4" * 32]


@pytest.fixture(scope="module")
def timed_stack() -> Iterator[Stack]:
    with running_stack("timing", {"AI_TIME_SCALE": SCALE, "MYTHOS_ALLOW_CLIENT_SEED": "1",
                                  "RATE_LIMIT_PER_MINUTE": "100000"}) as live:
        yield live


def play(api: ApiClient, seed: str) -> dict:
    created = api.create(GAME, [{"name": "Ada", "ai": LEVEL}, {"name": "Bo", "ai": LEVEL}], seed=seed)
    api.wait_finished(created["id"], timeout_s=120 + 3 * 400 * LEVELS[LEVEL].publish_after[1] * float(SCALE))
    return api.get(f"/v1/games/{created['id']}/export").json()


def test_forced_and_free_ai_moves_take_the_same_time_as_a_spectator_sees_it(timed_stack):
    api = ApiClient(timed_stack.url)
    with ThreadPoolExecutor(GAMES) as pool:
        exports = list(pool.map(lambda seed: play(api, seed), SEEDS[:GAMES]))
    forced, free = [], []
    for export in exports:
        f, o = ai_turn_gaps(export)
        forced, free = forced + f, free + o
    for seed in SEEDS[GAMES:]:  # a short game gives few forced moves: the next seeded games, until the test has enough
        if len(forced) >= 40 * GAMES and len(free) >= 100 * GAMES:
            break
        f, o = ai_turn_gaps(play(api, seed))
        forced, free = forced + f, free + o
    assert len(forced) >= 40 * GAMES and len(free) >= 100 * GAMES, (len(forced), len(free))
    low = LEVELS[LEVEL].publish_after[0] * float(SCALE)
    assert min(forced + free) >= low - 0.001  # no turn is published before its level's least delay
    d, p = ks_two_sample(forced, free)

    def median(xs: list[float]) -> float:
        return sorted(xs)[len(xs) // 2]

    record_figures("ai-timing", game=GAME, level=LEVEL, turn_mean_ms=round(1000 * sum(forced + free) / len(forced + free)), scale=float(SCALE), games=GAMES, forced=len(forced), free=len(free),
                   forced_median_ms=round(1000 * median(forced)), free_median_ms=round(1000 * median(free)),
                   forced_p10_ms=round(1000 * sorted(forced)[len(forced) // 10]),
                   free_p10_ms=round(1000 * sorted(free)[len(free) // 10]), ks_d=round(d, 3), ks_p=round(p, 3))
    assert p > 0.01, f"forced and free moves told apart: D={d:.3f}, p={p:.4f}"
