"""A game at its table: the seats around it, who sat down and who resigned, wrapped around the game's state.

The game's own rules know nothing of lobbies. The table is what the kernel adds around every game, in the
same log and the same hash chain, so the audit re-decides it like any command:

- ``table_opened`` is every game's first record: its id, type, options and seats (names, AI levels, open
  seats), so none of them can be rewritten in an export without breaking the chain.
- ``table_seat_joined`` fills an open seat (a person, or an AI when the creator starts the table early). When the
  last seat is taken the game's setup and ``table_started`` follow in the same batch: nothing is dealt to a
  seat nobody holds.
- ``table_seat_left`` (a seat gives itself back while the table waits: it opens again) and
  ``table_seat_declined`` (a player a seat was kept for turns it down: the seat opens for anyone).
- ``table_seat_resigned``: the seat concedes; the table's AI plays it from then on and it can never win; with one
  seat left that has not resigned, that seat wins; else, at the game's end, the game's own rule names the winners
  among the seats still standing (``Decider.winners_among``).
- ``table_aborted`` (before the first move) and ``table_abandoned`` (no waited seat acted for too long).
- ``table_ended`` closes every finished game's log with its outcome, so an export cut short shows.

Every table fact's type starts with ``table_``, a prefix no game's event type may use.

``Seating`` decides the table's commands (typed records, ``OpenTable`` … ``Abandon``, matched as a game's are) and
folds its facts; the game's commands are decided by the game
(in production, by the rules service) on ``table.game``. Randomness for the game is drawn from its own count
of game events (``Table.game_events``): the seats' comings and goings never shift a deal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, ClassVar

import orjson

from shared.kernel.codec import StateCodec
from shared.kernel.decision import replace_at
from shared.kernel.errors import RuleViolation, require
from shared.kernel.events import Event
from shared.kernel.facts import Fact, Facts
from shared.kernel.game import Game, GameOver
from shared.kernel.outcome import Outcome


class Status(StrEnum):
    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


class TableEnd(StrEnum):
    """Outcome reasons the table gives, besides each game's own."""

    RESIGNATION = "resignation"
    ABANDONED = "abandoned"


TABLE_ENDS = frozenset(TableEnd)


# -- facts ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableOpened(Fact, type="table_opened", optional=("rated",)):
    """The table as created: its seats (``{"name", "ai", "player", "open"}``), options and visibility; ``rated``
    (stored only when true) when its creator asked for a rated table, so the ratings recomputed from an export are
    the server's (docs/record-format.md, "Ratings")."""

    game_id: str
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    visibility: str
    rated: bool | None = None


@dataclass(frozen=True, slots=True)
class SeatJoined(Fact, type="table_seat_joined"):
    """An open seat taken: by a person (``player`` when they joined as a player) or by an AI (``ai``)."""

    seat: int
    name: str
    player: str | None
    ai: str | None


@dataclass(frozen=True, slots=True)
class TableStarted(Fact, type="table_started"):
    """Every seat is taken and the game's setup is done (it is the last record of the batch that set it up)."""


@dataclass(frozen=True, slots=True)
class SeatLeft(Fact, type="table_seat_left"):
    """``seat``'s holder gave it back before the game started: the seat is open again, for anyone."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatDeclined(Fact, type="table_seat_declined"):
    """The player ``seat`` was kept for turned the invitation down: the seat stays open, now for anyone."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatResigned(Fact, type="table_seat_resigned"):
    """``seat`` conceded; the table's AI (``ai``) plays it from now on."""

    seat: int
    ai: str


