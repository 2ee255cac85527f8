"""Players: a name and one key that acts for every seat the player holds, so a client keeps one secret.

A player key is checked the way a seat token is: a seat the player holds keeps the key's hash as its
``token_hash`` (``meta.seat_holding``), so every endpoint that takes a seat token takes the key, with the same
constant-time comparison and no extra round trip. Only the lobby's own endpoints (make a table, join one, the
player's list and stream) look the player up by its key.

Its keys are ``storage/players.py``'s; its notices (``notify``: what its stream tells besides its tables' moves,
rematch offers and answers; a day's worth, the newest 100) a feed of the event store's.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeGuard

from session_service.use_cases.errors import BadToken, CannotMuteSelf, NotABot, PlayerNotFound, RateLimited, Unprocessable
from session_service.use_cases.meta import iso, now, token_hash
from session_service.storage.players import PlayerRecords
from session_service.storage.store import EventStore

KEY_PREFIX = "pk_"  # a player key's first characters: a bearer token that starts so is looked up as a player
MUTES = 500  # players one player may mute
NOTICES_KEPT, NOTICES_TTL_S = 100, 24 * 3600
ACCEPT_POLICIES = ("auto", "manual", "never")  # how a player answers challenges (``challenges.py``)
KNOWN_KEYS = 10_000  # key hash → player id, remembered per process (a player's key never changes)


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    bot: bool
    created_at: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "bot": self.bot, "created_at": self.created_at}


def is_player_key(token: str | None) -> TypeGuard[str]:
    return token is not None and token.startswith(KEY_PREFIX)


def seat_token(drawn: str) -> str:
    """A seat token from random URL-safe text. One that starts like a player key (once in 262,144 draws) would be
    looked up as one and refused, and one that starts with '-' (once in 64) is read as an option by a command line
    (``mythos play G --token T``): both get another first letter, the same again for the same text, as the answer
    to a retried request must be."""
    return "s" + drawn if drawn.startswith((KEY_PREFIX, "-")) else drawn



def seat_mute(game_id: str, seat: int) -> str:
    """How a muted seat is kept among a player's mutes (player ids start ``p_``: no clash)."""
    return f"seat:{game_id}:{seat}"

