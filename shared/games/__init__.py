"""The game registry: every game the server plays, by its public id. Importing a game has no side effects.

Adding a game is its package under ``shared/games/`` and its name in ``PACKAGES`` (docs/adding-a-game.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from shared.kernel import Game

PACKAGES = ("rites_of_cthulhu", "pocket_madness", "arkham_ritual", "rise_of_cthulhu", "great_old_one")


def registry(packages: Iterable[str]) -> dict[str, Game]:
    """The ``GAME`` of each named package under ``shared.games``, by its id."""
    games = (import_module(f"shared.games.{name}").GAME for name in packages)
    return {game.id: game for game in games}


GAMES: dict[str, Game] = registry(PACKAGES)
