"""The session service's use cases: open a table, apply a command, read state, events, audits and exports.

Every HTTP view and every worker job goes through one method here, so a bot's move and a client's move take
the same path. The store holds the log; the table (``shared.kernel.table``: the seats, and the game's state
inside) is rebuilt by folding it (``positions.py``). Game rules are decided by the rules service; the table's
own commands (joining, resigning …) by the kernel's ``Seating``, which the audit re-decides the same way.
Nothing here knows HTTP: refusals are ``errors.Refused``, and live streams are in ``live.py``.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import orjson

from shared import audit
from shared.kernel import Event, Game, RuleViolation, entropy_for, viewer_for
from shared.kernel.entropy import commitment
from shared.kernel.game import GameOver
from shared.kernel.narration import Voice
from shared.kernel.table import Seating, Status, Table, table_batch
from shared.kernel.table_narration import voice_for
from shared.records import GENESIS, client_event, make_records
from session_service.storage import index
from session_service.use_cases.errors import (BadRequest, BadToken, Finished, IdempotencyKeyReused, NotFinished, NotFound,
                                    RateLimited, VersionConflict)
from session_service.use_cases.meta import Meta, dumps, epoch_ms, idempotency_field, iso, now, plausible_id, seat_holding, token_hash
from session_service.use_cases.players import KEY_PREFIX as PLAYER_KEY_PREFIX, seat_token
from session_service.use_cases.positions import CACHE_SIZE, SNAPSHOT_EVERY, Position, Positions
from session_service.use_cases.resources import GameResource, SeatState, resource_of
from session_service.use_cases.watchers import Leases, Watchers
from session_service.storage.store import Appended, Charge, EventStore

log = logging.getLogger("mythos.tables")
RETRIES_WITHOUT_EXPECTED_VERSION = 8
# The key of a command's answer that says whether a Redis replica confirmed its write (None: not asked, or not
# known); the HTTP layer turns it into the Mythos-Replicated header, so answers to a repeated key stay equal.
REPLICATED = "_replicated"
SERVER_MOVES = frozenset({"ai", "timeout", "server"})  # who made a batch (its cause's ``by``), besides seat and lobby
PAGE_SLACK = 50  # index entries a page may pass over (games whose status moved on) before it answers short
# What decides a batch: given the position, the events to append (a game command's, or the table's own), with the
# table they leave when the decider has folded them already (else None: the write folds them), and the rules
# process's name for the game's position after them when it keeps it (``Ruling.kept``; else None).
Decider = Callable[[Position], tuple[list[Event], Table | None, str | None]]


@dataclass
class Scheduler:
    """Where the service hands off follow-up work (AI turns, turn timers). The real one enqueues RQ jobs
    (``session_service.scheduler``)."""

    after_change: Callable[[Meta], None] = lambda meta: None


@dataclass
class Tables:
    store: EventStore
    rules: Any
    games: Mapping[str, Game]
    scheduler: Scheduler = field(default_factory=Scheduler)
    snapshot_every: int = SNAPSHOT_EVERY
    cache_size: int = CACHE_SIZE
    allow_client_seed: bool = False
    quotas: Any = None  # session_service/use_cases/quotas.py: what one client may open and make the worker play
    on_command: Callable[[str, str], None] = lambda game, result: None

    def __post_init__(self) -> None:
        self.index = index.GameIndex(self.store)
        self.positions = Positions(self.store, self.games, self.cache_size)
        self.watchers = Watchers(self.store, Leases(self.store))

    # -- opening a table --------------------------------------------------------------------------
    def create(self, body: Mapping[str, Any], extra: Mapping[str, str] | None = None,
               players: Mapping[int, str] | None = None, keys: Mapping[int, str] | None = None,
               game_id: str | None = None, token_for: Callable[[int], str] | None = None,
               client: str | None = None, holders: Mapping[int, str] | None = None,
               quota_client: str | None = None) -> GameResource:
        """Open a table: ``body`` as ``POST /v1/games`` takes it, its seats ``{name, ai}`` or ``{open: true}`` (the
        lobby resolves ``me``). A seat held by a person who is not a player gets a token, answered once here;
        ``players``: seat → player id (of a seat a player holds, or one kept open for them), ``keys``: seat →
        that player's key (its hash checks the seat like a token's). A table with no open seat is set up at once.
        ``extra``: the lobby's meta fields; ``game_id`` and ``token_for``: an idempotent retry's (the same id and
        tokens again; a table that exists already is answered as it stands); ``client``: who opens it, for the
        quotas (None: the server itself, no quota; ``quota_client``: the quotas' digest of a client, instead);
        ``holders``: seat → the token hash of a person's seat held already (a rematch's: the same token plays on)."""
        game = self.games.get(body["game"])
        if game is None:
            raise RuleViolation("rules/unknown_game", "there is no such game type", {"known": sorted(self.games)})
        for seat in body["seats"]:
            if seat.get("ai") is not None and seat["ai"] not in game.ai.levels:
                raise RuleViolation("rules/unknown_ai", f"no AI level {seat['ai'][:32]!r}", {"ai_levels": list(game.ai.levels)})
        seed, game_id, players, keys = self._seed(body.get("seed")), game_id or new_game_id(), players or {}, keys or {}
        seats = [{"name": None if s.get("open") else s["name"], "ai": s.get("ai"), "player": players.get(i),
                  "open": bool(s.get("open"))} for i, s in enumerate(body["seats"])]
        command = {"type": "open_table", "game_id": game_id, "seats": seats, "options": body.get("options") or {},
                   "visibility": body.get("visibility", "public")}
        seating = self.positions.seating(game.id)
        events = table_batch(seating, None, command, None, self._setup(game, seed))
        moment = now()
        records = make_records(events, version=0, prev_hash=GENESIS, cause=cause_of(None, "open_table", "server"),
                               command=command, at=iso(moment), rules_version=game.rules_version)
        table = seating.fold(None, events)
        token_for = token_for or (lambda seat: seat_token(secrets.token_urlsafe(24)))
        holders = holders or {}
        tokens = {i: token_for(i) for i, s in enumerate(seats)
                  if s["name"] is not None and s["ai"] is None and i not in players and i not in holders}
        admitted = self.quotas.admit(game_id, body, client, quota_client) if self.quotas else {}  # refused: nothing written
        extra = {**(extra or {}), **admitted}
        held = [{"seat": i, "token_hash": h} for i, h in holders.items()]
        meta = {
            "game": game.id, "seed": seed.hex(), "seed_commitment": commitment(seed), "options": dumps(table.options),
            "turn_timeout_s": str(body.get("turn_timeout_s") or ""), "rules_version": game.rules_version,
            "created_at": iso(moment), **extra,
            **self.progress(seating, table, records, moment, body.get("turn_timeout_s"),
                            seats_of(table, held, {**tokens, **keys})),
        }
        # Listed before it is written: a listing shows only games whose meta exists (session_service/storage/index.py).
        self.index.enter(game_id, epoch_ms(moment), index.names_for(game.id, meta["status"], command["visibility"] == "private"))
        if self.store.create(game_id, meta, records).status == "ok":
            created = self.meta(game_id)
            self.positions.remember(game_id, len(records), records[-1]["hash"], table, created)
            self.scheduler.after_change(created)
        else:  # an idempotent retry raced its first try, which wrote first: that table is the answer
            created = self.meta(game_id)
        resource = self.resource_of(created)
        for seat in resource["seats"]:
            if seat["seat"] in tokens:
                seat["token"] = tokens[seat["seat"]]
        return resource

    def _seed(self, chosen: str | None) -> bytes:
        """A fresh secret seed; a client's own only where the operator allows it (whoever knows it knows the deck)."""
        if chosen is None:
            return secrets.token_bytes(32)
        if not self.allow_client_seed or len(chosen) % 2:
            raise BadRequest("this server draws its own seeds (clients may choose one only where MYTHOS_ALLOW_CLIENT_SEED=1)")
        return bytes.fromhex(chosen)

    def _setup(self, game: Game, seed: bytes) -> Callable[[int, Mapping[str, Any]], list[Event]]:
        """The game's setup through the rules service, with the game's first entropy (its own event count, 0)."""
        return lambda players, options: self.rules.setup(game, players, dict(options), entropy_for(seed, 0))[1]

    # -- reading --------------------------------------------------------------------------------------
    def meta(self, game_id: str) -> Meta:
        return self.meta_of(game_id, self.store.meta(game_id) if plausible_id(game_id) else None)

    def known_meta(self, game_id: str, version: int | None) -> Meta | None:
        """The meta this process last wrote or read for ``game_id``, when it is at ``version`` (None: any), else
        None: a command on it saves the meta's round trip, and its append checks the log is still there (version
        and head hash). Every change to a meta goes with an append that moves the version, so a meta at the
        log's version and head is the log's meta."""
        known = self.positions.known_meta(game_id)
        return known if known is not None and version in (None, known.version) else None

    def meta_of(self, game_id: str, raw: Mapping[str, str] | None) -> Meta:
        """The meta from what the store gave for ``game_id`` (None: there is no such game)."""
        if raw is None:
            raise NotFound()
        return Meta.parse(game_id, raw)

    def resource(self, game_id: str) -> GameResource:
        return self.resources_of([self.meta(game_id)])[0]

    def resources_of(self, metas: Sequence[Meta]) -> list[GameResource]:
        """The game resources of ``metas``, with how many watch each (one round trip for them all)."""
        counts = self.watchers.counts([meta.id for meta in metas]) if metas else []
        return [self.resource_of(meta, watchers) for meta, watchers in zip(metas, counts)]

    def resource_of(self, meta: Meta, watchers: int = 0) -> GameResource:
        return resource_of(meta, watchers)

    def page(self, status: str | None, game: str | None, cursor: str | None, limit: int,
             open_seats: int = 0) -> dict[str, Any]:
        """A page of the public listing, newest first, from the one index that answers these filters: the work is
        bounded by the page (plus up to PAGE_SLACK entries of games whose status has moved on, or with fewer than
        ``open_seats`` open seats), never by the number of stored games. The meta decides what is shown
        (session_service/storage/index.py)."""
        name = index.name_for(status, game)
        after = self.index.position(cursor) if cursor else None
        found: list[Meta] = []
        passed, more = 0, True
        while more and len(found) < limit and passed <= PAGE_SLACK:
            wanted = limit - len(found)
            window = self.index.window(name, after, wanted)
            more = len(window) == wanted
            for position, raw in zip(window, self.store.metas([game_id for _, game_id in window])):
                after = position
                if raw and raw.get("visibility") == "private":  # never listed: kept in indexes of its own now
                    passed += 1
                    self.index.move_private(name, position)
                elif (raw and (status is None or raw["status"] == status) and (game is None or raw["game"] == game)
                        and open_seats <= sum(1 for s in orjson.loads(raw["seats"]) if s.get("open"))):
                    found.append(Meta.parse(position[1], raw))
                else:
                    passed += 1
                    if self.index.stale(name, position, raw):
                        self.index.drop(name, position[1])
        return {"games": self.resources_of(found), "next": after[1] if more and after else None}

    def seat_of(self, meta: Meta, token: str | None) -> int | None:
        """The seat a bearer token (a seat token, or a player key) belongs to; None for no token (a spectator);
        refused for a seat token of no seat here."""
        if token is None:
            return None
        seat = seat_holding(meta, token)
        if seat is None and not token.startswith(PLAYER_KEY_PREFIX) and not holds_invite(meta, token):
            raise BadToken()
        return seat  # a player key of no seat here, or a private table's invite code, reads as a spectator

    def position(self, game_id: str, meta: Meta | None = None) -> Position:
        return self.positions.at_head(meta or self.meta(game_id))

    def state(self, game_id: str, seat: int | None, at: int | None = None, meta: Meta | None = None,
              reader: str | None = None) -> SeatState:
        """The seat's view (``meta``: the game's meta when the caller has just read it, to save a round trip); at
        an earlier version ``at``, folded from the log (``reader``'s read budget pays for its ``at`` events)."""
        meta = meta or self.meta(game_id)
        viewer = viewer_for(seat, meta.over)
        if at is not None and at != meta.version:
            if not 1 <= at <= meta.version:
                raise BadRequest(f"at must be between 1 and {meta.version}", {"current_version": meta.version})
            self.charge_read(reader, at)
            seating = self.positions.seating_of(meta)
            table = self.positions.at(meta, at)
            final = seating.outcome(table)
            return {"version": at, "status": str(table.status), "to_act": sorted(seating.to_act(table)),
                    "view": view_of(seating, table, viewer), "legal_commands": [], "deadline": None,
                    "outcome": final.to_json() if final else None, "stuck": False}
        pos = self.position(game_id, meta)
        return {
            "version": pos.version,
            "status": meta.status,
            "to_act": meta.to_act,
            "view": view_of(pos.seating, pos.table, viewer),
            "legal_commands": pos.seating.legal_commands(pos.table, seat),
            "deadline": meta.deadline,
            "outcome": meta.outcome,
            "stuck": meta.stuck,
        }

    def charge_read(self, reader: str | None, events: int) -> None:
        """Count ``events`` log events read for ``reader`` (its read budget: quotas.py), or refuse the read."""
        if reader is not None and self.quotas is not None:
            self.quotas.read(reader, events)

    def events(self, game_id: str, seat: int | None, after: int, limit: int, reader: str | None = None) -> dict[str, Any]:
        meta = self.meta(game_id)
        self.charge_read(reader, min(limit, meta.version - after))
        viewer = viewer_for(seat, meta.over)
        records = self.store.records(game_id, after=after, limit=limit)
        voice = self.voice(meta, seat)
        return {"events": [client_event(r, viewer, voice) for r in records], "version": meta.version}

    def voice(self, meta: Meta, seat: int | None, seats: Sequence[Mapping[str, Any]] | None = None) -> Voice:
        """How ``meta``'s log reads to ``seat``: its game's sentences, with the seats' names (``seats``: the meta's
        seats as a batch just left them, when it changed them)."""
        return voice_for(self.games[meta.game], seat, [s.get("name") for s in seats or meta.seats])

    def audit(self, game_id: str, reader: str | None = None) -> dict[str, Any]:
        """The hash chain checked, and once the game is over every command re-decided from the revealed seed. That
        re-decision (30 ms of CPU for 568 events) is made once per game and kept: an ended log cannot change, and
        the chain, checked on every call (a few ms), says it is the log that was re-decided (the kept report is used
        only while its head hash is the meta's and the chain verifies)."""
        meta = self.meta(game_id)
        self.charge_read(reader, meta.version)
        records, game = self.store.records(game_id), self.games.get(meta.game)
        chain = audit.audit_records(game, records, head_hash=meta.head_hash, seed=None, commitment=meta.seed_commitment,
                                    rules_version=meta.rules_version)
        if not meta.over:
            return chain
        kept = self.store.kept_audit(game_id) if chain["chain_ok"] else None
        if kept is not None and (report := orjson.loads(kept))["head_hash"] == meta.head_hash:
            return dict(report)
        report = audit.audit_records(game, records, head_hash=meta.head_hash, seed=meta.seed,
                                     commitment=meta.seed_commitment, rules_version=meta.rules_version)
        if report["chain_ok"]:
            self.store.keep_audit(game_id, orjson.dumps(report))
        return report

    def export(self, game_id: str, reader: str | None = None) -> dict[str, Any]:
        meta = self.meta(game_id)
        if not meta.over:
            raise NotFinished()
        self.charge_read(reader, meta.version)
        return audit.export_record(
            game_id=game_id, game=meta.game, rules_version=meta.rules_version, options=meta.options,
            seats=[{"seat": s["seat"], "name": s["name"], "ai": s["ai"]} for s in meta.seats], seed=meta.seed,
            commitment=meta.seed_commitment, records=self.store.records(game_id), outcome=meta.outcome,
        )

    # -- writing --------------------------------------------------------------------------------------
    def command(self, game_id: str, seat: int, command: Any, expected_version: int | None = None,
                idempotency_key: str | None = None, by: str = "seat", meta: Meta | None = None,
                charge: Charge | None = None, unread: bool = False) -> dict[str, Any]:
        """Decide a game ``command`` for ``seat`` through the rules service and append its events, all or nothing
        (``by``: seat, ai or timeout). ``meta`` is the game's meta when the caller has just read it, or knows it
        (``known_meta``: then ``unread``); ``charge``: the write's rate counters, counted by the append (refused:
        ``RateLimited``)."""

        def decide(pos: Position) -> tuple[list[Event], Table, str | None]:
            pos.seating.check_game_command(pos.table)
            if by == "seat" and seat in pos.table.resigned:
                raise RuleViolation("rules/resigned", "this seat has resigned: the table's AI plays it now")
            entropy = entropy_for(pos.meta.seed, pos.table.game_events)
            ruling = self.rules.decide(pos.game, pos.table.game, command, seat, entropy, kept=pos.kept)
            events, table = pos.seating.played(pos.table, ruling.events)
            return events, table, ruling.kept

        return self.write(game_id, seat, command, decide, expected_version, idempotency_key, by, meta, charge=charge,
                          unread=unread)

    def table_command(self, game_id: str, seat: int | None, command: Mapping[str, Any], *,
                      expected_version: int | None = None, idempotency_key: str | None = None, by: str = "seat",
                      meta: Meta | None = None, tokens: Callable[[Position, list[Event]], dict[int, str]] | None = None,
                      digest: str = "") -> dict[str, Any]:
        """A table command (``join``, ``start``, ``resign``, ``abort``, ``abandon``: see ``table_batch``) decided by
        the kernel's ``Seating``, with the game's setup when it fills the table; ``tokens(position, events)``:
        the secrets (seat tokens, player keys) of seats the batch fills, whose hashes join the meta."""

        def decide(pos: Position) -> tuple[list[Event], None, None]:
            return table_batch(pos.seating, pos.table, command, seat, self._setup(pos.game, pos.meta.seed)), None, None

        return self.write(game_id, seat, command, decide, expected_version, idempotency_key, by, meta, tokens, digest)

    def write(self, game_id: str, seat: int | None, command: Mapping[str, Any], decide: Decider,
              expected_version: int | None, idempotency_key: str | None, by: str, meta: Meta | None,
              tokens: Callable[[Position, list[Event]], dict[int, str]] | None = None, digest: str = "",
              charge: Charge | None = None, unread: bool = False) -> dict[str, Any]:
        """Decide a batch at the head and append it, retrying on a conflict unless the client named its version.

        A repeated idempotency key is looked up only where its first answer would be lost (the game has moved
        on, or ended, or the rules now refuse the command): otherwise the append script itself finds it, which
        saves a round trip on every fresh command. ``digest`` (of the request; a command's by default): the
        same key sent with another request is refused, not answered with the first one's answer."""
        idem = idempotency_field(seat, idempotency_key, by)
        digest = digest or body_digest(command)
        asked = None if by in SERVER_MOVES else digest  # a server move retried may choose anew: its key alone decides
        known = meta
        for _ in range(RETRIES_WITHOUT_EXPECTED_VERSION):
            meta, known = known or self.meta(game_id), None
            if meta.over or (expected_version is not None and expected_version != meta.version):
                if idem and (prior := self.store.idempotent_answer(game_id, idem)) is not None:
                    return self._answer(meta, seat, prior, asked)
                raise Finished() if meta.over else VersionConflict(meta.version)
            pos = self.position(game_id, meta)
            try:
                events, folded, kept = decide(pos)
            except (RuleViolation, GameOver) as refused:
                if idem and (prior := self.store.idempotent_answer(game_id, idem)) is not None:
                    return self._answer(meta, seat, prior, asked)
                if unread:  # refused on what this process knew of the game: only the log's word refuses
                    unread, known = False, self.meta(game_id)
                    if (known.version, known.head_hash) != (meta.version, meta.head_hash):
                        continue
                if isinstance(refused, RuleViolation):
                    self.on_command(meta.game, refused.code)
                raise
            appended = self._append(pos, seat, command, events, folded, idem, by, tokens(pos, events) if tokens else {},
                                    digest, asked, charge, kept)
            if appended is None:  # another command got there first
                self.positions.forget_meta(game_id)  # what this process knew of the game is behind
                self.on_command(meta.game, "conflict")
                if expected_version is not None:
                    raise VersionConflict(self.store.version(game_id) or meta.version)
                continue
            return appended
        raise VersionConflict(self.meta(game_id).version, "the game is too busy right now; try again")

    def _append(self, pos: Position, seat: int | None, command: Mapping[str, Any], events: Sequence[Event],
                folded: Table | None, idem: str, by: str, tokens: Mapping[int, str], digest: str,
                asked: str | None, charge: Charge | None = None, kept: str | None = None) -> dict[str, Any] | None:
        """Append one decided batch (``folded``: the table it leaves, when the decider folded it already; ``kept``:
        the rules process's name for the game after it); the answer, or None when the game moved first (a version
        conflict)."""
        meta, moment = pos.meta, now()
        records = make_records(events, version=pos.version, prev_hash=meta.head_hash, cause=cause_of(seat, command["type"], by),
                               command=command, at=iso(moment), rules_version=pos.game.rules_version)
        table = folded if folded is not None else pos.seating.fold(pos.table, events)
        seats = seats_of(table, meta.seats, tokens) if table.seats != pos.table.seats else None
        progress = self.progress(pos.seating, table, records, moment, meta.turn_timeout_s, seats)
        moves = progress["status"] != meta.status
        if moves:  # listed under the new status before the write that gives it (session_service/storage/index.py)
            self.index.enter(meta.id, created_ms(meta), index.status_names(meta.game, progress["status"], private(meta)))
        answer = dumps({"from": pos.version + 1, "to": pos.version + len(records), "digest": digest})
        appended = self.store.append(meta.id, pos.version, records, progress, idem, answer, meta.head_hash, charge)
        if appended.status == "limited":
            raise RateLimited()
        if appended.status == "duplicate":
            assert appended.prior is not None, "a duplicate carries the first answer (store._appended)"
            return self._answer(meta, seat, appended.prior, asked)
        if appended.status == "missing":
            raise NotFound()
        if appended.status == "conflict":
            return None
        self._after_append(pos, meta, table, appended, records, progress, moves, kept)
        voice = self.voice(meta, seat, seats)
        return {"version": appended.version, "events": [client_event(r, seat, voice) for r in records],
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
        self.scheduler.after_change(advanced)

    def _answer(self, meta: Meta, seat: int | None, stored: str, digest: str | None) -> dict[str, Any]:
        """Rebuild the first answer to an idempotent command from the events it wrote; refused when the key was
        first sent with another request (answers stored before digests were kept are answered as they are)."""
        span = orjson.loads(stored)
        if digest is not None and span.get("digest", digest) != digest:
            raise IdempotencyKeyReused()
        records = self.store.records(meta.id, after=span["from"] - 1, until=span["to"])
        voice = self.voice(meta, seat)
        return {"version": span["to"], "events": [client_event(r, seat, voice) for r in records], REPLICATED: None}

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


def view_of(seating: Seating, table: Table, viewer: Any) -> dict[str, Any]:
    """What ``viewer`` sees: the game's view, or, while seats are open, which ones."""
    if table.game is None:
        return {"open_seats": table.open_seats}
    return seating.game.decider.view(table.game, viewer)


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


def new_game_id() -> str:
    return "g_" + secrets.token_urlsafe(12)


def cause_of(seat: int | None, kind: str, by: str) -> dict[str, Any]:
    """A batch's cause. Its id is random and 128 bits long: a record's hash covers its secret fields, and without
    something unguessable in it a seat could try each possible hidden card until the public hash matched."""
    return {"id": secrets.token_hex(16), "seat": seat, "type": kind, "by": by}


def holds_invite(meta: Meta, token: str) -> bool:
    """Is ``token`` the invite code of ``meta``'s private table? (Compared in constant time, as a hash.)"""
    kept = meta.extra.get("invite_hash")
    return kept is not None and hmac.compare_digest(token_hash(token), kept)


def private(meta: Meta) -> bool:
    return meta.extra.get("visibility") == "private"


def created_ms(meta: Meta) -> int:
    return epoch_ms(datetime.fromisoformat(meta.created_at.replace("Z", "+00:00")))
