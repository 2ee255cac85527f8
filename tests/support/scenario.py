"""Given / when / then for rulebook scenarios, as the Decider pattern writes them: given the facts so far, when a
seat posts a command (read at the wire as the rules service reads it), then exactly these facts, or a refusal.

    given(GAME, *events).when(1, {"type": "draw_cards", "count": 2}).then(ev("cards_drawn", seat=1, ...))
    given(GAME, *events).when(1, {"type": "pass"}).refused("rules/not_your_turn")

``then`` compares whole events (type, data and who may see each secret field) in their wire form, so a tuple and a
list of the same cards are equal; a mismatch names the first differing event by its index. ``given`` also takes
moves already played (``.played((seat, command), ...)``) so a scenario reads as the table did.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from shared.kernel import Command, Decided, Event, RuleViolation, fold
from shared.kernel.game import Game
from shared.wire.commands import decide_posted

ENTROPY = bytes(32)


def posted(command: dict[str, Any] | Command) -> dict[str, Any]:
    """A command as a client posts it: a test's dict as written, a legal command's record as it goes on the wire."""
    return command.to_wire() if isinstance(command, Command) else command


def offered(game: Game, state: Any, seat: int) -> list[dict[str, Any]]:
    """The legal commands of ``seat`` as its client gets them (on the wire), to compare with a test's dicts."""
    return [command.to_wire() for command in game.decider.legal_commands(state, seat)]


def timeout_choice(game: Game, state: Any, seat: int, rand: random.Random) -> dict[str, Any] | None:
    """What the turn timer posts for ``seat`` (``Game.timeout_choice``), as posted."""
    command = game.timeout_choice(state, seat, rand)
    return None if command is None else command.to_wire()


def decide(game: Game, state: Any, command: dict[str, Any] | Command, seat: int, entropy: bytes = ENTROPY) -> Decided[Any]:
    """Decide ``command`` for ``seat`` as the rules service decides a posted one (``decide_posted``: read at the wire
    into the game's record, then the kernel's checks and the rules)."""
    return decide_posted(game, state, posted(command), seat, entropy)


@dataclass
class Given:
    game: Game
    state: Any

    def played(self, *moves: tuple[int, dict[str, Any] | Command], entropy: bytes = ENTROPY) -> Given:
        """The position once ``(seat, command)`` moves have been played on this one."""
        state, _ = play_moves(self.game, self.state, *moves, entropy=entropy)
        return Given(self.game, state)

    def when(self, seat: int, command: dict[str, Any] | Command, entropy: bytes = ENTROPY) -> When:
        return When(self.game, self.state, seat, command, entropy)


@dataclass
class When:
    game: Game
    state: Any
    seat: int
    command: dict[str, Any] | Command
    entropy: bytes

    @property
    def events(self) -> list[Event]:
        return decide(self.game, self.state, self.command, self.seat, self.entropy).events

    @property
    def after(self) -> Any:
        """The folded state after the command: for what no event says (a view, the legal commands); what happened
        is said with ``then``."""
        return decide(self.game, self.state, self.command, self.seat, self.entropy).state

    def then(self, *expected: Event) -> When:
        """Exactly ``expected``, in order, whole; on a mismatch, the first differing event by index."""
        expect(f"when seat {self.seat} posts {show_command(self.command)}", list(expected), self.events)
        return self

    def when(self, seat: int, command: dict[str, Any] | Command, entropy: bytes = ENTROPY) -> When:
        """The next move, on the position this one left: a play example told move by move,
        ``.when(a, x).then(...).when(b, y).then(...)``."""
        return Given(self.game, self.after).when(seat, command, entropy)

    def played(self, *moves: tuple[int, dict[str, Any] | Command], entropy: bytes = ENTROPY) -> Given:
        """The position once this move and then ``moves`` have been played: to go on from."""
        return Given(self.game, self.after).played(*moves, entropy=entropy)

    def then_types(self, *types: str) -> list[Event]:
        """Only the types, for a test whose point is which facts follow, not what they say."""
        events = self.events
        assert [e.type for e in events] == list(types)
        return events

    def refused(self, code: str) -> RuleViolation:
        """The rules refuse the command with ``code`` (and emit nothing)."""
        with pytest.raises(RuleViolation) as info:
            decide(self.game, self.state, self.command, self.seat, self.entropy)
        assert info.value.code == code, info.value
        return info.value