@dataclass(frozen=True, slots=True)
class TableAborted(Fact, type="table_aborted"):
    """The table was called off before its first move (``seat``: who; ``None``: the server, for a table that
    never filled)."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class TableAbandoned(Fact, type="table_abandoned"):
    """No seat the game waited on acted for ``idle_s`` seconds: the game ends with no winner."""

    idle_s: int


@dataclass(frozen=True, slots=True)
class TableEnded(Fact, type="table_ended"):
    """The last record of every finished game: its outcome."""

    outcome: dict[str, Any]


TABLE_FACTS = Facts(TableOpened, SeatJoined, SeatLeft, SeatDeclined, TableStarted, SeatResigned, TableAborted, TableAbandoned, TableEnded)


# -- state ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seat:
    name: str | None  # None while the seat is open
    ai: str | None
    player: str | None = None
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    """A table and its game. ``game`` is the game's state (``None`` until every seat is taken);
    ``game_events`` counts the game's own events (the entropy counter), ``setup_events`` those of its setup."""

    game_id: str
    game_type: str
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    visibility: str
    status: Status = Status.WAITING
    game: Any = None
    game_events: int = 0
    setup_events: int = 0
    ended: str | None = None  # the table_ended outcome as JSON (its details may hold lists, which states do not)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def legacy(self) -> bool:
        """A game logged before tables existed (record format 1): no table facts, no ``table_ended``."""
        return self.game_id == ""

    @property
    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.name is None]

    @property
    def moved(self) -> bool:
        """Has a command been played since the setup? (Then the table can no longer be aborted.)"""
        return self.game_events > self.setup_events

    @property
    def resigned(self) -> frozenset[int]:
        return frozenset(i for i, s in enumerate(self.seats) if s.resigned)


TABLE_TYPES = (Table, Seat)  # Status is a StrEnum: the codec stores it as its string


# -- commands -------------------------------------------------------------------------------------------


class TableCommand:
    """Base of the table's typed commands: one frozen record per command, as the games' are (``commands.py``), kept
    in its batch's record as ``to_record()`` and read back by ``read_table_command`` (the audit re-decides them)."""

    __slots__ = ()
    type: ClassVar[str]

    def __init_subclass__(cls, type: str | None = None, **kwargs: Any):
        super().__init_subclass__(**kwargs)
        if type is not None:  # dataclass(slots=True) builds the class again without the keyword: keep the first's
            cls.type = type

    def to_record(self) -> dict[str, Any]:
        """The command as its batch's record keeps it: ``{"type": ..., **fields}``, tuples as lists."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True)
class OpenTable(TableCommand, type="open_table"):
    """The first record of a table; ``seats`` are ``{"name", "ai", "player", "open"}``, options are the game's."""

    game_id: str
    seats: tuple[Mapping[str, Any], ...]
    options: Mapping[str, Any]
    visibility: str
    rated: bool = False  # recorded only when true: an unrated table's record is what it was before ratings

    def to_record(self) -> dict[str, Any]:
        out = TableCommand.to_record(self)
        if not self.rated:
            del out["rated"]
        return out


@dataclass(frozen=True, slots=True)
class Join(TableCommand, type="join"):
    """Take open ``seat``: a person (``player`` when they hold a player id), or an AI when ``ai`` names its level."""

    seat: int
    name: str
    player: str | None = None
    ai: str | None = None


@dataclass(frozen=True, slots=True)
class Leave(TableCommand, type="leave"):
    """The acting seat's holder gives it back while the table waits."""


@dataclass(frozen=True, slots=True)
class Decline(TableCommand, type="decline"):
    """``player`` turns down the open ``seat`` kept for it."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class Start(TableCommand, type="start"):
    """The creator starts early: the table's AI at level ``ai`` takes every open seat."""

    ai: str


@dataclass(frozen=True, slots=True)
class Resign(TableCommand, type="resign"):
    """The acting seat concedes; the table's AI at level ``ai`` plays it from then on."""

    ai: str


@dataclass(frozen=True, slots=True)
class Abort(TableCommand, type="abort"):
    """Call the table off before its first move (by the acting seat, or the server: no seat)."""


@dataclass(frozen=True, slots=True)
class Abandon(TableCommand, type="abandon"):
    """End a table no waited seat acted on for ``idle_s`` seconds."""

    idle_s: int


