"""Tables the server opens for players who agreed to play: quick play's matches (``matchmaker.py``) and accepted
challenges (``challenges.py``). One way to open them, so both kinds are the same table: public, opened by the
server (no creator; any of its seats may call it off before its first move), each person's seat held by its player
key (the key's hash, as a seek or a challenge kept it: no token is made or shown), AI seats after theirs, and on
each player's list of tables. Each caller tells the players' streams itself (``matched``, ``challenge_accepted``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from session_service.use_cases.meta import dumps, epoch_ms, parse_iso
from session_service.use_cases.players import Players
from session_service.use_cases.resources import GameResource
from session_service.use_cases.tables import Tables, new_game_id


@dataclass(frozen=True, slots=True)
class Sitter:
    """A player who sits down: its id, its name at the table, and the hash of its player key (which holds the seat)."""

    player: str
    name: str
    key_hash: str


def open_for(tables: Tables, players: Players, game: str, sitters: Sequence[Sitter], *, rated: bool, ai_seats: int = 0,
             ai_level: str = "medium", host_name: str, marks: Mapping[str, str], options: Mapping[str, Any] | None = None,
             turn_timeout_s: int | None = None, game_id: str | None = None) -> GameResource:
    """Open the table where ``sitters`` hold seats 0, 1 … in order, then ``ai_seats`` AI seats of ``ai_level``.
    ``marks``: meta fields saying what made it (``quick_play``, ``challenge``); ``game_id``: one chosen already."""
    seats = [{"name": s.name, "ai": None} for s in sitters]
    seats += [{"name": f"AI {len(sitters) + i + 1}", "ai": ai_level} for i in range(ai_seats)]
    body = {"game": game, "seats": seats, "rated": rated, "visibility": "public", "options": dict(options or {}),
            "turn_timeout_s": turn_timeout_s}
    extra = {"visibility": "public", "join_secret": secrets.token_hex(16), "creator": "", "host_name": host_name,
             "creator_seats": dumps(list(range(len(sitters)))), **marks, **({"rated": "1"} if rated else {})}
    made = tables.create(body, extra=extra, players={i: s.player for i, s in enumerate(sitters)},
                         game_id=game_id or new_game_id(), holders={i: s.key_hash for i, s in enumerate(sitters)})
    created_ms = epoch_ms(parse_iso(made["created_at"]))
    for sitter in sitters:
        players.remember_game(sitter.player, made["id"], created_ms)
    return made
