"""The AI players: information-set Monte Carlo tree search from what one seat knows, and its levels.

Pure (no I/O, no store): a caller hands the AI a ``SeatKnowledge`` (the seat's legal commands, its view and a
``resample`` that draws a world the seat cannot tell from the real one) and a seeded PRNG; the AI hands back a
command. Nothing here can reach the stored state, so nothing here can leak it (``docs/ai.md``).
"""

from shared.ai.knowledge import SeatKnowledge
from shared.ai.levels import LEVELS, MARGIN_S, TIMER, Level, choose
from shared.ai.ismcts import Search, search

__all__ = ["LEVELS", "MARGIN_S", "TIMER", "Level", "Search", "SeatKnowledge", "choose", "search"]
