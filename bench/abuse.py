"""``python -m bench.abuse``: what one anonymous client can cost the services (issue 16, docs/reliability.md).

Not part of ``make bench`` (it has no targets, and it is a minute of deliberate abuse). It starts a private stack
from the source tree it runs in, so the code before a fix is measured by running it from an exported older tree
(``git archive <commit> | tar -x -C DIR``, copy this file and tests/support/absurd.py in, run with PYTHONPATH=DIR).

1. Rules service: one client sends, back to back for ``--seconds``, a position to /v1/legal-commands: a real one
   (the baseline), Pocket Madness hands claiming 10⁶ cards, Great Old One hands of 2,000 cards. Per request: bytes
   in and out, and the server's CPU (user + system of the gunicorn processes, from /proc); then per minute.
2. Session service: how many writes one address gets in a window before its first 429, with made-up tokens, and
   with one real token spelled five ways (RATE_LIMIT_PER_MINUTE is set to ``--limit`` for the run).
3. ``--only tables``: one address opens all-AI Rites of Cthulhu tables back to back for ``--seconds``, on a stack
   with the per-client quotas off and on one with their defaults (session_service/use_cases/quotas.py): tables admitted and
   refused; then, once the worker has played the admitted ones, the Redis bytes of their keys (``MEMORY USAGE``;
   and ``used_memory``, which also holds RQ's job records for a while) and the worker's CPU they cost (measured
   with the quotas on, where the worker can finish them; with them off, the admitted count times that cost per
   table).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path

import orjson
import requests

from deploy.stacks.dev import Stack, free_port
from session_service.storage import redis_clients
from shared.games import GAMES
from tests.support.absurd import long_hands, mid_game, million_card_hands

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(root: int) -> float:
    """User + system CPU of process ``root`` and its children (gunicorn's master and workers), from /proc."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid == root or ppid == root:
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def positions() -> dict[str, dict]:
    game = GAMES["pocket-madness"]
    state, seat, _ = mid_game(game)
    real = {"game": game.id, "state": game.codec.encode(state), "seat": seat}
    huge = {k: v for k, v in million_card_hands()[1].items() if k in ("game", "state", "seat")}
    long = {k: v for k, v in long_hands(2000)[1].items() if k in ("game", "state", "seat")}
    return {"real position (baseline)": real, "pocket-madness hands of 10^6 cards": huge, "great-old-one hands of 2,000 cards": long}


def rules_cost(stack: Stack, seconds: float) -> None:
    master = stack.processes["rules"].pid
    http = requests.Session()
    print(f"rules service, one client back to back for {seconds:.0f} s per position (/v1/legal-commands):")
    print(f"  {'position':38} {'in B':>7} {'status':>6} {'out B/req':>11} {'CPU ms/req':>10} {'req/min':>8} {'MB out/min':>10} {'CPU s/min':>9}")
    for name, body in positions().items():
        data = orjson.dumps(body)
        sent = received = 0
        status = None
        cpu0, t0 = cpu_seconds(master), time.monotonic()
        while time.monotonic() - t0 < seconds:
            reply = http.post(stack.rules_url + "/v1/legal-commands", data=data, headers={"Content-Type": "application/json"}, timeout=120)
            sent, received, status = sent + 1, received + len(reply.content), reply.status_code
        elapsed, cpu = time.monotonic() - t0, cpu_seconds(master) - cpu0
        per_min = 60 / elapsed
        print(f"  {name:38} {len(data):7d} {status:6d} {received / sent:11,.0f} {1000 * cpu / sent:10.1f} "
              f"{sent * per_min:8,.0f} {received * per_min / 1e6:10,.1f} {cpu * per_min:9.1f}")


def writes_before_429(stack: Stack, authorizations: list[str], game_id: str, cap: int) -> int | None:
    """Writes (malformed commands: counted, refused before the rules) until the first 429; None if none in ``cap``."""
    http = requests.Session()
    for n in range(1, cap + 1):
        reply = http.post(f"{stack.url}/v1/games/{game_id}/commands", data=b"{",
                          headers={"Content-Type": "application/json", "Authorization": authorizations[n % len(authorizations)]}, timeout=30)
        if reply.status_code == 429:
            return n - 1
    return None


def bucket(stack: Stack, limit: int) -> None:
    game = GAMES["pocket-madness"]
    created = requests.post(stack.url + "/v1/games", json={"game": game.id, "seats": [{"name": "a"}, {"name": "b"}]}, timeout=30).json()
    token = created["seats"][0]["token"]
    runs = {
        "made-up tokens (a new one each write)": [f"Bearer made-up-{uuid.uuid4().hex}" for _ in range(20 * limit)],
        "one real token spelled five ways": [f"Bearer {token}", f"bearer {token}", f"BEARER {token}", f"Bearer  {token}", f"Bearer {token} "],
    }
    print(f"session service, writes from one address before the first 429 (RATE_LIMIT_PER_MINUTE={limit}):")
    for name, authorizations in runs.items():
        if 60 - time.time() % 60 < 25:  # start in a fresh window, so the count is not cut by the minute turning
            time.sleep(60 - time.time() % 60 + 0.5)
        cap = 10 * limit
        got = writes_before_429(stack, authorizations, created["id"], cap)
        print(f"  {name:40} {'no 429 in %d writes' % cap if got is None else got}")


QUOTA_DEFAULTS = {"OPEN_TABLES_PER_CLIENT": "20", "TABLES_PER_CLIENT_PER_HOUR": "120", "AI_TABLES_PER_CLIENT_PER_HOUR": "20",
                  "AI_CPU_SECONDS_PER_CLIENT_PER_HOUR": "1800"}


def tables_cost(tmp: Path, seconds: float, quotas: bool) -> dict[str, float]:
    """Open all-AI tables from one address for ``seconds``; what was admitted, and (quotas on) what it cost."""
    prefix = f"mt-abuse-{uuid.uuid4().hex[:8]}"
    stack = Stack(port=free_port(), rules_port=free_port(), redis_url=None, redis_port=free_port(), data_dir=tmp / prefix,
                  key_prefix=prefix, queue=prefix, log_dir=tmp, extra_env=QUOTA_DEFAULTS if quotas else {})
    try:
        stack.start()
        store = redis_clients.connect(stack.effective_redis_url)
        http = requests.Session()
        body = orjson.dumps({"game": "rites-of-cthulhu", "seats": [{"name": "a", "ai": "random"}, {"name": "b", "ai": "random"}]})
        memory0, cpu0 = store.info("memory")["used_memory"], cpu_seconds(stack.processes["worker"].pid)
        admitted, statuses, t0 = [], {}, time.monotonic()
        while time.monotonic() - t0 < seconds:
            reply = http.post(stack.url + "/v1/games", data=body, headers={"Content-Type": "application/json"}, timeout=30)
            statuses[reply.status_code] = statuses.get(reply.status_code, 0) + 1
            if reply.status_code == 201:
                admitted.append(reply.json()["id"])
        figures = {"admitted": len(admitted), "refused": statuses.get(429, 0), "seconds": time.monotonic() - t0}
        if quotas:
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                left = [g for g in admitted if requests.get(f"{stack.url}/v1/games/{g}", timeout=30).json()["status"] != "finished"]
                if not left:
                    break
                time.sleep(2)
            keys = [f"{prefix}:{{{g}}}:{part}" for g in admitted for part in ("events", "meta", "snap", "cmds")]
            figures.update(bytes=sum(store.memory_usage(k, samples=0) or 0 for k in keys),
                           used_memory=store.info("memory")["used_memory"] - memory0,
                           worker_cpu_s=cpu_seconds(stack.processes["worker"].pid) - cpu0, unfinished=len(left))
        return figures
    finally:
        stack.stop()


def tables(tmp: Path, seconds: float) -> None:
    on, off = tables_cost(tmp, seconds, True), tables_cost(tmp, seconds, False)
    per_table_bytes, per_table_cpu = on["bytes"] / max(1, on["admitted"]), on["worker_cpu_s"] / max(1, on["admitted"])
    print(f"session service, one address opening all-AI Rites tables back to back for {seconds:.0f} s:")
    print(f"  quotas on:  {on['admitted']} admitted, {on['refused']} refused (429); once played ({on['unfinished']} unfinished): "
          f"{on['bytes'] / 1e6:.1f} MB of games in Redis, {on['worker_cpu_s']:.1f} s of worker CPU "
          f"({per_table_bytes / 1e3:.0f} KB, {per_table_cpu:.2f} s a table); Redis used_memory "
          f"+{on['used_memory'] / 1e6:.1f} MB (with RQ's job records, kept for their result TTL)")
    print(f"  quotas off: {off['admitted']} admitted, {off['refused']} refused: at that cost, "
          f"{off['admitted'] * per_table_bytes / 1e6:,.0f} MB of Redis and {off['admitted'] * per_table_cpu:,.0f} s of worker CPU")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.abuse", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each position is sent")
    parser.add_argument("--limit", type=int, default=200, help="RATE_LIMIT_PER_MINUTE for the bucket run")
    parser.add_argument("--only", choices=["rules-and-bucket", "tables"], default="rules-and-bucket")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="mythos-abuse-"))
    if args.only == "tables":
        try:
            tables(tmp, args.seconds)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return 0
    prefix = f"mt-abuse-{uuid.uuid4().hex[:8]}"
    stack = Stack(port=free_port(), rules_port=free_port(), redis_url=None, redis_port=free_port(), data_dir=tmp,
                  key_prefix=prefix, queue=prefix, log_dir=tmp, extra_env={"RATE_LIMIT_PER_MINUTE": str(args.limit)})
    try:
        stack.start()
        rules_cost(stack, args.seconds)
        bucket(stack, args.limit)
    finally:
        stack.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
