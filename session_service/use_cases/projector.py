"""The projector: folds every game that ends into the read models (ratings, leaderboards, players' histories).

It follows the ended games through a durable subscription (``storage/projections.EndedFeed``, a consumer group
over a stream per shard): a game's end is written to the feed right after the append that ends it (``Tables``'
``on_end``), and the game leaves the sweeper's active set only after that, so a process that dies between the two
leaves the game to the sweeper, which writes it to the feed then (``jobs.sweep_once``). An entry is acknowledged
only once its game is projected; one delivered to a projector that died is claimed by another. So a crash
anywhere loses no game, and a game delivered twice is counted once: its rating is one script that refuses a game
id the ledger holds, its history line is keyed by game id.

Ratings are folded in ``shared.ratings.ORDER`` (the end's time, then game id), whatever order games arrive in: one
that ends after the last rated game of its type is rated on top of the current ratings; one that arrives late
(after a crash, from another shard) has that type's ratings folded again from its rated results, so the live
ratings are always those a rebuild from the logs computes (``rebuild``). Where it runs: a thread of every worker
(``worker/main.py``); several share the group, each game goes to one of them, and two that rate games of one type
at once are kept apart by the script's check of the ledger (the loser reads again).

Cheap while idle, batched while busy: an idle projector waits in one blocking read a second (on a cluster, one
pipelined look at the shards' lengths every ``idle_s``). A read that wakes it waits ``GATHER_S`` for the games
that end meanwhile, and the batch costs a handful of round trips whatever its size: their marks, their logs, per
game type the ledger's head, the ratings and one commit of every game in it, then their history lines and marks
in one pipeline and their acknowledgements in another (docs/performance.md, "Projections and quick play").
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson

from shared import ratings
from shared.ratings import Rating, Result
from session_service.storage.projections import CLAIM_IDLE_MS, EndedFeed, ReadModels, consumer_name
from session_service.use_cases.players import Players
from session_service.use_cases.tables import Tables

log = logging.getLogger("mythos.projector")
MIN_GAMES = 3  # games a rating entry needs to stand on a leaderboard (LEADERBOARD_MIN_GAMES)
RETRIES = 20
GATHER_S = 0.2  # how long a pass that found a few ended games waits for more, to fold them together
REBUILD_CHUNK = 500  # games a rebuild writes in one script call or pipeline
POOLS_KEPT = 10_000  # players whose pool (people's or bots') a projector remembers: a player's kind never changes


class RebuildRaced(RuntimeError):
    """A game type's ledger moved while a rebuild wrote it: a projector was running (the rebuild wants them stopped)."""


