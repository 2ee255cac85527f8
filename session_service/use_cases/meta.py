"""A game's stored facts besides its log (the meta hash), and the small helpers every use case shares.

The meta is a projection of the log, written by the same script that appends (``append.lua``): the version and
head hash, the status, the seats the game waits on, the outcome, the deadline, and the seats as the table has
them, each with what only the session service keeps (a hash of its seat token, the player holding it).
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import orjson

OVER = frozenset({"finished", "aborted"})
STUCK_AT = "stuck_version"
"""The meta field holding the version at which the game was found stuck (``Meta.stuck``)."""


def now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def iso_ms(ms: int) -> str:
    """``iso`` of a time in milliseconds since the epoch."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + f".{ms % 1000:03d}Z"


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def epoch_ms(moment: datetime) -> int:
    """Milliseconds since the epoch, exactly as ``iso`` writes them (the listing's order)."""
    return int(moment.timestamp()) * 1000 + moment.microsecond // 1000


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


@dataclass(frozen=True)
class Meta:
    id: str
    game: str
    status: str
    version: int
    seats: list[dict[str, Any]]
    seed: bytes
    seed_commitment: str
    options: dict[str, Any]
    turn_timeout_s: int | None
    rules_version: str
    head_hash: str
    to_act: list[int]
    outcome: dict[str, Any] | None
    deadline: str | None
    created_at: str
    updated_at: str
    extra: dict[str, str] = field(default_factory=dict)  # other use cases' fields (the lobby's visibility …)

    FIELDS = ("game", "status", "version", "seats", "seed", "seed_commitment", "options", "turn_timeout_s",
              "rules_version", "head_hash", "to_act", "outcome", "deadline", "created_at", "updated_at")

    @classmethod
    def parse(cls, game_id: str, raw: Mapping[str, str]) -> Meta:
        return cls(
            id=game_id,
            game=raw["game"],
            status=raw["status"],
            version=int(raw["version"]),
            seats=orjson.loads(raw["seats"]),
            seed=bytes.fromhex(raw["seed"]),
            seed_commitment=raw["seed_commitment"],
            options=orjson.loads(raw["options"]),
            turn_timeout_s=int(raw["turn_timeout_s"]) if raw.get("turn_timeout_s") else None,
            rules_version=raw["rules_version"],
            head_hash=raw["head_hash"],
            to_act=orjson.loads(raw.get("to_act", "[]")),
            outcome=orjson.loads(raw.get("outcome", "null")),
            deadline=raw.get("deadline") or None,
            created_at=raw["created_at"],
            updated_at=raw["updated_at"],
            extra={k: v for k, v in raw.items() if k not in cls.FIELDS},
        )

    def advanced(self, version: int, progress: Mapping[str, str]) -> Meta:
        """This meta after an append that wrote ``progress`` (see ``Tables.progress``) at ``version``."""
        seats = orjson.loads(progress["seats"]) if "seats" in progress else self.seats
        return replace(self, version=version, status=progress["status"], head_hash=progress["head_hash"],
                       to_act=orjson.loads(progress["to_act"]), outcome=orjson.loads(progress["outcome"]),
                       deadline=progress["deadline"] or None, updated_at=progress["updated_at"], seats=seats)

    @property
    def stuck(self) -> bool:
        """Does the game wait, at this version, on a seat that has nothing to play (a liveness defect the turn timer
        or an AI turn found, ``jobs.py``)? Then nobody can move it: the idle rule ends it (``Lobby.end_if_idle``)."""
        return self.extra.get(STUCK_AT) == str(self.version)

    @property
    def over(self) -> bool:
        """Finished or aborted: nothing more is played, and everything is public."""
        return self.status in OVER

    def public_seats(self) -> list[dict[str, Any]]:
        return [{"seat": s["seat"], "name": s["name"], "ai": s["ai"], "player": s.get("player"), "open": bool(s.get("open")),
                 **({"resigned": True} if s.get("resigned") else {})} for s in self.seats]


def seat_holding(meta: Meta, token: str) -> int | None:
    """The seat of ``meta``'s game that ``token`` belongs to, or None. Compared in constant time: the digest is
    checked against every seat's, the same number of times whichever seat matches or none."""
    digest = token_hash(token)
    seat = None
    for s in meta.seats:
        if s.get("token_hash") is not None and hmac.compare_digest(s["token_hash"], digest):
            seat = s["seat"]
    return seat


def idempotency_field(seat: int | None, key: str | None, by: str = "seat") -> str:
    """The stored idempotency field: a client's keys under its seat number, the server's under what made the
    move (``<by>:<seat>:<key>``), which no client key can spell: a seat cannot swallow its timer's move."""
    if not key:
        return ""
    return f"{seat}:{key}" if by == "seat" else f"{by}:{seat}:{key}"


def plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 64 and game_id.isascii() and "{" not in game_id and "}" not in game_id
