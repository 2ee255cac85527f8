"""RQ jobs: AI turns, turn timeouts and the sweeper that picks up whatever was left pending.

Jobs take ids and a version only, use RQ's JSON serializer and deterministic ids
(``ai-<game>-<seat>-<version>``: RQ allows letters, digits, ``-`` and ``_``), and do nothing when the game has
moved past their version. They submit through ``Tables.command``, the path a client's command takes, with an
idempotency key bound to the version, so a retried or duplicated job can never act twice.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import redis

from shared.ai import LEVELS, MARGIN_S, TIMER, SeatKnowledge, choose
from shared.ai.levels import WALL_FACTOR
from shared.kernel import entropy_for, seat_rng
from shared.wire import logs
from session_service import bootstrap
from session_service.config import DEFAULTS, Settings
from session_service.scheduler import STALLED_AFTER_S, RqScheduler, turn_id
from session_service.storage.planned import PlannedTurns
from session_service.storage.stats import AiStats
from session_service.use_cases import retention
from session_service.use_cases.errors import Finished, NotFound, Refused, VersionConflict
from session_service.use_cases.lobby import Lobby
from session_service.use_cases.meta import STUCK_AT, Meta, parse_iso
from session_service.use_cases.players import Players
from session_service.use_cases.quotas import META_FIELD
from session_service.use_cases.tables import Tables
from session_service.worker.pacing import Move, Publisher, plan

log = logging.getLogger("mythos.jobs")
SWEEP_EVERY_S = DEFAULTS.sweep_every_s  # the worker's own settings' once it reads them (worker_tables)
IDLE_TABLE_S = DEFAULTS.idle_table_s
PLANNED_GRACE_S = 30  # a chosen turn's rest stays marked planned this long past its due time (then the sweeper may replay it)
STUCK = "stuck: nothing to play"
"""A job's outcome where the game waits on a seat that has nothing to play (``_stuck``)."""


def choose_random(state: dict[str, Any], rand: random.Random) -> dict[str, Any] | None:
    """The ``random`` AI: a uniformly random legal command, from exactly what a client of its seat gets."""
    legal = state["legal_commands"]
    return rand.choice(legal) if legal else None


@dataclass(frozen=True)
class Pace:
    """How server moves are timed (``pacing.py``): ``scale`` (``AI_TIME_SCALE``) multiplies the levels' think times
    and publication delays; the test stacks run the AI fast. A worker with no publisher (a test's jobs run in its own
    process) publishes each move as soon as it is chosen."""

    scale: float = 1.0
    publisher: Publisher | None = None


def _play_for(tables: Tables, game_id: str, seat: int, version: int, by: str) -> str:
    """Play for ``seat`` at ``version`` if the game still waits on it there: the AI's choice, or the game's
    timeout policy. Both draw from the game's secret seed, so nobody can predict them while the game runs. The
    turn holds its client's place among the workers while it is chosen (``scheduler.Gate``), is billed the CPU it
    took (``quotas.charge_ai``), and is published at its due time (``pacing.py``)."""
    meta = tables.meta(game_id)
    client, kind = meta.extra.get(META_FIELD), "ai" if by == "ai" else "timeout"
    turn, gated = turn_id(kind, game_id, seat, version), isinstance(tables.scheduler, RqScheduler)
    try:
        if meta.over or meta.version != version or seat not in meta.to_act:
            return "stale"
        if by == "ai" and PlannedTurns(tables.store).holds(game_id, seat, version):
            return "planned"  # the rest of a turn chosen with its first command, published with it
        if gated and not tables.scheduler.gate.admit(client, turn):  # type: ignore[attr-defined]
            gated = False  # parked in its client's queue: nothing to give back
            return "deferred"
        if tables.quotas is not None and not tables.quotas.ai_cpu_left(meta):
            return "over quota"  # its client's worker CPU for this hour is spent: the sweeper tries again later
        started, wall = time.thread_time(), time.perf_counter()
        move, late = _choose(tables, meta, seat, by)
        if move is not None:
            move = replace(move, chose_s=time.perf_counter() - wall, late=late)
            _plan(tables, move)
        if move is not None and _PACE.publisher is not None:
            _PACE.publisher.add(move)  # first: the search used the time up to the due time, less the margin
        if tables.quotas is not None:
            tables.quotas.charge_ai(meta, time.thread_time() - started)
    finally:
        if gated:
            tables.scheduler.turn_done(client, turn)  # type: ignore[attr-defined]
    if move is None:
        return _stuck(tables, meta, seat)
    if _PACE.publisher is None:
        return publish(move, tables)
    return f"chosen, due in {max(0.0, move.due - time.time()):.2f} s"


