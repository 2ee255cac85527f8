"""What a game is: a Decider, its catalogue entry and its AI hooks, composed by ``Game`` with the kernel's checks.

A game package builds one ``Game`` (its ``GAME``, the registry entry) from three small records.

``Decider``: the rules, pure functions over immutable state (the Decider pattern):

- ``setup(players, options, entropy) -> [Event]``: the opening facts (shuffles and deals recorded as data).
- ``decide(state, command, seat, entropy) -> Decided``: every rule lives here; raises ``RuleViolation``. It
  returns its events and the state they leave (``Decision.decided()``: folded once, as they were emitted).
- ``evolve(state, event) -> state``: a plain fold step, no checks, no randomness; ``state`` is ``None``
  for the first setup event.
- ``legal_commands(state, seat) -> [Command]``: complete commands the seat may post now, typed records
  (``shared.kernel.commands``) that go on the wire as posted (``to_wire()``).
- ``to_act(state) -> frozenset[int]``: the seats the game waits on (several when choices are simultaneous).
  It is public (the game resource, every view, streams, turn timers): it must follow from public facts only.
  A seat that *may* also act out of turn (a Sign, a power-play) is not listed; it finds the play in its own
  ``legal_commands``, which are private. The command types it may post that way are ``out_of_turn``. The kernel
  refuses every other command from a seat not waited on (``rules/not_your_turn``), so no game checks the turn.
- ``view(state, viewer) -> dict``: built from what ``viewer`` (seat, ``None``, or ``EVERYONE``) may know.
- ``outcome(state) -> Outcome | None``: the end as a value, its ``reason`` a member of ``reasons``, the game's
  ``StrEnum`` of the ways it ends (the wire carries the member's value).
- ``winners_among(state, standing) -> seats``: at the end (``outcome`` is not ``None``), who wins by the game's
  own end rule when only the seats in ``standing`` may (the others resigned: the table never lets a resigned seat
  win). Each game ranks by its own rule (fewest Madness, the holder of The Great Old One losing, a consumed seat
  losing), which no score the kernel could read says; a seat outside ``standing`` is never among them.
- ``invariant(state)``: raises ``AssertionError`` when the state breaks a conservation law (cards, tokens).
- ``state_types``: every class the state codec may build; ``facts``: the game's event types
  (``shared.kernel.facts``), one typed record each.
- ``timeout_command(state, seat, rng) -> command`` (optional): the game's timeout policy, what a silent seat
  the game waits on does when its time is up (a silent seat in a knock race passes). Without it, a random
  legal command that is not an out-of-turn play. It must depend only on what ``seat`` may know. The kernel asks it
  only when the seat has an ordinary legal command.

``Catalogue``: what the catalogue shows client authors: ``title``, ``min_players`` and ``max_players``,
``options``, ``card_data``, ``commands``, each command type's record class (``by_type(...)``: its JSON Schema is
derived from it), ``narrator`` (below), and ``shapes``, what its view and outcome look like on the wire
(``shared.kernel.shapes``, in the game's ``shapes.py``). A command reaches ``decide`` as its record, read at the wire
from what was posted (``shared.wire.commands``: ``Command.from_wire``, defaults filled in).

``AiHooks``: what the AI (``shared.ai``) and the non-interference suites need beyond the rules:

- ``resample(state, seat, rng) -> state``: the same position with everything ``seat`` cannot know
  reshuffled (other hands, deck order, sealed choices). Bots use it to determinize; tests use it to prove
  that nothing a seat cannot know reaches it.
- ``resample_unrevealable(state, seat, rng) -> state`` (optional): like ``resample`` but reshuffling only
  what no single move of another seat can show ``seat`` (in Arkham Ritual a taken card faces the table, so
  only the deck below its top stays hidden). The check on other seats' moves uses it; without it, ``resample``.
- ``rollout_policy(state, seat, legal, rng) -> command`` (optional): how the AI's playouts move for ``seat``
  (a fast default policy with the game's know-how); without it, a uniformly random legal command.
- ``playout_value(start, state) -> [reward] | None`` (optional): where an AI playout that began in ``start``
  may stop at ``state``, each seat's reward in [0, 1] as a judgement of the position (a game of several rounds
  judges at the end of the round the search is about, rather than playing out rounds it cannot yet influence);
  ``None`` plays on. It may read only ``state`` and ``start`` (worlds the searching seat drew), like the policy.
- ``simulate(state, command, seat, entropy) -> state`` (optional): ``decide``'s state without its events, for the
  AI's playouts only (in a world the search drew, never the real state): the command is one ``legal_commands``
  listed, so it is not checked again, and the state is built directly rather than by folding events. It must be
  exactly ``decide(state, command, seat, entropy).state`` (``tests/unit/test_ai_simulate.py``, every game); a game
  may hand the commands it has no fast path for to ``decide``. Without it, playouts ``decide``.
- ``levels``: the AI levels the catalogue offers (``shared.ai.LEVELS``: search budgets, game-agnostic).

``Game`` adds the game's ``id``, its ``rules_version`` and ``retired`` (the earlier rules versions the code still
provides, each a whole ``Game`` of the same id, so a game started under one is decided by it to the end:
docs/operations.md, "Upgrades"), and the kernel's checks around the decider: ``start`` (table size and options),
``checked_decide`` (the game is running, the seat exists, the one turn check), ``timeout_choice``, ``replay``.
- ``narrator`` (``Catalogue``, optional): the game's sentences, one per event type (``shared.kernel.narration``, in
  the game's ``narration.py``): what each reader's log says of an event, from the event as redacted for that reader.

Every state has an int attribute ``players``. State is a frozen dataclass of tuples, frozensets, ints, strs
and enums (whatever ``StateCodec`` stores); commands are typed records; event data are JSON-compatible dicts.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from shared.kernel.codec import StateCodec
from shared.kernel.commands import Command
from shared.kernel.decision import Decided
from shared.kernel.errors import RuleViolation
from shared.kernel.events import Event
from shared.kernel.facts import Fact, Facts
from shared.kernel.narration import Narrator
from shared.kernel.outcome import Outcome
from shared.kernel.shapes import Shapes


AI_LEVELS = ("random", "easy", "medium", "hard")  # the budgets behind each are shared.ai.LEVELS
NOT_YOUR_TURN = "rules/not_your_turn"


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


@dataclass(frozen=True, slots=True)
class Decider:
    """A game's rules: pure functions over immutable state (the module docstring gives each one's contract)."""

    setup: Callable[[int, Mapping[str, Any], bytes], list[Event]]
    decide: Callable[[Any, Command, int, bytes], Decided[Any]]
    evolve: Callable[[Any, Event], Any]
    legal_commands: Callable[[Any, int], list[Command]]
    to_act: Callable[[Any], frozenset[int]]
    view: Callable[[Any, Any], dict[str, Any]]
    outcome: Callable[[Any], Outcome | None]
    winners_among: Callable[[Any, frozenset[int]], tuple[int, ...]]
    invariant: Callable[[Any], None]
    state_types: tuple[type, ...]
    reasons: type[StrEnum]
    facts: Facts = field(default_factory=Facts)
    out_of_turn: frozenset[str] = frozenset()
    timeout_command: Callable[[Any, int, random.Random], Command | None] | None = None


@dataclass(frozen=True, slots=True)
class Catalogue:
    """What the catalogue shows of a game; ``commands`` maps each command type to its record class (read at the
    wire, and the source of its JSON Schema)."""

    title: str
    min_players: int
    max_players: int
    commands: Mapping[str, type[Command]]
    options: Mapping[str, Option] = field(default_factory=dict)
    card_data: Mapping[str, Any] = field(default_factory=dict)
    narrator: Narrator | None = None
    shapes: Shapes | None = None


@dataclass(frozen=True, slots=True)
class AiHooks:
    """What the AI needs of a game beyond its rules: how to draw the worlds a seat cannot tell apart, and optionally
    how its playouts move and where they may stop."""

    resample: Callable[[Any, int, Any], Any]
    resample_unrevealable: Callable[[Any, int, Any], Any] | None = None
    rollout_policy: Callable[[Any, int, list[Command], random.Random], Command] | None = None
    playout_value: Callable[[Any, Any], list[float] | None] | None = None
    simulate: Callable[[Any, Command, int, bytes], Any] | None = None
    levels: tuple[str, ...] = AI_LEVELS


@dataclass(frozen=True)
class Game:
    """A game as the registry holds it: its id and rules version, its decider, catalogue entry and AI hooks, and the
    earlier rules versions it still provides."""

    id: str
    rules_version: str
    decider: Decider
    catalogue: Catalogue
    ai: AiHooks
    retired: tuple[Game, ...] = ()

    @functools.cached_property
    def codec(self) -> StateCodec:
        return StateCodec(self.decider.state_types)

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
        raw, options = dict(raw or {}), self.catalogue.options
        unknown = sorted(set(raw) - set(options))
        if unknown:
            raise RuleViolation("rules/invalid_option", f"{self.catalogue.title} has no option {unknown[0]!r}",
                                {"option": unknown[0]})
        return {name: opt.check(name, raw[name]) if name in raw else opt.default for name, opt in options.items()}

    def check_players(self, players: int) -> None:
        least, most = self.catalogue.min_players, self.catalogue.max_players
        if not least <= players <= most:
            raise RuleViolation("rules/player_count", f"{self.catalogue.title} is played by {least} to {most} players",
                                {"min_players": least, "max_players": most})

    def start(self, players: int, options: Mapping[str, Any] | None, entropy: bytes) -> tuple[dict[str, Any], list[Event]]:
        """Check the table and options, then set up: the resolved options and the opening events."""
        self.check_players(players)
        resolved = self.resolve_options(options)
        return resolved, self.decider.setup(players, resolved, entropy)

    def checked_decide(self, state: Any, command: Command, seat: int | None, entropy: bytes) -> Decided[Any]:
        """Decide a command (as read at the wire: ``shared.wire.commands``) with the kernel's checks first: the game
        is running, the seat exists, and the game waits on the seat or the command is one it may play out of turn
        (the one turn check: no game writes its own)."""
        return self.decide_in_turn(state, command, self.check_seat(state, seat), entropy)

    def check_seat(self, state: Any, seat: int | None) -> int:
        """``seat``, once the game is known to be running (else ``GameOver``) and ``seat`` one of its seats (else
        ``rules/no_such_seat``)."""
        if self.decider.outcome(state) is not None:
            raise GameOver()
        if not isinstance(seat, int) or not 0 <= seat < self.players(state):
            raise RuleViolation("rules/no_such_seat", "there is no such seat at this table")
        return seat

    def decide_in_turn(self, state: Any, command: Command, seat: int, entropy: bytes) -> Decided[Any]:
        """The turn check, then the game's ``decide``, which must emit something when it accepts."""
        check_turn(self.decider, state, command, seat)
        decided = self.decider.decide(state, command, seat, entropy)
        if not decided.events:
            raise AssertionError(f"{self.id}: decide accepted {command.type} without an event")
        return decided

    def timeout_choice(self, state: Any, seat: int, rand: random.Random) -> Command | None:
        """What the turn timer plays for a silent ``seat`` the game waits on: the game's policy, else a random
        legal command that is not an optional out-of-turn play (a timer never spends a Sign for a seat).

        ``None`` when the game does not wait on ``seat``, or when the seat has no ordinary command: a breach of
        liveness (ARCHITECTURE "Liveness"), which the caller reports. The game's policy is asked only when there is
        something to play, so it never raises for want of a move."""
        rules = self.decider
        if seat not in rules.to_act(state):
            return None
        ordinary = [c for c in rules.legal_commands(state, seat) if c.type not in rules.out_of_turn]
        if not ordinary:
            return None
        if rules.timeout_command is not None:
            return rules.timeout_command(state, seat, rand)
        return rand.choice(ordinary)

    def fact(self, event: Event) -> Fact:
        """A stored event read back as the game's typed fact."""
        return self.decider.facts.parse(event)

    def players(self, state: Any) -> int:
        return int(state.players)

    def replay(self, events: Iterable[Event], state: Any = None) -> Any:
        return fold(self, events, state)

    def catalogue_entry(self, command_schemas: Mapping[str, Any]) -> dict[str, Any]:
        about = self.catalogue
        return {
            "id": self.id,
            "title": about.title,
            "min_players": about.min_players,
            "max_players": about.max_players,
            "rules_version": self.rules_version,
            "options": {name: opt.to_json() for name, opt in about.options.items()},
            "commands": dict(command_schemas),
            "ai_levels": list(self.ai.levels),
            "out_of_turn": sorted(self.decider.out_of_turn),
            "card_data": about.card_data,
        }


def check_turn(rules: Decider, state: Any, command: Command, seat: int) -> None:
    """Refuse ``command`` from ``seat`` unless the game waits on the seat or lists the command's type as playable out
    of turn (boardgame.io's master refuses a move from a player not in ``activePlayers`` the same way, before the
    game's code runs). ``to_act`` is public, so the refusal may name it."""
    if command.type not in rules.out_of_turn:
        waited = rules.to_act(state)
        if seat not in waited:
            raise RuleViolation(NOT_YOUR_TURN, "It is not your turn.", {"to_act": sorted(waited)})


def fold(game: Game, events: Iterable[Event], state: Any = None) -> Any:
    """Replay: the state after ``events``, starting from ``state`` (``None`` before setup)."""
    return functools.reduce(game.decider.evolve, events, state)
