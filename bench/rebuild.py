"""Rebuild: loading a game's state from its log, as a session process does on a cache miss.

``Tables.position`` with a state cache of size 0 reads the meta, the latest snapshot if any, the log after
it (XRANGE), and folds ``evolve`` over that tail: the cold path of every command and read. Logs of 10, 1,000
and 100,000 events are written by ``bench.synthetic`` (seeded playouts of the game joined end to end), once
with the service's snapshot every 50 events and once without any. The baseline of each load is the 10-event
load of the same game, measured in the same run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from statistics import median
from typing import Any

import orjson

from session_service.storage.index import GameIndex
from session_service.storage.store import EventStore
from session_service.use_cases.ports import Scheduler
from session_service.use_cases.tables import Tables
from shared.games import GAMES
from shared.kernel import Event, fold

from bench import synthetic
from bench.report import Report

SECTION = "rebuild"
SNAPSHOT_EVERY = 50


def timed(call: Callable[[], Any], budget_s: float, min_reps: int = 3, max_reps: int = 500) -> float:
    """Median seconds of ``call``: at least ``min_reps`` runs (one, if a single run eats the budget)."""
    times: list[float] = []
    spent = 0.0
    while len(times) < max_reps and (len(times) < min_reps or spent < budget_s):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
        spent += times[-1]
    return median(times)


def measure(report: Report, store: EventStore, lengths: list[int], budget_s: float, seeds: int = 8) -> None:
    details: dict[str, Any] = report.details.setdefault(SECTION, {})
    longest = max(lengths)
    for registered in GAMES.values():
        game = registered
        per: dict[str, Any] = details.setdefault(registered.id, {})
        try:
            events = synthetic.long_log(game, longest + SNAPSHOT_EVERY - 1, seeds)
        except ValueError as exc:
            from tests.support.toy import GAME as game  # a game whose setup never reads what came before

            per["stand_in"] = f"the toy game's log: {exc}"
            events = synthetic.long_log(game, longest + SNAPSHOT_EVERY - 1, seeds)
        cold = Tables(store=store, rules=None, games={game.id: game}, scheduler=Scheduler(), snapshot_every=SNAPSHOT_EVERY,
                      cache_size=0)
        label = registered.id if game is registered else f"{registered.id} (toy stand-in)"
        # evolve alone, in memory: events already parsed, no Redis, no JSON
        sample = events[: min(len(events), 20_000)]
        seconds = timed(lambda: fold(game, sample), budget_s)
        per["evolve_events_per_s"] = len(sample) / seconds
        report.figure(SECTION, f"{label}: evolve", len(sample) / seconds, "events/s", note="in memory, one game")
        # the JSON round trip of a stored record, for scale
        raw = [orjson.dumps(e.to_json()) for e in sample[:2000]]
        seconds = timed(lambda: [Event.from_json(orjson.loads(r)) for r in raw], budget_s)
        per["decode_records_per_s"] = len(raw) / seconds
        loads: dict[str, float] = {}
        for length in [*lengths, longest + SNAPSHOT_EVERY - 1]:
            for snapshots in (True, False):
                if length > longest and not snapshots:
                    continue
                game_id, _ = synthetic.write_game(store, game, events[:length], snapshot_every=SNAPSHOT_EVERY if snapshots else None)
                seconds = timed(lambda: cold.position(game_id), budget_s, min_reps=3 if length <= 1000 else 1)
                loads[f"{length}/{'snap' if snapshots else 'log'}"] = seconds
                _delete(store, game_id)
        per["load_ms"] = {k: round(v * 1000, 3) for k, v in loads.items()}
        base = loads[f"{min(lengths)}/snap"] * 1000
        for length in lengths:
            if length == min(lengths):
                report.figure(SECTION, f"{label}: load {length:,} events", base, "ms", note="baseline of the rows below")
                continue
            report.compare(SECTION, f"{label}: load {length:,}, snapshots", loads[f"{length}/snap"] * 1000, "ms",
                           base, f"load {min(lengths)}", "<= 2x" if length == longest else "", (lambda r: r <= 2) if length == longest else None)
            report.compare(SECTION, f"{label}: load {length:,}, log only", loads[f"{length}/log"] * 1000, "ms",
                           base, f"load {min(lengths)}", note=f"{length / loads[f'{length}/log']:,.0f} events/s")
        worst = longest + SNAPSHOT_EVERY - 1
        report.compare(SECTION, f"{label}: load {worst:,}, snapshots", loads[f"{worst}/snap"] * 1000, "ms", base,
                       f"load {min(lengths)}", note=f"longest tail: {SNAPSHOT_EVERY - 1} events after the snapshot")


def _delete(store: EventStore, game_id: str) -> None:
    game = store.meta(game_id)["game"]
    store.redis.delete(*(store.key(game_id, part) for part in ("events", "meta", "snap", "cmds")))
    GameIndex(store).forget(game_id, game)
