"""What the use cases answer about a game, as records: the game resource and a seat's state.

Each is declared once here, and ``shared.wire.schemas`` declares the same keys (``GameResource``, ``State``); a test
keeps the two equal, since the schema drops a key it does not know from the answers it serializes, silently.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, NotRequired, TypedDict

import orjson

from session_service.use_cases.meta import Meta


class GameResource(TypedDict):
    """``GET /v1/games/<id>``, each game of a listing, and ``POST /v1/games``'s answer."""

    id: str
    game: str
    status: str
    version: int
    visibility: str
    host: dict[str, Any]
    seed_commitment: str
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    turn_timeout_s: int | None
    rules_version: str
    head_hash: str
    to_act: list[int]
    outcome: dict[str, Any] | None
    created_at: str
    updated_at: str
    watchers: int
    stuck: bool
    seed: NotRequired[str]  # once the game is over
    rematch_of: NotRequired[str]
    rated: NotRequired[bool]  # a rated table (docs/record-format.md, "Ratings")
    invite: NotRequired[str]  # a private table's, answered once at creation (lobby.py)


class SeatState(TypedDict):
    """``GET /v1/games/<id>/state``: what a seat (or a spectator) may know now, or at an earlier version."""

    game: str
    version: int
    status: str
    to_act: list[int]
    view: dict[str, Any]
    legal_commands: list[dict[str, Any]]
    deadline: str | None
    outcome: dict[str, Any] | None
    stuck: bool


def resource_of(meta: Meta, watchers: int = 0, bots: Collection[str] = ()) -> GameResource:
    """The game resource (``watchers``: the spectator streams open on it, when the caller has counted them;
    ``bots``: the players among its seats' that are bot accounts, whose seats say ``bot: true``)."""
    seats = [{**seat, "bot": True} if seat["player"] in bots and not seat["open"] else seat for seat in meta.public_seats()]
    resource: GameResource = {
        "id": meta.id, "game": meta.game, "status": meta.status, "version": meta.version,
        "visibility": meta.extra.get("visibility", "public"), "host": host_of(meta),
        "seed_commitment": meta.seed_commitment, "seats": seats, "options": meta.options,
        "turn_timeout_s": meta.turn_timeout_s, "rules_version": meta.rules_version, "head_hash": meta.head_hash,
        "to_act": meta.to_act, "outcome": meta.outcome, "created_at": meta.created_at, "updated_at": meta.updated_at,
        "watchers": watchers,
        "stuck": meta.stuck,
    }
    if meta.over:
        resource["seed"] = meta.seed.hex()
    if rematch_of := meta.extra.get("rematch_of"):
        resource["rematch_of"] = rematch_of
    if meta.extra.get("rated") == "1":
        resource["rated"] = True
    return resource


def host_of(meta: Meta) -> dict[str, Any]:
    """Who opened the table, by name (and player id, when a player did), and the seats it opened it with (those may
    call it off): the lobby records them; a table opened before it did is hosted by its first seat held by a person."""
    name = meta.extra.get("host_name") or next((s["name"] for s in meta.seats if s.get("name") and not s.get("ai")), "")
    host: dict[str, Any] = {"name": name or "a guest"}
    if creator := meta.extra.get("creator"):
        host["player"] = creator
    if "creator_seats" in meta.extra:
        host["seats"] = orjson.loads(meta.extra["creator_seats"])
    return host
