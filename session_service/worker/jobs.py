"""RQ jobs: AI turns, turn timeouts and the sweeper that picks up whatever was left pending.

Jobs take ids and a version only, use RQ's JSON serializer and deterministic ids
(``ai-<game>-<seat>-<version>``: RQ allows letters, digits, ``-`` and ``_``), and do nothing when the game has
moved past their version. They submit through ``Tables.command``, the path a client's command takes, with an
idempotency key bound to the version, so a retried or duplicated job can never act twice.
"""

from __future__ import annotations

import logging
import os
import random
import time
from datetime import datetime, timedelta
from typing import Any

import redis

from shared.ai import LEVELS, SeatKnowledge, choose
from shared.kernel import seat_rng
from shared.wire import logs
from session_service import bootstrap
from session_service.config import from_env
from session_service.scheduler import STALLED_AFTER_S
from session_service.use_cases import retention
from session_service.use_cases.errors import Finished, NotFound, Refused, VersionConflict
from session_service.use_cases.lobby import Lobby
from session_service.use_cases.players import Players
from session_service.use_cases.tables import Tables

log = logging.getLogger("mythos.jobs")
SWEEP_EVERY_S = float(os.environ.get("SWEEP_EVERY_S", "20"))
IDLE_TABLE_S = int(os.environ.get("IDLE_TABLE_S", str(7 * 86400)))  # see config.py


def choose_random(state: dict[str, Any], rand: random.Random) -> dict[str, Any] | None:
    """The ``random`` AI: a uniformly random legal command, from exactly what a client of its seat gets."""
    legal = state["legal_commands"]
    return rand.choice(legal) if legal else None


def _play_for(tables: Tables, game_id: str, seat: int, version: int, by: str) -> str:
    """Play for ``seat`` at ``version`` if the game still waits on it there: the AI's choice, or the game's
    timeout policy. Both draw from the game's secret seed, so nobody can predict them while the game runs."""
    meta = tables.meta(game_id)
    if meta.over or meta.version != version or seat not in meta.to_act:
        return "stale"
    if by == "ai" and tables.quotas is not None and not tables.quotas.ai_move(meta):
        return "over quota"  # its client's AI moves for this hour are spent: the sweeper tries again later
    pos = tables.position(game_id, meta)  # the table at ``version`` exactly: the meta was read there
    if by == "ai":
        # The AI gets its seat's knowledge, never the state (shared.ai). Its think time is CPU time (a busy
        # worker does not weaken it), with a hard cap in wall clock (shared.ai.levels.WALL_FACTOR).
        level = meta.seats[seat]["ai"] if meta.seats[seat]["ai"] in LEVELS else "random"
        knowledge = SeatKnowledge.of(pos.game, pos.table.game, seat)
        command = choose(knowledge, level, seat_rng(meta.seed, "ai", seat, version), clock=time.process_time,
                         wall=time.perf_counter)
    else:
        command = pos.game.timeout_choice(pos.table.game, seat, seat_rng(meta.seed, "timeout", seat, version))
    if command is None:
        return "no legal command"
    started = time.perf_counter()
    try:
        tables.command(game_id, seat, command, expected_version=version, idempotency_key=str(version), by=by)
    except (VersionConflict, Finished):
        return "stale"
    if by == "ai":
        tables.store.redis.hincrbyfloat(tables.store.key("stats", "ai"), "seconds", time.perf_counter() - started)
        tables.store.redis.hincrby(tables.store.key("stats", "ai"), "moves", 1)
    return "played"


def ai_turn(game_id: str, seat: int, version: int) -> str:
    """Play the AI seat's move at ``version``, if the game is still there."""
    return _logged("ai_turn", game_id, seat, version, "ai")


def turn_timeout(game_id: str, seat: int, version: int) -> str:
    """The seat's time is up at ``version``: play the game's timeout policy for it, recorded as a timeout."""
    return _logged("turn_timeout", game_id, seat, version, "timeout")


def _logged(kind: str, game_id: str, seat: int, version: int, by: str) -> str:
    """Run one job and write its one log line (shared/wire/logs.py): played, stale, refused or failed. A refusal
    the service expects (the rules service or Redis away for a moment) is a line, not a traceback; RQ retries."""
    started = time.perf_counter()
    ids: dict[str, Any] = {"game_id": game_id, "seat": seat, "version": version}
    try:
        outcome = _play_for(worker_tables(), game_id, seat, version, by)
    except (Refused, redis.RedisError) as exc:
        logs.job_line(kind, started, f"failed: {type(exc).__name__}", logging.WARNING, **ids)
        raise
    except Exception:
        logs.job_line(kind, started, "failed", logging.ERROR, **ids)
        raise
    logs.job_line(kind, started, outcome, **ids)
    return outcome


def sweep() -> dict[str, int]:
    """The sweep as a job that schedules its own next run (first, so a failure half way does not end it)."""
    worker_tables()
    _SCHEDULER.queue.enqueue_in(timedelta(seconds=SWEEP_EVERY_S), sweep, job_id="sweep", retry=None)
    return sweep_once()


def sweep_once() -> dict[str, int]:
    """Re-enqueue AI turns and expired timers of every active game that has not moved for a while, and end the
    tables nobody plays (``Lobby.end_if_idle``)."""
    tables, started = worker_tables(), time.perf_counter()
    lobby = _LOBBY
    counts = {"games": 0, "requeued": 0, "idle_ended": 0}
    cutoff = datetime.now().astimezone() - timedelta(seconds=STALLED_AFTER_S)
    for game_id in tables.store.active_ids():
        try:
            meta = tables.meta(game_id)
        except NotFound:
            tables.store.mark_finished(game_id)
            continue
        counts["games"] += 1
        if meta.over:
            tables.store.mark_finished(game_id)
        elif lobby.end_if_idle(meta, IDLE_TABLE_S, time.time()) is not None:
            counts["idle_ended"] += 1
        elif datetime.fromisoformat(meta.updated_at) < cutoff:
            counts["requeued"] += _SCHEDULER.schedule(meta, force=True)
    counts.update(retention.sweep(tables, _RETENTION))  # after the turns above: a failure here must not hold them up
    # a line when it found work left behind; a quiet sweep only at DEBUG (every SWEEP_EVERY_S per worker)
    busy = counts["requeued"] or counts["idle_ended"]
    logs.job_line("sweep", started, f"{counts['requeued']} requeued, {counts['idle_ended']} idle tables ended",
                  logging.INFO if busy else logging.DEBUG, games=counts["games"])
    return counts


_TABLES: Tables | None = None
_SCHEDULER: Any = None
_LOBBY: Any = None
_RETENTION = retention.Policy()  # off until the worker reads its configuration


def worker_tables() -> Tables:
    """The worker process's one Tables, wired from the environment by the composition root on first use."""
    if _TABLES is None:
        config = from_env()
        service = bootstrap.build(config, serves_clients=False)
        use_tables(service.tables, retention.Policy.from_config(config), service.lobby)
    assert _TABLES is not None
    return _TABLES


def use_tables(tables: Tables, policy: retention.Policy | None = None, lobby: Lobby | None = None) -> None:
    """Run jobs against ``tables`` (the worker's own, or a test's), with a retention ``policy`` (default: off) and
    the ``lobby`` that ends idle tables (default: one over ``tables``)."""
    global _TABLES, _SCHEDULER, _LOBBY, _RETENTION
    _TABLES, _SCHEDULER, _RETENTION = tables, tables.scheduler, policy or retention.Policy()
    _LOBBY = lobby or Lobby(tables, Players(tables.store))
