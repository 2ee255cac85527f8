"""A player's one stream across all its tables: what a long-lived client needs to know without polling.

The first message (``tables``) lists the player's tables that are not over and where each waits; then, as they
happen: ``invited`` (a seat kept for the player at a new table), ``seat_left`` and ``seat_declined`` (a seat of a
waiting table given back, or an invitation turned down: the creator learns it here), ``game_started``, ``your_turn``
(game id, version, deadline), ``game_finished`` (with the outcome), ``rematch`` (an offer, or an answer to one, at
a finished table of the player's: ``rematch.py``, through the player's notices), quick play's ``matched`` and the
challenges' ``challenge`` … ``challenge_expired`` (``challenges.py``). Each game message is worked out from the
game's meta (what ``GET /v1/games/{id}`` shows), re-read whenever the hub says the game moved, so it says only what
is public or the player's own. A notice missed across a reconnect is not lost: the first message says where every table
stands, a ``your_turn`` follows it for each table waiting on the player, a ``rematch`` for each offer still
open that the player has not answered, and a ``challenge`` for each challenge to it still open (one made as the
stream opens may be told twice: its id says so).

Tables the player sits down at after the stream opened are picked up within a keep-alive period.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from shared.kernel.table import SeatDeclined, SeatLeft
from session_service.hub import Hub
from session_service.storage.store import topic
from session_service.use_cases.errors import NotFound
from session_service.use_cases.live import KEEPALIVE, Message
from session_service.use_cases.meta import Meta
from session_service.use_cases.players import Player, Players
from session_service.use_cases.rematch import Rematches
from session_service.use_cases.tables import Tables

WATCHED = 200  # the newest tables of a player not over that a stream follows
RECENT_NOTICES = 20  # notices a stream looks back on for rematch offers still open


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

    def __init__(self, tables: Tables, players: Players, player: Player, hub: Hub, keepalive_s: float,
                 rematches: Rematches | None = None, alive: Callable[[str], None] | None = None,
                 challenges: Callable[[str], list[dict[str, Any]]] | None = None):
        self.tables, self.players, self.player, self.hub, self.keepalive_s = tables, players, player, hub, keepalive_s
        self.rematches = rematches
        self.challenges = challenges or (lambda player_id: [])  # the player's open incoming ones (challenges.py)
        self.alive = alive or (lambda player_id: None)  # the stream is open: the player's seeks hold (matchmaker.py)
        self.notices_topic, self.notices = topic(player.id, "notices"), 0
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
        self.alive(self.player.id)
        # Where the notices are read from, before anything is sent: a notice sent once the reader has its first
        # message (a seek matched, say) is in the feed past this head, never lost between the two.
        self.notices = self.players.notices_head(self.player.id)
        everything = self._current()
        self.seen = set(everything)
        self.known = {g: m for g, m in everything.items() if not m.over}
        yield Message("tables", {"tables": [summary(m, self.player) for m in self.known.values()]})
        for game_id, meta in list(self.known.items()):  # where it is the player's turn already, say so as usual
            yield from self._changed(game_id, meta)
        yield from self._open_offers()
        for challenge in self.challenges(self.player.id):  # made before the stream opened, still open
            yield Message("challenge", {"challenge": challenge})
        while True:
            watch = self.hub.watch({**{g: m.version for g, m in self.known.items()}, self.notices_topic: self.notices})
            try:
                yield from self._follow(watch)
            finally:
                watch.close()

    def _follow(self, watch: Any) -> Iterator[Message]:
        """Follow the watched games until the player sits down at a new one (then the caller watches anew)."""
        looked = time.monotonic()
        while True:
            batches = watch.next(self.keepalive_s)
            moved: dict[str, list[dict[str, Any]]] = {}
            for source, records in batches:
                if source == self.notices_topic:
                    for notice in records:
                        self.notices = notice["v"]
                        yield Message(notice["type"], {k: v for k, v in notice.items() if k not in ("v", "type")})
                else:
                    moved.setdefault(source, []).extend(records)
            for game_id, records in moved.items():
                yield from self._changed(game_id, self.tables.meta(game_id), records)
            if time.monotonic() - looked >= self.keepalive_s:
                looked = time.monotonic()
                self.alive(self.player.id)
                fresh = {g: m for g, m in self._current().items() if g not in self.seen}
                if fresh:
                    self.seen.update(fresh)
                    for game_id, meta in fresh.items():
                        yield from self._changed(game_id, meta)
                    return
            if not batches:
                yield KEEPALIVE

    def _open_offers(self) -> Iterator[Message]:
        """Rematch offers made before the stream opened, still open, that the player has not answered."""
        if self.rematches is None:
            return
        latest = {n["game"]: n for n in self.players.recent_notices(self.player.id, RECENT_NOTICES) if n["type"] == "rematch"}
        for game_id, notice in latest.items():
            if notice["rematch"]["status"] != "offered":
                continue
            try:
                meta = self.tables.meta(game_id)
            except NotFound:  # retention took the table since
                continue
            now = self.rematches.current(meta)
            if now is not None and now["status"] == "offered" and seat_of(meta, self.player) not in now["accepted"]:
                yield Message("rematch", {**{k: v for k, v in notice.items() if k not in ("v", "type")}, "rematch": now})

    def _changed(self, game_id: str, meta: Meta, records: list[dict[str, Any]] | None = None) -> Iterator[Message]:
        before = self.known.get(game_id)
        if records and before is not None:
            yield from self._seats_given_back(game_id, records, before)
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

    def _seats_given_back(self, game_id: str, records: list[dict[str, Any]], before: Meta) -> Iterator[Message]:
        """Seats of a waiting table left, or invitations turned down, in these records: who, by name. Who held the
        seat is read from the table as the log had it just before (``before``, the meta this stream last read, may
        already be past these records: it is read after them, and a join and a leave can both be in it)."""
        for record in records:
            data = record["data"]
            if record["type"] not in (SeatLeft.TYPE, SeatDeclined.TYPE):
                continue
            holder = self.tables.positions.at(before, record["v"] - 1).seats[data["seat"]]
            if record["type"] == SeatLeft.TYPE:
                yield Message("seat_left", {"game": game_id, "seat": data["seat"], "name": holder.name, "version": record["v"]})
            else:
                invited = holder.player
                found = self.players.get(invited) if invited else None
                yield Message("seat_declined", {"game": game_id, "seat": data["seat"], "player": invited,
                                                "name": found.name if found else None, "version": record["v"]})
