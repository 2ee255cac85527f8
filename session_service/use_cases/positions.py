"""Where a game stands: its table (``shared.kernel.table.Table``, the game's state inside), rebuilt by folding
the log, from this process's cache, else the latest snapshot.

The cache is trusted only where the log still says what it saw, its version *and* head hash: a Redis failover
can take back writes no replica had, and the game then goes on from the older version with other events.
Snapshots are speed only (the log is the truth): one that does not decode to a table is ignored.

A game is played to its end by the rules version it started under (its meta's ``rules_version``), as long as
the code provides it (``Game.retired``); a game whose version this server no longer provides is refused, with
nothing written, until one that does is deployed (docs/operations.md, "Upgrades").
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from shared.kernel import Game
from shared.kernel.table import Seating, Table
from shared.records import event_of
from session_service.use_cases.errors import RulesRetired
from session_service.use_cases.meta import Meta
from session_service.storage.store import EventStore

log = logging.getLogger("mythos.positions")
CACHE_SIZE = 2000  # positions a process keeps (STATE_CACHE_SIZE): one per game in play covers them all
SNAPSHOT_EVERY = 50  # a snapshot of the table every this many versions (SNAPSHOT_EVERY), so a rebuild folds fewer


@dataclass
class Position:
    game: Game
    seating: Seating
    meta: Meta
    table: Table
    version: int
    kept: str | None = None  # the rules process's name for this game position, when one keeps it (rules_client)


@dataclass
class Positions:
    store: EventStore
    games: Mapping[str, Game]
    size: int = CACHE_SIZE
    # version, head hash, table, and the rules process's name for the game's position there (or None)
    _cache: OrderedDict[str, tuple[int, str, Table, str | None]] = field(default_factory=OrderedDict)
    _metas: dict[str, Meta] = field(default_factory=dict)  # the meta this process last wrote or read, for those games
    _seatings: dict[tuple[str, str | None], Seating] = field(default_factory=dict)
    # each game's last table read by time travel (``at``): its version, head hash there, and the table
    _travels: OrderedDict[str, tuple[int, str, Table]] = field(default_factory=OrderedDict)
    travel_size: int = 64  # games whose last time-travelled table is kept

    def seating(self, game_type: str, rules_version: str | None = None) -> Seating:
        """The table rules around ``game_type`` at ``rules_version`` (None: the current version)."""
        seating = self._seatings.get((game_type, rules_version))
        if seating is None:
            rules = self.games[game_type].at_version(rules_version)
            if rules is None:
                raise RulesRetired(rules_version or "", self.games[game_type].rules_versions)
            seating = self._seatings[(game_type, rules_version)] = Seating(rules)
        return seating

    def seating_of(self, meta: Meta) -> Seating:
        """The rules ``meta``'s game is decided by: the version it started under."""
        return self.seating(meta.game, meta.rules_version)

    def at_head(self, meta: Meta) -> Position:
        """The table at the version read with ``meta`` (not past it: a command appended since is not part of this
        position, and a position ahead of the meta's head hash would chain new records onto a stale hash)."""
        seating = self.seating_of(meta)
        cached = self._cache.get(meta.id)
        if cached and cached[:2] == (meta.version, meta.head_hash):
            self._cache.move_to_end(meta.id)
            self._metas[meta.id] = meta
            return Position(seating.game, seating, meta, cached[2], cached[0], cached[3])
        tail = None
        if cached and cached[0] < meta.version:
            tail = self.store.records(meta.id, after=cached[0], until=meta.version)
            version, table = cached[0], cached[2]
            if not tail or tail[0]["prev"] != cached[1]:
                tail = None
        if tail is None:
            version, table = self._from_snapshot(seating, meta.id, meta.version)
            tail = self.store.records(meta.id, after=version, until=meta.version)
        table = seating.fold(table, (event_of(r) for r in tail)) if tail else table
        version = tail[-1]["v"] if tail else version
        self.remember(meta.id, version, tail[-1]["hash"] if tail else meta.head_hash, table,
                      meta if version == meta.version else None)
        return Position(seating.game, seating, meta, table, version)

    def at(self, meta: Meta, version: int) -> Table:
        """The table as of ``version`` (time travel), folded from the start of the log, or from the last table this
        process travelled to in the same game where that lies at or before ``version`` on the same chain (its
        record's hash unchanged): an audit steps through a game version by version, and each step then folds the
        events since the last instead of the whole game again."""
        seating = self.seating_of(meta)
        kept = self._travels.get(meta.id)
        if kept is not None and kept[0] <= version:
            records = self.store.records(meta.id, after=kept[0] - 1, until=version)
            if records and (records[0]["v"], records[0]["hash"]) == kept[:2]:
                return self._travelled(meta.id, records[-1], seating.fold(kept[2], (event_of(r) for r in records[1:])))
        records = self.store.records(meta.id, until=version)
        table = seating.fold(None, (event_of(r) for r in records))
        return self._travelled(meta.id, records[-1], table) if records else table

    def _travelled(self, game_id: str, last: Mapping[str, Any], table: Table) -> Table:
        self._travels[game_id] = (last["v"], last["hash"], table)
        self._travels.move_to_end(game_id)
        while len(self._travels) > self.travel_size:
            self._travels.popitem(last=False)
        return table

    def through(self, meta: Meta, records: Sequence[Mapping[str, Any]]) -> Table:
        """The table at the last of ``records`` (the newest of the log, in order), from the cache where it lies
        on the chain these records continue: every stream of a game in this process wants the same version,
        the first folds the new records in and the rest find it there."""
        seating, last, first = self.seating_of(meta), records[-1], records[0]
        cached = self._cache.get(meta.id)
        if cached and cached[:2] == (last["v"], last["hash"]):
            return cached[2]
        on_chain = cached is not None and (
            cached[:2] == (first["v"] - 1, first["prev"]) or any(cached[:2] == (r["v"], r["hash"]) for r in records))
        if on_chain and cached is not None:
            at, table = cached[0], cached[2]
        else:
            at, table = self._from_snapshot(seating, meta.id, first["v"] - 1)
            earlier = self.store.records(meta.id, after=at, until=first["v"] - 1)
            table = seating.fold(table, (event_of(r) for r in earlier)) if earlier else table
            at = first["v"] - 1
        table = seating.fold(table, (event_of(r) for r in records if r["v"] > at))
        cached = self._cache.get(meta.id)
        if cached is None or cached[0] < last["v"]:
            self.remember(meta.id, last["v"], last["hash"], table)
        return table

    def remember(self, game_id: str, version: int, head_hash: str, table: Table, meta: Meta | None = None,
                 kept: str | None = None) -> None:
        self._cache[game_id] = (version, head_hash, table, kept)
        self._cache.move_to_end(game_id)
        if meta is not None:
            self._metas[game_id] = meta
        elif (known := self._metas.get(game_id)) is not None and (known.version, known.head_hash) != (version, head_hash):
            del self._metas[game_id]
        while len(self._cache) > self.size:
            self._metas.pop(self._cache.popitem(last=False)[0], None)

    def forget_meta(self, game_id: str) -> None:
        self._metas.pop(game_id, None)

    def known_meta(self, game_id: str) -> Meta | None:
        """The meta this process last wrote or read for ``game_id``, at the version its cached table is at: maybe
        stale, so a write built on it must be checked against the log's head by the append itself."""
        meta = self._metas.get(game_id)
        cached = self._cache.get(game_id)
        if meta is None or cached is None or cached[:2] != (meta.version, meta.head_hash):
            return None
        return meta

    def snapshot(self, position: Position, version: int, table: Table) -> None:
        self.store.save_snapshot(position.meta.id, version, orjson.dumps(position.seating.codec.encode(table)))

    def _from_snapshot(self, seating: Seating, game_id: str, at_most: int) -> tuple[int, Any]:
        snap = self.store.snapshot(game_id)
        if snap is None or snap[0] > at_most:
            return 0, None
        try:
            table = seating.codec.decode(orjson.loads(snap[1]))
        except (ValueError, TypeError):
            table = None
        if not isinstance(table, Table):
            log.warning("snapshot of %s is not a table this server reads; rebuilding from the log", game_id)
            return 0, None
        return snap[0], table
