"""The typed views a bot is written against (``session_service/cli/bot/games/``): generated from the games' shapes and
kept current, and every view of seeded random games reads as its game's ``View`` (each key it has described with its
type, each required key there), and every legal command is one of the game's ``Command`` records."""

from __future__ import annotations

import functools
import importlib
import types
import typing
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import orjson
import pytest

from shared.games import GAMES, PACKAGES
from shared.kernel import EVERYONE
from session_service.cli.bot import typed_views
from tests.support.properties import random_playout

PACKAGE_OF = {importlib.import_module(f"shared.games.{p}").GAME.id: p for p in PACKAGES}


@functools.cache
def hints(typed: type) -> dict[str, Any]:
    return get_type_hints(typed, include_extras=True)


def problems(value: Any, hint: Any, where: str = "view") -> list[str]:
    """What in ``value`` does not read as ``hint`` (the few kinds of type the generated modules use)."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return []
    if hint is None or hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is not one of {args}"]
    if origin in (Union, types.UnionType):
        found = [problems(value, a, where) for a in args]
        return [] if any(not p for p in found) else [f"{where}: {value!r} is none of {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: not a list"]
        return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        return [p for k, item in value.items() for p in problems(item, args[1], f"{where}.{k}")]
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        fields = hints(hint)
        found = [f"{where}: {k} is not a field of {hint.__name__}" for k in value if k not in fields]
        # required as the hints say (with postponed annotations, a TypedDict's __required_keys__ counts every key)
        found += [f"{where}: {k} is missing" for k, f in fields.items() if get_origin(f) is not NotRequired and k not in value]
        for key, field in fields.items():
            if key in value:
                inner = get_args(field)[0] if get_origin(field) is NotRequired else field
                found += problems(value[key], inner, f"{where}.{key}")
        return found
    if hint is bool:
        return [] if type(value) is bool else [f"{where}: {value!r} is not a boolean"]
    if hint is int:
        return [] if type(value) is int else [f"{where}: {value!r} is not an integer"]
    if hint is float:
        return [] if type(value) in (int, float) else [f"{where}: {value!r} is not a number"]
    if hint is str:
        return [] if isinstance(value, str) else [f"{where}: {value!r} is not a string"]
    raise AssertionError(f"{where}: the checker reads no {hint!r}")


def test_the_generated_modules_are_current():
    for path, text in typed_views.expected().items():
        assert path.read_text() == text, f"{path} is stale: python -m session_service.cli.bot.typed_views"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_view_of_random_games_reads_as_the_games_view_and_its_commands_as_its_records(game_id):
    game = GAMES[game_id]
    module = importlib.import_module(f"session_service.cli.bot.games.{PACKAGE_OF[game_id]}")
    records = get_args(module.Command)
    assert set(records) == set(game.catalogue.commands.values())
    for seed, players in ((1, game.catalogue.min_players), (2, min(game.catalogue.max_players, 4))):
        play = random_playout(game, players, seed, keep_states=True)
        for state in play.states[::5] + [play.state]:
            for viewer in (0, players - 1, None, EVERYONE):
                view = orjson.loads(orjson.dumps(game.decider.view(state, viewer)))
                assert problems(view, module.View) == [], (seed, viewer)
            assert all(isinstance(c, records) for c in game.decider.legal_commands(state, 0))


def test_the_checker_is_no_formality():
    from session_service.cli.bot.games import pocket_madness

    play = random_playout(GAMES["pocket-madness"], 2, 1)
    view = orjson.loads(orjson.dumps(GAMES["pocket-madness"].decider.view(play.states[0], 0)))
    assert problems(view, pocket_madness.View) == []
    assert problems({**view, "round": True}, pocket_madness.View) == ["view.round: True is not an integer"]
    assert problems({**view, "mystery": 1}, pocket_madness.View) == ["view: mystery is not a field of View"]
    del view["deck"]
    assert problems(view, pocket_madness.View) == ["view: deck is missing"]
    assert typing.get_type_hints(pocket_madness.Portal)["owner"] == int | None
