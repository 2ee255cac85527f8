"""What a game is: a Decider with its metadata, and the kernel's checks around it.

A game module builds one ``Game`` value from pure functions:

- ``setup(players, options, entropy) -> [Event]``: the opening facts (shuffles and deals recorded as data).
- ``decide(state, command, seat, entropy) -> [Event]``: every rule lives here; raises ``RuleViolation``.
- ``evolve(state, event) -> state``: a plain fold step, no checks, no randomness; ``state`` is ``None``
  for the first setup event.
- ``legal_commands(state, seat) -> [command]``: complete commands the seat may post now, as posted.
- ``to_act(state) -> frozenset[int]``: every seat that may act now (several for sealed or out-of-turn moves).
- ``view(state, viewer) -> dict``: built from what ``viewer`` (seat, ``None``, or ``EVERYONE``) may know.
- ``outcome(state) -> Outcome | None``.
- ``resample(state, seat, rng) -> state``: the same position with everything ``seat`` cannot know
  reshuffled (other hands, deck order, sealed choices). Bots use it to determinize; tests use it to prove
  that nothing a seat cannot know reaches it.
- ``resample_unrevealable(state, seat, rng) -> state`` (optional): like ``resample`` but reshuffling only
  what no single move of another seat can show ``seat`` (in Arkham Ritual a taken card faces the table, so
  only the deck below its top stays hidden). The check on other seats' moves uses it; without it, ``resample``.
- ``invariant(state)``: raises ``AssertionError`` when the state breaks a conservation law (cards, tokens).

Every state has an int attribute ``players``. State is a frozen dataclass of tuples, frozensets, ints, strs
and enums (whatever ``StateCodec`` stores); commands and event data are JSON-compatible dicts.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema, ValidationError

from shared.kernel.codec import StateCodec
from shared.kernel.errors import RuleViolation
from shared.kernel.events import Event
from shared.kernel.outcome import Outcome


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
    to_act: Callable[[Any], frozenset[int]]
    view: Callable[[Any, Any], dict[str, Any]]
    outcome: Callable[[Any], Outcome | None]
    resample: Callable[[Any, int, Any], Any]
    invariant: Callable[[Any], None]
    commands: Mapping[str, type[Schema]]
    state_types: tuple[type, ...]
    options: Mapping[str, Option] = field(default_factory=dict)
    card_data: Mapping[str, Any] = field(default_factory=dict)
    ai_levels: tuple[str, ...] = ("random",)
    resample_unrevealable: Callable[[Any, int, Any], Any] | None = None

    @functools.cached_property
    def codec(self) -> StateCodec:
        return StateCodec(self.state_types)

    @functools.cached_property
    def command_loaders(self) -> dict[str, Schema]:
        """One schema instance per command type, reused: building a schema costs more than loading with it."""
        return {kind: schema() for kind, schema in self.commands.items()}

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

    def checked_decide(self, state: Any, command: Any, seat: int, entropy: bytes) -> list[Event]:
        """Decide with the kernel's checks first: the game is running, the seat exists, the command is well formed."""
        if self.outcome(state) is not None:
            raise GameOver()
        if not isinstance(seat, int) or not 0 <= seat < self.players(state):
            raise RuleViolation("rules/no_such_seat", "there is no such seat at this table")
        events = self.decide(state, self.parse_command(command), seat, entropy)
        if not events:
            raise AssertionError(f"{self.id}: decide accepted {command['type']} without an event")
        return events

    def players(self, state: Any) -> int:
        return state.players

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
            "card_data": self.card_data,
        }


def fold(game: Game, events: Iterable[Event], state: Any = None) -> Any:
    """Replay: the state after ``events``, starting from ``state`` (``None`` before setup)."""
    return functools.reduce(game.evolve, events, state)

