"""What the quick-play tests share: how a seeker learns it was seated (the ``matched`` notices its stream reads)."""

from __future__ import annotations

from typing import Any


def matched(players: Any, player_id: str) -> list[dict[str, Any]]:
    """The ``matched`` notices told to the player's stream (``Matchmaker.seat``), newest first."""
    return [n for n in players.recent_notices(player_id, 20) if n["type"] == "matched"]
