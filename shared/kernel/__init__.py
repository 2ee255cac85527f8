"""The game kernel: what every game is built from and what both services rely on.

A game is a Decider (see ``game.Game``): pure functions over immutable state. The kernel adds the pieces
every game shares: the event record and its one redaction function, typed event facts, the toolkit for
``decide`` (a decision that emits and folds, tuple replacement), rule violations with stable codes, the
outcome value, entropy derived from the session's seed, and the state codec used for snapshots and for
shipping state to the rules service. ``docs/adding-a-game.md`` is the guide to a new game.
"""

from shared.kernel.decision import Decided, Decision, replace, replace_at
from shared.kernel.entropy import entropy_for, rng, seat_rng
from shared.kernel.errors import RuleViolation
from shared.kernel.events import EVERYONE, Event, ev, redact, sees, viewer_for
from shared.kernel.facts import Fact, Facts
from shared.kernel.game import AiHooks, Catalogue, Decider, Game, Option, fold
from shared.kernel.outcome import Outcome

__all__ = [
    "EVERYONE",
    "AiHooks",
    "Catalogue",
    "Decided",
    "Decision",
    "Decider",
    "Event",
    "Fact",
    "Facts",
    "Game",
    "Option",
    "Outcome",
    "RuleViolation",
    "entropy_for",
    "ev",
    "fold",
    "redact",
    "replace",
    "replace_at",
    "rng",
    "seat_rng",
    "sees",
    "viewer_for",
]
