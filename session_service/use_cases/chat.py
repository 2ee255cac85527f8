"""Chat at a table: what the seats say to the table, and what those who watch say among themselves.

Two channels per game, as on Lichess: ``players`` (the seats write; everyone who may watch the table reads) and
``spectators`` (written and read, while the game is on, by players who watch without a seat, each with its player
key: a seat that leaves out its token, or a private table's invite code, is not a spectator; everyone who may watch
the table reads it once the game is over). Plain text, at most ``CHAT_MAX_CHARS`` characters (control characters
become spaces), ``CHAT_LINES_PER_MINUTE`` lines a minute per writer (a player, or a seat's token) and
``CHAT_LINES_PER_ADDRESS`` a minute per address whoever writes from it (as writes are limited: thirty players of one
address must not push a channel's kept lines out in a minute), the newest ``CHAT_KEPT`` lines of each channel kept.
Writing to the spectators' channel needs a player key: a name to show, and someone to mute.

Chat is never part of the game's hash-chained log (the audit does not change): each channel is a feed kept with the
game (``<prefix>:{id}:chat:<channel>``, numbered together by ``{id}:chatseq``, so a line's ``id`` orders both
channels), deleted with it by retention, and announced like an append, so the game's live streams carry each line
as a ``chat`` message at once (``live.py``). A player's mutes (``Players.muted``) hide the muted players' lines from
it, on the streams and in ``GET /chat``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from session_service.storage.store import topic
from session_service.use_cases.errors import ChatLineLength, MissingToken, NotFound, NotYourSeat
from session_service.use_cases.meta import Meta, iso, now
from session_service.use_cases.players import Player, Players, seat_mute
from session_service.use_cases.quotas import Quotas

CHANNELS = ("players", "spectators")
REPLAY = 50  # chat lines (of both channels) a fresh game stream starts with


@dataclass(frozen=True)
class ChatLimits:
    max_chars: int = 280
    lines_per_minute: int = 12
    lines_per_address: int = 60  # a minute, every writer of one address together
    kept: int = 500  # lines per channel

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> ChatLimits:
        return cls(max_chars=int(config.get("CHAT_MAX_CHARS", cls.max_chars)),
                   lines_per_minute=int(config.get("CHAT_LINES_PER_MINUTE", cls.lines_per_minute)),
                   lines_per_address=int(config.get("CHAT_LINES_PER_ADDRESS", cls.lines_per_address)),
                   kept=int(config.get("CHAT_KEPT", cls.kept)))


class NotYourChannel(NotYourSeat):
    code = "chat/not_your_channel"
    default = "the seats write to the players' channel, and read the spectators' once the game is over"


def plain(text: str) -> str:
    """Chat text as it is kept: control characters (newlines included) become spaces, the ends trimmed."""
    return "".join(" " if unicodedata.category(c) == "Cc" else c for c in text).strip()


def readable(channel: str, seat: int | None, player: Player | None, over: bool) -> bool:
    """May this reader (a seat; or None, with the player key of a spectator, or anonymous) read ``channel``? While
    the game is on, the spectators' channel is for spectators who say who they are: a seat reading anonymously
    would be a seat reading it still."""
    return channel == "players" or over or (seat is None and player is not None)


def channels_for(seat: int | None, player: Player | None, over: bool) -> tuple[str, ...]:
    return tuple(c for c in CHANNELS if readable(c, seat, player, over))


class Chat:
    def __init__(self, players: Players, quotas: Quotas | None, limits: ChatLimits = ChatLimits()):
        self.players, self.quotas, self.limits = players, quotas, limits
        self.store = players.store

    def post(self, meta: Meta, seat: int | None, player: Player | None, writer: str, channel: str | None,
             text: str, address: str = "") -> dict[str, Any]:
        """``seat`` (or a spectator: None, with its ``player``) writes ``text``; ``writer`` names it for the rate
        limit (its player, or its seat token's client), ``address`` the client of the address it writes from. The
        line as the API shows it."""
        channel = channel or ("players" if seat is not None else "spectators")
        if (seat is not None) != (channel == "players"):
            raise NotYourChannel("the seats write to the players' channel; those who watch, to the spectators'")
        if seat is None and player is None:
            raise MissingToken("writing to the spectators' channel needs your player key: 'Authorization: Bearer <key>'")
        line = plain(text)
        if not line or len(line) > self.limits.max_chars:
            raise ChatLineLength(f"a chat line is 1 to {self.limits.max_chars} characters of text",
                                 {"max_chars": self.limits.max_chars})
        if self.quotas is not None:
            self.quotas.admit_chat_line(writer, self.limits.lines_per_minute)
            self.quotas.admit_chat_line(address, self.limits.lines_per_address, "chat_lines_per_address")
        said: dict[str, Any] = {"name": meta.seats[seat]["name"] if seat is not None else player.name}  # type: ignore[union-attr]
        if seat is not None:
            said["seat"] = seat
        if player is not None:
            said["player"] = player.id
        record = {"channel": channel, "at": iso(now()), "from": said, "text": line}
        number = self.store.append_feed(meta.id, f"chat:{channel}", "chatseq", record, keep=self.limits.kept,
                                        requires="meta")
        if not number:
            raise NotFound()
        return shown({**record, "v": number})

    def read(self, meta: Meta, seat: int | None, player: Player | None, channel: str, after: int,
             limit: int) -> dict[str, Any]:
        """The channel's lines after ``after`` that this reader may read, oldest first (a muted player's left out);
        ``next``: the id to read after next time."""
        if not readable(channel, seat, player, meta.over):
            if seat is None:
                raise MissingToken("while the game is on, the spectators' channel is read with your player key (a "
                                   "player who holds no seat here): 'Authorization: Bearer <key>'")
            raise NotYourChannel()
        records = self.store.feed(meta.id, f"chat:{channel}", after=after, limit=limit)
        muted = self.players.muted(player.id) if player is not None else frozenset()
        return {"messages": [shown(r) for r in records if visible(r, muted, meta.id)],
                "next": records[-1]["v"] if records else after}

    def topics(self, meta: Meta, seat: int | None, player: Player | None, fresh: bool) -> dict[str, int]:
        """The chat feeds a game stream of this reader watches, each with the number to start after: a fresh stream
        replays the last ``REPLAY`` lines; a resumed one goes on from now (``GET /chat`` fills a gap)."""
        start = self.store.feed_head(meta.id, "chatseq")
        if fresh:
            start = max(0, start - REPLAY)
        return {topic(meta.id, f"chat:{c}"): start for c in channels_for(seat, player, meta.over)}

    def lines(self, records: list[dict[str, Any]], player: Player | None, game_id: str) -> list[dict[str, Any]]:
        """Chat records of a game as a stream shows them to this reader (its mutes read now: a mute holds at once)."""
        muted = self.players.muted(player.id) if player is not None and records else frozenset()
        return [shown(r) for r in sorted(records, key=lambda r: r["v"]) if visible(r, muted, game_id)]


def visible(record: Mapping[str, Any], muted: frozenset[str], game_id: str) -> bool:
    """Is a line of ``game_id`` shown to a reader who muted ``muted`` (players, and seats: ``seat_mute``)?"""
    said = record["from"]
    if said.get("player") in muted:
        return False
    return "seat" not in said or seat_mute(game_id, said["seat"]) not in muted


def shown(record: Mapping[str, Any]) -> dict[str, Any]:
    """A chat line as the API shows it: its number is its ``id``."""
    return {"id": record["v"], "channel": record["channel"], "at": record["at"], "from": record["from"],
            "text": record["text"]}
