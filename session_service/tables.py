"""The session service's use cases: create a game, apply a command, read state, events, audits and exports.

Every HTTP view and every worker job goes through one method here, so a bot's move and a client's move take
the same path. The store holds the log; state is rebuilt by folding ``evolve`` over it (from the latest
snapshot, and from an in-process cache when this process has already seen the game). Deciding is left to the
rules service; this module only ever reads the rules (views, legal commands, to_act, outcome).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from shared import audit
from shared.kernel import EVERYONE, Game, RuleViolation, entropy_for
from shared.kernel.entropy import commitment
from shared.kernel.game import GameOver
from shared.records import GENESIS, client_event, event_of, make_records
from shared.wire.errors import ApiError, finished, malformed, not_found, version_conflict
from session_service.store import EventStore

log = logging.getLogger("mythos.tables")
RETRIES_WITHOUT_EXPECTED_VERSION = 8


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Meta:
    """A game's stored facts besides its log."""

    id: str
    game: str
    status: str
    version: int
    seats: list[dict[str, Any]]
    seed: bytes
    seed_commitment: str
    options: dict[str, Any]
    turn_timeout_s: int | None
    rules_version: str
    head_hash: str
    to_act: list[int]
    outcome: dict[str, Any] | None
    deadline: str | None
    created_at: str
    updated_at: str

    @classmethod
    def parse(cls, game_id: str, raw: Mapping[str, str]) -> Meta:
        return cls(
            id=game_id,
            game=raw["game"],
            status=raw["status"],
            version=int(raw["version"]),
            seats=orjson.loads(raw["seats"]),
            seed=bytes.fromhex(raw["seed"]),
            seed_commitment=raw["seed_commitment"],
            options=orjson.loads(raw["options"]),
            turn_timeout_s=int(raw["turn_timeout_s"]) if raw.get("turn_timeout_s") else None,
            rules_version=raw["rules_version"],
            head_hash=raw["head_hash"],
            to_act=orjson.loads(raw.get("to_act", "[]")),
            outcome=orjson.loads(raw.get("outcome", "null")),
            deadline=raw.get("deadline") or None,
            created_at=raw["created_at"],
            updated_at=raw["updated_at"],
        )

    def advanced(self, version: int, progress: Mapping[str, str]) -> Meta:
        """This meta after an append that wrote ``progress`` (the fields ``Tables._progress`` makes) at ``version``."""
        return replace(self, version=version, status=progress["status"], head_hash=progress["head_hash"],
                       to_act=orjson.loads(progress["to_act"]), outcome=orjson.loads(progress["outcome"]),
                       deadline=progress["deadline"] or None, updated_at=progress["updated_at"])

    @property
    def over(self) -> bool:
        return self.status == "finished"


@dataclass
class Position:
    game: Game
    meta: Meta
    state: Any
    version: int


@dataclass
class Scheduler:
    """Where the service hands off follow-up work (AI turns, turn timers). The real one enqueues RQ jobs."""

    after_change: Callable[[Meta], None] = lambda meta: None


