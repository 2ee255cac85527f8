"""Golden transcripts: one seeded game of each registered kind, every command, event and view, one fact a line.

Each transcript (``tests/golden/<game>.txt``) is a seeded random playout at the game's smallest table. Its first
line names the game; then, for setup and each command in turn::

    setup {"options":{},"players":2,"type":"setup"}        (or: seat 1 posts {"type":"draw_cards",...})
    event cards_drawn {"count":1,"seat":1,...} secret {"face_down":[1]}
    head 30fa5ae0...                                       (the hash chain's head after the batch's records)
    view 0 hand [9,11]                                     (a part of seat 0's view that changed)
    view spectator phase "round_over"
    view 1 pending gone                                    (a part no longer in the view)

Views are written as what changed since the same viewer's previous view, one top-level field a line, so every
view after every batch can be rebuilt from the file and a change shows as the one field it touched. Records are
built with a fixed cause and time, so the head depends on the stored JSON only. ``test_golden.py`` replays each
game and shows a unified diff at the first differing line; ``python -m tests.golden --write`` records them afresh:
review the diff (a refactoring leaves them unchanged; a rules change shows exactly what it changed, with a
rules-version bump).
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
    return HERE / f"{game.id}.txt"


def transcript(game: Game, seed: int = SEED) -> Iterator[bytes]:
    """The lines of ``game``'s golden transcript, as stored."""
    play = random_playout(game, game.catalogue.min_players, seed)
    yield b"game " + _json({"game": game.id, "rules_version": game.rules_version, "players": play.players,
                            "seed": seed, "options": play.options})
    commands = [(None, {"type": "setup", "players": play.players, "options": play.options}), *play.commands]
    head, state, start = GENESIS, None, 0
    seen: dict[str, dict[str, bytes]] = {}
    for (seat, command), size in zip(commands, play.batches, strict=True):
        events = play.events[start : start + size]
        records = make_records(events, version=start, prev_hash=head, cause=CAUSE, command=command, at="-",
                               rules_version=game.rules_version)
        head, start = records[-1]["hash"], start + size
        state = fold(game, events, state)
        yield (b"setup " if seat is None else f"seat {seat} posts ".encode()) + _json(command)
        for event in events:
            raw = event.to_json()
            secret = b" secret " + _json(raw["secret"]) if "secret" in raw else b""
            yield f"event {event.type} ".encode() + _json(raw["data"]) + secret
        yield f"head {head}".encode()
        viewers = [(str(s), s) for s in range(play.players)] + [("spectator", None)]
        for name, viewer in viewers:
            view = {key: _json(value) for key, value in game.decider.view(state, viewer).items()}
            yield from _changes(name, seen.get(name, {}), view)
            seen[name] = view


def _changes(viewer: str, before: dict[str, bytes], after: dict[str, bytes]) -> Iterator[bytes]:
    """One line for each top-level field of ``viewer``'s view that changed, appeared or went."""
    for key in sorted(before.keys() | after.keys()):
        if key not in after:
            yield f"view {viewer} {key} gone".encode()
        elif before.get(key) != after[key]:
            yield f"view {viewer} {key} ".encode() + after[key]


def _json(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
