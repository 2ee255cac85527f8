"""Closed vocabularies are enums, not free strings (issue 21): a game's ``Outcome.reason`` and a turn's ``action``.

A free string is a typo nobody catches: an outcome reason spelled two ways reads as two reasons in the export and
the audit. An enum member (a ``StrEnum``, so the stored JSON is the same string) names each value once.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import typing
from enum import Enum

import pytest

import shared.games
from shared.games import GAMES
from tests.support.properties import random_playout

# Games whose outcome reasons are still free strings, each to leave this set when it gets its Reason enum (the
# Rise of Cthulhu rewrite of issue 21 brings one): the test below fails for a game listed here that no longer needs
# to be.
FREE_STRING_REASONS: frozenset[str] = frozenset()
SEEDS = (11, 23, 37)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_outcome_reason_is_an_enum_member(game_id):
    game = GAMES[game_id]
    ends = [random_playout(game, players, seed).state for players in (game.catalogue.min_players, game.catalogue.max_players)
            for seed in SEEDS]
    reasons = [game.decider.outcome(state).reason for state in ends]
    free = sorted({r for r in reasons if not isinstance(r, Enum)})
    if game_id in FREE_STRING_REASONS:
        assert free, f"{game_id}: its outcome reasons are enum members now: remove it from FREE_STRING_REASONS"
    else:
        assert not free, f"{game_id}: outcome reasons {free} are free strings; give the game a Reason(StrEnum)"


def _state_dataclasses():
    """Every dataclass defined in a game's state modules (``state.py`` anywhere under ``shared/games``)."""
    for module in pkgutil.walk_packages(shared.games.__path__, "shared.games."):
        if module.name.rsplit(".", 1)[-1] != "state":
            continue
        loaded = importlib.import_module(module.name)
        for value in vars(loaded).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == loaded.__name__:
                yield value


def test_state_fields_named_action_or_reason_are_enums():
    checked = []
    for kind in _state_dataclasses():
        hints = typing.get_type_hints(kind)
        for field in dataclasses.fields(kind):
            if field.name not in ("action", "reason"):
                continue
            members = [t for t in typing.get_args(hints[field.name]) or (hints[field.name],) if t is not type(None)]
            assert members and all(isinstance(t, type) and issubclass(t, Enum) for t in members), (
                f"{kind.__module__}.{kind.__qualname__}.{field.name} is {hints[field.name]}, not an enum")
            checked.append(f"{kind.__qualname__}.{field.name}")
    assert "Turn.action" in checked  # Pocket Madness's turn: the test must be looking at something