@dataclass
class SetUp:
    """A new table's setup as a scenario: no facts yet, and the game opens with these."""

    game: Game
    players: int
    options: dict[str, Any]
    entropy: bytes

    @property
    def events(self) -> list[Event]:
        return self.game.decider.setup(self.players, self.game.resolve_options(self.options), self.entropy)

    @property
    def state(self) -> Any:
        """The position the table opens on (the invariant checked, as ``given`` checks it)."""
        return given(self.game, *self.events).state

    def then(self, *expected: Event) -> SetUp:
        """Exactly ``expected``, in order, whole (who may see each secret field included)."""
        expect(f"when {self.players} players set up {show_command(self.options)}", list(expected), self.events)
        return self


def set_up(game: Game, players: int, entropy: bytes = ENTROPY, **options: Any) -> SetUp:
    """The setup of a table of ``players`` with ``options`` (resolved as the lobby resolves them)."""
    return SetUp(game, players, options, entropy)


def given(game: Game, *events: Event, state: Any = None) -> Given:
    """The position after ``events`` (folded onto ``state``, ``None`` meaning before setup), which must keep the
    game's invariant: a scenario built on a position the rules could never reach proves nothing."""
    folded = fold(game, events, state)
    game.decider.invariant(folded)
    return Given(game, folded)


def given_state(game: Game, state: Any) -> Given:
    """The position ``state`` as a test built it: a few cards, not a whole deck, may be all a scenario needs, so
    no invariant is asked of it (``given`` asks it of a position folded from events)."""
    return Given(game, state)


def play_moves(game: Game, state: Any, *moves: tuple[int, dict[str, Any] | Command], entropy: bytes = ENTROPY) -> tuple[Any, list[Event]]:
    """Apply ``(seat, command)`` moves in order through the kernel's checks; the final state and every event."""
    events: list[Event] = []
    for seat, command in moves:
        new, state = decide(game, state, command, seat, entropy)
        events += new
    return state, events


def play_from(game: Game, events: list[Event], *moves: tuple[int, dict[str, Any] | Command],
              entropy: bytes = ENTROPY) -> tuple[Any, list[Event]]:
    """Fold ``events`` (``given``: the invariant checked), then play ``moves`` (``play_moves``), the invariant
    checked after them: the final state and the moves' events."""
    state, produced = play_moves(game, given(game, *events).state, *moves, entropy=entropy)
    game.decider.invariant(state)
    return state, produced


def after_moves(game: Game, state: Any, *moves: tuple[int, dict[str, Any] | Command], entropy: bytes = ENTROPY) -> Any:
    """The position once ``moves`` have been played on ``state``: to go on from, or to read a view or the legal
    commands of (what happened is said with ``when(...).then(...)``)."""
    return play_moves(game, state, *moves, entropy=entropy)[0]


# -- showing a difference ------------------------------------------------------------------------------


def wire(event: Event) -> dict[str, Any]:
    """An event as the record stores it (tuples read back as lists), for comparing."""
    return json.loads(json.dumps(event.to_json()))


def show_event(event: Event | None) -> str:
    """``card_played{seat:1,card:14}``, with any secret part after it: ``secret{hand:[1]}``."""
    if event is None:
        return "nothing"
    raw = wire(event)

    def fields(mapping: dict[str, Any]) -> str:
        return ",".join(f"{k}:{json.dumps(v, separators=(',', ':'))}" for k, v in mapping.items())

    secret = f" secret{{{fields(raw['secret'])}}}" if raw.get("secret") else ""
    return f"{raw['type']}{{{fields(raw['data'])}}}{secret}"


def show_command(command: dict[str, Any] | Command) -> str:
    return json.dumps(posted(command), separators=(",", ":"), default=str)


def expect(what: str, expected: list[Event], got: list[Event]) -> None:
    """Fail with ``what`` happened and the first difference unless ``got`` is ``expected``."""
    problem = first_difference(expected, got)
    if problem:
        pytest.fail(f"{what}:\n{problem}", pytrace=False)


def first_difference(expected: list[Event], got: list[Event]) -> str | None:
    """``None`` when ``got`` is ``expected``; else the first differing event by index, then the counts if they
    differ, then the whole list that came."""
    for i in range(max(len(expected), len(got))):
        want = expected[i] if i < len(expected) else None
        came = got[i] if i < len(got) else None
        if want is None or came is None or wire(want) != wire(came):
            lines = [f"event {i}: expected {show_event(want)} got {show_event(came)}"]
            if len(expected) != len(got):
                lines.append(f"expected {len(expected)} events, got {len(got)}")
            lines += ["all that came:", *(f"  {n}: {show_event(e)}" for n, e in enumerate(got))]
            return "\n".join(lines)
    return None
