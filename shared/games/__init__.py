"""The game registry: every game the server plays, by its public id. Importing a game has no side effects."""

from __future__ import annotations

from shared.games import arkham_ritual, great_old_one, pocket_madness, rise_of_cthulhu, rites_of_cthulhu
from shared.kernel import Game

GAMES: dict[str, Game] = {
    game.id: game for game in (rites_of_cthulhu.GAME, pocket_madness.GAME, arkham_ritual.GAME, rise_of_cthulhu.GAME,
                 great_old_one.GAME)
}