@dataclass
class Projector:
    tables: Tables
    players: Players
    min_games: int = MIN_GAMES
    consumer: str = field(default_factory=consumer_name)

    def __post_init__(self) -> None:
        self.feed = EndedFeed(self.tables.store)
        self.models = ReadModels(self.tables.store)
        self._pools: OrderedDict[str, str] = OrderedDict()  # the most recently asked last, at most POOLS_KEPT

    # -- the subscription ---------------------------------------------------------------------------------
    def run_once(self, count: int = 100, claim_idle_ms: int = CLAIM_IDLE_MS, block_ms: int = 0, gather_s: float = 0.0) -> int:
        """Project what the feed holds for this consumer now, as one batch (module docstring); how many entries it
        settled. ``gather_s``: when the first read found fewer than ``count``, wait that long and read once more,
        so the games that end close together are folded together."""
        entries = self.feed.read(self.consumer, count, claim_idle_ms, block_ms)
        if entries and gather_s > 0 and len(entries) < count:
            time.sleep(gather_s)
            entries += self.feed.read(self.consumer, count - len(entries), claim_idle_ms)
        ids = list(dict.fromkeys(game_id for _, _, game_id in entries))  # one game said twice is one game
        done = self.models.projected_many(ids)
        logs = self.tables.store.records_after({game_id: 0 for game_id in ids if not done[game_id]})
        results = [r for game_id in logs if (r := ratings.result_of(logs[game_id])) is not None]
        self.fold(results)
        self.feed.ack((shard, entry_id) for shard, entry_id, _ in entries)
        return len(entries)

    def run(self, stop: threading.Event, idle_s: float = 0.5, gather_s: float = GATHER_S,
            failed: Callable[[Exception], None] | None = None,
            reached: Callable[[float], None] = lambda began: None) -> None:
        """Project until ``stop`` (a worker's thread): wait on the feed (a blocking read of a second; on a cluster,
        a look at every shard and a rest of ``idle_s`` when they are empty), then gather for ``gather_s`` what ends
        meanwhile. A failure (Redis restarting: the entries wait in the group) is told to ``failed`` (the worker
        says a lost Redis once, not once a retry), and the loop rests a second before it tries again; ``reached``
        after each pass that worked, with when it began (monotonic)."""
        while not stop.is_set():
            began = time.monotonic()
            try:
                if not self.run_once(block_ms=1000, gather_s=gather_s) and self.tables.store.cluster:
                    stop.wait(idle_s)
                reached(began)
            except Exception as exc:  # noqa: BLE001 - see the docstring
                if failed is not None:
                    failed(exc)
                else:
                    log.warning("projecting failed; trying again", exc_info=exc)
                stop.wait(1.0)

    # -- games ------------------------------------------------------------------------------------------
    def project(self, game_id: str) -> Result | None:
        """Fold one ended game into the read models (again: no change). None for a game gone or not ended."""
        if self.models.projected(game_id):
            return None
        result = ratings.result_of(self.tables.store.records(game_id))
        if result is not None:
            self.fold([result])
        return result

    def fold(self, results: Iterable[Result]) -> None:
        """Rate the rateable of ``results`` (one commit per game type), write their history lines and mark them
        projected (one pipeline): the live path and the rebuild's alike. A private table is in no read model; an
        aborted one was no game: they are only marked."""
        every = list(results)
        kept = [r for r in every if not r.private and r.status == "finished"]
        for game, rated in sorted(_by_game(kept).items()):
            self._rate(game, rated)
        self.models.add_history(((sorted({s.player for s in r.seats if s.player}), r.game_id, r.ended_ms, r.line())
                                 for r in kept), [r.game_id for r in every])

    def _rate(self, game: str, rated: list[Result]) -> None:
        """Rate ``rated`` (one game type's, in ``ORDER``) in one commit: on top of the current ratings when they
        all end after the last rated game, else by folding the type again from its rated results (a late game)."""
        for _ in range(RETRIES):
            count, last, last_ms = self.models.ledger_head(game)
            if ratings.order_key(rated[0]) > (int(last_ms), last):
                entries = list(dict.fromkeys(e for r in rated for e, _ in r.entries()))
                current = {e: Rating.loads(raw) for e, raw in self.models.ratings(game, entries).items()}
                for result in rated:
                    current.update(ratings.rate(result, current))
                adding, new, replace = rated, {e: current[e] for e in entries}, False
            else:  # late: fold the type again from its rated results, in order
                earlier = self.models.results(game)
                adding = [r for r in rated if r.game_id not in earlier]
                if not adding:
                    return
                kept = [result_from_json(orjson.loads(raw)) for raw in earlier.values()]
                new, replace = ratings.fold([*kept, *adding]).get(game, {}), True
            verdict = self.models.commit(game, ((r.game_id, r.ended_ms, _raw(r)) for r in adding), (count, last),
                                         self._shown(new), replace)
            if verdict == "ok":
                return
        raise RuntimeError(f"could not rate {rated[0].game_id}: the ledger of {game} kept moving")

    def _shown(self, new: Mapping[str, Rating]) -> dict[str, tuple[bytes, float, str, bool]]:
        return {entry: (r.dumps(), r.ordinal, self.pool_of(entry), r.games >= self.min_games) for entry, r in new.items()}

    def pool_of(self, entry: str) -> str:
        """Whose leaderboard an entry stands on: people's, or bots' (players made with ``bot``, and AI levels)."""
        if entry.startswith(ratings.AI_ENTRY):
            return "bots"
        if entry in self._pools:
            self._pools.move_to_end(entry)
            return self._pools[entry]
        player = self.players.get(entry)
        pool = self._pools[entry] = "bots" if player is None or player.bot else "humans"
        if len(self._pools) > POOLS_KEPT:
            self._pools.popitem(last=False)
        return pool

    # -- the rebuild -------------------------------------------------------------------------------------
    def rebuild(self, results: Iterable[Result]) -> int:
        """Every read model again from ``results`` (every ended game's, from the logs and the retained exports),
        the same bytes as the live projector wrote; how many games it folded. ``RebuildRaced`` where a projector
        rated a game meanwhile (the read models are then a mix: stop the projectors and rebuild again)."""
        kept = [r for r in results if not r.private and r.status == "finished"]
        for game in self.tables.games:
            self.models.clear(game)
        self.models.clear_history({s.player for r in kept for s in r.seats if s.player})
        folded = ratings.fold(kept)
        for game, rated in sorted(_by_game(kept).items()):  # the ledger a chunk at a time, every rating with the last
            for at in range(0, len(rated), REBUILD_CHUNK):
                chunk = rated[at:at + REBUILD_CHUNK]
                shown = self._shown(folded.get(game, {})) if at + REBUILD_CHUNK >= len(rated) else {}
                head = self.models.ledger_head(game)
                verdict = self.models.commit(game, ((r.game_id, r.ended_ms, _raw(r)) for r in chunk), (head[0], head[1]), shown)
                if verdict != "ok":
                    raise RebuildRaced(f"the ratings of {game} moved while they were rebuilt ({verdict}): a projector "
                                       "is running; stop the workers' projectors (PROJECTIONS=0) and rebuild again")
        for at in range(0, len(kept), REBUILD_CHUNK):
            chunk = kept[at:at + REBUILD_CHUNK]
            self.models.add_history(((sorted({s.player for s in r.seats if s.player}), r.game_id, r.ended_ms, r.line())
                                     for r in chunk), [r.game_id for r in chunk])
        return len(kept)

    def logged_results(self, page: int = 500) -> Iterator[Result]:
        """The result of every finished public game still in Redis, from the listing's index a page at a time (its
        work bounded by the page; a private table is never folded, so its index is not read)."""
        after = None
        while True:
            window = self.tables.index.window("status:finished", after, page)
            for _, game_id in window:
                if (result := ratings.result_of(self.tables.store.records(game_id))) is not None:
                    yield result
            if len(window) < page:
                return
            after = window[-1]


def _by_game(results: list[Result]) -> dict[str, list[Result]]:
    rated: dict[str, list[Result]] = {}
    for result in sorted(results, key=ratings.order_key):
        if result.rateable:
            rated.setdefault(result.game, []).append(result)
    return rated


def _raw(result: Result) -> bytes:
    return orjson.dumps(result_json(result), option=orjson.OPT_SORT_KEYS)


def result_json(result: Result) -> dict[str, Any]:
    """A rated result as the ledger keeps it (what a refold needs)."""
    return {**result.line(), "ended_ms": result.ended_ms, "visibility": result.visibility}


def result_from_json(kept: Mapping[str, Any]) -> Result:
    seats = tuple(ratings.SeatResult(s["seat"], s["name"], s["player"], s["ai"], bool(s.get("resigned")), s["place"], s["won"])
                  for s in kept["seats"])
    return Result(kept["game_id"], kept["game"], kept["ended_at"], kept["ended_ms"], kept["status"], kept["reason"],
                  kept["visibility"], kept["rated"], seats)
