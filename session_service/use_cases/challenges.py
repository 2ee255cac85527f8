"""Challenges: a player asks another player (or a bot) for a game (``POST /v1/challenges``); accepted, it is a table.

Rulings (README, "Challenges"):

- What: a game, its seat count (``seats``: 2 by default, or the game's smallest table if larger), its options, rated
  or casual, a turn time limit, and the AI level of the seats past the two. The challenger holds seat 0, the
  challenged seat 1 (each knows its seat before it answers), AI seats the rest.
- The table: accepted, it opens at once, exactly as quick play opens one (``server_tables.open_for``): public, the
  server's (either player may call it off before its first move), each seat held by its player's key. So a rated
  challenge always meets the rated table's rules (``lobby.check_rated``: public, every person a player); a bot
  plays rated challenges with people, since both chose the game (``BOTS_IN_HUMAN_RATED_POOL`` is quick play's).
- Answers: the challenged accepts or declines, the challenger withdraws; unanswered, a challenge lapses
  ``CHALLENGE_LAPSE_S`` (300 s) after it was made: long enough for a person to see it on the stream and answer, short
  enough that one to a player gone away does not hold the challenger's places for long (a bot answers at once).
- How a player answers (``PATCH /v1/me`` ``accept_challenges``): ``manual`` (the default: its stream says
  ``challenge``), ``never`` (a challenge to it is refused, 422 ``challenge/not_accepting``) or ``auto``, for bot
  accounts only: accepted by the server as it is made, the seat held by the key that chose ``auto``.
- Mutes: a player who muted the challenger (``players.mute``) takes no challenge from it, whatever its setting: the
  refusal is ``never``'s, code and message, so the challenger cannot tell a mute from a refusal of everyone. A
  challenge made before the mute stays as it is (open, answerable, told again as the stream opens): ending it would
  tell the challenger's stream something at the moment of the mute, and the muter declines it in one step.
- Limits: ``CHALLENGES_PER_PLAYER`` (5) open made by one player, ``CHALLENGES_TO_PLAYER`` (50) open to one (its
  list stays short to read), and each challenge counts as a table opened against its maker's address (the quotas'
  tables per hour), as a seek does. No challenge to oneself (422 ``challenge/self``); to an unknown player, 404
  ``player/not_found``, as its profile answers.
- Streams: the challenged's says ``challenge`` when it is made (and again each time its stream opens while it is
  open); both say ``challenge_accepted`` ``{game, game_type, seat, version, rated, challenge}`` as quick play's
  ``matched``; the challenger's ``challenge_declined``, the challenged's ``challenge_withdrawn``, both
  ``challenge_expired``. Each carries the challenge as ``GET /v1/challenges/{id}`` shows it.
- Safety: one answer wins (``storage/challenges.ANSWER``, one key's script): two accepts at once make one table, and
  the second answers the same challenge and table once the table is written. The accept that wins chose the table's
  id before it won; if the table cannot be opened (the rules service down) the challenge is open again and the
  answer a 503. A process that dies between winning and writing the table loses that table, as a matchmaker dying
  after its claim loses a match: the streams never said ``challenge_accepted``.
- Retries: sent again with the same ``Idempotency-Key`` by the same player (the key is the player's: another's same
  key is another request), the request answers the challenge it made as it is now (201, even once answered or
  lapsed), with nothing written, told or counted again; under that key another body is 422
  ``request/idempotency_key_reused``. A refused request frees its key. The key is remembered as long as a table's
  (``lobby.CREATE_KEPT_S``, a day), not the challenge's lapse: a challenge is kept a day past its lapse, so a
  remembered key always finds its challenge, and a late retry reads ``expired`` instead of challenging again
  unasked. Two attempts at once share the first one's claim (``storage/claims.py``) and so its id, and the
  challenge is written once (``records.put``): one challenge, one ``challenge`` on the stream.
- Privacy: a challenge is its two players' only; to anyone else an id is 404 ``challenge/not_found``, as one that
  never was. A lapse is found by the workers' round (``lapse_due``, each second) and by any answer after it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from shared.kernel import RuleViolation
from session_service.storage.challenges import ChallengeRecords
from session_service.storage.claims import CreateClaims
from session_service.use_cases.errors import (CannotChallengeSelf, ChallengeClosed, ChallengeNotFound,
                                              NotAccepting, NotYourChallenge, PlayerNotFound,
                                              RateLimited, Unavailable)
from session_service.use_cases.lobby import claim_key
from session_service.use_cases.meta import iso_ms, token_hash
from session_service.use_cases.players import Player, Players
from session_service.use_cases.server_tables import Sitter, open_for
from session_service.use_cases.tables import Tables, new_game_id
from session_service.use_cases.writes import body_digest

SIDES = ("challenger", "challenged")  # their seats: 0 and 1
DUE_PER_ROUND = 500  # lapsed challenges of each shard one round expires
TABLE_WAIT_S = 5.0  # how long a second accept waits for the first one's table to be written


def new_challenge_id() -> str:
    return "c_" + secrets.token_urlsafe(9)


@dataclass(frozen=True)
class ChallengeLimits:
    per_player: int = 5
    to_player: int = 50
    lapse_s: int = 300

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> ChallengeLimits:
        return cls(int(config.get("CHALLENGES_PER_PLAYER", cls.per_player)),
                   int(config.get("CHALLENGES_TO_PLAYER", cls.to_player)),
                   int(config.get("CHALLENGE_LAPSE_S", cls.lapse_s)))


class Challenges:
    def __init__(self, tables: Tables, players: Players, limits: ChallengeLimits = ChallengeLimits(),
                 ai_level: str = "medium", clock: Callable[[], float] = time.time):
        self.tables, self.players, self.limits, self.ai_level, self.clock = tables, players, limits, ai_level, clock
        self.records, self.claims = ChallengeRecords(tables.store), CreateClaims(tables.store, "challenge")

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    # -- making ---------------------------------------------------------------------------------------
    def make(self, player: Player, key: str, body: Mapping[str, Any], address: str | None,
             idempotency_key: str | None = None) -> dict[str, Any]:
        """A challenge from ``player`` (``body`` as ``POST /v1/challenges`` takes it); accepted at once for a bot on
        ``auto``. Refused: nothing is kept. With an ``Idempotency-Key`` a retry answers the same challenge, and
        another body under that key is refused (module docstring, "Retries")."""
        if idempotency_key is None:
            return self._make(player, key, body, address, new_challenge_id())
        who, under = token_hash(f"player:{player.id}"), token_hash(idempotency_key)
        mine, claim = claim_key(self.claims, who, under, {"digest": body_digest(body), "id": new_challenge_id()})
        if not mine and (made := self.records.get(claim["id"])) is not None:
            return self._as_it_is(made)
        try:  # under the first attempt's id, should it be making it still: one of the two writes it (``records.put``)
            return self._make(player, key, body, address, claim["id"])
        except Exception:
            if mine and self.records.get(claim["id"]) is None:  # refused, nothing kept: the key is free again, for a
                self.claims.release(who, under)  # corrected request
            raise

    def _make(self, player: Player, key: str, body: Mapping[str, Any], address: str | None,
              challenge_id: str) -> dict[str, Any]:
        game = self.tables.games.get(body["game"])
        if game is None:
            raise RuleViolation("rules/unknown_game", "there is no such game type", {"known": sorted(self.tables.games)})
        seats = int(body.get("seats") or max(2, game.catalogue.min_players))
        game.check_players(seats)
        game.resolve_options(body.get("options"))
        ai = None
        if seats > 2:
            ai = body.get("ai") or (self.ai_level if self.ai_level in game.ai.levels else game.ai.levels[0])
            if ai not in game.ai.levels:
                raise RuleViolation("rules/unknown_ai", f"no AI level {ai[:32]!r}", {"ai_levels": list(game.ai.levels)})
        if body["to"] == player.id:
            raise CannotChallengeSelf()
        target = self.players.get(body["to"])
        if target is None:
            raise PlayerNotFound()
        policy, auto_key = self.players.challenge_policy(target.id)
        if policy == "never" or self.players.mutes(target.id, player.id):
            raise NotAccepting()  # the same refusal: the challenger does not learn it was muted
        now_ms = self._now_ms()
        expires_ms = now_ms + self.limits.lapse_s * 1000
        self._admit(player, target, challenge_id, now_ms, expires_ms, address)
        record = {"id": challenge_id, "game": game.id, "seats": seats, "options": dict(body.get("options") or {}),
                  "rated": bool(body.get("rated")), "ai": ai, "turn_timeout_s": body.get("turn_timeout_s"),
                  "challenger": {"player": player.id, "name": player.name, "bot": player.bot, "seat": 0},
                  "challenged": {"player": target.id, "name": target.name, "bot": target.bot, "seat": 1},
                  "made_ms": now_ms, "expires_ms": expires_ms, "key_hash": token_hash(key)}
        if not self.records.put(record):  # a retry's other attempt wrote it first, and told the challenged
            return self._written_first(record)
        if policy == "auto" and auto_key:
            try:
                return self._accept({**record, "status": "open", "table": None}, auto_key)
            except Exception:
                self.records.delete(record)  # not opened (the rules service down): no challenge is left behind
                raise
        shown = self.shown({**record, "status": "open", "table": None})
        self.players.notify(target.id, {"type": "challenge", "challenge": shown})
        return shown

    def _written_first(self, record: dict[str, Any]) -> dict[str, Any]:
        made = self.records.get(record["id"])
        if made is None:  # and taken back since (a bot on auto that could not be seated): so is this attempt
            self.records.forget(record)
            raise Unavailable("this challenge")
        return self._as_it_is(made)

    def _admit(self, player: Player, target: Player, challenge_id: str, now_ms: int, expires_ms: int,
               address: str | None) -> None:
        """Count the challenge against its limits (module docstring), or refuse it with nothing counted."""
        if not self.records.admit(player.id, "out", challenge_id, now_ms, expires_ms, self.limits.per_player):
            raise RateLimited(f"you have {self.limits.per_player} open challenge(s) already: withdraw one first",
                              {"quota": "challenges_per_player", "limit": self.limits.per_player})
        try:
            if not self.records.admit(target.id, "in", challenge_id, now_ms, expires_ms, self.limits.to_player):
                raise RateLimited(f"{target.name} has {self.limits.to_player} open challenges already: try later",
                                  {"quota": "challenges_to_player", "limit": self.limits.to_player})
            if self.tables.quotas is not None and address:  # a challenge costs a table opened (module docstring)
                self.tables.quotas.admit(challenge_id, {"seats": [{"name": player.name}]}, address)
        except Exception:
            self.records.unadmit(player.id, "out", challenge_id)
            self.records.unadmit(target.id, "in", challenge_id)
            raise

    # -- answering ------------------------------------------------------------------------------------
    def accept(self, player: Player, key: str, challenge_id: str) -> dict[str, Any]:
        """The challenged accepts: the table opens, its seat held by ``key``."""
        challenge = self._theirs(player, challenge_id, "challenged")
        return self._accept(challenge, token_hash(key))

    def decline(self, player: Player, challenge_id: str) -> dict[str, Any]:
        return self._close(self._theirs(player, challenge_id, "challenged"), "declined", tell="challenger")

    def withdraw(self, player: Player, challenge_id: str) -> dict[str, Any]:
        return self._close(self._theirs(player, challenge_id, "challenger"), "withdrawn", tell="challenged")

    def _accept(self, challenge: dict[str, Any], key_hash: str) -> dict[str, Any]:
        game_id = new_game_id()
        won, status, table = self._answer(challenge, "accepted", game_id)
        if not won:
            if status != "accepted":
                raise ChallengeClosed(status)
            self._written(table)
            return self.shown({**challenge, "status": status, "table": table})
        sitters = [Sitter(challenge["challenger"]["player"], challenge["challenger"]["name"], challenge["key_hash"]),
                   Sitter(challenge["challenged"]["player"], challenge["challenged"]["name"], key_hash)]
        try:
            made = open_for(self.tables, self.players, challenge["game"], sitters, rated=challenge["rated"],
                            ai_seats=challenge["seats"] - 2, ai_level=challenge["ai"] or self.ai_level,
                            host_name=challenge["challenger"]["name"], marks={"challenge": challenge["id"]},
                            options=challenge["options"], turn_timeout_s=challenge["turn_timeout_s"], game_id=game_id)
        except Exception:
            self.records.reopen(challenge["id"], game_id)
            raise
        self.records.forget(challenge)
        shown = self.shown({**challenge, "status": "accepted", "table": game_id})
        for seat, side in enumerate(SIDES):
            self.players.notify(challenge[side]["player"], {
                "type": "challenge_accepted", "game": game_id, "game_type": challenge["game"], "seat": seat,
                "version": made["version"], "rated": challenge["rated"], "challenge": shown})
        return shown

    def _close(self, challenge: dict[str, Any], status: str, tell: str) -> dict[str, Any]:
        won, now, _ = self._answer(challenge, status)
        if not won:
            raise ChallengeClosed(now)
        self.records.forget(challenge)
        shown = self.shown({**challenge, "status": status, "table": None})
        self.players.notify(challenge[tell]["player"], {"type": f"challenge_{status}", "challenge": shown})
        return shown

    def _answer(self, challenge: dict[str, Any], status: str, game: str = "") -> tuple[bool, str, str]:
        """``ANSWER``; a challenge this call found lapsed is expired here, both players told, and refused."""
        answered = self.records.answer(challenge["id"], status, self._now_ms(), game)
        if answered is None:
            raise ChallengeNotFound()
        won, now, table = answered
        if won and now == "expired":
            self._lapsed(challenge)
            raise ChallengeClosed("expired")
        return won, now, table

    def _lapsed(self, challenge: dict[str, Any]) -> None:
        self.records.forget(challenge)
        shown = self.shown({**challenge, "status": "expired", "table": None})
        for side in SIDES:
            self.players.notify(challenge[side]["player"], {"type": "challenge_expired", "challenge": shown})

    def lapse_due(self) -> int:
        """Expire the challenges whose lapse has come and tell both players (the workers' round); how many."""
        expired = 0
        for challenge_id in self.records.due(self._now_ms(), DUE_PER_ROUND):
            challenge = self.records.get(challenge_id)
            if challenge is None:
                self.records.undue(challenge_id)
                continue
            answered = self.records.answer(challenge_id, "expired", self._now_ms())
            if answered is not None and answered[0]:
                self._lapsed(challenge)
                expired += 1
            elif answered is not None and answered[1] != "open":
                self.records.forget(challenge)  # answered by a process that died before it dropped it
        return expired

    # -- reading --------------------------------------------------------------------------------------
    def get(self, player: Player, challenge_id: str) -> dict[str, Any]:
        return self._as_it_is(self._theirs(player, challenge_id))

    def _as_it_is(self, challenge: dict[str, Any]) -> dict[str, Any]:
        """The challenge as it reads now (a read, a retried request), naming only a table that is written."""
        if challenge["status"] == "accepted":
            self._written(challenge["table"])
        return self.shown(challenge)

    def _written(self, table: str) -> None:
        """Wait (bounded) for an accepted challenge's table: the accept that won records the table's id before it
        writes the table, and a reader told the id must find the game there."""
        deadline = time.monotonic() + TABLE_WAIT_S
        while self.tables.store.meta(table) is None and time.monotonic() < deadline:
            time.sleep(0.05)

    def mine(self, player: Player) -> dict[str, list[dict[str, Any]]]:
        """The player's open challenges: those it made, and those made to it, oldest first."""
        return {"outgoing": self.open_ones(player.id, "out"), "incoming": self.open_ones(player.id, "in")}

    def open_ones(self, player_id: str, side: str) -> list[dict[str, Any]]:
        now_ms = self._now_ms()
        found = self.records.many(self.records.open_ids(player_id, side, now_ms))
        return [self.shown(c) for c in found if c is not None and c["status"] == "open" and c["expires_ms"] > now_ms]

    def _theirs(self, player: Player, challenge_id: str, side: str | None = None) -> dict[str, Any]:
        """The challenge, if ``player`` is one of its two (else 404, as for no such challenge); ``side``: the one it
        must be to answer so (else 403)."""
        challenge = self.records.get(challenge_id) if challenge_id.startswith("c_") and len(challenge_id) <= 64 else None
        if challenge is None or player.id not in (challenge["challenger"]["player"], challenge["challenged"]["player"]):
            raise ChallengeNotFound()
        if side is not None and challenge[side]["player"] != player.id:
            raise NotYourChallenge()
        return challenge

    def shown(self, challenge: Mapping[str, Any]) -> dict[str, Any]:
        """A challenge as its players read it (never its key's hash); one past its lapse reads ``expired``."""
        status = challenge["status"]
        if status == "open" and self._now_ms() >= challenge["expires_ms"]:
            status = "expired"
        return {"id": challenge["id"], "game": challenge["game"], "seats": challenge["seats"],
                "options": challenge["options"], "rated": challenge["rated"], "ai": challenge["ai"],
                "turn_timeout_s": challenge["turn_timeout_s"], "challenger": challenge["challenger"],
                "challenged": challenge["challenged"], "status": status, "table": challenge["table"],
                "made_at": iso_ms(challenge["made_ms"]), "expires_at": iso_ms(challenge["expires_ms"])}

