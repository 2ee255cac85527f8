"""What an AI seat knows, and nothing more: the boundary between the server's state and the search."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared.kernel.commands import Command
from shared.kernel.game import Game


@dataclass(frozen=True)
class SeatKnowledge:
    """A seat's knowledge as the AI gets it: the game's rules, the seat, its legal commands and view, and
    ``resample(rng)``: a world drawn from those the seat cannot tell from the real one.

    The real state stays inside ``resample``'s closure and is used only through ``AiHooks.resample``, whose
    "canonical" property (tests/support/properties.py) makes its result depend on what the seat knows and on
    ``rng`` alone: two positions the seat cannot tell apart give the same worlds, so the same choices."""

    game: Game
    seat: int
    legal: tuple[Command, ...]
    view: dict[str, Any]
    _resample: Callable[[random.Random], Any]

    @classmethod
    def of(cls, game: Game, state: Any, seat: int) -> SeatKnowledge:
        """The knowledge of ``seat`` in ``state``: the only way the server builds one."""
        return cls(game, seat, tuple(game.decider.legal_commands(state, seat)), game.decider.view(state, seat),
                   lambda rng: game.ai.resample(state, seat, rng))

    def resample(self, rng: random.Random) -> Any:
        """A world consistent with everything this seat knows, drawn with ``rng``."""
        return self._resample(rng)
