"""Append: the store's Lua append against a raw XADD of the same record, on the same Redis.

The Lua script is what every command pays for being all-or-nothing: the idempotency check, the version
check, the XADD, the meta update and the idempotency record, in one round trip. The baseline is the bare
XADD of the same bytes. Both run one after the other in alternating rounds, twice: one call per round trip
(what a request does, and what the target is judged on) and pipelined (Redis's own cost, with the round trip
amortized; shown for scale), with Redis's own time per call from INFO commandstats.
"""

from __future__ import annotations

import time
from statistics import median
from typing import Any

import orjson

from session_service.storage.index import GameIndex
from session_service.storage.store import Charge, EventStore
from shared.games import GAMES
from shared.records import make_records

from bench import synthetic
from bench.report import Report

SECTION = "append"


def measure(report: Report, store: EventStore, ops: int, rounds: int = 3, pipeline: int = 50) -> None:
    game = next(iter(GAMES.values()))
    events = synthetic.playout(game, 1)[0]
    game_id, _ = synthetic.write_game(store, game, events[:20], snapshot_every=None)
    record = make_records([events[20]], version=20, prev_hash="0" * 64, cause=synthetic.CAUSE,
                                    command={"type": "bench"}, at="2026-01-01T00:00:00.000Z", rules_version=game.rules_version)[0]
    progress = {"head_hash": record["hash"], "status": "active", "to_act": "[0]", "outcome": "null", "deadline": "",
                "updated_at": "2026-01-01T00:00:00.000Z"}
    raw_stream = store.key("bench-raw-xadd", "events")

    def charge() -> Charge:
        """A command's rate counters (its client's and its address's), as the service's append counts them."""
        window = int(time.time() // 60)
        return Charge(((store.rate_key("bench-client", window), 10**9), (store.rate_key("bench-address", window), 10**9)), 90)

    version = store.version(game_id)
    counter = 0

    def lua_one() -> None:
        nonlocal version, counter
        counter += 1
        done = store.append(game_id, version, [record], progress, f"0:bench-{counter}", '{"from":1,"to":1}',
                            charge=charge())
        if done.status != "ok":
            raise RuntimeError(f"the bench append was refused: {done}")
        version = done.version

    def xadd_one() -> None:
        store.redis.xadd(raw_stream, {"r": orjson.dumps(record)})

    def lua_batch() -> None:
        # the same script and arguments as EventStore.append, queued on a pipeline
        nonlocal version, counter
        with store.redis.pipeline(transaction=False) as pipe:
            for i in range(pipeline):
                counter += 1
                flat = [x for pair in progress.items() for x in pair]
                counters = charge().counters
                pipe.evalsha(store._append_sha, 3 + len(counters), store.key(game_id, "events"), store.key(game_id, "meta"),
                             store.key(game_id, "cmds"), *(key for key, _ in counters), version + i, f"0:bench-{counter}",
                             '{"from":1,"to":1}', store.notice_channel, game_id, "", 90, *(n for _, n in counters),
                             len(progress), *flat, orjson.dumps(record))
            replies = pipe.execute()
        if any(r[0] != b"ok" for r in replies):
            raise RuntimeError(f"a pipelined bench append was refused: {replies[0]}")
        version += pipeline

    def xadd_batch() -> None:
        with store.redis.pipeline(transaction=False) as pipe:
            for _ in range(pipeline):
                pipe.xadd(raw_stream, {"r": orjson.dumps(record)})
            pipe.execute()

    details: dict[str, Any] = report.details.setdefault(SECTION, {"record_bytes": len(orjson.dumps(record))})
    server_us: dict[str, list[float]] = {"evalsha": [], "xadd": []}
    store.redis.config_resetstat()
    for mode, lua, raw, per_call in (("one per round trip", lua_one, xadd_one, 1), ("pipelined", lua_batch, xadd_batch, pipeline)):
        calls = max(1, ops // per_call)
        lua_s = raw_s = 0.0
        for _ in range(rounds):
            raw_s += _run(raw, calls)
            server_us["xadd"].append(_usec_per_call(store, "xadd"))
            lua_s += _run(lua, calls)
            server_us["evalsha"].append(_usec_per_call(store, "evalsha"))
        lua_rate, raw_rate = rounds * calls * per_call / lua_s, rounds * calls * per_call / raw_s
        details[mode] = {"lua_per_s": round(lua_rate), "xadd_per_s": round(raw_rate), "ops": rounds * calls * per_call}
        if per_call == 1:  # how the service appends: one command's batch per request, each its own round trip
            report.compare(SECTION, f"Lua append, {mode}", lua_rate, "/s", raw_rate, "XADD/s", ">= 0.33x", lambda r: r >= 1 / 3)
        else:
            report.compare(SECTION, f"Lua append, {mode}", lua_rate, "/s", raw_rate, "XADD/s",
                           note=f"batches of {pipeline}: Redis's own cost with the round trip amortized")
    lua_us, raw_us = median(server_us["evalsha"]), median(server_us["xadd"])
    details["redis_usec_per_call"] = {"evalsha": lua_us, "xadd": raw_us}
    report.compare(SECTION, "Redis CPU per Lua append", lua_us, "us", raw_us, "per XADD",
                   note="INFO commandstats: version and idempotency checks, XADD, meta and idempotency writes")
    store.redis.delete(raw_stream, *(store.key(game_id, part) for part in ("events", "meta", "snap", "cmds")))
    GameIndex(store).forget(game_id, game.id)


def _usec_per_call(store: EventStore, command: str) -> float:
    """Redis's own time per call of ``command`` since the last read, then reset (this is the bench's own Redis)."""
    stats = store.redis.info("commandstats").get(f"cmdstat_{command}", {})
    store.redis.config_resetstat()
    return float(stats.get("usec_per_call", float("nan")))


def _run(call, times: int) -> float:
    start = time.perf_counter()
    for _ in range(times):
        call()
    return time.perf_counter() - start
