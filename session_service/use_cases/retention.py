"""Retention: finished and abandoned games are exported, then removed from Redis, so storage stops growing with play.

Without it every game stays in Redis for ever (an all-AI table is ~390 KB), and Redis runs with ``noeviction``
(``deploy/redis.conf``): when memory is full, writes fail. The policy (``session_service/config.py``):

- ``RETENTION_DAYS`` (30 by default; 0 keeps every game): a game over (finished or aborted) whose last write is
  older than this is exported, then deleted. On by default: a public deployment must not grow without bound.
- ``RETENTION_EXPORT_DIR`` (``var/exports`` under the working directory by default; ``mythos run`` puts it in its
  data directory, the image at ``/var/lib/mythos/exports``): where the exports go, one ``<game id>.json`` each, the
  portable record of ``GET /v1/games/{id}/export`` (``shared.audit.export_record``: ``mythos audit FILE`` verifies it
  with no server). Set empty, nothing is ever deleted, whatever ``RETENTION_DAYS`` says: a game is deleted only
  after its export was written, flushed to disk and read back identical (a directory that cannot be written keeps
  every game, with a warning a round).
- Abandoned games are ended first by the sweep's idle rule (``IDLE_TABLE_S``: ``Lobby.end_if_idle`` aborts a table
  that never filled and abandons one nobody plays, in its own log), so their record is a whole one; they are then
  kept ``RETENTION_DAYS`` like any ended game.
- With the projector on (``PROJECTIONS``, the default) a game is projected before it is retired (retention folds it
  itself when the projector has not yet, as for a game that ended before there were projections): the read models
  keep what they need of it (its rating update in its game type's ledger, its line in each player's history), and
  ``mythos projections rebuild`` reads the retired games from the exports in ``RETENTION_EXPORT_DIR``.

Deleting a game removes its keys (events, meta, snapshot, idempotency answers: one ``DEL``, one slot) and then
its listing and active-set entries (a lost index update leaves an entry the listing filters out and read repair
drops: ``index.py``). It runs in the worker's periodic sweep (``jobs.sweep_once``), at most once every
``RETENTION_EVERY_S`` across all workers (a Redis lock), ``RETENTION_BATCH`` games a round at most, oldest first,
from the listing's per-status indexes (the public tables' and the private ones'): its work is bounded by the batch,
never by the number of games stored. A game's chat, rematch offer and watcher counts are keys of the game's own, so
they go with it.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from session_service.storage import index
from session_service.storage.leases import Turns
from session_service.storage.projections import ReadModels
from session_service.use_cases.meta import Meta, parse_iso
from session_service.use_cases.players import Players
from session_service.use_cases.projector import Projector
from session_service.use_cases.tables import Tables

log = logging.getLogger("mythos.retention")
DAY_S = 24 * 3600
clock = time.time  # what "now" is (tests move it)
SAFE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
DEFAULT_DAYS = 30.0  # README, Configuration: how long an ended game stays playable-back from Redis itself
DEFAULT_EXPORT_DIR = "var/exports"


@dataclass(frozen=True)
class Policy:
    days: float = 0  # a Policy() is off (a test's worker); the configuration's default is on (from_config)
    export_dir: Path | None = None
    every_s: float = 300
    batch: int = 100
    after_projection: bool = False  # a game is projected before it is retired (PROJECTIONS)
    min_games: int = 3  # the leaderboards' LEADERBOARD_MIN_GAMES, for a game retention projects itself

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Policy:
        export_dir = config.get("RETENTION_EXPORT_DIR", DEFAULT_EXPORT_DIR) or None
        return cls(days=float(config.get("RETENTION_DAYS", DEFAULT_DAYS)), export_dir=Path(export_dir) if export_dir else None,
                   every_s=float(config.get("RETENTION_EVERY_S", 300)), batch=int(config.get("RETENTION_BATCH", 100)),
                   after_projection=str(config.get("PROJECTIONS", True)).lower() in ("1", "true", "yes"),
                   min_games=int(config.get("LEADERBOARD_MIN_GAMES", 3)))

    @property
    def deletes(self) -> bool:
        return self.days > 0 and self.export_dir is not None


def sweep(tables: Tables, policy: Policy, now: float | None = None, force: bool = False) -> dict[str, int]:
    """One round of the policy, unless another worker ran one in the last ``every_s`` (``force``: run anyway).
    Counts what it did (nothing when off, or when not its turn); a game that could not be exported is counted as
    ``failed`` and left as it was."""
    if not policy.deletes:
        return {}
    if not force and not Turns(tables.store).take("retention", int(policy.every_s)):
        return {}
    counts = {"exported": 0, "failed": 0}
    now = clock() if now is None else now
    if policy.deletes and policy.export_dir is not None:
        cutoff = now - policy.days * DAY_S
        models = ReadModels(tables.store)
        projector = Projector(tables, Players(tables.store), policy.min_games)
        for meta in _candidates(tables, ("finished", "aborted"), cutoff, policy.batch):
            if policy.after_projection and not models.projected(meta.id):
                projector.project(meta.id)  # its history line and rating first (one ended before projections, say)
            counts["exported" if retire(tables, meta, policy.export_dir) else "failed"] += 1
    return counts


def _candidates(tables: Tables, statuses: tuple[str, ...], cutoff: float, batch: int) -> list[Meta]:
    """Games listed under ``statuses`` created before ``cutoff`` (oldest first, ``batch`` per index at most) whose
    meta says they still have one of those statuses and have not been written since ``cutoff``."""
    found = []
    names = [name for status in statuses for name in (f"status:{status}", f"{index.PRIVATE}status:{status}")]
    ids = tables.index.created_before(names, int(cutoff * 1000), batch)
    for game_id, raw in zip(ids, tables.store.metas(ids)):
        if raw is None or raw["status"] not in statuses:
            continue  # gone, or moved on: the listing's read repair drops such entries
        meta = Meta.parse(game_id, raw)
        if parse_iso(meta.updated_at).timestamp() < cutoff:
            found.append(meta)
    return found


def retire(tables: Tables, meta: Meta, export_dir: Path) -> bool:
    """Export the game over ``meta``, then delete it; False (and the game left as it was) if the export could not
    be made whole, written, flushed and read back identical."""
    try:
        record = tables.export(meta.id)
        if len(record["events"]) != meta.version or record["head_hash"] != meta.head_hash:
            raise ValueError("the log read is not the whole log the meta describes")
        written = _write(export_dir, meta.id, orjson.dumps(record))
    except Exception:  # noqa: BLE001 - any failure to export keeps the game: the next round tries again
        log.warning("could not export %s; it is kept", meta.id, exc_info=True)
        return False
    if not written:
        return False
    tables.store.delete_game(meta.id)
    tables.index.forget(meta.id, meta.game)
    tables.store.mark_finished(meta.id)
    log.info("retired %s (exported to %s)", meta.id, export_dir)
    return True


def _write(export_dir: Path, game_id: str, data: bytes) -> bool:
    """Write ``data`` as ``<game_id>.json`` whole or not at all (a temporary file renamed over it, both flushed to
    disk), and read it back. The server makes every game id, but a name is checked before it becomes a path."""
    if not SAFE_NAME.fullmatch(game_id):
        raise ValueError(f"{game_id!r} cannot name a file")
    export_dir.mkdir(parents=True, exist_ok=True)
    path, partial = export_dir / f"{game_id}.json", export_dir / f".{game_id}.json.partial"
    with open(partial, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)
    directory = os.open(export_dir, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return path.read_bytes() == data