@dataclass
class Tables:
    store: EventStore
    rules: Any
    games: Mapping[str, Game]
    scheduler: Scheduler = field(default_factory=Scheduler)
    snapshot_every: int = 50
    cache_size: int = 2000
    allow_client_seed: bool = False
    on_command: Callable[[str, str], None] = lambda game, result: None
    _cache: OrderedDict[str, tuple[int, Any]] = field(default_factory=OrderedDict)

    # -- games ------------------------------------------------------------------------------------
    def create(self, body: Mapping[str, Any]) -> dict[str, Any]:
        game = self.games.get(body["game"])
        if game is None:
            raise RuleViolation("rules/unknown_game", "there is no such game type", {"known": sorted(self.games)})
        for seat in body["seats"]:
            if seat["ai"] is not None and seat["ai"] not in game.ai_levels:
                raise RuleViolation("rules/unknown_ai", f"no AI level {seat['ai'][:32]!r}", {"ai_levels": list(game.ai_levels)})
        seed = self._seed(body.get("seed"))
        options, events = self.rules.setup(game, len(body["seats"]), body["options"], entropy_for(seed, 0))
        game_id = "g_" + secrets.token_urlsafe(12)
        tokens = {i: secrets.token_urlsafe(24) for i, s in enumerate(body["seats"]) if s["ai"] is None}
        seats = [
            {"seat": i, "name": s["name"], "ai": s["ai"], "token_hash": token_hash(tokens[i]) if i in tokens else None}
            for i, s in enumerate(body["seats"])
        ]
        moment = now()
        command = {"type": "setup", "players": len(seats), "options": options}
        # A random cause id, as for every command: a record's hash covers its secret fields, and without
        # something unguessable in it a seat could try each possible hidden card until the public hash matched.
        cause = {"id": secrets.token_hex(8), "seat": None, "type": "setup", "by": "server"}
        records = make_records(events, version=0, prev_hash=GENESIS, cause=cause, command=command, at=iso(moment), rules_version=game.rules_version)
        state = game.replay(event_of(r) for r in records)
        meta = {
            "game": game.id,
            "seats": orjson.dumps(seats).decode(),
            "seed": seed.hex(),
            "seed_commitment": commitment(seed),
            "options": orjson.dumps(options).decode(),
            "turn_timeout_s": str(body.get("turn_timeout_s") or ""),
            "rules_version": game.rules_version,
            "created_at": iso(moment),
            **self._progress(game, state, records, moment, body.get("turn_timeout_s")),
        }
        self.store.create(game_id, meta, records, int(moment.timestamp() * 1000))
        self._remember(game_id, len(records), state)
        created = self.meta(game_id)
        self.scheduler.after_change(created)
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
            raise malformed("this server draws its own seeds (clients may choose one only where MYTHOS_ALLOW_CLIENT_SEED=1)")
        return bytes.fromhex(chosen)

    def meta(self, game_id: str) -> Meta:
        return self.meta_of(game_id, self.store.meta(game_id) if plausible_id(game_id) else None)

    def meta_of(self, game_id: str, raw: Mapping[str, str] | None) -> Meta:
        """The meta from what the store gave for ``game_id`` (None: there is no such game)."""
        if raw is None:
            raise not_found()
        return Meta.parse(game_id, raw)

    def resource(self, game_id: str) -> dict[str, Any]:
        return self.resource_of(self.meta(game_id))

    def resource_of(self, meta: Meta) -> dict[str, Any]:
        resource = {
            "id": meta.id,
            "game": meta.game,
            "status": meta.status,
            "version": meta.version,
            "seed_commitment": meta.seed_commitment,
            "seats": [{"seat": s["seat"], "name": s["name"], "ai": s["ai"]} for s in meta.seats],
            "options": meta.options,
            "turn_timeout_s": meta.turn_timeout_s,
            "rules_version": meta.rules_version,
            "head_hash": meta.head_hash,
            "to_act": meta.to_act,
            "outcome": meta.outcome,
            "created_at": meta.created_at,
            "updated_at": meta.updated_at,
        }
        if meta.over:
            resource["seed"] = meta.seed.hex()
        return resource

    def page(self, status: str | None, game: str | None, cursor: str | None, limit: int) -> dict[str, Any]:
        found: list[dict[str, Any]] = []
        scanned = cursor
        while len(found) < limit:
            ids = self.store.game_ids(scanned, 200)
            if not ids:
                scanned = None
                break
            for game_id in ids:
                scanned = game_id
                raw = self.store.meta(game_id)
                if raw and (status is None or raw["status"] == status) and (game is None or raw["game"] == game):
                    found.append(self.resource_of(Meta.parse(game_id, raw)))
                    if len(found) == limit:
                        break
        return {"games": found, "next": scanned if len(found) == limit else None}

    # -- seats ------------------------------------------------------------------------------------
    def seat_of(self, meta: Meta, token: str | None) -> int | None:
        """The seat a bearer token belongs to; None for no token (a spectator). Compared in constant time."""
        if token is None:
            return None
        digest = token_hash(token)
        seat = None
        for s in meta.seats:
            if s["token_hash"] is not None and hmac.compare_digest(s["token_hash"], digest):
                seat = s["seat"]
        if seat is None:
            raise ApiError(401, "auth/bad_token", "that token does not belong to a seat of this game")
        return seat

    # -- positions ----------------------------------------------------------------------------------
    def position(self, game_id: str, meta: Meta | None = None) -> Position:
        """The current state: from this process's cache, else the latest snapshot, folding the log's tail."""
        meta = meta or self.meta(game_id)
        game = self.games[meta.game]
        cached = self._cache.get(game_id)
        if cached and cached[0] == meta.version:
            self._cache.move_to_end(game_id)
            return Position(game, meta, cached[1], cached[0])
        if cached and cached[0] < meta.version:
            version, state = cached
        else:
            version, state = self._from_snapshot(game, game_id, meta.version)
        # Up to the version read with the meta, not past it: a command appended since then is not part of this
        # position, and a position ahead of meta.head_hash would chain the next records onto a stale hash.
        for record in self.store.records(game_id, after=version, until=meta.version):
            state, version = game.evolve(state, event_of(record)), record["v"]
        self._remember(game_id, version, state)
        return Position(game, meta, state, version)

    def _from_snapshot(self, game: Game, game_id: str, at_most: int) -> tuple[int, Any]:
        snap = self.store.snapshot(game_id)
        if snap is None or snap[0] > at_most:
            return 0, None
        try:
            return snap[0], game.codec.decode(orjson.loads(snap[1]))
        except (ValueError, TypeError):
            log.warning("snapshot of %s does not decode; rebuilding from the log", game_id)
            return 0, None

    def state_at(self, game_id: str, meta: Meta, at: int) -> Any:
        game = self.games[meta.game]
        return game.replay(event_of(r) for r in self.store.records(game_id, until=at))

    def _remember(self, game_id: str, version: int, state: Any) -> None:
        self._cache[game_id] = (version, state)
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    # -- playing ------------------------------------------------------------------------------------
    def state(self, game_id: str, seat: int | None, at: int | None = None, meta: Meta | None = None) -> dict[str, Any]:
        """The seat's view (``meta``: the game's meta when the caller has just read it, to save a round trip)."""
        meta = meta or self.meta(game_id)
        viewer = EVERYONE if meta.over else seat
        if at is not None and at != meta.version:
            if not 1 <= at <= meta.version:
                raise malformed(f"at must be between 1 and {meta.version}", current_version=meta.version)
            game, state = self.games[meta.game], self.state_at(game_id, meta, at)
            outcome = game.outcome(state)
            return {
                "version": at,
                "status": "finished" if outcome else "active",
                "to_act": sorted(game.to_act(state)),
                "view": game.view(state, viewer),
                "legal_commands": [],
                "deadline": None,
                "outcome": outcome.to_json() if outcome else None,
            }
        pos = self.position(game_id, meta)
        legal = pos.game.legal_commands(pos.state, seat) if seat is not None and not meta.over else []
        return {
            "version": pos.version,
            "status": meta.status,
            "to_act": sorted(pos.game.to_act(pos.state)),
            "view": pos.game.view(pos.state, viewer),
            "legal_commands": legal,
            "deadline": meta.deadline,
            "outcome": meta.outcome,
        }

    def command(
        self,
        game_id: str,
        seat: int,
        command: Any,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        by: str = "seat",
        meta: Meta | None = None,
    ) -> dict[str, Any]:
        """Decide ``command`` for ``seat`` through the rules service and append its events, all or nothing.

        ``meta`` is the game's meta when the caller has just read it; a retry after a conflict reads it afresh.
        A repeated idempotency key is looked up only where its first answer would be lost (the game has moved
        on, or ended, or the rules now refuse the command): otherwise the append script itself finds it, which
        saves a round trip on every fresh command."""
        idem = f"{seat}:{idempotency_key}" if idempotency_key else ""
        known = meta
        for _ in range(RETRIES_WITHOUT_EXPECTED_VERSION):
            meta, known = known or self.meta(game_id), None
            if meta.over or (expected_version is not None and expected_version != meta.version):
                if idem and (prior := self.store.idempotent_answer(game_id, idem)) is not None:
                    return self._answer(game_id, seat, prior)
                raise finished() if meta.over else version_conflict(meta.version)
            pos = self.position(game_id, meta)
            try:
                events = self.rules.decide(pos.game, pos.state, command, seat, entropy_for(meta.seed, pos.version))
            except (RuleViolation, GameOver) as refused:
                if idem and (prior := self.store.idempotent_answer(game_id, idem)) is not None:
                    return self._answer(game_id, seat, prior)
                if isinstance(refused, RuleViolation):
                    self.on_command(meta.game, refused.code)
                raise
            moment = now()
            cause = {"id": secrets.token_hex(8), "seat": seat, "type": command["type"], "by": by}
            records = make_records(events, version=pos.version, prev_hash=meta.head_hash, cause=cause, command=command,
                                   at=iso(moment), rules_version=pos.game.rules_version)
            state = pos.game.replay(events, pos.state)
            answer = orjson.dumps({"from": pos.version + 1, "to": pos.version + len(records)}).decode()
            progress = self._progress(pos.game, state, records, moment, meta.turn_timeout_s)
            appended = self.store.append(game_id, pos.version, records, progress, idem, answer)
            if appended.status == "duplicate":
                return self._answer(game_id, seat, appended.prior)
            if appended.status == "ok":
                self._remember(game_id, appended.version, state)
                if appended.version // self.snapshot_every > pos.version // self.snapshot_every:
                    self.store.save_snapshot(game_id, appended.version, orjson.dumps(pos.game.codec.encode(state)))
                self.on_command(meta.game, "ok")
                self.scheduler.after_change(meta.advanced(appended.version, progress))
                return {"version": appended.version, "events": [client_event(r, seat) for r in records]}
            if appended.status == "missing":
                raise not_found()
            self.on_command(meta.game, "conflict")
            if expected_version is not None:
                raise version_conflict(appended.version)
        raise ApiError(409, "game/version_conflict", "the game is too busy right now; try again", {"current_version": self.meta(game_id).version})

    def _answer(self, game_id: str, seat: int, stored: str) -> dict[str, Any]:
        """Rebuild the first answer to an idempotent command from the events it wrote."""
        span = orjson.loads(stored)
        records = self.store.records(game_id, after=span["from"] - 1, until=span["to"])
        return {"version": span["to"], "events": [client_event(r, seat) for r in records]}

    def _progress(self, game: Game, state: Any, records: list[dict[str, Any]], moment: datetime, timeout_s: int | None) -> dict[str, str]:
        """Meta fields that follow each append: head hash, status, who acts, the outcome, the deadline."""
        outcome = game.outcome(state)
        acting = sorted(game.to_act(state)) if outcome is None else []
        deadline = iso(moment + timedelta(seconds=timeout_s)) if timeout_s and acting else ""
        return {
            "head_hash": records[-1]["hash"],
            "status": "finished" if outcome else "active",
            "to_act": orjson.dumps(acting).decode(),
            "outcome": orjson.dumps(outcome.to_json() if outcome else None).decode(),
            "deadline": deadline,
            "updated_at": iso(moment),
        }

    # -- events -------------------------------------------------------------------------------------
    def events(self, game_id: str, seat: int | None, after: int, limit: int) -> dict[str, Any]:
        meta = self.meta(game_id)
        viewer = EVERYONE if meta.over else seat
        records = self.store.records(game_id, after=after, limit=limit)
        return {"events": [client_event(r, viewer) for r in records], "version": meta.version}

    def stream(self, game_id: str, seat: int | None, after: int | None, keepalive_s: float) -> Iterator[str]:
        """Server-sent events: the caller's state first, then every event after ``after`` as it is appended."""
        first = self.state(game_id, seat)
        yield f"event: state\ndata: {orjson.dumps(first).decode()}\n\n"
        cursor = first["version"] if after is None else after
        while True:
            meta = self.meta(game_id)
            if meta.over and cursor >= meta.version:
                yield "event: end\ndata: {}\n\n"
                return
            records = self.store.wait_records(game_id, cursor, int(keepalive_s * 1000))
            if not records:
                yield ": keep-alive\n\n"
                continue
            viewer = EVERYONE if self.meta(game_id).over else seat
            for record in records:
                cursor = record["v"]
                yield f"id: {cursor}\nevent: event\ndata: {orjson.dumps(client_event(record, viewer)).decode()}\n\n"

    # -- audit --------------------------------------------------------------------------------------
    def audit(self, game_id: str) -> dict[str, Any]:
        meta = self.meta(game_id)
        return audit.audit_records(
            self.games.get(meta.game),
            self.store.records(game_id),
            head_hash=meta.head_hash,
            seed=meta.seed if meta.over else None,
            commitment=meta.seed_commitment,
            rules_version=meta.rules_version,
        )

    def export(self, game_id: str) -> dict[str, Any]:
        meta = self.meta(game_id)
        if not meta.over:
            raise ApiError(409, "game/not_finished", "a game is exported once it is over; it is still being played")
        return audit.export_record(
            game_id=game_id,
            game=meta.game,
            rules_version=meta.rules_version,
            options=meta.options,
            seats=[{"seat": s["seat"], "name": s["name"], "ai": s["ai"]} for s in meta.seats],
            seed=meta.seed,
            commitment=meta.seed_commitment,
            records=self.store.records(game_id),
            outcome=meta.outcome,
        )


def plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 64 and game_id.isascii() and "{" not in game_id and "}" not in game_id
