"""The read side of a table: its meta, resource, listing, a seat's state, events, audit and export.

``TableReads`` is the part of ``tables.Tables`` that writes nothing but the read budgets and the kept audit; its
collaborators are ``Tables``' own (declared here for the type checker).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import orjson

from shared import audit, ratings
from shared.kernel import Game, viewer_for
from shared.kernel.narration import Voice
from shared.kernel.table import Seating, Table
from shared.kernel.table_narration import voice_for
from shared.records import client_event
from session_service.storage import index
from session_service.storage.store import EventStore
from session_service.use_cases.errors import BadToken, NotFinished, NotFound, VersionOutOfRange
from session_service.use_cases.meta import Meta, plausible_id, seat_holding, token_hash
from session_service.use_cases.players import KEY_PREFIX as PLAYER_KEY_PREFIX
from session_service.use_cases.positions import Position, Positions
from session_service.use_cases.quotas import Quotas
from session_service.use_cases.resources import GameResource, SeatState, resource_of
from session_service.use_cases.watchers import Watchers

PAGE_SLACK = 50  # index entries a page may pass over (games whose status moved on) before it answers short


class Commander(NamedTuple):
    """Whom a command comes from: the game's meta as it was found, the bearer's seat (None: a spectator's token, or
    none), and whether that meta is what this process knew rather than read (``known_meta``: then only the log's
    word refuses the command)."""

    meta: Meta
    seat: int | None
    unread: bool


class TableReads:
    store: EventStore
    games: Mapping[str, Game]
    quotas: Quotas | None
    index: index.GameIndex
    positions: Positions
    watchers: Watchers
    bots_among: Callable[[Iterable[str]], set[str]]

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
        """The game resources of ``metas``, with how many watch each and which seats bot accounts hold (one round
        trip each for them all)."""
        counts = self.watchers.counts([meta.id for meta in metas]) if metas else []
        bots = self.bots_among({s["player"] for meta in metas for s in meta.seats if s.get("player")})
        return [self.resource_of(meta, watchers, bots) for meta, watchers in zip(metas, counts)]

    def resource_of(self, meta: Meta, watchers: int = 0, bots: set[str] | None = None) -> GameResource:
        """``bots``: the bot accounts among the seats' players, when the caller has looked them up."""
        if bots is None:
            bots = self.bots_among({s["player"] for s in meta.seats if s.get("player")})
        return resource_of(meta, watchers, bots)

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

    def commander(self, game_id: str, token: str | None, expected_version: int | None) -> Commander:
        """The meta and seat a command sent with ``token`` is played with. The meta this process knows of the game
        stands in for a read when it is at the version the command expects (its append checks the log is still
        there); a token that holds no seat in it is looked for again in the log's."""
        known = self.known_meta(game_id, expected_version)
        meta = known or self.meta(game_id)
        try:
            seat = self.seat_of(meta, token)
        except BadToken:
            if known is None:
                raise
            seat = None
        if seat is None and token is not None and known is not None:
            meta = self.meta(game_id)  # a seat taken since this process last saw the game (by a seat token or a key)
            seat = self.seat_of(meta, token)
        return Commander(meta, seat, unread=meta is known)

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
                raise VersionOutOfRange(f"at must be between 1 and {meta.version}", meta.version)
            self.charge_read(reader, at)
            seating = self.positions.seating_of(meta)
            table = self.positions.at(meta, at)
            final = seating.outcome(table)
            return {"game": meta.game, "version": at, "status": str(table.status), "to_act": sorted(seating.to_act(table)),
                    "view": view_of(seating, table, viewer), "legal_commands": [], "deadline": None,
                    "outcome": final.to_json() if final else None, "stuck": False}
        pos = self.position(game_id, meta)
        return {
            "game": meta.game,
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
        return {"events": [client_event(r, viewer, voice, meta.game) for r in records], "version": meta.version}

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
        record = audit.export_record(
            game_id=game_id, game=meta.game, rules_version=meta.rules_version, options=meta.options,
            seats=[{"seat": s["seat"], "name": s["name"], "ai": s["ai"]} for s in meta.seats], seed=meta.seed,
            commitment=meta.seed_commitment, records=self.store.records(game_id), outcome=meta.outcome,
        )
        return {**record, "rating_algorithm": ratings.ALGORITHM}  # what `mythos ratings DIR` recomputes with


def view_of(seating: Seating, table: Table, viewer: Any) -> dict[str, Any]:
    """What ``viewer`` sees: the game's view, or, while seats are open, which ones."""
    if table.game is None:
        return {"open_seats": table.open_seats}
    return seating.game.decider.view(table.game, viewer)


def holds_invite(meta: Meta, token: str) -> bool:
    """Is ``token`` the invite code of ``meta``'s private table? (Compared in constant time, as a hash.)"""
    kept = meta.extra.get("invite_hash")
    return kept is not None and hmac.compare_digest(token_hash(token), kept)
