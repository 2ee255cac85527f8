"""The game kernel: what every game is built from and what both services rely on.

A game is a Decider (``game.Game``, whose docstring is the contract): pure functions over immutable state. The
kernel adds the pieces every game shares, and ``docs/adding-a-game.md`` is the guide to a new game.

Public surface (``__all__``; ``tests/unit/test_kernel_surface.py`` keeps this list, ``__all__`` and the code one):

- ``Game``, ``Decider``, ``Catalogue``, ``AiHooks``, ``Option``: what a game is, the three records a ``Game``
  composes, a catalogue option (``game.py``).
- ``GameOver``, ``RuleViolation``, ``require``: the refusals: a finished game, a rule with its stable code.
- ``Decision``, ``Decided``, ``replace``, ``replace_at``, ``fold``: the toolkit of ``decide`` and ``evolve``: a
  decision that emits and folds, what ``decide`` returns, fast replacement in frozen state, replay.
- ``Event``, ``ev``, ``redact``, ``sees``, ``viewer_for``, ``EVERYONE``: the event record and the one function
  that redacts it for a viewer (``events.py``).
- ``Fact``, ``Facts``: typed events, one frozen dataclass per event type (``facts.py``).
- ``Command``, ``arg``, ``by_type``, ``CommandRefused``, ``interned``: typed commands, one frozen dataclass per command
  type, its fields described by ``arg``, read strictly from the wire and derived as JSON Schema (``commands.py``);
  ``interned(kind)`` builds one record per distinct arguments (for ``legal_commands``).
- ``Outcome``: the end of a game as a value, its reason one of the game's enum.
- ``entropy_for``, ``rng``, ``seat_rng``: randomness derived from the session's secret seed (``entropy.py``).

The narration (``narration.py``: each event told as a sentence for its reader, from the event as redacted for that
reader; ``table_narration.py``: the table's own events) is imported from its modules, like the table around every
game (``table.py``) and the state codec (``codec.py``), which the services and the audit build on.
"""

from shared.kernel.commands import Command, CommandRefused, arg, by_type, interned
from shared.kernel.decision import Decided, Decision, replace, replace_at
from shared.kernel.entropy import entropy_for, rng, seat_rng
from shared.kernel.errors import RuleViolation, require
from shared.kernel.events import EVERYONE, Event, ev, redact, sees, viewer_for
from shared.kernel.facts import Fact, Facts
from shared.kernel.game import AiHooks, Catalogue, Decider, Game, GameOver, Option, fold
from shared.kernel.outcome import Outcome

__all__ = [
    "EVERYONE",
    "AiHooks",
    "Catalogue",
    "Command",
    "CommandRefused",
    "Decided",
    "Decider",
    "Decision",
    "Event",
    "Fact",
    "Facts",
    "Game",
    "GameOver",
    "Option",
    "Outcome",
    "RuleViolation",
    "arg",
    "by_type",
    "entropy_for",
    "ev",
    "fold",
    "interned",
    "redact",
    "replace",
    "replace_at",
    "require",
    "rng",
    "seat_rng",
    "sees",
    "viewer_for",
]
