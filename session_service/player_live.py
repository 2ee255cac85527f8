"""A player's one stream across all its tables: what a long-lived client needs to know without polling.

The first message (``tables``) lists the player's tables that are not over and where each waits; then, as they
happen: ``invited`` (a seat kept for the player at a new table), ``game_started``, ``your_turn`` (game id,
version, deadline) and ``game_finished`` (with the outcome). Each game message is worked out from the game's meta
(what ``GET /v1/games/{id}`` shows), re-read whenever the hub says the game moved, so it says only what is public
or the player's own. A notice missed across a reconnect is not lost: the first message says where every table
stands, and a ``your_turn`` follows it for each table waiting on the player.

Tables the player sits down at after the stream opened are picked up within a keep-alive period.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from session_service.hub import Hub
from session_service.live import KEEPALIVE, Message
from session_service.meta import Meta
from session_service.players import Player, Players
from session_service.tables import Tables

WATCHED = 200  # the newest tables of a player not over that a stream follows


def seat_of(meta: Meta, player: Player) -> int | None:
    """The player's seat at this table (a seat kept open for it counts)."""
    return next((s["seat"] for s in meta.seats if s.get("player") == player.id), None)


def summary(meta: Meta, player: Player) -> dict[str, Any]:
    seat = seat_of(meta, player)
    return {"game": meta.id, "type": meta.game, "status": meta.status, "version": meta.version, "seat": seat,
            "to_act": meta.to_act, "deadline": meta.deadline, "your_turn": _your_turn(meta, seat),
            "invited": meta.status == "waiting" and seat is not None and bool(meta.seats[seat].get("open"))}


def _your_turn(meta: Meta, seat: int | None) -> bool:
    return (seat is not None and meta.status == "active" and seat in meta.to_act
            and not meta.seats[seat].get("resigned"))


class PlayerStream:
    """The messages of one player's stream; ``messages()`` is the generator the HTTP edge frames."""

    def __init__(self, tables: Tables, players: Players, player: Player, hub: Hub, keepalive_s: float):
        self.tables, self.players, self.player, self.hub, self.keepalive_s = tables, players, player, hub, keepalive_s
        self.known: dict[str, Meta] = {}  # the tables followed, not over
        self.seen: set[str] = set()  # every table of the player's this stream has looked at
        self.told_turn: dict[str, int] = {}  # game → the version a your_turn was last sent for

    def _current(self) -> dict[str, Meta]:
        """The player's newest tables not seen over before (those found over now are answered once more, and
        forgotten: they leave the window to the tables still in play)."""
        found: dict[str, Meta] = {}
        kept = 0
        while kept < WATCHED:  # past the tables kept so far: each table is read once, and forgotten once over
            wanted = WATCHED - kept
            ids = self.players.live_ids(self.player.id, wanted, offset=kept)
            metas = {g: Meta.parse(g, raw) for g, raw in zip(ids, self.tables.store.metas(ids)) if raw is not None}
            found.update(metas)
            gone = [g for g in ids if g not in metas or metas[g].over]
            self.players.forget_over(self.player.id, gone)
            kept += len(ids) - len(gone)
            if len(ids) < wanted or not gone:
                break
        return found

    def messages(self) -> Iterator[Message]:
        everything = self._current()
        self.seen = set(everything)
        self.known = {g: m for g, m in everything.items() if not m.over}
        yield Message("tables", {"tables": [summary(m, self.player) for m in self.known.values()]})
        for game_id, meta in list(self.known.items()):  # where it is the player's turn already, say so as usual
            yield from self._changed(game_id, meta)
        while True:
            watch = self.hub.watch({g: m.version for g, m in self.known.items()})
            try:
                yield from self._follow(watch)
            finally:
                watch.close()

    def _follow(self, watch: Any) -> Iterator[Message]:
        """Follow the watched games until the player sits down at a new one (then the caller watches anew)."""
        looked = time.monotonic()
        while True:
            batches = watch.next(self.keepalive_s)
            for game_id in dict.fromkeys(g for g, _ in batches):
                yield from self._changed(game_id, self.tables.meta(game_id))
            if time.monotonic() - looked >= self.keepalive_s:
                looked = time.monotonic()
                fresh = {g: m for g, m in self._current().items() if g not in self.seen}
                if fresh:
                    self.seen.update(fresh)
                    for game_id, meta in fresh.items():
                        yield from self._changed(game_id, meta)
                    return
            if not batches:
                yield KEEPALIVE

    def _changed(self, game_id: str, meta: Meta) -> Iterator[Message]:
        before = self.known.get(game_id)
        seat = seat_of(meta, self.player)
        if meta.over:
            self.known.pop(game_id, None)
            yield Message("game_finished", {"game": game_id, "status": meta.status, "version": meta.version,
                                            "seat": seat, "outcome": meta.outcome})
            return
        self.known[game_id] = meta
        if before is None and meta.status == "waiting" and seat is not None and meta.seats[seat].get("open"):
            yield Message("invited", {"game": game_id, "type": meta.game, "seat": seat, "version": meta.version})
        if meta.status == "active" and (before is None or before.status == "waiting"):
            yield Message("game_started", {"game": game_id, "type": meta.game, "seat": seat, "version": meta.version})
        if _your_turn(meta, seat) and self.told_turn.get(game_id, -1) < meta.version:
            self.told_turn[game_id] = meta.version
            yield Message("your_turn", {"game": game_id, "seat": seat, "version": meta.version, "deadline": meta.deadline})
