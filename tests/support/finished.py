"""What a finished table of a game must show beyond its outcome, from its game resource and its spectator's
``/state``: the checks the end-to-end tests that play all-AI tables to their end make of every such table,
whichever test played it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def every_rite_played(final: dict[str, Any], state: dict[str, Any]) -> None:
    view = state["view"]
    assert len(view["rites_played"]) == view["rites_total"], f"rites played: {view['rites_played']} of {view['rites_total']}"


def a_winner(final: dict[str, Any], state: dict[str, Any]) -> None:
    assert final["outcome"]["winners"], final["outcome"]  # Pocket Madness has no draw


FINISHED: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "rites-of-cthulhu": every_rite_played, "pocket-madness": a_winner}
