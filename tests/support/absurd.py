"""Absurd positions a hostile client can build for the rules service (issue 16): small requests that claim huge
hands. Built on the encoded state (the wire form), so they follow the games' field names, not their classes."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from shared.games import GAMES
from shared.kernel import Game, entropy_for
from tests.support.properties import choose


def mid_game(game: Game, players: int = 2, steps: int = 12, seed: int = 1) -> tuple[Any, int, dict[str, Any]]:
    """A position ``steps`` commands into a seeded random playout, a seat that may act there and a legal command of it
    as posted."""
    chooser = random.Random(seed)
    state = game.replay(game.start(players, {}, entropy_for(b"absurd", 0))[1])
    for step in range(1, steps + 1):
        seat, command = choose(game, state, chooser)
        state = game.checked_decide(state, command, seat, entropy_for(b"absurd", step)).state
    seat, command = choose(game, state, chooser)
    return state, seat, command.to_wire()


def rewrite(raw: Any, key: str, change: Callable[[Any], Any]) -> Any:
    """``raw`` (an encoded state) with every value under ``key`` replaced by ``change(value)``."""
    if isinstance(raw, dict):
        return {k: change(v) if k == key else rewrite(v, key, change) for k, v in raw.items()}
    if isinstance(raw, list):
        return [rewrite(v, key, change) for v in raw]
    return raw


def million_card_hands() -> tuple[Game, dict[str, Any]]:
    """Pocket Madness, every hand claiming 10⁶ cards of its first Location (a hand is seven counts): ~1 KB."""
    game = GAMES["pocket-madness"]
    state, seat, command = mid_game(game)
    raw = rewrite(game.codec.encode(state), "hands", lambda hands: [[10**6, *hand[1:]] for hand in hands])
    return game, {"game": game.id, "state": raw, "seat": seat, "command": command}


def long_hands(cards: int) -> tuple[Game, dict[str, Any]]:
    """Great Old One, every hand holding ``cards`` cards (its own, repeated; hands are kept sorted)."""
    game = GAMES["great-old-one"]
    state, seat, command = mid_game(game)
    raw = rewrite(game.codec.encode(state), "hands", lambda hands: [sorted((hand * cards)[:cards]) for hand in hands])
    return game, {"game": game.id, "state": raw, "seat": seat, "command": command}
