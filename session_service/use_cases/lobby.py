"""The lobby's use cases: open a table with open seats, join it, leave it or decline a seat kept for you, start it
early, resign, abort, and the end of tables nobody plays. Each writes table commands the kernel decides (``shared.kernel.table``), so they are in the
game's log and the audit re-decides them like any move; this module adds who may ask, invite codes, players'
lists and safe retries.

Safe retries: a create sent again with the same ``Idempotency-Key`` (by the same client) answers the same table,
with the same tokens, however the first attempt ended; a join likewise (through the game's own idempotency
record). Tokens of such requests are derived from a secret kept for the request, so the answer can be given
again without ever storing a token; and derived with the server's ``TOKEN_SECRET`` too, which Redis never holds,
so what Redis keeps (the request's secret, the game's join secret, the idempotency key) rebuilds no token and no
invite: a backup or a replica of Redis hands out no seat.

Who may call a table off (``abort``, before its first move): its creator (the player who opened it, or any seat it
was opened with a name for), never a seat that joined it. A joiner gives its seat back (``leave``) while the table
waits, or resigns once it has started. So a stranger who joins a public table cannot end it (issue 33: join and
abort emptied the lobby), and one client holds seats at ``SEATS_PER_CLIENT`` tables at most (``quotas.py``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from shared.kernel import RuleViolation
from shared.kernel.table import Abandon, Abort, Decline, Join, Leave, Resign, SeatJoined, Start, Status, TableCommand
from session_service.storage.claims import CreateClaims
from session_service.use_cases.errors import (BadRequest, Finished, GameFull, GameStarted, IdempotencyKeyReused, InviteRequired,
                                    MissingToken, NameRequired, NotCreator, NotFound, NotInvited, OneSeatOnly,
                                    VersionConflict)
from session_service.use_cases.meta import Meta, dumps, epoch_ms, idempotency_field, parse_iso, seat_holding, token_hash
from session_service.use_cases.players import Player, Players, is_player_key, seat_token
from session_service.use_cases.positions import Position
from session_service.use_cases.resources import GameResource
from session_service.use_cases.reads import holds_invite
from session_service.use_cases.tables import Tables, new_game_id
from session_service.use_cases.writes import body_digest

CREATE_KEPT_S = 24 * 3600  # how long a create's Idempotency-Key is remembered
RETRIES = 8  # joins that lose their seat to another joiner, before the answer is "full"
RETRY_WAIT_S = 5.0  # how long a retried create waits for its first attempt's table to be written


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks: the player (with a player key), its key, the client the request comes from, and its network
    address (what the quotas count: a player key is no client of its own, one request makes a player)."""

    client: str
    player: Player | None = None
    key: str | None = None
    address: str | None = None


def derived(server_key: bytes, secret: str, purpose: str) -> str:
    """A token only the holder of both the server's key (``TOKEN_SECRET``, never in Redis) and the request's
    ``secret`` (kept in Redis for answering a retried request) can make again."""
    mac = hmac.new(server_key, bytes.fromhex(secret) + b"\0" + purpose.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode().rstrip("=")


def check_rated(body: Mapping[str, Any], caller: Caller, private: bool) -> None:
    """A rated table (docs/record-format.md, "Ratings"): opened by a player, public, every seat a person holds a
    player's (the caller's, or open for players to join), at least one of them."""
    if caller.player is None:
        raise MissingToken("a rated table is opened with your player key: 'Authorization: Bearer <player key>'")
    if private:
        raise BadRequest("a private table cannot be rated: ratings and histories are public")
    if any(s.get("name") is not None and not s.get("ai") for s in body["seats"]):
        raise BadRequest("every person at a rated table is a player: use {\"me\": true} or an open seat, not a name")
    if not any(s.get("me") or s.get("open") for s in body["seats"]):
        raise BadRequest("a rated table needs a player's seat")


def claim_key(claims: CreateClaims, who: str, under: str, claim: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Claim a create's ``Idempotency-Key`` (hashed: ``who`` the caller, ``under`` the key) with ``claim`` (its body's
    ``digest`` and what it makes): (True, ``claim``) when no earlier attempt's claim is there (this one is first, or
    the first one's lapsed as it was read), else (False, the first one's claim); ``IdempotencyKeyReused`` when the
    first one's body was another."""
    _, raw = claims.claim(who, under, orjson.dumps(claim), CREATE_KEPT_S)
    if raw is None:
        return True, claim
    first: dict[str, Any] = orjson.loads(raw)
    if first["digest"] != claim["digest"]:
        raise IdempotencyKeyReused()
    return False, first


