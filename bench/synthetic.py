"""Game logs written straight into the store, for the benchmarks that need many or very long games.

Events come from seeded random playouts of a registered game (the acting seat and its command drawn from
``legal_commands``, decided by the game itself). A log longer than one game is several playouts back to
back (see ``long_log`` for what that means). The records are made by the service's own ``make_records``
(hash chain included) and the meta is checked by the service's ``Meta.parse``.
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import orjson

from session_service.storage.store import EventStore
from session_service.storage.index import GameIndex, names_for
from session_service.use_cases.meta import Meta, epoch_ms, iso, token_hash
from shared.kernel import Event, Game, entropy_for, fold
from shared.kernel.entropy import commitment
from shared.kernel.table import Seating
from shared.records import GENESIS, make_records

CAUSE = {"id": "bench", "seat": None, "type": "bench", "by": "bench"}


def playout(game: Game, seed: int, players: int | None = None) -> tuple[list[Event], list[int]]:
    """Every event of one seeded random game played to its end, and the log lengths after each command."""
    rand = random.Random(seed)
    players = players or game.catalogue.min_players + seed % (game.catalogue.max_players - game.catalogue.min_players + 1)
    game_seed = seed.to_bytes(8, "big")
    _, events = game.start(players, None, entropy_for(game_seed, 0))
    events = list(events)
    boundaries = [len(events)]
    state = fold(game, events)
    for _ in range(20_000):
        if game.decider.outcome(state) is not None:
            return events, boundaries
        choices = {seat: game.decider.legal_commands(state, seat) for seat in sorted(game.decider.to_act(state))}
        seat = rand.choice([seat for seat, legal in choices.items() if legal])
        command = rand.choice(choices[seat])
        new, state = game.checked_decide(state, command, seat, entropy_for(game_seed, len(events)))
        events.extend(new)
        boundaries.append(len(events))
    raise RuntimeError(f"{game.id}: seed {seed} did not end")


def long_log(game: Game, length: int, seeds: int = 12) -> list[Event]:
    """``length`` events of ``game``: ``seeds`` different playouts at one table size, joined end to end, over and over.

    No one can play such a log: where a game's setup event reads what came before (Pocket Madness carries
    each seat's madness into the next round's deal), the joined games run on from one another. But every
    step is the game's own ``evolve`` over one of its own recorded events, which is what loading costs; the
    folded state must still keep the game's invariants, or this raises ``ValueError``.
    """
    games = [playout(game, seed, players=game.catalogue.min_players)[0] for seed in range(seeds)]
    events = list(itertools.islice(itertools.chain.from_iterable(itertools.cycle(games)), length))
    try:
        game.decider.invariant(fold(game, events))
    except Exception as exc:
        raise ValueError(f"{game.id}: joined playouts do not fold to a sound state ({exc!r})") from exc
    return events


def write_game(store: EventStore, game: Game, events: list[Event], options: dict[str, Any] | None = None,
               snapshot_every: int | None = 50, game_id: str | None = None, chunk: int = 2000) -> tuple[str, dict[int, str]]:
    """Store ``events`` as a game's log and meta (and its latest snapshot); the game id and the seat tokens."""
    game_id = game_id or "g_bench" + secrets.token_urlsafe(9)
    moment = datetime.now(UTC)
    seed = secrets.token_bytes(32)
    records = make_records(events, version=0, prev_hash=GENESIS, cause=CAUSE, command=None, at=iso(moment),
                           rules_version=game.rules_version)
    seating = Seating(game)
    table, snap = None, None
    for v, event in enumerate(events, start=1):
        table = seating.evolve(table, event)
        if snapshot_every and v % snapshot_every == 0:
            snap = (v, table)
    state = table.game
    outcome = game.decider.outcome(state)
    tokens = {s: secrets.token_urlsafe(24) for s in range(game.players(state))}
    meta = {
        "game": game.id,
        "seats": orjson.dumps([{"seat": s, "name": f"Bench {s}", "ai": None, "token_hash": token_hash(tokens[s])}
                               for s in tokens]).decode(),
        "seed": seed.hex(),
        "seed_commitment": commitment(seed),
        "options": orjson.dumps(options or {}).decode(),
        "turn_timeout_s": "",
        "rules_version": game.rules_version,
        "created_at": iso(moment),
        "updated_at": iso(moment),
        "version": str(len(records)),
        "head_hash": records[-1]["hash"] if records else GENESIS,
        "status": "finished" if outcome else "active",
        "to_act": orjson.dumps(sorted(game.decider.to_act(state)) if outcome is None else []).decode(),
        "outcome": orjson.dumps(outcome.to_json() if outcome else None).decode(),
        "deadline": "",
    }
    Meta.parse(game_id, meta)  # the service must be able to read what we wrote
    stream = store.key(game_id, "events")
    for part in _chunks(records, chunk):
        with store.redis.pipeline(transaction=False) as pipe:
            for record in part:
                pipe.xadd(stream, {"r": orjson.dumps(record)}, id=f"{record['v']}-0")
            pipe.execute()
    store.redis.hset(store.key(game_id, "meta"), mapping=meta)
    GameIndex(store).enter(game_id, epoch_ms(moment), names_for(game.id, meta["status"]))
    if snap is not None:
        store.save_snapshot(game_id, snap[0], orjson.dumps(seating.codec.encode(snap[1])))
    return game_id, tokens


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]
