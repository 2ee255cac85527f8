"""The toy game for tests: the template game of ``shared/games/toy`` (not in the registry)."""

from shared.games.toy import GAME
from shared.kernel import RuleViolation

__all__ = ["GAME", "RuleViolation"]
