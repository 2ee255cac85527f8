"""``python -m bench`` (``make bench``): run every benchmark, print the table, write the JSON.

``--quick`` is a smoke mode of a few seconds per section (tiny sizes, short windows): it proves the bench
still runs, and its figures mean little. ``--only`` picks sections; ``--strict`` exits 1 when a target is missed.
The ``peer`` section (boardgame.io beside the command path) needs Node.js and npm; without them it is skipped
and says so.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from session_service.storage import redis_clients
from session_service.storage.store import EventStore

from bench import append, boardgameio, command_path, memory, projections, rebuild, rules, scaled, streams
from bench.procs import EchoPair, start_stack, stop
from bench.report import Report, machine

SECTIONS = ("rules", "command", "peer", "append", "rebuild", "memory", "streams", "scaled", "projections")


@dataclass
class Sizes:
    levels: list[int] = field(default_factory=lambda: [1, 10, 100])
    warmup_s: float = 1.5
    measure_s: float = 4.0
    rounds: int = 3
    append_ops: int = 3000
    append_rounds: int = 3
    lengths: list[int] = field(default_factory=lambda: [10, 1_000, 100_000])
    budget_s: float = 1.0
    memory_games: int = 1000
    playouts: int = 8  # seeded playouts per game (per table size) behind the positions, logs and replays
    streams: int = 10_000
    stream_level: int = 10  # concurrent replaying games beside the idle streams
    stream_drive_s: float = 10.0
    stream_rate: float = 40.0  # commands/s on watched games while delivery latency is measured
    stream_hold_s: float = 12.0  # how long all the streams are held idle before they are counted
    projected_games: int = 300  # the projector's backlog
    open_seeks: int = 1000  # seeks open while the matchmaker's wait is measured
    seek_pairs: int = 100
    projections_load_s: float = 2.0
    projections_rounds: int = 10  # pairs of rounds with and without the projector and matchmaker, in turn (the noise)


QUICK = Sizes(levels=[2], warmup_s=0.2, measure_s=0.5, rounds=1, append_ops=50, append_rounds=1,
              lengths=[10, 100], budget_s=0.01, memory_games=10, playouts=1, streams=40, stream_level=2,
              stream_drive_s=1.0, stream_rate=20.0, stream_hold_s=0.5, projected_games=20, open_seeks=50, seek_pairs=5,
              projections_load_s=1.0, projections_rounds=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: tiny sizes, short windows")
    parser.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated sections of {', '.join(SECTIONS)}")
    parser.add_argument("--out", type=Path, default=Path("bench-results"), help="folder for the JSON results")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--levels", help="comma-separated concurrency levels for the command path (default 1,10,100)")
    parser.add_argument("--streams", type=int, help="idle streams the live-streams section holds (default 10,000)")
    args = parser.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(only) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown sections: {', '.join(unknown)}")
    requested = list(only)
    sizes = replace(QUICK) if args.quick else Sizes()
    if args.levels:
        sizes.levels = [int(n) for n in args.levels.split(",")]
    if args.streams:
        sizes.streams = args.streams
    report = Report()
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="mythos-bench-"))
    ok = False
    try:
        if "rules" in only:
            say("rules: decide and legal_commands on mid-game positions")
            with timed(report, "rules"):
                rules.measure(report, sizes.playouts, sizes.budget_s)
        if "peer" in only and (why := boardgameio.unavailable() or boardgameio.install()):
            say(f"peer: skipped: {why}")
            report.details[boardgameio.SECTION] = {"skipped": why}
            report.notes.append(f"peer (boardgame.io) not measured: {why}")
            only.remove("peer")
        if set(only) & {"command", "peer", "append", "rebuild", "memory", "streams", "scaled", "projections"}:
            if "streams" in only:
                say(f"open files: soft limit raised to {streams.raise_fd_limit():,} (the stack inherits it)")
            say("starting the stack (Redis, rules, session, worker) on free ports")
            stack = start_stack(tmp)
            try:
                store = EventStore(redis_clients.connect(stack.effective_redis_url), stack.key_prefix)
                if "command" in only:
                    say("starting the echo baseline under the same gunicorn settings")
                    echo = EchoPair(tmp).start()
                    try:
                        say(f"command path at {', '.join(map(str, sizes.levels))} concurrent games")
                        with timed(report, "command"):
                            command_path.measure(report, stack, echo, sizes.levels, sizes.warmup_s, sizes.measure_s, sizes.rounds,
                                                 sizes.playouts)
                    finally:
                        echo.stop()
                if "peer" in only:
                    say(f"peer: boardgame.io (in memory, FlatFile, PostgreSQL) and the floor beside the command path at "
                        f"{', '.join(map(str, sizes.levels))} concurrent games")
                    with timed(report, "peer"):
                        boardgameio.measure(report, stack, tmp, sizes.levels, sizes.warmup_s, sizes.measure_s,
                                            sizes.rounds, sizes.playouts)
                if "append" in only:
                    say("append: the Lua script against raw XADD")
                    with timed(report, "append"):
                        append.measure(report, store, sizes.append_ops, sizes.append_rounds)
                if "rebuild" in only:
                    say(f"rebuild: loading logs of {', '.join(f'{n:,}' for n in sizes.lengths)} events")
                    with timed(report, "rebuild"):
                        rebuild.measure(report, store, sizes.lengths, sizes.budget_s, sizes.playouts)
                if "streams" in only:
                    say(f"live streams: up to {sizes.streams:,} held by one asyncio client")
                    with timed(report, "streams"):
                        streams.measure(report, stack, sizes.streams, sizes.stream_level, sizes.warmup_s, sizes.measure_s,
                                        sizes.stream_drive_s, sizes.stream_rate, sizes.stream_hold_s, sizes.playouts)
                if "memory" in only:
                    say(f"memory: one session worker holding {sizes.memory_games:,} games")
                    with timed(report, "memory"):
                        memory.measure(report, stack, store, tmp, sizes.memory_games, sizes.playouts)
                if "projections" in only:
                    say(f"projections: the projector's folds and lag, the matchmaker at {sizes.open_seeks:,} open seeks")
                    with timed(report, "projections"):
                        projections.measure(report, stack.effective_redis_url, sizes.projected_games, sizes.open_seeks,
                                            sizes.seek_pairs, sizes.projections_load_s, sizes.projections_rounds)
                if "scaled" in only:
                    say("scaled: the Redis Cluster stack through HAProxy against this single-Redis stack")
                    with timed(report, "scaled"):
                        scaled.measure(report, stack, tmp, sizes.levels, sizes.warmup_s, sizes.measure_s, sizes.rounds,
                                       sizes.playouts)
            finally:
                stop(stack)
        ok = True
    finally:
        if ok:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"bench failed; process logs are in {tmp}", file=sys.stderr)
    info = {**machine(), "quick": args.quick, "sections": requested, "seconds": round(time.monotonic() - started, 1),
            "command": "python -m bench " + " ".join(argv if argv is not None else sys.argv[1:])}
    print()
    print(f"Mythos Tables bench — {info['date']} — {info['cpu']} ({info['cores']} cores), Python {info['python']}, "
          f"commit {info['commit'] or '?'}{' — QUICK (smoke only)' if args.quick else ''}")
    print(report.table())
    path = report.write(args.out, info)
    print(f"written to {path} in {info['seconds']} s")
    return 1 if args.strict and report.misses else 0


@contextmanager
def timed(report: Report, section: str) -> Iterator[None]:
    started = time.monotonic()
    yield
    report.details.setdefault("section_seconds", {})[section] = round(time.monotonic() - started, 1)


def say(text: str) -> None:
    print(f"[bench] {text}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
