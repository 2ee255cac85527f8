"""Live streams as a use case: the messages a caller's stream of one game is made of, as data.

The HTTP edge (``streaming.py``) frames them as SSE or NDJSON, applies the limits and handles shutdown; the hub
(``hub.py``) wakes a waiting stream when its game moves. Nothing here holds a thread or a Redis connection
while it waits.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from shared.kernel import viewer_for
from shared.kernel.table_narration import heard
from shared.records import client_event
from session_service.use_cases.chat import Chat
from session_service.use_cases.errors import VersionOutOfRange
from session_service.hub import Hub
from session_service.use_cases.meta import Meta, parse_iso
from session_service.use_cases.players import Player
from session_service.use_cases.reads import view_of
from session_service.use_cases.tables import Tables
from session_service.use_cases.writes import standing_of


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a live stream: ``kind`` is state, event, turn, end, chat or keepalive (a player's stream has
    its own kinds); ``id`` is the version it brings the caller to (state and event messages)."""

    kind: str
    data: Any = None
    id: int | None = None


KEEPALIVE = Message("keepalive")
MAX_KEEPALIVE_S = 15  # a keep-alive at least this often, whatever SSE_KEEPALIVE_S asks (API.md)
TURN_FIELDS = ("game", "version", "status", "to_act", "legal_commands", "deadline", "outcome", "view")


@dataclass(frozen=True, slots=True)
class ChatFollow:
    """The table's chat on a game stream: for whom (``player``: its mutes hold), and where to resume it (``after``:
    None, the last lines on a fresh stream and from now on a resumed one)."""

    chat: Chat
    player: Player | None = None
    after: int | None = None


def stream(tables: Tables, game_id: str, seat: int | None, after: int | None, keepalive_s: float, hub: Hub,
           meta: Meta | None = None, chat: ChatFollow | None = None, reader: str | None = None) -> Iterator[Message]:
    """The caller's live stream of one game.

    Without ``after``: a ``state`` message first (the caller's full state; its id is its version), then the
    events after it. With ``after`` (a resume): the events after that version, no ``state`` (with nothing to
    replay, a ``turn`` at once); a version past the head is refused here, before anything is sent. After each
    batch of events a ``turn`` message (what the caller needs to act and to draw the table: version, status,
    seats waited on, its legal commands, its deadline, the outcome and its view, so no client reads ``GET
    /state`` after a message); once the game is over (after its last ``turn``) an ``end`` message with the
    outcome, and the stream ends. ``keepalive`` when nothing happened for ``keepalive_s``. Raises ``hub.Closed``
    (from the iteration) when the process shuts down. With ``chat``, each line of the table's chat the caller may
    read arrives as a ``chat`` message as it is said (``chat.py``: the channels, the mutes). The replay is paid from
    ``reader``'s read budget (quotas.py) when the stream opens: past it, refused (``RateLimited``) before anything
    is sent."""
    meta = meta or tables.meta(game_id)
    if after is not None and after > meta.version:
        raise VersionOutOfRange(f"after is past the game's head (version {meta.version})", meta.version)
    if after is not None:
        tables.charge_read(reader, meta.version - after)  # the replay, paid before anything is sent
    return _live(tables, game_id, seat, after, keepalive_s, hub, meta, chat)


def _live(tables: Tables, game_id: str, seat: int | None, after: int | None, keepalive_s: float, hub: Hub,
          meta: Meta, chat: ChatFollow | None) -> Iterator[Message]:
    topics = chat.chat.topics(meta, seat, chat.player, fresh=after is None) if chat is not None else {}
    if chat is not None and chat.after is not None:
        topics = dict.fromkeys(topics, chat.after)
    if after is None:
        first = tables.state(game_id, seat, meta=meta)
        yield Message("state", first, first["version"])
        after = first["version"]
    elif after == meta.version:
        # A resume with nothing to replay: say where the game stands, or a bot that dropped its connection
        # between an event and its turn message would wait for a turn it has already been given.
        yield Message("turn", turn_now(tables, meta, seat))
    if meta.over and after >= meta.version:
        yield Message("end", {"game": meta.game, "version": meta.version, "outcome": meta.outcome})
        return
    watch = hub.watch({game_id: after, **topics})
    voice = tables.voice(meta, seat)
    try:
        while True:
            batches = watch.next(keepalive_s)
            if not batches:
                yield KEEPALIVE
                continue
            if chat is not None:
                said = [r for topic, part in batches if topic != game_id for r in part]
                for line in chat.chat.lines(said, chat.player, game_id):
                    yield Message("chat", line)
            records = [r for topic, part in batches if topic == game_id for r in part]
            if not records:
                continue
            now_ = turn(tables, meta, seat, records)
            over = now_["status"] in ("finished", "aborted")
            viewer = viewer_for(seat, over)
            for record in records:
                voice = heard(voice, record["type"], record["data"])
                yield Message("event", client_event(record, viewer, voice, meta.game), record["v"])
            yield Message("turn", {k: now_[k] for k in TURN_FIELDS})
            if over:
                yield Message("end", {"game": meta.game, "version": now_["version"], "outcome": now_["outcome"]})
                return
    finally:
        watch.close()


def turn_now(tables: Tables, meta: Meta, seat: int | None) -> dict[str, Any]:
    """The ``turn`` message at the version of ``meta``."""
    pos = tables.positions.at_head(meta)
    legal = pos.seating.legal_commands(pos.table, seat)
    return {"game": meta.game, "version": meta.version, "status": meta.status, "to_act": meta.to_act, "legal_commands": legal,
            "deadline": meta.deadline, "outcome": meta.outcome,
            "view": view_of(pos.seating, pos.table, viewer_for(seat, meta.over))}


def turn(tables: Tables, meta: Meta, seat: int | None, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Where the game stands for ``seat`` just after ``records`` (the newest records of the game's log, in
    order): the fields the meta had at that version, plus the seat's legal commands and its view (redacted as
    ``GET /state`` redacts it: every hand once the game is over)."""
    seating = tables.positions.seating_of(meta)
    table = tables.positions.through(meta, records)
    last = records[-1]
    standing = standing_of(seating, table, parse_iso(last["at"]), meta.turn_timeout_s)
    active = standing["status"] == "active"
    legal = seating.legal_commands(table, seat) if active else []
    view = view_of(seating, table, viewer_for(seat, standing["status"] in ("finished", "aborted")))
    return {"game": meta.game, "version": last["v"], **standing, "legal_commands": legal, "view": view}