_TABLE_COMMAND_TYPES: dict[str, type[TableCommand]] = {
    kind.type: kind for kind in (OpenTable, Join, Leave, Decline, Start, Resign, Abort, Abandon)
}
TABLE_COMMANDS = frozenset(_TABLE_COMMAND_TYPES)  # no game's command type may be one of these


def read_table_command(raw: Mapping[str, Any]) -> TableCommand:
    """A recorded table command as its record (``ValueError`` for a type that is not one, ``TypeError`` for a field
    it does not have or lacks)."""
    kind = _TABLE_COMMAND_TYPES.get(raw.get("type", ""))
    if kind is None:
        raise ValueError(f"not a table command: {raw.get('type')!r}")
    values = {name: tuple(value) if isinstance(value, list) else value for name, value in raw.items() if name != "type"}
    return kind(**values)


# -- the rules of the table -------------------------------------------------------------------------------


class Seating:
    """The table's rules around ``game``, a Decider over ``Table``: ``decide`` the table's commands, ``evolve``
    every event (the table's and the game's), the outcome."""

    def __init__(self, game: Game):
        self.game = game
        self.codec = StateCodec(game.decider.state_types + TABLE_TYPES)

    # -- deciding ------------------------------------------------------------------------------------
    def decide(self, table: Table | None, command: TableCommand, seat: int | None) -> list[Event]:
        """The events of one table command from ``seat`` (``None``: the server or the lobby), before any setup
        it makes due (``setup_due``); raises ``RuleViolation``."""
        if table is None:
            assert isinstance(command, OpenTable), "only open_table starts a table"
            return self._open(command)
        match command:
            case OpenTable():
                raise AssertionError("the table is open already")
            case Join(seat=taken, name=name, player=player, ai=ai):
                self._require_status(table, Status.WAITING, "rules/game_started", "the game has started: no seat is open")
                require(0 <= taken < table.players and table.seats[taken].name is None, "rules/seat_taken",
                        "that seat is not open", open_seats=table.open_seats)
                require(player is None or all(s.player != player or s.name is None for s in table.seats),
                        "rules/already_seated", "you already hold a seat at this table")
                return [SeatJoined(seat=taken, name=name, player=player, ai=ai).event()]
            case Leave():  # an invitation the seat answered is spent: it opens for anyone
                assert seat is not None
                self._require_status(table, Status.WAITING, "rules/game_started", "the game has started: resign instead")
                require(table.seats[seat].name is not None and table.seats[seat].ai is None, "rules/seat_not_held",
                        "nobody holds that seat")
                return [SeatLeft(seat=seat).event()]
            case Decline(seat=kept, player=player):
                self._require_status(table, Status.WAITING, "rules/game_started", "the game has started: its seats are taken")
                require(0 <= kept < table.players and table.seats[kept].name is None and table.seats[kept].player == player,
                        "rules/not_invited", "no open seat here is kept for you")
                return [SeatDeclined(seat=kept).event()]
            case Start(ai=ai):
                self._require_status(table, Status.WAITING, "rules/game_started", "the game has started already")
                return [SeatJoined(seat=i, name=f"AI {i + 1}", player=None, ai=ai).event() for i in table.open_seats]
            case Resign(ai=ai):
                assert seat is not None
                return self._resign(table, seat, ai)
            case Abort():
                if table.status in (Status.FINISHED, Status.ABORTED):
                    raise GameOver()
                require(not table.moved, "rules/already_moved",
                        "a table can be aborted only before its first move; resign instead")
                return [TableAborted(seat=seat).event()]
            case Abandon(idle_s=idle_s):
                self._require_status(table, Status.ACTIVE, "rules/not_running", "only a game in play can be abandoned")
                ending = Outcome(TableEnd.ABANDONED, (), None, {"idle_s": idle_s})
                return [TableAbandoned(idle_s=idle_s).event(), TableEnded(outcome=ending.to_json()).event()]
        raise TypeError(f"not a table command: {command!r}")

    def _open(self, command: OpenTable) -> list[Event]:
        """Options are checked and resolved by the game; a seat marked open has no name yet."""
        self.game.check_players(len(command.seats))
        resolved = self.game.resolve_options(command.options)
        listed = [{"name": None if s.get("open") else s["name"], "ai": s.get("ai"), "player": s.get("player"),
                   "open": bool(s.get("open"))} for s in command.seats]
        return [TableOpened(game_id=command.game_id, game=self.game.id, options=resolved, seats=listed,
                            visibility=command.visibility, rated=True if command.rated else None).event()]

    def _resign(self, table: Table, seat: int, ai: str) -> list[Event]:
        """With one other seat left standing, that seat wins at once."""
        self._require_status(table, Status.ACTIVE, "rules/not_running", "only a game in play can be resigned")
        require(not table.seats[seat].resigned, "rules/already_resigned", "this seat has resigned already")
        events = [SeatResigned(seat=seat, ai=ai).event()]
        standing = [i for i, s in enumerate(table.seats) if not s.resigned and i != seat]
        if len(standing) == 1:
            ending = Outcome(TableEnd.RESIGNATION, (standing[0],), None, {"resigned": sorted({*table.resigned, seat})})
            events.append(TableEnded(outcome=ending.to_json()).event())
        return events

    def setup_due(self, table: Table) -> bool:
        """Is the table full and its game not yet set up? Then the game's setup is the next part of the batch."""
        return table.status == Status.WAITING and not table.open_seats

    def started(self, setup: Sequence[Event]) -> list[Event]:
        """The game's setup events as the table records them: followed by ``table_started``."""
        return [*setup, TableStarted().event()]

    def played(self, table: Table, events: Sequence[Event], state: Any = None) -> tuple[list[Event], Table]:
        """A game command's events as the table records them (followed by ``table_ended`` when they end the game),
        with the table they leave, which the session's cache and the audit's replay take rather than fold them a
        second time. ``state``: the game's state after them where the caller has it (``Decided.state``, from a
        decision made in process), so they are not folded at all; else they are folded here."""
        if state is None:
            after = self.fold(table, events)
        else:
            after = replace(table, game=state, game_events=table.game_events + len(events))
        final = self.outcome(after)
        if final is None or table.legacy:
            return list(events), after
        ended = TableEnded(outcome=final.to_json()).event()
        return [*events, ended], self.evolve(after, ended)

    def check_game_command(self, table: Table) -> None:
        """A game command needs a game in play."""
        if table.status in (Status.FINISHED, Status.ABORTED):
            raise GameOver()
        self._require_status(table, Status.ACTIVE, "rules/not_started", "the game has not started: seats are still open")

    @staticmethod
    def _require_status(table: Table, status: Status, code: str, message: str) -> None:
        if table.status != status:
            if table.status in (Status.FINISHED, Status.ABORTED):
                raise GameOver()
            raise RuleViolation(code, message, {"status": str(table.status)})

    # -- folding -------------------------------------------------------------------------------------
    def evolve(self, table: Table | None, event: Event) -> Table:
        if event.type not in TABLE_FACTS:
            return self._game_event(table, event)
        assert table is not None or event.type == TableOpened.TYPE, "a table's log starts with table_opened"
        match TABLE_FACTS.parse(event):
            case TableOpened(game_id=game_id, game=game_type, options=options, seats=seats, visibility=visibility):
                listed = tuple(Seat(s["name"], s["ai"], s.get("player")) for s in seats)
                return Table(game_id, game_type, dict(options), listed, visibility)
            case SeatJoined(seat=seat, name=name, player=player, ai=ai):
                assert table is not None
                return replace(table, seats=replace_at(table.seats, seat, Seat(name, ai, player)))
            case SeatLeft(seat=seat) | SeatDeclined(seat=seat):
                assert table is not None
                return replace(table, seats=replace_at(table.seats, seat, Seat(None, None)))
            case TableStarted():
                assert table is not None
                return replace(table, status=Status.ACTIVE, setup_events=table.game_events)
            case SeatResigned(seat=seat, ai=ai):
                assert table is not None
                return replace(table, seats=replace_at(table.seats, seat, replace(table.seats[seat], ai=ai, resigned=True)))
            case TableAborted():
                assert table is not None
                return replace(table, status=Status.ABORTED)
            case TableAbandoned():
                assert table is not None
                return table
            case TableEnded(outcome=outcome):
                assert table is not None
                return replace(table, status=Status.FINISHED, ended=orjson.dumps(outcome, option=orjson.OPT_SORT_KEYS).decode())
        raise TypeError(event.type)  # pragma: no cover - every table fact is matched above

    def _game_event(self, table: Table | None, event: Event) -> Table:
        if table is None:  # a log from before tables (record format 1): the game's own setup comes first, and
            # nothing tells where it ends, so such a table counts as moved (it cannot be aborted)
            table = Table("", self.game.id, {}, (), "public", Status.ACTIVE, setup_events=-1)
        state = self.game.decider.evolve(table.game, event)
        seats = table.seats or tuple(Seat(None, None) for _ in range(self.game.players(state)))
        return replace(table, game=state, seats=seats, game_events=table.game_events + 1)

    def fold(self, table: Table | None, events: Iterable[Event]) -> Table:
        for event in events:
            table = self.evolve(table, event)
        assert table is not None
        return table

    # -- reading -------------------------------------------------------------------------------------
    def outcome(self, table: Table) -> Outcome | None:
        """The table's ending if it gave one, else the game's; when seats resigned, the winners are those the game's
        own end rule names among the seats still standing (``Decider.winners_among``): a resigned seat never wins."""
        if table.ended is not None:
            raw = orjson.loads(table.ended)
            return Outcome(self.reason(raw["reason"]), tuple(raw["winners"]),
                           None if raw["scores"] is None else tuple(raw["scores"]), raw["details"])
        if table.game is None:
            return None
        final = self.game.decider.outcome(table.game)
        if final is None or not table.resigned:
            return final
        standing = frozenset(range(table.players)) - table.resigned
        winners = tuple(sorted(standing.intersection(self.game.decider.winners_among(table.game, standing))))
        return replace(final, winners=winners, details={**final.details, "resigned": sorted(table.resigned)})

    def reason(self, value: str) -> StrEnum:
        """The table's or the game's reason for an ending recorded as ``value`` (``ValueError`` if neither gives it)."""
        return TableEnd(value) if value in TABLE_ENDS else self.game.decider.reasons(value)

    def legal_commands(self, table: Table, seat: int | None) -> list[dict[str, Any]]:
        """What ``seat`` may post now, as posted (the records' ``to_wire()``: what the table's readers get):
        nothing for a spectator, for a table not in play, or for a seat that resigned (the table's AI plays it, and
        its own commands are refused)."""
        if seat is None or table.status != Status.ACTIVE or table.game is None or table.seats[seat].resigned:
            return []
        return [command.to_wire() for command in self.game.decider.legal_commands(table.game, seat)]

    def to_act(self, table: Table) -> frozenset[int]:
        if table.status != Status.ACTIVE or table.game is None:
            return frozenset()
        return self.game.decider.to_act(table.game)


def table_batch(seating: Seating, table: Table | None, command: TableCommand | Mapping[str, Any], seat: int | None,
                setup: Callable[[int, Mapping[str, Any]], Sequence[Event]]) -> list[Event]:
    """The events one table command writes, as the session service decides them and the audit re-decides them:
    the command's (``Seating.decide``), then the game's setup and ``table_started`` when they fill the table.
    ``command`` is a record, or its recorded form (``to_record()``), which is read first; ``setup(players,
    options)`` gives the game's setup events (the rules service in production, the game itself in the audit),
    drawn from the game's entropy 0."""
    typed = command if isinstance(command, TableCommand) else read_table_command(command)
    events = seating.decide(table, typed, seat)
    if isinstance(typed, (OpenTable, Join, Start)):
        after = seating.fold(table, events)
        if seating.setup_due(after):
            events += seating.started(setup(after.players, after.options))
    return events