class Players:
    def __init__(self, store: EventStore):
        self.store = store
        self.records = PlayerRecords(store)
        self._known: OrderedDict[str, Player] = OrderedDict()
        self._bots: OrderedDict[str, bool] = OrderedDict()  # player id → is a bot account (it never changes)

    def make(self, name: str, bot: bool) -> tuple[Player, str]:
        """A new player and its key (answered once: only its hash is kept)."""
        player = Player("p_" + secrets.token_urlsafe(12), name, bot, iso(now()))
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        self.records.put(player.id, token_hash(key), {"name": name, "bot": "1" if bot else "", "created_at": player.created_at})
        return player, key

    def get(self, player_id: str) -> Player | None:
        fields = self.records.fields(player_id)
        if fields is None:
            return None
        return Player(player_id, fields["name"], bool(fields["bot"]), fields["created_at"])

    def by_key(self, key: str) -> Player:
        """The player a key belongs to; refused (401) for a key of nobody."""
        digest = token_hash(key)
        if (known := self._known.get(digest)) is not None:
            return known
        player_id = self.records.player_of(digest) if len(key) <= 128 else None
        player = self.get(player_id) if player_id is not None else None
        if player is None:
            raise BadToken("that player key belongs to no player")
        self._known[digest] = player
        if len(self._known) > KNOWN_KEYS:
            self._known.popitem(last=False)
        return player

    def bots_among(self, player_ids: Iterable[str]) -> set[str]:
        """Which of these players are bot accounts (shown as bots at every table): remembered per process, the rest
        read in one round trip."""
        wanted = set(player_ids)
        unknown = sorted(p for p in wanted if p not in self._bots)
        if unknown:
            for player_id, bot in zip(unknown, self.records.bot_flags(unknown)):
                if bot is not None:
                    self._bots[player_id] = bot
            while len(self._bots) > KNOWN_KEYS:
                self._bots.popitem(last=False)
        return {p for p in wanted if self._bots.get(p)}

    # -- challenges -----------------------------------------------------------------------------------
    def challenge_policy(self, player_id: str) -> tuple[str, str]:
        """How the player answers challenges (``ACCEPT_POLICIES``; ``manual`` unless it said otherwise) and, for
        ``auto``, the hash of its key, which holds the seats it is given (``challenges.py``)."""
        fields = self.records.fields(player_id) or {}
        return fields.get("accept_challenges") or "manual", fields.get("auto_key_hash", "")

    def set_challenge_policy(self, player: Player, key: str, policy: str) -> None:
        """``auto`` is a bot account's only (a person would be seated at tables it never saw offered): the key that
        asks is kept by its hash, to hold the seats of the challenges accepted for it."""
        if policy not in ACCEPT_POLICIES:
            raise Unprocessable(f"accept_challenges is one of {', '.join(ACCEPT_POLICIES)}")
        if policy == "auto" and not player.bot:
            raise NotABot()
        self.records.set_fields(player.id, {"accept_challenges": policy,
                                            "auto_key_hash": token_hash(key) if policy == "auto" else ""})

    # -- notices ------------------------------------------------------------------------------------------
    def notify(self, player_id: str, notice: dict[str, Any]) -> None:
        """Tell the player's stream (``player_live.py``) something besides its tables' moves."""
        self.store.append_feed(player_id, "notices", "noticeseq", notice, keep=NOTICES_KEPT, ttl_s=NOTICES_TTL_S)

    def notices_head(self, player_id: str) -> int:
        return self.store.feed_head(player_id, "noticeseq")

    def recent_notices(self, player_id: str, count: int) -> list[dict[str, Any]]:
        return self.store.feed(player_id, "notices", limit=count, newest=True)

    # -- mutes --------------------------------------------------------------------------------------------
    def mute(self, player: Player, other: str) -> None:
        """``player`` reads no more chat lines of ``other``, nor challenges from it (at most ``MUTES`` players muted)."""
        if other == player.id:
            raise CannotMuteSelf()
        if self.get(other) is None:
            raise PlayerNotFound()
        self._add_mute(player, other)

    def mute_seat(self, player: Player, game_id: str, seat: int) -> None:
        """``player`` reads no more chat lines of that seat of that table, whoever holds it (a seat held by a token
        has no player to mute). Counted among the ``MUTES``."""
        self._add_mute(player, seat_mute(game_id, seat))

    def _add_mute(self, player: Player, muted: str) -> None:
        if not self.records.mute(player.id, muted, MUTES):
            raise RateLimited(f"you mute {MUTES} players already: unmute one first", {"quota": "mutes", "limit": MUTES})

    def unmute(self, player: Player, other: str) -> None:
        """``other``: a player's id, or a ``seat_mute``."""
        self.records.unmute(player.id, other)

    def muted(self, player_id: str) -> frozenset[str]:
        return self.records.muted(player_id)

    def mutes(self, player_id: str, other: str) -> bool:
        """Whether ``player_id`` muted the player ``other`` (who may then not challenge it: ``challenges.py``)."""
        return self.records.mutes(player_id, other)

    # -- the player's tables ------------------------------------------------------------------------
    def remember_game(self, player_id: str, game_id: str, created_ms: int) -> None:
        self.records.remember_game(player_id, game_id, created_ms)

    def live_ids(self, player_id: str, limit: int, offset: int = 0) -> list[str]:
        """The player's newest tables not yet seen over (``forget_over`` drops those seen over)."""
        return self.records.live_ids(player_id, limit, offset)

    def forget_over(self, player_id: str, game_ids: list[str]) -> None:
        self.records.forget_over(player_id, game_ids)

    def forget_game(self, player_id: str, game_id: str) -> None:
        """The player holds no seat at ``game_id`` any more (it left, or declined): off its lists and its stream."""
        self.records.forget_game(player_id, game_id)

    def game_ids(self, player_id: str, limit: int, before: str | None = None) -> list[str]:
        """The player's tables, newest first; ``before``: a game id from the previous page."""
        return self.records.game_ids(player_id, limit, before)
