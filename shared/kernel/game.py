"""What a game is: a Decider with its metadata, and the kernel's checks around it.

A game module builds one ``Game`` value from pure functions:

- ``setup(players, options, entropy) -> [Event]``: the opening facts (shuffles and deals recorded as data).
- ``decide(state, command, seat, entropy) -> [Event]``: every rule lives here; raises ``RuleViolation``.
- ``evolve(state, event) -> state``: a plain fold step, no checks, no randomness; ``state`` is ``None``
  for the first setup event.
- ``legal_commands(state, seat) -> [command]``: complete commands the seat may post now, as posted.
- ``waits_on(state) -> frozenset[int]``: the seats the game waits on (several when choices are simultaneous).
  It is public (the game resource, every view, streams, turn timers): it must follow from public facts only.
  A seat that *may* also act out of turn (a Sign, a power-play) is not listed; it finds the play in its own
  ``legal_commands``, which are private. The command types it may post that way are ``out_of_turn``.
- ``view(state, viewer) -> dict``: built from what ``viewer`` (seat, ``None``, or ``EVERYONE``) may know.
- ``outcome(state) -> Outcome | None``.
- ``resample(state, seat, rng) -> state``: the same position with everything ``seat`` cannot know
  reshuffled (other hands, deck order, sealed choices). Bots use it to determinize; tests use it to prove
  that nothing a seat cannot know reaches it.
- ``resample_unrevealable(state, seat, rng) -> state`` (optional): like ``resample`` but reshuffling only
  what no single move of another seat can show ``seat`` (in Arkham Ritual a taken card faces the table, so
  only the deck below its top stays hidden). The check on other seats' moves uses it; without it, ``resample``.
- ``invariant(state)``: raises ``AssertionError`` when the state breaks a conservation law (cards, tokens).
- ``timeout_command(state, seat, rng) -> command`` (optional): the game's timeout policy, what a silent seat
  the game waits on does when its time is up (a silent seat in a knock race passes). Without it, a random
  legal command that is not an out-of-turn play. It must depend only on what ``seat`` may know. The kernel asks it
  only when the seat has an ordinary legal command.
- ``facts``: the game's event types (``shared.kernel.facts``), one typed record each.
- ``retired``: the game's earlier rules versions (each a whole ``Game`` of the same id) that the code still
  provides, so a game started under one of them is decided by it to the end (docs/operations.md, "Upgrades").
- ``rollout_policy(state, seat, legal, rng) -> command`` (optional): how the AI's playouts move for ``seat``
  (a fast default policy with the game's know-how); without it, a uniformly random legal command.
- ``playout_value(start, state) -> [reward] | None`` (optional): where an AI playout that began in ``start``
  may stop at ``state``, each seat's reward in [0, 1] as a judgement of the position (a game of several rounds
  judges at the end of the round the search is about, rather than playing out rounds it cannot yet influence);
  ``None`` plays on. It may read only ``state`` and ``start`` (worlds the searching seat drew), like the policy.
- ``ai_levels``: the AI levels the catalogue offers (``shared.ai.LEVELS``: search budgets, game-agnostic).
- ``narrator`` (optional): the game's sentences, one per event type (``shared.kernel.narration``, in the game's
  ``narration.py``): what each reader's log says of an event, from the event as redacted for that reader.

Every state has an int attribute ``players``. State is a frozen dataclass of tuples, frozensets, ints, strs
and enums (whatever ``StateCodec`` stores); commands and event data are JSON-compatible dicts.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema, ValidationError

from shared.kernel.codec import StateCodec
from shared.kernel.errors import RuleViolation
from shared.kernel.events import Event
from shared.kernel.facts import Fact, Facts
from shared.kernel.narration import Narrator
from shared.kernel.outcome import Outcome


AI_LEVELS = ("random", "easy", "medium", "hard")  # the budgets behind each are shared.ai.LEVELS


class MalformedCommand(Exception):
    """A command whose shape is wrong (missing type, wrong field types): the request is bad, not the move."""

    def __init__(self, message: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.details = details or {}


class GameOver(Exception):
    """A command sent to a game that has ended."""


@dataclass(frozen=True, slots=True)
class Option:
    """A game option as the catalogue shows it. ``type`` is one of bool, int, choice."""

    type: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "default": self.default, "description": self.description}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out

    def check(self, name: str, value: Any) -> Any:
        ok = {
            "bool": isinstance(value, bool),
            "int": isinstance(value, int) and not isinstance(value, bool),
            "choice": self.choices is not None and value in self.choices,
        }.get(self.type, False)
        if ok and self.type == "int":
            ok = (self.minimum is None or value >= self.minimum) and (self.maximum is None or value <= self.maximum)
        if not ok:
            raise RuleViolation(
                "rules/invalid_option", f"option {name!r} does not accept that value", {"option": name, **self.to_json()}
            )
        return value


@dataclass(frozen=True)
class Game:
    id: str
    title: str
    min_players: int
    max_players: int
    rules_version: str
    setup: Callable[[int, Mapping[str, Any], bytes], list[Event]]
    decide: Callable[[Any, Mapping[str, Any], int, bytes], list[Event]]
    evolve: Callable[[Any, Event], Any]
    legal_commands: Callable[[Any, int], list[dict[str, Any]]]
    waits_on: Callable[[Any], frozenset[int]]
    view: Callable[[Any, Any], dict[str, Any]]
    outcome: Callable[[Any], Outcome | None]
    resample: Callable[[Any, int, Any], Any]
    invariant: Callable[[Any], None]
    commands: Mapping[str, type[Schema]]
    state_types: tuple[type, ...]
    options: Mapping[str, Option] = field(default_factory=dict)
    card_data: Mapping[str, Any] = field(default_factory=dict)
    ai_levels: tuple[str, ...] = AI_LEVELS
    resample_unrevealable: Callable[[Any, int, Any], Any] | None = None
    out_of_turn: frozenset[str] = frozenset()
    timeout_command: Callable[[Any, int, random.Random], dict[str, Any] | None] | None = None
    facts: Facts = field(default_factory=Facts)
    retired: tuple[Game, ...] = ()
    rollout_policy: Callable[[Any, int, list[dict[str, Any]], random.Random], dict[str, Any]] | None = None
    playout_value: Callable[[Any, Any], list[float] | None] | None = None
    narrator: Narrator | None = None

    @functools.cached_property
    def codec(self) -> StateCodec:
        return StateCodec(self.state_types)

    @functools.cached_property
    def command_loaders(self) -> dict[str, Schema]:
        """One schema instance per command type, reused: building a schema costs more than loading with it."""
        return {kind: schema() for kind, schema in self.commands.items()}

    def at_version(self, rules_version: str | None) -> Game | None:
        """The rules of ``rules_version`` (None: the current ones), if this code still provides them."""
        if rules_version is None or rules_version == self.rules_version:
            return self
        return next((g for g in self.retired if g.rules_version == rules_version), None)

    @property
    def rules_versions(self) -> list[str]:
        """Every rules version this code provides, the current one first."""
        return [self.rules_version, *(g.rules_version for g in self.retired)]

    # -- the kernel's checks around the game's own functions ---------------------------------------

    def resolve_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every option with its value: the caller's where given (checked), else the default."""
        raw = dict(raw or {})
        unknown = sorted(set(raw) - set(self.options))
        if unknown:
            raise RuleViolation("rules/invalid_option", f"{self.title} has no option {unknown[0]!r}", {"option": unknown[0]})
        return {name: opt.check(name, raw[name]) if name in raw else opt.default for name, opt in self.options.items()}

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RuleViolation(
                "rules/player_count",
                f"{self.title} is played by {self.min_players} to {self.max_players} players",
                {"min_players": self.min_players, "max_players": self.max_players},
            )

    def start(self, players: int, options: Mapping[str, Any] | None, entropy: bytes) -> tuple[dict[str, Any], list[Event]]:
        """Check the table and options, then set up: the resolved options and the opening events."""
        self.check_players(players)
        resolved = self.resolve_options(options)
        return resolved, self.setup(players, resolved, entropy)

    def parse_command(self, raw: Any) -> dict[str, Any]:
        """Validate a command's shape against its schema; unknown types are a rule matter, bad shapes are not."""
        if not isinstance(raw, Mapping) or not isinstance(raw.get("type"), str):
            raise MalformedCommand("a command is a JSON object with a string 'type'")
        kind = raw["type"]
        schema = self.command_loaders.get(kind)
        if schema is None:
            raise RuleViolation(
                "rules/unknown_command", f"{self.title} has no command {kind[:64]!r}", {"known": sorted(self.commands)}
            )
        try:
            fields = schema.load({k: v for k, v in raw.items() if k != "type"})
        except ValidationError as exc:
            raise MalformedCommand(f"the {kind} command is malformed", {"fields": exc.messages}) from None
        return {"type": kind, **fields}

    def checked_decide(self, state: Any, command: Any, seat: int | None, entropy: bytes) -> list[Event]:
        """Decide with the kernel's checks first: the game is running, the seat exists, the command is well formed."""
        if self.outcome(state) is not None:
            raise GameOver()
        if not isinstance(seat, int) or not 0 <= seat < self.players(state):
            raise RuleViolation("rules/no_such_seat", "there is no such seat at this table")
        events = self.decide(state, self.parse_command(command), seat, entropy)
        if not events:
            raise AssertionError(f"{self.id}: decide accepted {command['type']} without an event")
        return events

    def timeout_choice(self, state: Any, seat: int, rand: random.Random) -> dict[str, Any] | None:
        """What the turn timer plays for a silent ``seat`` the game waits on: the game's policy, else a random
        legal command that is not an optional out-of-turn play (a timer never spends a Sign for a seat).

        ``None`` when the game does not wait on ``seat``, or when the seat has no ordinary command: a breach of
        liveness (ARCHITECTURE "Liveness"), which the caller reports. The game's policy is asked only when there is
        something to play, so it never raises for want of a move."""
        if seat not in self.waits_on(state):
            return None
        ordinary = [c for c in self.legal_commands(state, seat) if c["type"] not in self.out_of_turn]
        if not ordinary:
            return None
        if self.timeout_command is not None:
            return self.timeout_command(state, seat, rand)
        return rand.choice(ordinary)

    def fact(self, event: Event) -> Fact:
        """A stored event read back as the game's typed fact."""
        return self.facts.parse(event)

    def players(self, state: Any) -> int:
        return int(state.players)

    def replay(self, events: Iterable[Event], state: Any = None) -> Any:
        return fold(self, events, state)

    def catalogue_entry(self, command_schemas: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "rules_version": self.rules_version,
            "options": {name: opt.to_json() for name, opt in self.options.items()},
            "commands": dict(command_schemas),
            "ai_levels": list(self.ai_levels),
            "out_of_turn": sorted(self.out_of_turn),
            "card_data": self.card_data,
        }


def fold(game: Game, events: Iterable[Event], state: Any = None) -> Any:
    """Replay: the state after ``events``, starting from ``state`` (``None`` before setup)."""
    return functools.reduce(game.evolve, events, state)

