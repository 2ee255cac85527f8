"""Quick play: a player seeks a game (``POST /v1/seeks``) and the matchmaker seats compatible seekers together.

Rulings (README, "Quick play"):

- Pools: a seek waits in the pool of its game, its kind (rated or casual) and its seekers' pool, ``humans`` or
  ``bots`` (players made with ``bot: true``). A bot seeks in the bots' pool, or in the people's casual pool; in the
  people's rated pool only where the operator allows it (``BOTS_IN_HUMAN_RATED_POOL``).
- Matching: oldest first. A new seek joins the oldest seeks it fits, at once; every second the workers' round lets
  the oldest seek of each pool gather the next compatible ones (another player, a seat range that
  overlaps all of theirs, each within the others' rating windows) up to the largest table they all accept; a group
  of at least the smallest they all accept is seated. A rating window (``window``, in ordinal points) widens by
  ``SEEK_WIDEN_PER_S`` for every second a seek waits; no window: any rating. A seek with ``ai_fill_after_s`` that has
  waited that long is seated with AI seats (the lobby's ``TAKEOVER_AI`` level) filling the table to its smallest size.
- Safety: the group is taken out of its pool by one script (``storage/seeks.CLAIM``), all or none, so matchmakers in
  several processes never seat a seek twice; a player has ``SEEKS_PER_PLAYER`` (1) open seek, so never two tables
  from quick play at once. The count of a player's open seeks and the write of its new one hold the player's turn
  (``SeekPools.hold``): of two seeks of one player made at once (a retry, two tabs, two session processes) the
  second is refused (429, ``quota: seeks_per_player``, "one at a time"), where both used to count none open and both
  be seated. A table that cannot be opened (the rules service down) gives its claimed seeks back to their pool, in
  their places, and a new seek whose own match failed so is answered as made (waiting: the workers' round seats it).
  A matchmaker that dies after the claim and before the table is written loses that match (the seekers seek again:
  their streams never said ``matched``).
- Lapse: a seek lapses when its player's stream has been gone ``SEEK_LAPSE_S`` (60 s); the stream renews it at every
  keep-alive, and a seek made with no stream open has the same grace from its making.
- Limits: ``SEEKS_PER_PLAYER`` open, ``SEEKS_PER_ADDRESS`` (10) open from one address; and each seek is counted as a
  table opened (the quotas' tables per hour), so a seek matched and never played costs what a table opened and
  called off does.
- Matched: the table is the server's (a public one; any of its seats may call it off before its first move), each
  seeker's stream says ``matched`` ``{game, game_type, seat, seek, version}``.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from shared import ratings
from shared.kernel import RuleViolation
from shared.ratings import Rating
from session_service.storage.projections import ReadModels
from session_service.storage.seeks import SeekPools
from session_service.use_cases.errors import BadRequest, MissingToken, NotFound, RateLimited
from session_service.use_cases.meta import iso_ms, token_hash
from session_service.use_cases.players import Player, Players
from session_service.use_cases.quotas import client_digest
from session_service.use_cases.resources import GameResource
from session_service.use_cases.server_tables import Sitter, open_for
from session_service.use_cases.tables import Tables, new_game_id

LOOK_AT = 200  # seeks of a pool the periodic round matches among themselves, oldest first
SCAN_AT_MOST = 5000  # seeks of a pool a new seek is matched against, oldest first


@dataclass(frozen=True)
class SeekLimits:
    per_player: int = 1
    per_address: int = 10
    lapse_s: int = 60
    widen_per_s: float = 10.0
    bots_in_human_rated: bool = False

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SeekLimits:
        return cls(int(config.get("SEEKS_PER_PLAYER", cls.per_player)), int(config.get("SEEKS_PER_ADDRESS", cls.per_address)),
                   int(config.get("SEEK_LAPSE_S", cls.lapse_s)), float(config.get("SEEK_WIDEN_PER_S", cls.widen_per_s)),
                   bool(config.get("BOTS_IN_HUMAN_RATED_POOL", False)))


def pool_name(game: str, pool: str, rated: bool) -> str:
    return f"{game}:{pool}:{'rated' if rated else 'casual'}"


@dataclass
class Matchmaker:
    tables: Tables
    players: Players
    limits: SeekLimits = field(default_factory=SeekLimits)
    ai_level: str = "medium"
    clock: Callable[[], float] = time.time

    def __post_init__(self) -> None:
        self.pools = SeekPools(self.tables.store)
        self.models = ReadModels(self.tables.store)

    # -- seeking ------------------------------------------------------------------------------------------
    def seek(self, player: Player, key: str, body: Mapping[str, Any], address: str | None) -> dict[str, Any]:
        """Put the player in a pool (``body`` as ``POST /v1/seeks`` takes it), then try to match that pool."""
        game = self.tables.games.get(body["game"])
        if game is None:
            raise RuleViolation("rules/unknown_game", "there is no such game type", {"known": sorted(self.tables.games)})
        low, high = seat_range(body, game.catalogue.min_players, game.catalogue.max_players)
        pool = body.get("pool") or ("bots" if player.bot else "humans")
        rated = bool(body.get("rated"))
        if player.bot and pool == "humans" and rated and not self.limits.bots_in_human_rated:
            raise MissingToken("a bot seeks rated games in the bots' pool (pool: bots), or casual ones with people")
        if not player.bot and pool == "bots":
            raise BadRequest("the bots' pool is for players made with bot: true")
        fill = body.get("ai_fill_after_s")
        if fill is not None and body.get("ai") is not None and body["ai"] not in game.ai.levels:
            raise RuleViolation("rules/unknown_ai", f"no AI level {body['ai'][:32]!r}", {"ai_levels": list(game.ai.levels)})
        if not self.pools.hold(player.id):  # its count of the player's open seeks and its write, one at a time
            raise RateLimited("another seek of yours is being made at this moment: one at a time",
                              {"quota": "seeks_per_player", "limit": self.limits.per_player})
        try:
            owners = [player.id] + ([f"seekaddr-{client_digest(address)}"] if address else [])
            if len(self.pools.owned(player.id)) >= self.limits.per_player:
                raise RateLimited(f"you have {self.limits.per_player} open seek(s) already: withdraw one first",
                                  {"quota": "seeks_per_player", "limit": self.limits.per_player})
            if address and len(self.pools.owned(owners[1])) >= self.limits.per_address:
                raise RateLimited(f"{self.limits.per_address} open seeks from your address already",
                                  {"quota": "seeks_per_address", "limit": self.limits.per_address})
            seek_id = "s_" + secrets.token_urlsafe(9)
            if self.tables.quotas is not None and address:  # a seek costs a table opened (module docstring)
                self.tables.quotas.admit(seek_id, {"seats": [{"name": player.name}]}, address)
            now = self.clock()
            current = self.models.player_ratings([game.id], player.id).get(game.id)
            seek = {"id": seek_id, "player": player.id, "name": player.name, "key_hash": token_hash(key), "game": game.id,
                    "pool": pool, "rated": rated, "min_seats": low, "max_seats": high, "window": body.get("window"),
                    "ai_fill_after_s": fill, "ai": body.get("ai") or self.ai_level, "made_ms": int(now * 1000),
                    "ordinal": (Rating.loads(current) if current else ratings.FRESH).ordinal, "owners": owners}
            self.pools.renew(player.id, self.limits.lapse_s) if not self.pools.alive([player.id])[0] else None
            self.pools.add(pool_name(game.id, pool, rated), seek, owners)
        finally:
            self.pools.release(player.id)
        try:
            self.match(pool_name(game.id, pool, rated), fresh=seek_id)
        except Exception as exc:  # noqa: BLE001 - the seek is made and waits: the workers' round seats it
            logging.getLogger("mythos.matchmaker").warning("matching a new seek failed; it waits", exc_info=exc)
        return self.shown(seek, pool_name(game.id, pool, rated))

    def withdraw(self, player: Player, seek_id: str) -> None:
        pool = self.pools.owned(player.id).get(seek_id)
        seek = self.pools.get(pool, seek_id) if pool else None
        if pool is None or seek is None or self.pools.claim(pool, [seek_id]) is None:
            raise NotFound("you have no open seek with that id")
        self.pools.forget(seek["owners"], [seek_id])

    def mine(self, player: Player) -> list[dict[str, Any]]:
        found = []
        for seek_id, pool in sorted(self.pools.owned(player.id).items()):
            if (seek := self.pools.get(pool, seek_id)) is not None:
                found.append(self.shown(seek, pool))
        return found

    def shown(self, seek: Mapping[str, Any], pool: str) -> dict[str, Any]:
        """A seek as its player reads it (``matched``: still waiting, or taken since)."""
        waiting = self.pools.get(pool, seek["id"]) is not None
        return {"id": seek["id"], "game": seek["game"], "pool": seek["pool"], "rated": seek["rated"],
                "min_seats": seek["min_seats"], "max_seats": seek["max_seats"], "window": seek["window"],
                "ai_fill_after_s": seek["ai_fill_after_s"], "made_at": iso_ms(seek["made_ms"]),
                "waiting": waiting, "pool_size": self.pools.size(pool)}

    def alive(self, player_id: str) -> None:
        """The player's stream is open: its seeks do not lapse (called at every keep-alive)."""
        self.pools.renew(player_id, self.limits.lapse_s)

    # -- matching -------------------------------------------------------------------------------------
    def match_all(self) -> int:
        """One round over every pool that holds a seek (the worker's loop: windows widen and AI fills come due with
        time). Which pools those are is one pipelined look at their sizes, so an idle round is one round trip."""
        pools = [pool_name(game, pool, rated) for game in sorted(self.tables.games) for pool in ("humans", "bots")
                 for rated in (False, True)]
        return sum(self.match(pool) for pool, size in zip(pools, self.pools.sizes(pools)) if size)

    def match(self, pool: str, fresh: str | None = None) -> int:
        """Seat what can be seated in ``pool`` now; how many tables were opened. ``fresh``: a seek just made, matched
        with the oldest seeks it fits (the whole pool is read, a page at a time); else the ``LOOK_AT`` oldest seeks
        are matched among themselves (the periodic round, for windows that widen and AI fills that come due)."""
        opened = 0
        for _ in range(LOOK_AT):
            seeks = self._live(pool, SCAN_AT_MOST if fresh else LOOK_AT)
            if fresh is not None:
                mine = next((s for s in seeks if s["id"] == fresh), None)
                found = self.gather(mine, [s for s in seeks if s is not mine]) if mine else None
            else:
                found = next((g for i, anchor in enumerate(seeks) if (g := self.gather(anchor, seeks[i + 1:]))), None)
            if found is None:
                return opened
            group, ai_seats = found
            claimed = self.pools.claim(pool, [s["id"] for s in group])
            if claimed is None:
                continue  # another matchmaker took one of them: look again
            self.seat(pool, sorted(claimed, key=lambda s: (s["made_ms"], s["id"])), ai_seats)
            opened += 1
            if fresh is not None:
                return opened
        return opened

    def _live(self, pool: str, count: int) -> list[dict[str, Any]]:
        """The pool's oldest ``count`` seeks, less those that lapsed (taken out of the pool here)."""
        seeks = self.pools.oldest(pool, count)
        lapsed = [s for s, alive in zip(seeks, self.pools.alive([s["player"] for s in seeks])) if not alive]
        for seek in lapsed:
            if self.pools.claim(pool, [seek["id"]]) is not None:
                self.pools.forget(seek["owners"], [seek["id"]])
        return [s for s in seeks if s not in lapsed]

    def gather(self, anchor: dict[str, Any], others: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int] | None:
        """The group ``anchor`` sits down with (the oldest of ``others`` it fits, up to the largest table they all
        accept) and how many AI seats fill its table; None when it cannot sit down yet."""
        now_ms = self.clock() * 1000
        group = [anchor]
        low, high = anchor["min_seats"], anchor["max_seats"]
        for other in others:
            if len(group) == high:
                break
            if any(o["player"] == other["player"] for o in group):
                continue
            lo, hi = max(low, other["min_seats"]), min(high, other["max_seats"])
            if lo > hi or not all(self.within(o, other, now_ms) for o in group):
                continue
            group.append(other)
            low, high = lo, hi
        if len(group) >= low:
            return group, 0
        if anchor["ai_fill_after_s"] is not None and now_ms - anchor["made_ms"] >= anchor["ai_fill_after_s"] * 1000:
            return group, low - len(group)
        return None

    def within(self, a: Mapping[str, Any], b: Mapping[str, Any], now_ms: float) -> bool:
        """Is each of two seekers inside the other's rating window, as widened by their waits?"""
        gap = abs(a["ordinal"] - b["ordinal"])
        return all(s["window"] is None or gap <= s["window"] + self.limits.widen_per_s * (now_ms - s["made_ms"]) / 1000
                   for s in (a, b))

    def seat(self, pool: str, group: list[dict[str, Any]], ai_seats: int) -> GameResource:
        """Open the table for a group claimed from ``pool`` (seats by age of seek), and tell each seeker's stream. A
        table that could not be opened gives its seeks back to the pool, as they were (the failure is raised)."""
        first, game_id = group[0], new_game_id()
        sitters = [Sitter(s["player"], s["name"], s["key_hash"]) for s in group]
        try:
            made = open_for(self.tables, self.players, first["game"], sitters, rated=first["rated"], ai_seats=ai_seats,
                            ai_level=first["ai"], host_name="Quick play", marks={"quick_play": "1"}, game_id=game_id)
        except Exception:
            if self.tables.store.meta(game_id) is None:  # not written: nobody sits there, and nobody was told
                for seek in group:
                    self.pools.add(pool, seek, seek["owners"])
            raise
        for i, seek in enumerate(group):
            self.pools.forget(seek["owners"], [seek["id"]])
            self.players.notify(seek["player"], {"type": "matched", "game": made["id"], "game_type": first["game"], "seat": i,
                                                 "seek": seek["id"], "version": made["version"], "rated": first["rated"]})
        return made

    def run(self, stop: threading.Event, every_s: float = 1.0, failed: Callable[[Exception], None] | None = None,
            reached: Callable[[float], None] = lambda began: None, also: Callable[[], object] = lambda: None) -> None:
        """Match every pool every ``every_s`` until ``stop`` (a worker's thread), and do ``also`` (the challenges'
        lapses) each round. A failure (Redis restarting, the rules service down: the seeks wait) is told to
        ``failed`` (by default a warning), ``reached`` after each pass that worked, with when it began (monotonic), as
        the projector's loop does."""
        while not stop.wait(every_s):
            began = time.monotonic()
            try:
                self.match_all()
                also()
                reached(began)
            except Exception as exc:  # noqa: BLE001 - see the docstring
                if failed is not None:
                    failed(exc)
                else:
                    logging.getLogger("mythos.matchmaker").warning("matching failed; trying again", exc_info=exc)


def seat_range(body: Mapping[str, Any], game_min: int, game_max: int) -> tuple[int, int]:
    """The seat counts a seek accepts: ``seats`` exactly, or ``min_seats``..``max_seats`` (the game's by default)."""
    if body.get("seats") is not None:
        low = high = int(body["seats"])
    else:
        low, high = int(body.get("min_seats") or game_min), int(body.get("max_seats") or game_max)
    if not max(2, game_min) <= low <= high <= game_max:  # a table of one is no match
        raise BadRequest(f"this game seats {game_min} to {game_max}", {"min_players": game_min, "max_players": game_max})
    return low, high

