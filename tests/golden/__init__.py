"""Golden transcripts: one seeded game of each registered kind, every command, event and view, byte for byte.

Each transcript (``tests/golden/<game>.jsonl``) is a seeded random playout at the game's smallest table: a
header line, then one line per batch (setup first, then each command) with the seat, the command, the full
events, the hash chain's head after them (records built with a fixed cause and time, so it depends on the
stored JSON only), and every seat's and a spectator's view after it. ``test_golden.py`` replays each game
and compares line by line; ``python -m tests.golden --write`` records them afresh: review the diff (a
refactoring leaves them unchanged; a rules change shows exactly what it changed, with a rules-version bump).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from shared.kernel import Game, fold
from shared.records import GENESIS, make_records
from tests.support.properties import random_playout

HERE = Path(__file__).resolve().parent
SEED = 7
CAUSE = {"id": "golden", "seat": None, "type": "golden", "by": "server"}


def path_for(game: Game) -> Path:
    return HERE / f"{game.id}.jsonl"


def transcript(game: Game, seed: int = SEED) -> Iterator[bytes]:
    """The lines of ``game``'s golden transcript, as stored."""
    play = random_playout(game, game.catalogue.min_players, seed)
    yield _line({"game": game.id, "rules_version": game.rules_version, "players": play.players, "seed": seed,
                 "options": play.options})
    commands = [(None, {"type": "setup", "players": play.players, "options": play.options}), *play.commands]
    head, state, start = GENESIS, None, 0
    for (seat, command), size in zip(commands, play.batches, strict=True):
        events = play.events[start : start + size]
        records = make_records(events, version=start, prev_hash=head, cause=CAUSE, command=command, at="-",
                               rules_version=game.rules_version)
        head, start = records[-1]["hash"], start + size
        state = fold(game, events, state)
        views: dict[str, Any] = {str(s): game.decider.view(state, s) for s in range(play.players)}
        views["spectator"] = game.decider.view(state, None)
        yield _line({"seat": seat, "command": command, "events": [e.to_json() for e in events], "head": head, "views": views})


def _line(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
