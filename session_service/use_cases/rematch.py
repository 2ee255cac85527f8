"""Rematches: after a table ends, the same table again, once every person at it has said yes.

Any person seated at a finished table (a seat whose ``ai`` was not chosen at the table: one that resigned counts)
may offer; every such seat posting ``rematch`` accepts; when all have, the new table is made at once: the same game,
options, turn time limit, visibility and seats (names, players, AI seats and their levels), a new secret seed. Each
person plays on with what it held: its seat token or its player key holds the same seat at the new table (the hash
is carried over; no token is ever stored). An offer is dropped when one of them declines, or after
``REMATCH_OFFER_S``; a table may be offered ``REMATCH_OFFERS_PER_TABLE`` times, and the new table counts against the
quotas of the client that opened the first one. (Lichess's rematch and boardgame.io's ``playAgain`` are the models.)

None of it is in the finished game's hash-chained log: its audit does not change. The offer is kept with the game
(``storage/rematch.py``), changed by compare-and-set so two answers at once never lose one; the players at the table
(with a player key) read each offer and answer on their streams (``Players.notify``), and anyone at the table reads
it at ``GET /v1/games/{id}/rematch``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from session_service.storage.rematch import RematchOffers
from session_service.use_cases.errors import NoRematch, NotFinished, NotFound, NotYourSeat, RateLimited
from session_service.use_cases.meta import Meta, epoch_ms, iso, parse_iso
from session_service.use_cases.players import Players
from session_service.use_cases.quotas import META_FIELD
from session_service.use_cases.tables import Tables, new_game_id

KEPT_S = 24 * 3600  # how long an offer (and the new table it made) is remembered


@dataclass(frozen=True)
class RematchLimits:
    offer_s: int = 120
    offers_per_table: int = 3

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> RematchLimits:
        return cls(offer_s=int(config.get("REMATCH_OFFER_S", cls.offer_s)),
                   offers_per_table=int(config.get("REMATCH_OFFERS_PER_TABLE", cls.offers_per_table)))


class Rematches:
    def __init__(self, tables: Tables, players: Players, limits: RematchLimits = RematchLimits(),
                 clock: Any = time.time):
        self.tables, self.players, self.limits, self.clock = tables, players, limits, clock
        self.store = tables.store
        self.offers = RematchOffers(self.store)

    # -- reading --------------------------------------------------------------------------------------
    def current(self, meta: Meta) -> dict[str, Any] | None:
        """The table's rematch as the API shows it (None: none was offered)."""
        raw = self.offers.read(meta.id)
        return self._shown(orjson.loads(raw)) if raw else None

    def _shown(self, offer: Mapping[str, Any]) -> dict[str, Any]:
        status = "accepted" if offer["game"] else "declined" if offer["declined_by"] is not None else \
            "expired" if offer["expires_ms"] <= self.clock() * 1000 else "offered"
        return {"offered_by": offer["offered_by"], "accepted": sorted(offer["accepted"]), "game": offer["game"],
                "expires_at": iso(datetime.fromtimestamp(offer["expires_ms"] / 1000, UTC)), "status": status,
                "declined_by": offer["declined_by"]}

    # -- answering -------------------------------------------------------------------------------------
    def offer(self, meta: Meta, seat: int) -> dict[str, Any]:
        """``seat`` offers a rematch, or accepts the one on offer; when every person has, the new table is made (a
        refusal then, a quota say, leaves the rematch accepted: the same request again makes it). Answers the
        rematch as it stands."""
        people = self._people(meta, seat)
        while True:
            before, offer = self._read(meta)
            if offer is not None and offer["game"]:
                break  # made already (by an earlier answer; made again here if that answer died half way)
            if offer is None or self._shown(offer)["status"] != "offered":
                offers = offer["offers"] if offer is not None else 0
                if offers >= self.limits.offers_per_table:
                    raise RateLimited(f"a table may be offered a rematch {self.limits.offers_per_table} times",
                                      {"quota": "rematch_offers_per_table", "limit": self.limits.offers_per_table})
                offer = {"offered_by": seat, "accepted": [seat], "declined_by": None, "game": None, "offers": offers + 1,
                         "expires_ms": int(self.clock() * 1000) + self.limits.offer_s * 1000}
                answer = "offer"
            else:
                offer = {**offer, "accepted": sorted({*offer["accepted"], seat})}
                answer = "accept"
            if set(offer["accepted"]) >= set(people):
                offer["game"] = new_game_id()
            if self._swapped(meta, before, offer):
                self._tell(meta, seat, answer, offer)
                break
        if offer["game"]:
            self._make(meta, offer["game"])
        return self._shown(offer)

    def decline(self, meta: Meta, seat: int) -> dict[str, Any]:
        """``seat`` turns the rematch on offer down: it is dropped (a new one may be offered)."""
        self._people(meta, seat)
        while True:
            before, offer = self._read(meta)
            if offer is None or self._shown(offer)["status"] != "offered":
                raise NoRematch("the rematch has started already" if offer is not None and offer["game"] else None)
            offer = {**offer, "declined_by": seat}
            if self._swapped(meta, before, offer):
                self._tell(meta, seat, "decline", offer)
                return self._shown(offer)

    def _people(self, meta: Meta, seat: int) -> list[int]:
        """The seats a rematch waits on (refused when the table has not ended, or ``seat`` is none of them)."""
        if meta.status != "finished":
            raise NotFinished("a rematch is offered once the table has finished")
        people = [s["seat"] for s in meta.seats if s["ai"] is None or s.get("resigned")]
        if seat not in people:
            raise NotYourSeat("only the people seated at the table answer its rematch")
        return people

    def _read(self, meta: Meta) -> tuple[bytes, dict[str, Any] | None]:
        raw = self.offers.read(meta.id)
        return (raw, orjson.loads(raw)) if raw else (b"", None)

    def _swapped(self, meta: Meta, before: bytes, offer: dict[str, Any]) -> bool:
        done = self.offers.swap(meta.id, before, orjson.dumps(offer), KEPT_S)
        if done is None:
            raise NotFound()
        return done

    def _tell(self, meta: Meta, seat: int, answer: str, offer: dict[str, Any]) -> None:
        """Every player at the table reads the answer on its stream."""
        notice = {"type": "rematch", "game": meta.id, "answer": answer,
                  "by": {"seat": seat, "name": meta.seats[seat]["name"]}, "rematch": self._shown(offer)}
        for player_id in {s["player"] for s in meta.seats if s.get("player")}:
            self.players.notify(player_id, notice)

    def _make(self, meta: Meta, game_id: str) -> None:
        """The new table (again, idempotently, when an earlier answer made it already)."""
        if self.store.meta(game_id) is not None:
            return
        people = {s["seat"] for s in meta.seats if s["ai"] is None or s.get("resigned")}
        seats = [{"name": s["name"], "ai": None if s["seat"] in people else s["ai"]} for s in meta.seats]
        players = {s["seat"]: s["player"] for s in meta.seats if s.get("player") and s["seat"] in people}
        holders = {s["seat"]: s["token_hash"] for s in meta.seats if s["seat"] in people and s.get("token_hash")}
        kept = ("visibility", "creator", "creator_seats", "host_name", "invite_hash", "rated")  # a rematch keeps them
        extra = {**{k: meta.extra[k] for k in kept if k in meta.extra}, "join_secret": secrets.token_hex(16),
                 "rematch_of": meta.id}
        body = {"game": meta.game, "seats": seats, "options": meta.options, "turn_timeout_s": meta.turn_timeout_s,
                "visibility": meta.extra.get("visibility", "public"), "rated": meta.extra.get("rated") == "1"}
        made = self.tables.create(body, extra=extra, players=players, game_id=game_id, holders=holders,
                                  quota_client=meta.extra.get(META_FIELD))
        created_ms = epoch_ms(parse_iso(made["created_at"]))
        for player_id in set(players.values()):
            self.players.remember_game(player_id, game_id, created_ms)
