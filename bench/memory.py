"""Memory: the resident memory of one session process holding 1,000 active games.

A session service of one gunicorn worker is started beside the stack (same Redis, same rules service). Games
are written mid-game into the store (``bench.synthetic``: seeded playouts of every registered game, each
stopped between 30% and 70% of the way), then each is read once through the API by one of its seats, which
loads it into the process's state cache (``STATE_CACHE_SIZE``, 2,000 by default). The worker's RSS is read
from /proc before (after a warm-up on a few other games) and after.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

from deploy.stacks.dev import Stack
from session_service.storage.store import EventStore
from shared.games import GAMES

from bench import synthetic
from bench.load import Connection
from bench.procs import lone_session, rss_bytes, stop, worker_pids
from bench.report import Report

SECTION = "memory"


def measure(report: Report, stack: Stack, store: EventStore, tmp: Path, games: int, playouts: int = 8, warmup: int = 10) -> None:
    rand = random.Random(3)
    plays = {game.id: [synthetic.playout(game, seed) for seed in range(playouts)] for game in GAMES.values()}
    written: list[tuple[str, int, str]] = []
    kinds = list(GAMES.values())
    for i in range(games + warmup):
        game = kinds[i % len(kinds)]
        events, boundaries = plays[game.id][i % len(plays[game.id])]
        cut = rand.choice([b for b in boundaries if 0.3 * len(events) <= b <= 0.7 * len(events)])
        game_id, tokens = synthetic.write_game(store, game, events[:cut])
        seat = rand.choice(sorted(tokens))
        written.append((game_id, seat, tokens[seat]))
    lone = lone_session(stack, tmp)
    try:
        workers = worker_pids(lone.processes["session"].pid)
        if len(workers) != 1:
            raise RuntimeError(f"expected one gunicorn worker, found {workers}")
        pid = workers[0]
        _read_all(lone.url, written[:warmup])
        before = rss_bytes(pid)
        _read_all(lone.url, written[warmup:])
        after = rss_bytes(pid)
    finally:
        stop(lone)
    per_game = (after - before) / games
    report.details[SECTION] = {"games": games, "rss_before_bytes": before, "rss_after_bytes": after,
                               "per_game_bytes": round(per_game), "mix": sorted(GAMES)}
    report.figure(SECTION, f"session worker RSS, {games:,} games held", after / 2**20, "MiB",
                  note=f"{before / 2**20:.1f} MiB after warm-up")
    report.figure(SECTION, "per game held", per_game / 1024, "KiB")


def _read_all(base: str, games: list[tuple[str, int, str]], threads: int = 8) -> None:
    """Read each game's state once as one of its seats, on a few connections at once."""
    failures: list[Any] = []

    def read(part: list[tuple[str, int, str]]) -> None:
        conn = Connection(base)
        try:
            for game_id, _, token in part:
                status, raw = conn.request("GET", f"/v1/games/{game_id}/state", headers={"Authorization": f"Bearer {token}"})
                if status != 200:
                    failures.append((game_id, status, raw[:200]))
        finally:
            conn.close()

    workers = [threading.Thread(target=read, args=(games[i::threads],)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    if failures:
        raise RuntimeError(f"{len(failures)} state reads failed, first: {failures[0]}")
