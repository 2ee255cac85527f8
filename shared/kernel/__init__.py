"""The game kernel: what every game is built from and what both services rely on.

A game is a Decider (see ``game.Game``): pure functions over immutable state. The kernel adds the pieces
every game shares: the event record and its one redaction function, rule violations with stable codes,
the outcome value, entropy derived from the session's seed, and the state codec used for snapshots and
for shipping state to the rules service.
"""

from shared.kernel.entropy import entropy_for, rng
from shared.kernel.errors import RuleViolation
from shared.kernel.events import EVERYONE, Event, ev, redact, sees
from shared.kernel.game import Game, Option, fold
from shared.kernel.outcome import Outcome

__all__ = [
    "EVERYONE",
    "Event",
    "Game",
    "Option",
    "Outcome",
    "RuleViolation",
    "entropy_for",
    "ev",
    "fold",
    "redact",
    "rng",
    "sees",
]