def _choose(tables: Tables, meta: Meta, seat: int, by: str) -> tuple[Move | None, bool]:
    """The move for ``seat`` (the AI's from its seat's knowledge, or the timer's policy) and when it is due."""
    now, version, scale = time.time(), meta.version, _PACE.scale
    if by == "ai":
        level = LEVELS[meta.seats[seat]["ai"] if meta.seats[seat]["ai"] in LEVELS else "random"]
        anchor = parse_iso(meta.updated_at).timestamp()
    else:
        level, anchor = TIMER, parse_iso(meta.deadline).timestamp() if meta.deadline else now
    think_s, margin_s = level.seconds * scale, MARGIN_S * scale
    timing = plan(anchor, now, level.delay(seat_rng(meta.seed, "publish", seat, version)) * scale, think_s,
                  margin_s, WALL_FACTOR * think_s)
    pos = tables.position(meta.id, meta)  # the table at ``version`` exactly: the meta was read there
    if by != "ai":
        command = pos.game.timeout_choice(pos.table.game, seat, seat_rng(meta.seed, "timeout", seat, version))
        return None if command is None else Move(meta.id, seat, version, by, command.to_wire(), timing.due), timing.late
    chosen = _turn(pos, meta.seed, seat, level.name, timing.due, think_s, margin_s, timing.wall_s)
    if not chosen:
        return None, timing.late
    (first, command), rest = chosen[0], tuple((v, c.to_wire()) for v, c in chosen[1:])
    return Move(meta.id, seat, first, by, command.to_wire(), timing.due, rest=rest), timing.late


TURN_MOST = 30  # commands of one turn chosen ahead, at most


def _turn(pos: Any, seed: bytes, seat: int, level: str, due: float, think_s: float, margin_s: float,
          wall_s: float) -> list[tuple[int, Any]]:
    """The AI's commands for its whole turn, each with the version it is played at: a turn is paced as one
    (issue 46: in The Great Old One a turn is ~5 commands, and paced one by one a ``hard`` turn took ~11 s). The
    first is chosen as before; while the game then waits on this seat alone, its next command is chosen from the
    position the last one leaves (decided here with the entropy the table will give it, so it is the position the
    seat will see), with half the wall clock left before the due time, so the whole turn is ready when due and is
    published then, command after command. The AI gets its seat's knowledge, never the state (shared.ai); its think
    time is CPU time of this thread (a busy worker does not weaken it), capped in wall clock."""
    game, seating, table, version = pos.game, pos.seating, pos.table, pos.version
    rules, chosen = game.decider, []
    wall_left = min(wall_s, max(0.0, due - margin_s - time.time()))
    for _ in range(TURN_MOST):
        knowledge = SeatKnowledge.of(game, table.game, seat)
        command = choose(knowledge, level, seat_rng(seed, "ai", seat, version), clock=time.thread_time,
                         wall=time.perf_counter, think_s=think_s, wall_s=wall_left)
        if command is None:
            break
        chosen.append((version, command))
        decided = game.decide_in_turn(table.game, command, seat, entropy_for(seed, table.game_events))
        records, table = seating.played(table, decided.events, decided.state)
        version += len(records)
        if rules.outcome(table.game) is not None or rules.to_act(table.game) != {seat}:
            break
        wall_left = max(0.0, due - margin_s - time.time()) / 2
        think_s = min(think_s, wall_left)
    return chosen


def _count_ai(tables: Tables, move: Move) -> None:
    """The AI's figures for /metrics, once its move is on the table (or the table moved past it): moves chosen, the
    wall clock they took, and those that started too late to be due at their anchor plus their delay
    (``pacing.plan``). Nothing of a seat's decision reaches the metrics before it reaches the table."""
    AiStats(tables.store).count_move(move.chose_s, move.late)


def publish(move: Move, tables: Tables | None = None) -> str:
    """Apply a chosen move at its version, then the rest of its turn, each at its own version, through the path a
    client's command takes (stale if the game moved: the rest of the turn is then dropped, and the seat's turn
    jobs at those versions play it afresh); then count an AI move's figures (``_count_ai``)."""
    tables = tables or worker_tables()
    outcome = "played"
    for version, command in ((move.version, move.command), *move.rest):
        try:
            tables.command(move.game_id, move.seat, command, expected_version=version,
                           idempotency_key=str(version), by=move.by)
        except (VersionConflict, Finished, NotFound):
            _unplan(tables, move)
            outcome = "stale"
            break
    if move.by == "ai":
        _count_ai(tables, move)
    return outcome


def _plan(tables: Tables, move: Move) -> None:
    """Mark the versions of the rest of ``move``'s turn as chosen, until a little after it is due: the turn jobs the
    table schedules as each of its commands is published then do nothing (else they would search again)."""
    if move.rest:
        PlannedTurns(tables.store).mark(move.game_id, move.seat, (v for v, _ in move.rest),
                                        move.due - time.time() + PLANNED_GRACE_S)


def _unplan(tables: Tables, move: Move) -> None:
    if move.rest:
        PlannedTurns(tables.store).drop(move.game_id, move.seat)


