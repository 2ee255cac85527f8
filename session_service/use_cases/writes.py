"""The write side of a table: one decided batch appended, with its retries, its idempotent answers and the meta
fields that follow it.

``TableWrites.write`` is the one path every change to a game takes (a seat's command, an AI's, a timer's, the
lobby's table commands): a ``CommandRequest`` says what is asked and by whom, a ``Decider`` what it decides.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import orjson

from shared.kernel import Event, RuleViolation
from shared.kernel.game import GameOver
from shared.kernel.table import Seating, Status, Table
from shared.records import client_event, make_records
from session_service.storage import index
from session_service.storage.store import Appended, Charge
from session_service.use_cases.errors import (Finished, IdempotencyKeyReused, NotFound, RateLimited, Unreplicated,
                                              VersionConflict)
from session_service.use_cases.meta import Meta, dumps, epoch_ms, idempotency_field, iso, now, token_hash
from session_service.use_cases.ports import Scheduler
from session_service.use_cases.positions import Position
from session_service.use_cases.reads import TableReads

log = logging.getLogger("mythos.tables")

RETRIES_WITHOUT_EXPECTED_VERSION = 8
# The key of a command's answer that says whether a Redis replica confirmed its write (None: not asked, or not
# known); the HTTP layer turns it into the Mythos-Replicated header, so answers to a repeated key stay equal.
REPLICATED = "_replicated"
SERVER_MOVES = frozenset({"ai", "timeout", "server"})  # who made a batch (its cause's ``by``), besides seat and lobby
# What decides a batch: given the position, the events to append (a game command's, or the table's own), with the
# table they leave when the decider has folded them already (else None: the write folds them), and the rules
# process's name for the game's position after them when it keeps it (``Ruling.kept``; else None).
Decider = Callable[[Position], tuple[list[Event], Table | None, str | None]]


@dataclass(frozen=True)
class CommandRequest:
    """One change asked of a game: ``command`` for ``seat`` (None: the table's own, by the lobby), made ``by`` seat,
    ai, timeout, server or lobby. ``meta``: the game's meta when the caller has just read it, or knows it
    (``known_meta``: then ``unread``); ``charge``: the write's rate counters, counted by the append; ``tokens``: the
    secrets of seats the batch fills, whose hashes join the meta; ``digest``: the request's fingerprint (the
    command's by default); ``durable``: answered only once a Redis replica has the batch, else ``Unreplicated``
    (``REQUIRE_REPLICATED``: README, Durability), also when a repeated key finds it already written."""

    game_id: str
    seat: int | None
    command: Mapping[str, Any]
    expected_version: int | None = None
    idempotency_key: str | None = None
    by: str = "seat"
    meta: Meta | None = None
    unread: bool = False
    charge: Charge | None = None
    tokens: Callable[[Position, list[Event]], dict[int, str]] | None = None
    digest: str = ""
    durable: bool = False

    @property
    def idem(self) -> str:
        return idempotency_field(self.seat, self.idempotency_key, self.by)

    @property
    def fingerprint(self) -> str:
        return self.digest or body_digest(self.command)

    @property
    def asked(self) -> str | None:
        """The digest a repeated key is checked against: a server move retried may choose anew (its key decides)."""
        return None if self.by in SERVER_MOVES else self.fingerprint


class TableWrites(TableReads):
    snapshot_every: int
    scheduler: Scheduler
    on_command: Callable[[str, str], None]
    on_end: Callable[[str], bool]

    def write(self, request: CommandRequest, decide: Decider) -> dict[str, Any]:
        """Decide a batch at the head and append it, retrying on a conflict unless the client named its version.

        A repeated idempotency key is looked up only where its first answer would be lost (the game has moved
        on, or ended, or the rules now refuse the command): otherwise the append script itself finds it, which
        saves a round trip on every fresh command. ``digest`` (of the request; a command's by default): the
        same key sent with another request is refused, not answered with the first one's answer."""
        game_id, expected_version = request.game_id, request.expected_version
        idem, known, unread = request.idem, request.meta, request.unread
        for _ in range(RETRIES_WITHOUT_EXPECTED_VERSION):
            meta, known = known or self.meta(game_id), None
            if meta.over or (expected_version is not None and expected_version != meta.version):
                if idem and (prior := self.store.idempotent_answer(game_id, idem)) is not None:
                    return self._answered(meta, request, prior)
                raise Finished() if meta.over else VersionConflict(meta.version)
            pos = self.position(game_id, meta)
            try:
                events, folded, kept = decide(pos)
            except (RuleViolation, GameOver) as refused:
                if idem and (prior := self.store.idempotent_answer(game_id, idem)) is not None:
                    return self._answered(meta, request, prior)
                if unread:  # refused on what this process knew of the game: only the log's word refuses
                    unread, known = False, self.meta(game_id)
                    if (known.version, known.head_hash) != (meta.version, meta.head_hash):
                        continue
                if isinstance(refused, RuleViolation):
                    self.on_command(meta.game, refused.code)
                raise
            appended = self._append(pos, request, events, folded, kept)
            if appended is None:  # another command got there first
                self.positions.forget_meta(game_id)  # what this process knew of the game is behind
                self.on_command(meta.game, "conflict")
                if expected_version is not None:
                    raise VersionConflict(self.store.version(game_id) or meta.version)
                continue
            return appended
        raise VersionConflict(self.meta(game_id).version, "the game is too busy right now; try again")

    def _append(self, pos: Position, request: CommandRequest, events: list[Event], folded: Table | None,
                kept: str | None) -> dict[str, Any] | None:
        """Append one decided batch (``folded``: the table it leaves, when the decider folded it already; ``kept``:
        the rules process's name for the game after it); the answer, or None when the game moved first (a version
        conflict)."""
        seat, command, by, idem = request.seat, request.command, request.by, request.idem
        tokens = request.tokens(pos, events) if request.tokens else {}
        meta, moment = pos.meta, now()
        records = make_records(events, version=pos.version, prev_hash=meta.head_hash, cause=cause_of(seat, command["type"], by),
                               command=command, at=iso(moment), rules_version=pos.game.rules_version)
        table = folded if folded is not None else pos.seating.fold(pos.table, events)
        seats = seats_of(table, meta.seats, tokens) if table.seats != pos.table.seats else None
        progress = self.progress(pos.seating, table, records, moment, meta.turn_timeout_s, seats)
        moves = progress["status"] != meta.status
        if moves:  # listed under the new status before the write that gives it (session_service/storage/index.py)
            self.index.enter(meta.id, created_ms(meta), index.status_names(meta.game, progress["status"], private(meta)))
        answer = dumps({"from": pos.version + 1, "to": pos.version + len(records), "digest": request.fingerprint})
        appended = self.store.append(meta.id, pos.version, records, progress, idem, answer, meta.head_hash, request.charge)
        if appended.status == "limited":
            raise RateLimited()
        if appended.status == "duplicate":
            assert appended.prior is not None, "a duplicate carries the first answer (store._appended)"
            return self._answered(meta, request, appended.prior)
        if appended.status == "missing":
            raise NotFound()
        if appended.status == "conflict":
            return None
        self._after_append(pos, meta, table, appended, records, progress, moves, kept)
        if request.durable and appended.replicated is not True:
            raise Unreplicated()  # written, and the game goes on from it; but not an answer to build on yet
        voice = self.voice(meta, seat, seats)
        return {"version": appended.version, "events": [client_event(r, seat, voice, meta.game) for r in records],
                REPLICATED: appended.replicated}

    def _after_append(self, pos: Position, meta: Meta, table: Table, appended: Appended, records: list[dict[str, Any]],
                      progress: dict[str, str], moved: bool, kept: str | None) -> None:
        """What follows a written batch: the index, the cache (with the rules process's name for the position, which
        only a written batch earns: a decision that lost its race names a position the game never reached), a
        snapshot now and then, metrics, follow-up work."""
        if moved:
            self.index.leave(meta.id, index.status_names(meta.game, meta.status, private(meta)))
        advanced = meta.advanced(appended.version, progress)
        self.positions.remember(meta.id, appended.version, records[-1]["hash"], table, advanced, kept)
        if appended.version // self.snapshot_every > pos.version // self.snapshot_every:
            self.positions.snapshot(pos, appended.version, table)
        self.on_command(meta.game, "ok")
        if advanced.over and not self.ended(meta.id):
            return  # kept in the active set: the sweeper tells the feed (use_cases/projector.py)
        self.scheduler.after_change(advanced)

    def ended(self, game_id: str) -> bool:
        """Tell the projector's feed that ``game_id`` has ended; False when that could not be done now."""
        if self.on_end(game_id):
            return True
        log.warning("could not tell the projector that %s ended; the sweeper will", game_id)
        return False

    def _answer(self, meta: Meta, seat: int | None, stored: str, digest: str | None, durable: str = "") -> dict[str, Any]:
        """Rebuild the first answer to an idempotent command from the events it wrote; refused when the key was
        first sent with another request (answers stored before digests were kept are answered as they are). With
        ``durable`` (the request's idempotency field), answered only once a replica has those events
        (``EventStore.confirm``)."""
        span = orjson.loads(stored)
        if digest is not None and span.get("digest", digest) != digest:
            raise IdempotencyKeyReused()
        if durable and not self.store.confirm(meta.id, durable):
            raise Unreplicated()
        records = self.store.records(meta.id, after=span["from"] - 1, until=span["to"])
        voice = self.voice(meta, seat)
        return {"version": span["to"], "events": [client_event(r, seat, voice, meta.game) for r in records],
                REPLICATED: True if durable else None}

    def _answered(self, meta: Meta, request: CommandRequest, stored: str) -> dict[str, Any]:
        """``_answer`` for ``request``, a repeat of a command already written."""
        return self._answer(meta, request.seat, stored, request.asked, request.idem if request.durable else "")

    def progress(self, seating: Seating, table: Table, records: list[dict[str, Any]], moment: datetime,
                 timeout_s: int | None, seats: list[dict[str, Any]] | None = None) -> dict[str, str]:
        """Meta fields that follow each append: head hash, status, who is waited on, the outcome, the deadline
        (and the seats, when the batch changed them)."""
        standing = standing_of(seating, table, moment, timeout_s)
        return {
            "head_hash": records[-1]["hash"],
            "status": standing["status"],
            "to_act": dumps(standing["to_act"]),
            "outcome": dumps(standing["outcome"]),
            "deadline": standing["deadline"] or "",
            "updated_at": iso(moment),
            **({"seats": dumps(seats)} if seats is not None else {}),
        }


def standing_of(seating: Seating, table: Table, moment: datetime, timeout_s: int | None) -> dict[str, Any]:
    """Status, the seats the game waits on, the outcome and the deadline of ``table`` reached at ``moment``: what
    the meta records after each append, and what a stream's ``turn`` message says at each version."""
    final = seating.outcome(table)
    waited = sorted(seating.to_act(table)) if final is None else []
    status = Status.FINISHED if final is not None and table.status != Status.ABORTED else table.status
    return {
        "status": str(status),
        "to_act": waited,
        "outcome": final.to_json() if final else None,
        "deadline": iso(moment + timedelta(seconds=timeout_s)) if timeout_s and waited else None,
    }


def seats_of(table: Table, prior: Sequence[Mapping[str, Any]], tokens: Mapping[int, str]) -> list[dict[str, Any]]:
    """The meta's seats: the table's, with what only the session keeps (token hashes, a new seat's token)."""
    kept = {s["seat"]: s for s in prior}
    seats = []
    for i, seat in enumerate(table.seats):
        before = kept.get(i, {})
        # a seat given back (left, declined) keeps no token: whoever held it holds nothing here any more
        held = seat.name is not None or table.legacy
        token = token_hash(tokens[i]) if i in tokens else before.get("token_hash") if held else None
        name = before.get("name") if table.legacy else seat.name  # a log from before tables names no seat
        seats.append({"seat": i, "name": name, "ai": seat.ai or (before.get("ai") if table.legacy else None),
                      "token_hash": token, "player": seat.player,
                      **({"open": True} if seat.name is None else {}), **({"resigned": True} if seat.resigned else {})})
    return seats


def body_digest(body: Any) -> str:
    """A request's fingerprint, for telling a retry from another request sent under the same key."""
    return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()[:32]


def cause_of(seat: int | None, kind: str, by: str) -> dict[str, Any]:
    """A batch's cause. Its id is random and 128 bits long: a record's hash covers its secret fields, and without
    something unguessable in it a seat could try each possible hidden card until the public hash matched."""
    return {"id": secrets.token_hex(16), "seat": seat, "type": kind, "by": by}


def private(meta: Meta) -> bool:
    return meta.extra.get("visibility") == "private"


def created_ms(meta: Meta) -> int:
    return epoch_ms(datetime.fromisoformat(meta.created_at.replace("Z", "+00:00")))
