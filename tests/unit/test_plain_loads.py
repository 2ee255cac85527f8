"""The hot doors' bodies without marshmallow (``schemas.plain_decide_request``, ``plain_command_request``): each
accepts only what its schema loads to the same value, so a body it leaves to the schema is refused (or loaded) as
before, and a body it takes is one the schema would have taken as it is. Real bodies take the short way."""

from __future__ import annotations

import itertools

import orjson
import pytest
from marshmallow import ValidationError

from shared.games import GAMES
from shared.kernel import fold
from shared.wire import schemas
from tests.support.properties import random_playout

ODD = [None, True, False, 0, -1, 1, 64, 65, 2**31, 2**31 + 1, 2**63, 1.0, 1.5, "", "x", "7", "ab", "AB", "abc", "ab\n",
       "a" * 64, "a" * 65, "0" * 128, "0" * 130, [], [1], {}, {"type": "x"}, {"type": {"a": {"b": 1}}}]


def deep(levels: int) -> dict:
    value: dict = {"type": "x"}
    for _ in range(levels):
        value = {"type": "x", "more": value}
    return value


def decide_bodies():
    for game in GAMES.values():
        play = random_playout(game, game.catalogue.min_players, seed=2)
        state = fold(game, play.events[:play.batches[0]])
        seat, command = play.commands[0]
        yield {"game": game.id, "rules_version": game.rules_version, "state": game.codec.encode(state),
               "command": command, "seat": seat, "entropy": "0a" * 16}


def command_bodies():
    yield {"command": {"type": "play_card", "card": "c17"}, "expected_version": 42}
    yield {"command": {"type": "end_turn"}}
    yield {"command": {"type": "pass"}, "expected_version": None}


def mutations(body: dict):
    """The body with each field set to each odd value, each dropped, and one field too many."""
    yield body
    for key, value in itertools.product(list(body) + ["events", "surprise"], ODD + [deep(7), deep(8), deep(12)]):
        yield {**body, key: value}
    for key in body:
        yield {k: v for k, v in body.items() if k != key}


@pytest.mark.parametrize("schema, plain, bodies", [
    (schemas.DecideRequest(), schemas.plain_decide_request, decide_bodies),
    (schemas.CommandRequest(), schemas.plain_command_request, command_bodies),
], ids=["decide", "command"])
def test_the_short_way_takes_only_what_the_schema_takes_unchanged(schema, plain, bodies):
    taken = left = 0
    for base in bodies():
        assert plain(orjson.loads(orjson.dumps(base))) is not None, base  # a real body takes the short way
        for body in mutations(base):
            body = orjson.loads(orjson.dumps(body))
            shortcut = plain(body)
            if shortcut is None:
                left += 1
                continue
            taken += 1
            try:
                loaded = schema.load(body)
            except ValidationError as exc:
                raise AssertionError(f"taken, but the schema refuses it: {exc.messages}; {body}") from None
            assert loaded == shortcut, body
    assert taken and left