def _stuck(tables: Tables, meta: Meta, seat: int | None) -> str:
    """The game waits on ``seat``, which has nothing to play, or (``None``) waits on nobody while it runs: a defect of
    the game's rules (the kernel's liveness guarantee is broken). Logged once a version with public facts only, and
    marked on the table (``Meta.stuck``) so its seats are told; nobody can move it, so the idle rule ends it
    (``Lobby.end_if_idle``)."""
    if not meta.stuck:
        tables.store.set_meta(meta.id, **{STUCK_AT: str(meta.version)})
        waits = ("nobody at version %d", ()) if seat is None else ("seat %d at version %d, which has nothing to play", (seat,))
        log.error("liveness defect: %s waits on " + waits[0], meta.id, *waits[1], meta.version,
                  extra={"fields": {"event": "liveness_defect", "game_id": meta.id, "game": meta.game,
                                    "rules_version": meta.rules_version, "version": meta.version, "seat": seat}})
    return STUCK


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
    logs.job_line(kind, started, outcome, logging.ERROR if outcome == STUCK else logging.INFO, **ids)
    return outcome


def sweep() -> dict[str, int]:
    """The sweep as a job that schedules its own next run (first, so a failure half way does not end it)."""
    worker_tables()
    _SCHEDULER.queue.enqueue_in(timedelta(seconds=SWEEP_EVERY_S), sweep, job_id="sweep", retry=None)
    return sweep_once()


def sweep_once(stalled_before: datetime | None = None) -> dict[str, int]:
    """Re-enqueue AI turns and timers of every active game that has not moved since ``stalled_before`` (by default
    for ``STALLED_AFTER_S``), report a game in play that waits on nobody (``_stuck``), and end the tables nobody plays
    (``Lobby.end_if_idle``)."""
    tables, started = worker_tables(), time.perf_counter()
    lobby = _LOBBY
    counts = {"games": 0, "requeued": 0, "idle_ended": 0}
    cutoff = stalled_before or datetime.now().astimezone() - timedelta(seconds=STALLED_AFTER_S)
    for game_id in tables.store.active_ids():
        try:
            meta = tables.meta(game_id)
        except NotFound:
            tables.store.mark_finished(game_id)
            continue
        counts["games"] += 1
        if meta.status == "active" and not meta.to_act:
            _stuck(tables, meta, None)  # no turn of anyone's will find it
        if meta.over:
            if tables.ended(game_id):  # told again (harmless) in case the process that ended it died first
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


def published(move: Move, tables: Tables) -> str:
    """The publisher's ``publish`` (``pacing.Publisher``): one move at its due time, and its log line."""
    started = time.perf_counter()
    ids: dict[str, Any] = {"game_id": move.game_id, "seat": move.seat, "version": move.version}
    try:
        outcome = publish(move, tables)
    except Exception as exc:
        logs.job_line("publish", started, f"failed: {type(exc).__name__}", logging.WARNING, **ids)
        raise
    logs.job_line("publish", started, f"{outcome} ({move.by}, {1000 * (time.time() - move.due):.0f} ms past due)", **ids)
    return outcome


_TABLES: Tables | None = None
_SCHEDULER: Any = None
_LOBBY: Any = None
_RETENTION = retention.Policy()  # off until the worker reads its configuration
_PACE = Pace()  # no publisher: a test's jobs publish as soon as they choose


def worker_tables() -> Tables:
    """The worker process's one Tables, wired from the environment by the composition root on first use."""
    global SWEEP_EVERY_S, IDLE_TABLE_S
    if _TABLES is None:
        settings = Settings.from_env()
        service = bootstrap.build(settings, serves_clients=False)
        SWEEP_EVERY_S, IDLE_TABLE_S = settings.sweep_every_s, settings.idle_table_s
        use_tables(service.tables, settings.retention, service.lobby, Pace(settings.ai_time_scale, _PACE.publisher))
    assert _TABLES is not None
    return _TABLES


def use_tables(tables: Tables, policy: retention.Policy | None = None, lobby: Lobby | None = None,
               pace: Pace | None = None) -> None:
    """Run jobs against ``tables`` (the worker's own, or a test's), with a retention ``policy`` (default: off), the
    ``lobby`` that ends idle tables (default: one over ``tables``) and the ``pace`` of server moves (default: the
    levels' own times, published as soon as chosen)."""
    global _TABLES, _SCHEDULER, _LOBBY, _RETENTION, _PACE
    _TABLES, _SCHEDULER, _RETENTION = tables, tables.scheduler, policy or retention.Policy()
    _LOBBY = lobby or Lobby(tables, Players(tables.store))
    _PACE = pace or Pace()


def use_publisher(publisher: Publisher) -> None:
    """From now on, chosen moves are handed to ``publisher`` (the worker's thread) to publish at their due time."""
    global _PACE
    _PACE = Pace(_PACE.scale, publisher)