class Lobby:
    def __init__(self, tables: Tables, players: Players, takeover_ai: str = "medium", token_secret: bytes | None = None):
        """``token_secret``: the server's key for tokens of retried requests (``config.token_secret``); a lobby
        without one (the worker's, which only ends idle tables) makes none."""
        self.tables, self.players, self.takeover_ai, self.token_secret = tables, players, takeover_ai, token_secret
        self.claims = CreateClaims(tables.store)

    def _derived(self, secret: str, purpose: str) -> str:
        if self.token_secret is None:
            raise RuntimeError("this lobby has no TOKEN_SECRET: it makes no tokens")
        return derived(self.token_secret, secret, purpose)

    # -- opening ----------------------------------------------------------------------------------------
    def create(self, body: Mapping[str, Any], caller: Caller, idempotency_key: str | None = None) -> GameResource:
        """Open a table; with an ``Idempotency-Key`` a retry answers the same table (and a different body under
        that key is refused)."""
        if idempotency_key is None:
            return self._create(body, caller, new_game_id(), secrets.token_hex(16))
        store = self.tables.store
        who, under = token_hash(caller.client), token_hash(idempotency_key)
        mine, claim = claim_key(self.claims, who, under,
                                {"digest": body_digest(body), "game_id": new_game_id(), "secret": secrets.token_hex(16)})
        if not mine:
            deadline = time.monotonic() + RETRY_WAIT_S
            while store.meta(claim["game_id"]) is None and time.monotonic() < deadline:
                time.sleep(0.05)  # the first attempt is still writing; past the wait, write it here
        try:
            return self._create(body, caller, claim["game_id"], claim["secret"])
        except Exception:
            if mine and store.meta(claim["game_id"]) is None:  # refused before anything was written: the key is
                self.claims.release(who, under)  # free again, for a corrected request
            raise

    def _create(self, body: Mapping[str, Any], caller: Caller, game_id: str, secret: str) -> GameResource:
        seats, players = [], {}
        keys: dict[int, str] = {}
        for i, seat in enumerate(body["seats"]):
            if seat.get("me"):
                if caller.player is None or caller.key is None:
                    raise MissingToken("a seat {\"me\": true} needs your player key: 'Authorization: Bearer <player key>'")
                if keys:
                    raise OneSeatOnly()
                players[i], keys[i] = caller.player.id, caller.key
                seats.append({"name": caller.player.name, "ai": None})
            else:
                if seat.get("player"):
                    players[i] = seat["player"]  # a seat kept open for this player: an invitation
                seats.append({k: v for k, v in seat.items() if k != "player"})
        private = body.get("visibility") == "private"
        if body.get("rated"):
            check_rated(body, caller, private)
        held = [str(s["name"]) for s in seats if s.get("name") and not s.get("ai")]
        extra = {"visibility": "private" if private else "public", "join_secret": secrets.token_hex(16),
                 "creator": caller.player.id if caller.player else "",
                 "host_name": caller.player.name if caller.player else next(iter(held), ""),
                 "creator_seats": dumps([i for i, s in enumerate(seats) if s.get("name") and not s.get("ai")]),
                 **({"rated": "1"} if body.get("rated") else {})}
        invite = self._derived(secret, "invite") if private else None
        if invite is not None:
            extra["invite_hash"] = token_hash(invite)
        resource = self.tables.create({**body, "seats": seats}, extra=extra, players=players, keys=keys, game_id=game_id,
                                      token_for=lambda seat: seat_token(self._derived(secret, f"seat:{seat}")), client=caller.address)
        created_ms = epoch_ms(parse_iso(resource["created_at"]))
        for player_id in {*players.values()}:
            self.players.remember_game(player_id, resource["id"], created_ms)
        if invite is not None:
            resource["invite"] = invite
        return resource

    # -- joining ----------------------------------------------------------------------------------------
    def join(self, game_id: str, body: Mapping[str, Any], caller: Caller, idempotency_key: str | None = None) -> dict[str, Any]:
        """Take an open seat: the one asked for, else one kept for the caller, else the first open one (if another
        joiner takes it first, the next one)."""
        player = caller.player
        if player is None and not body.get("name"):
            raise NameRequired()
        name = body.get("name") or player.name  # type: ignore[union-attr]
        meta = self.tables.meta(game_id)
        if meta.extra.get("rated") == "1" and player is None:
            raise MissingToken("a rated table seats players only: join with your player key (POST /v1/players makes one)")
        key = idempotency_key and f"join:{token_hash(caller.client)[:16]}:{idempotency_key}"
        digest = body_digest(dict(body))
        token = caller.key if player is not None else seat_token(
            self._derived(meta.extra.get("join_secret", secrets.token_hex(16)), key) if key else secrets.token_urlsafe(24))
        assert token is not None  # a Caller with a player has its key (clients.who)
        counted = False
        try:
            for _ in range(RETRIES):
                if key and (prior := self.tables.store.idempotent_answer(game_id, idempotency_field(None, key, "lobby"))):
                    return self._joined(game_id, self.tables._answer(meta, None, prior, digest), player, token, meta)
                pos = self.tables.position(game_id, meta)
                command = self._join_command(pos, body, name, player)
                if not counted:
                    counted = self._count_join(game_id, caller)
                try:
                    result = self.tables.table_command(game_id, None, command, idempotency_key=key, by="lobby", meta=meta,
                                                       tokens=lambda p, events: {command["seat"]: token},  # noqa: B023 - called here
                                                       digest=digest)
                except RuleViolation as refused:
                    if refused.code != "rules/seat_taken" or body.get("seat") is not None:
                        raise self._as_refusal(refused) from None
                    meta = self.tables.meta(game_id)  # another joiner took that seat first: choose again
                    continue
                counted = False  # the seat is held: it stays counted
                return self._joined(game_id, result, player, token, meta)
            raise GameFull()
        finally:
            if counted:  # refused after it was counted: the client holds no seat here
                self._seat_given_back(game_id, caller)

    def _count_join(self, game_id: str, caller: Caller) -> bool:
        """Count a join against the client's quotas (joins of this table, tables it holds seats at), or refuse it.
        True when a seat was counted (to be given back if the join then fails)."""
        quotas = self.tables.quotas
        if quotas is None or caller.address is None:
            return False
        quotas.admit_join(game_id, caller.address)
        quotas.admit_seat(game_id, caller.address)
        return True

    def _seat_given_back(self, game_id: str, caller: Caller) -> None:
        if self.tables.quotas is not None and caller.address is not None:
            self.tables.quotas.seat_given_back(game_id, caller.address)

    def _joined(self, game_id: str, result: Mapping[str, Any], player: Player | None, token: str | None,
                meta: Meta) -> dict[str, Any]:
        seat = next(e["data"]["seat"] for e in result["events"] if e["type"] == SeatJoined.TYPE)
        answer: dict[str, Any] = {"game": game_id, "seat": seat, "version": result["version"]}
        if player is None:
            answer["token"] = token
        else:
            self.players.remember_game(player.id, game_id, epoch_ms(parse_iso(meta.created_at)))
        return answer

    @staticmethod
    def _join_command(pos: Position, body: Mapping[str, Any], name: str, player: Player | None) -> dict[str, Any]:
        """The join command for the seat this caller takes, or the reason it takes none."""
        table, meta = pos.table, pos.meta
        if table.status != Status.WAITING:
            raise Finished() if meta.over else GameStarted()
        kept = [i for i in table.open_seats if table.seats[i].player is not None]
        mine = [i for i in kept if player is not None and table.seats[i].player == player.id]
        free = [i for i in table.open_seats if i not in kept]
        seat = body.get("seat")
        if seat is None:
            seat = next(iter(mine or free), None)
        if seat is None or seat not in (*mine, *free):
            raise GameFull(None if seat is None else f"seat {seat} is not open to you", {"open_seats": free})
        if meta.extra.get("visibility") == "private" and seat not in mine:
            if not hmac.compare_digest(token_hash(body.get("invite") or ""), meta.extra.get("invite_hash", "")):
                raise InviteRequired()
        return Join(seat=seat, name=name, player=player.id if player else None).to_record()

    @staticmethod
    def _as_refusal(refused: RuleViolation) -> Exception:
        if refused.code in ("rules/seat_taken", "rules/already_seated"):
            return GameFull(refused.message, refused.details)
        if refused.code == "rules/game_started":
            return GameStarted(refused.message)
        if refused.code == "rules/not_invited":
            return NotInvited()
        return refused

    # -- starting, resigning, aborting -----------------------------------------------------------------
    def start(self, game_id: str, caller: Caller, token: str | None, ai: str) -> dict[str, Any]:
        """The creator fills the open seats with AI seats at level ``ai`` and starts."""
        meta = self.tables.meta(game_id)
        if not self.is_creator(meta, caller, token):
            raise NotCreator()
        game = self.tables.games[meta.game]
        if ai not in game.ai.levels:
            raise RuleViolation("rules/unknown_ai", f"no AI level {ai[:32]!r}", {"ai_levels": list(game.ai.levels)})
        counted = self._count_if_all_ai(meta)
        try:
            return self.tables.table_command(game_id, None, Start(ai=ai).to_record(), by="lobby", meta=meta)
        except Exception as refused:
            if counted and self.tables.quotas is not None:  # counted only where there are quotas
                self.tables.quotas.refund_all_ai_start(meta)
            if isinstance(refused, RuleViolation):
                raise self._as_refusal(refused) from None
            raise

    def _count_if_all_ai(self, meta: Meta) -> bool:
        """A start that leaves no person at the table makes an all-AI table: its client's quota counts it (refused
        past it). Issue 33: tables of open seats, started with AI, ran past the quota a create would have met."""
        quotas = self.tables.quotas
        if quotas is None or meta.status != Status.WAITING:
            return False
        if any(not s.get("ai") and not s.get("open") for s in meta.seats):
            return False  # someone sits there
        counted: bool = quotas.admit_all_ai_start(meta)
        return counted

    def may_watch(self, meta: Meta, token: str | None) -> bool:
        """Who may watch a table without a seat: anyone, at a public one; at a private one only the players a seat is
        kept for and whoever holds its invite code (``Authorization: Bearer <invite>``). Seats always may."""
        if meta.extra.get("visibility") != "private":
            return True
        if token is None:
            return False
        if holds_invite(meta, token):
            return True
        if is_player_key(token):
            player = self.players.by_key(token)
            return any(s.get("player") == player.id for s in meta.seats)
        return False

    def check_watcher(self, meta: Meta, seat: int | None, token: str | None) -> None:
        """Refuse a spectator a private table's view, events, streams, chat and export (``may_watch``)."""
        if seat is None and not self.may_watch(meta, token):
            raise InviteRequired("this table is private: watching it needs a seat at it, an invitation to it, or its "
                                 "invite code ('Authorization: Bearer <invite>')")

    @staticmethod
    def is_creator(meta: Meta, caller: Caller, token: str | None) -> bool:
        if caller.player is not None and meta.extra.get("creator") == caller.player.id:
            return True
        seat = seat_holding(meta, token) if token else None
        return seat is not None and seat in orjson.loads(meta.extra.get("creator_seats", "[]"))

    def may_abort(self, meta: Meta, caller: Caller, token: str | None) -> bool:
        """The creator's seats only (a table opened before creators were recorded: any seat, as it was then)."""
        return "creator_seats" not in meta.extra or self.is_creator(meta, caller, token)

    def resign(self, game_id: str, seat: int, meta: Meta | None = None, caller: Caller | None = None) -> dict[str, Any]:
        """``seat`` concedes; the table's AI takes it over at the deployment's takeover level."""
        meta = meta or self.tables.meta(game_id)
        levels = self.tables.games[meta.game].ai.levels
        ai = self.takeover_ai if self.takeover_ai in levels else levels[0]
        result = self.tables.table_command(game_id, seat, Resign(ai=ai).to_record(), meta=meta)
        if caller is not None:
            self._seat_given_back(game_id, caller)
        return result

    def abort(self, game_id: str, seat: int, meta: Meta | None = None, caller: Caller | None = None,
              token: str | None = None) -> dict[str, Any]:
        """Call the table off before its first move: its creator's right (``may_abort``); ``caller`` None: the
        server's own call."""
        meta = meta or self.tables.meta(game_id)
        if caller is not None and not self.may_abort(meta, caller, token):
            raise NotCreator("only the table's creator may call it off: give your seat back (leave) while it waits, "
                             "or resign once it has started")
        return self.tables.table_command(game_id, seat, Abort().to_record(), meta=meta)

    def leave(self, game_id: str, seat: int, meta: Meta, caller: Caller, token: str | None) -> dict[str, Any]:
        """``seat`` is given back while the table waits: it opens again (for anyone). The creator leaving calls
        the table off."""
        if meta.status != Status.WAITING:
            raise Finished() if meta.over else GameStarted("the game has started: resign instead of leaving")
        if self.is_creator(meta, caller, token):
            return self.abort(game_id, seat, meta, caller, token)
        try:
            result = self.tables.table_command(game_id, seat, Leave().to_record(), meta=meta)
        except RuleViolation as refused:
            raise self._as_refusal(refused) from None
        self._seat_given_back(game_id, caller)
        if (player_id := meta.seats[seat].get("player")) is not None:
            self.players.forget_game(player_id, game_id)
        return result

    def decline(self, game_id: str, player: Player) -> dict[str, Any]:
        """``player`` turns down the open seat kept for it: the seat opens for anyone (the log says so, and the
        players at the table read it on their streams)."""
        meta = self.tables.meta(game_id)
        if meta.over:
            raise Finished()
        kept = next((s["seat"] for s in meta.seats if s.get("player") == player.id and s.get("open")), None)
        if meta.status != Status.WAITING and kept is None:
            raise GameStarted()
        if kept is None:
            raise NotInvited()
        try:
            result = self.tables.table_command(game_id, None, Decline(seat=kept, player=player.id).to_record(),
                                               by="lobby", meta=meta)
        except RuleViolation as refused:
            raise self._as_refusal(refused) from None
        self.players.forget_game(player.id, game_id)
        return result

    # -- tables nobody plays ---------------------------------------------------------------------------
    def end_if_idle(self, meta: Meta, idle_s: int, now_s: float) -> str | None:
        """End a table nobody acted on for ``idle_s``: a waiting one is aborted (it never filled), an active one
        whose waited seats are all people, or that nobody can move (``Meta.stuck``: an AI seat cannot either; or it
        waits on nobody), is abandoned. Answers what was done, or None."""
        if meta.over or parse_iso(meta.updated_at).timestamp() > now_s - idle_s:
            return None
        if meta.status == Status.WAITING:
            command: TableCommand = Abort()
        elif meta.stuck or not any(meta.seats[s].get("ai") for s in meta.to_act):
            command = Abandon(idle_s=idle_s)
        else:
            return None
        try:
            self.tables.table_command(meta.id, None, command.to_record(), expected_version=meta.version,
                                      idempotency_key=str(meta.version), by="server", meta=meta)
        except (Finished, NotFound, VersionConflict, RuleViolation):
            return None
        return command.type

    # -- the player's tables ---------------------------------------------------------------------------
    def my_games(self, player: Player, status: str | None, cursor: str | None, limit: int) -> dict[str, Any]:
        ids = self.players.game_ids(player.id, limit, cursor)
        found = [Meta.parse(game_id, raw) for game_id, raw in zip(ids, self.tables.store.metas(ids))
                 if raw is not None and (status is None or raw["status"] == status)]
        return {"games": self.tables.resources_of(found), "next": ids[-1] if len(ids) == limit else None}
