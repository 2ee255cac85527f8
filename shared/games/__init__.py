"""The game registry: every game the server plays, by its public id. Importing a game has no side effects."""

from __future__ import annotations

from shared.games import arkham_ritual, pocket_madness
from shared.kernel import Game

GAMES: dict[str, Game] = {game.id: game for game in (pocket_madness.GAME, arkham_ritual.GAME)}
