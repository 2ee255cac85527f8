"""The whole wire as OpenAPI components: every game's commands, views, events and outcome, and both streams' messages.

Per game (its id in PascalCase, ``PocketMadness``):

- ``<Game>Command``: its commands, one component each (``PocketMadnessDrawCards``), a union told apart by ``type``;
  each is the catalogue's JSON Schema of the command (``catalog.command_schemas``), so the two never differ.
- ``<Game>View``, ``<Game>SeatView``, ``<Game>SpectatorView``: what ``view`` returns (the game's ``Shapes``).
- ``<Game>Event``: its events, one component each (``PocketMadnessCardsDrawnEvent``), a union told apart by ``type``;
  each event's ``data`` is derived from the game's ``Fact`` dataclass (the table's facts are every game's too), its
  fields that a reader may not receive (``Shapes.withheld``) optional; ``text`` is the ``Text`` component.
- ``<Game>Outcome``: its reasons, whole-number scores as integers, its details.
- ``<Game>State``, ``<Game>Turn``, ``<Game>End``: what carries its view, legal commands or outcome, each with the
  game's own components, and naming the game in ``game`` (a const), as every event does.

Where the game is known, the document says it: ``State``, ``Turn``, ``End`` and ``Event`` are unions of the games'
told apart by ``game``, so a generated client (which tries a union's members in turn) never files one game's
``draw_card`` under another's; so are ``GameResource`` and ``Export`` (``by_game``). The unions of all games'
``Command`` and ``Outcome`` stay where nothing names the game (a request's command; the player stream's
``game_finished``). The streams: ``GameStreamMessage`` (one NDJSON/JSON Lines line) and ``GameStreamEvent`` (one
Server-Sent Event, ``data`` holding the same JSON), ``PlayerStreamMessage`` and ``PlayerStreamEvent`` for
``/v1/me/stream``. The schemas are JSON Schema 2020-12 (OpenAPI 3.1 and 3.2);
``shared/wire/openapi.py`` renders the document for older readers.
"""

from __future__ import annotations

import dataclasses
import inspect
import types
import typing
from collections.abc import Mapping
from typing import Any

from shared.kernel import Fact, Game
from shared.kernel.shapes import SEAT, Schema, Shapes, array, boolean, integer, nullable, obj, seats, string
from shared.kernel.table import TABLE_FACTS, TableEnd, TableEnded, TableOpened
from shared.wire import around, schemas
from shared.wire.catalog import command_schemas

REF = "#/components/schemas/"


def ref(name: str) -> Schema:
    return {"$ref": REF + name}


def pascal(words: str) -> str:
    """``pocket-madness`` and ``draw_cards`` as ``PocketMadness`` and ``DrawCards``."""
    return "".join(part[:1].upper() + part[1:] for part in words.replace("-", "_").split("_"))


# -- the Python types of a Fact's fields as JSON Schema ------------------------------------------------------------


def type_schema(hint: Any) -> Schema:
    """The JSON Schema of a fact field's annotation (what ``shared.kernel.facts.conforms`` accepts)."""
    if hint is Any:
        return {}
    if hint is None or hint is type(None):
        return {"type": "null"}
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = type_schema(args[0]) if len(args) == 1 else {"anyOf": [type_schema(a) for a in args]}
        return nullable(inner) if len(args) < len(typing.get_args(hint)) else inner
    if origin is typing.Literal:
        return {"enum": list(typing.get_args(hint))}
    if origin in (list, tuple):
        items = typing.get_args(hint)
        return {"type": "array", "items": type_schema(items[0])} if items else {"type": "array"}
    if origin is dict or hint is dict:
        return {"type": "object"}
    simple = {bool: "boolean", int: "integer", float: "number", str: "string"}
    if hint in simple:
        return {"type": simple[hint]}
    raise TypeError(f"no JSON Schema for a fact field of type {hint!r}")


def _doc(kind: type) -> str:
    """A class's own docstring in one paragraph ('' for the one ``dataclass`` writes)."""
    doc = inspect.getdoc(kind) or ""
    return "" if doc.startswith(f"{kind.__name__}(") else " ".join(doc.split())


def fact_data(kind: type[Fact], withheld: tuple[str, ...] = (), refined: Mapping[str, Schema] | None = None) -> Schema:
    """The ``data`` of a fact's event as a reader receives it: every field, those a reader may not receive
    (``withheld``) and the fact's optional ones not required. ``refined``: fields described better than their
    annotation says (a table fact's outcome)."""
    hints = typing.get_type_hints(kind)
    names = [f.name for f in dataclasses.fields(kind)]  # type: ignore[arg-type]  # a Fact is a dataclass
    properties = {name: (refined or {}).get(name) or type_schema(hints[name]) for name in names}
    left_out = set(withheld) | kind.OPTIONAL
    return obj("", properties, optional=left_out & set(names))


# -- the components every game shares -----------------------------------------------------------------------------

TEXT_SEAT = obj("A seat in a sentence", {
    "seat": SEAT,
    "name": string("the seat's name"),
    "you": boolean("true for the reader's own seat (it reads \"you\"); left out for the others"),
}, optional=("you",))
TEXT_NAMED = {"type": "object", "required": ["name"], "properties": {"name": string("its name")},
              "additionalProperties": {"type": ["integer", "string"]},
              "description": "A named thing in a sentence: its id under its kind (`card`, `portal`, `location` …) and its "
                             "name, e.g. {\"card\": 13, \"name\": \"Shoggoth\"}"}
TEXT_VALUE = [integer(), string(), ref("TextSeat"), ref("TextNamed")]
TABLE_END_DETAILS = obj("The details of an ending the table gave", {
    "resigned": seats("the seats that resigned"),
    "idle_s": integer("abandoned: how long nobody the game waited on acted", minimum=0),
}, optional=("resigned", "idle_s"))
OPENED_SEAT = obj("A seat as the table was opened", {
    "name": nullable(string(), "null for an open seat"),
    "ai": nullable(string(), "the AI level playing it"),
    "player": nullable(string(), "the player holding it, or the one it is kept for"),
    "open": boolean("left open for someone to join"),
}, optional=("player", "open"))
WAITING_VIEW = obj("The view of a table that waits for its seats to be taken: nothing is dealt yet", {
    "open_seats": seats("the seats still open"),
})
BY = string("who played it: the seat, an AI, the turn timer for the seat (timeout), or the server", enum=(
    "seat", "ai", "timeout", "server"))
STATUS = string(enum=("waiting", "active", "finished", "aborted"))


def game_type(game: str) -> Schema:
    return {"type": "string", "const": game, "description": "the game's type (the catalogue's id)"}
DEADLINE = nullable(string("ISO-8601 UTC"), "when the seats waited on must have moved (null: no time limit)")


def shared_components() -> dict[str, Schema]:
    return {
        "TextSeat": TEXT_SEAT,
        "TextNamed": TEXT_NAMED,
        "TextArg": {"anyOf": [*TEXT_VALUE, array({"anyOf": TEXT_VALUE})],
                    "description": "A sentence's argument: a number, a word, a seat, a named thing, or a list of those"},
        "TableEndDetails": TABLE_END_DETAILS,
        "WaitingView": WAITING_VIEW,
    }


# -- one game's components ------------------------------------------------------------------------------------------


def command_component(kind: str, schema: Schema) -> Schema:
    """A catalogue command schema as an OpenAPI 3.1 component: its ``type`` the catalogue's key, and open like every
    component.

    Open, though the server refuses a command with a field it does not know: the endpoints' ``Command`` is the
    union of every game's commands, which a generated client parses by trying each in turn (nothing in a command
    names its game), and a closed ``draw_card`` of one game would take another game's ``draw_card`` and drop its
    fields; open, it keeps them, and the client reads them with its own game's model."""
    out: Schema = {k: v for k, v in schema.items() if k != "additionalProperties"}
    named = out.get("properties", {}).get("type", {})
    out["properties"] = {**out.get("properties", {}), "type": {"type": "string", "const": kind, "description": named.get(
        "description", "the command's name")}}
    out["required"] = ["type", *(name for name in out.get("required", []) if name != "type")]
    return out


class GameComponents:
    """The components of one game, named after it."""

    def __init__(self, game: Game):
        self.game = game
        self.name = pascal(game.id)
        self.shapes: Shapes | None = game.catalogue.shapes

    def components(self) -> dict[str, Schema]:
        out: dict[str, Schema] = {}
        out.update(self.commands())
        out.update(self.views())
        out.update(self.events())
        out.update(self.outcome())
        out.update(self.standing())
        return out

    def commands(self) -> dict[str, Schema]:
        union = self.name + "Command"
        schemas = command_schemas(self.game)
        out = {self.name + pascal(kind): command_component(kind, schema) for kind, schema in schemas.items()}
        mapping = {kind: REF + self.name + pascal(kind) for kind in schemas}
        out[union] = {"oneOf": [{"$ref": r} for r in mapping.values()],
                      "discriminator": {"propertyName": "type", "mapping": mapping},
                      "description": f"A command of {self.game.catalogue.title}, told apart by its type"}
        return out

    def views(self) -> dict[str, Schema]:
        if self.shapes is None:
            view: Schema = {"type": "object", "description": f"{self.game.catalogue.title}'s view"}
            return {self.name + "View": view, self.name + "SeatView": view, self.name + "SpectatorView": view}
        base = ref(self.name + "View")
        return {
            self.name + "View": self.shapes.view,
            self.name + "SeatView": {"allOf": [base, self.shapes.seat],
                                     "description": "A seat's own view while the game is on"},
            self.name + "SpectatorView": {"allOf": [base, self.shapes.spectator],
                                          "description": "A spectator's view while the game is on: no hand"},
        }

    def events(self) -> dict[str, Schema]:
        withheld = self.shapes.withheld if self.shapes is not None else {}
        refined = {TableEnded.TYPE: {"outcome": ref(self.name + "Outcome")},
                   TableOpened.TYPE: {"seats": array(OPENED_SEAT), "options": {"type": "object"}}}
        mapping: dict[str, str] = {}
        out: dict[str, Schema] = {}
        for kind in [*TABLE_FACTS, *self.game.decider.facts]:
            name = self.name + pascal(kind.TYPE) + "Event"
            mapping[kind.TYPE] = REF + name
            data = fact_data(kind, withheld.get(kind.TYPE, ()), refined.get(kind.TYPE))
            out[name] = event_envelope(self.game.id, kind.TYPE, data, _doc(kind))
        out[self.name + "Event"] = {"oneOf": [{"$ref": r} for r in mapping.values()],
                                    "discriminator": {"propertyName": "type", "mapping": mapping},
                                    "description": f"An event of {self.game.catalogue.title} as its reader receives it, "
                                                   "told apart by its type"}
        return out

    def standing(self) -> dict[str, Schema]:
        """The messages that carry this game's view, commands or outcome (``State``, ``Turn``, ``End``), each naming
        the game in ``game``: a generated client reads the rest with this game's components, never another's whose
        command or event has the same ``type``."""
        fields: dict[str, Schema] = {
            "game": game_type(self.game.id),
            "version": integer(minimum=0),
            "status": STATUS,
            "to_act": seats("the seats the game waits on"),
            "legal_commands": array(ref(self.name + "Command"),
                                    "every command the reader's seat may post now, each postable as it is"),
            "deadline": DEADLINE,
            "outcome": nullable(ref(self.name + "Outcome"), "null while the game is on"),
            "view": {"anyOf": [ref(self.name + "View"), ref("WaitingView")],
                     "description": "what the reader may know: a seat's own view or a spectator's (every hand once the "
                                    "game is over), or WaitingView while seats are open"},
        }
        return {
            self.name + "State": obj(f"The reader's full state of a game of {self.game.catalogue.title}",
                                     {**fields, "stuck": boolean(schemas.STUCK)}, optional=("stuck",)),
            self.name + "Turn": obj(f"Where a game of {self.game.catalogue.title} stands for the reader after a batch "
                                    "of events: what it needs to act and to draw the table", fields),
            self.name + "End": obj(f"A game of {self.game.catalogue.title} is over; the stream closes after this", {
                "game": fields["game"], "version": fields["version"],
                "outcome": nullable(ref(self.name + "Outcome"), "null only for a table called off before it started")}),
        }

    def outcome(self) -> dict[str, Schema]:
        reasons = [*(str(r) for r in self.game.decider.reasons), *(str(r) for r in TableEnd)]
        details = self.shapes.outcome_details if self.shapes is not None else {"type": "object"}
        whole = self.shapes is None or self.shapes.whole_scores
        score = integer() if whole else {"type": "number"}
        return {
            self.name + "OutcomeDetails": details,
            self.name + "Outcome": obj(f"How a game of {self.game.catalogue.title} ended", {
                "reason": string("what decided it: the game's reason, or the table's (resignation, abandoned)",
                                 enum=reasons),
                "winners": seats("the winning seats (several: a shared victory; none: everyone lost)"),
                "scores": nullable(array(score), "each seat's final score (null for an ending the table gave)"),
                "details": {"anyOf": [ref(self.name + "OutcomeDetails"), ref("TableEndDetails")]},
            }),
        }


def event_envelope(game: str, kind: str, data: Schema, description: str) -> Schema:
    return obj(description or f"The {kind} event", {
        "game": game_type(game),
        "version": integer("its place in the log, from 1", minimum=1),
        "type": {"type": "string", "const": kind},
        "at": string("when it was appended (ISO-8601 UTC)"),
        "seat": nullable(SEAT, "the seat whose command caused it (null: the server)"),
        "by": BY,
        "data": data,
        "text": ref("Text"),
        "hash": string("its hash in the game's chain"),
        "prev_hash": string("the hash of the event before it"),
    })


# -- the streams -------------------------------------------------------------------------------------------------------

RETRY = obj("This server process is shutting down: reconnect, resuming, after this long", {
    "retry_ms": integer(minimum=0),
})

# (kind, id, data, what it is): the game stream's messages, in the order a stream may send them
GAME_MESSAGES: tuple[tuple[str, bool, Schema, str], ...] = (
    ("state", True, ref("State"), "First, on a fresh stream: the reader's full state, as GET /state answers it; its id is "
                                  "its version"),
    ("event", True, ref("Event"), "One event of the log, redacted for the reader, as GET /events gives it; its id is its "
                                  "version (read its data with the game's <Game>Event components)"),
    ("turn", False, ref("Turn"), "After each batch of events: version, status, to_act, legal_commands, deadline, outcome "
                                 "and the reader's view"),
    ("chat", False, ref("ChatLine"), "A line of the table's chat, as GET /chat gives it (resume with ?chat_after=<its id>)"),
    ("end", False, ref("End"), "The game is over, with its outcome; the stream closes after it"),
    ("retry", False, ref("Retry"), "NDJSON only (SSE sends its own retry: field): the process is going away"),
)

# the account stream's messages (session_service/use_cases/player_live.py)
GAME = string("the game's id")
TABLE_SUMMARY = obj("One of the player's tables that is not over, and where it waits", {
    "game": GAME,
    "type": string("the game type's id"),
    "status": STATUS,
    "version": integer(minimum=0),
    "seat": nullable(SEAT, "the player's seat there"),
    "to_act": seats("the seats the game waits on"),
    "deadline": DEADLINE,
    "your_turn": boolean("the game waits on the player"),
    "invited": boolean("a seat is kept for the player at this waiting table"),
})
PLAYER_MESSAGES: tuple[tuple[str, Schema, str], ...] = (
    ("tables", obj("", {"tables": array(ref("TableSummary"))}), "First: every table of the player that is not over"),
    ("invited", obj("", {"game": GAME, "type": string(), "seat": SEAT, "version": integer(minimum=0)}),
     "A seat was kept for the player at a new table"),
    ("seat_left", obj("", {"game": GAME, "seat": SEAT, "name": nullable(string()), "version": integer(minimum=0)}),
     "A seat of a waiting table of the player's was given back"),
    ("seat_declined", obj("", {"game": GAME, "seat": SEAT, "player": nullable(string()), "name": nullable(string()),
                               "version": integer(minimum=0)}),
     "An invitation to a waiting table of the player's was turned down"),
    ("game_started", obj("", {"game": GAME, "type": string(), "seat": nullable(SEAT), "version": integer(minimum=0)}),
     "A table of the player's started"),
    ("your_turn", obj("", {"game": GAME, "seat": SEAT, "version": integer(minimum=0), "deadline": DEADLINE}),
     "A table waits on the player: open its stream (or GET its state) to play"),
    ("game_finished", obj("", {"game": GAME, "status": STATUS, "version": integer(minimum=0), "seat": nullable(SEAT),
                               "outcome": nullable(ref("Outcome"))}),
     "A table of the player's is over"),
    ("rematch", obj("", {"game": GAME, "answer": string(enum=("offer", "accept", "decline")),
                         "by": obj("Who answered", {"seat": SEAT, "name": nullable(string())}),
                         "rematch": ref("Rematch")}),
     "A rematch was offered at a finished table of the player's, or answered"),
    ("matched", obj("", {"game": GAME, "game_type": string(), "seat": SEAT, "seek": string(), "version": integer(minimum=0),
                         "rated": boolean("a rated table")}),
     "Quick play seated the player: its seek (POST /v1/seeks) was matched at this new table, where its key holds `seat`"),
    ("challenge", obj("", {"challenge": ref("Challenge")}),
     "A challenge to the player (POST /v1/challenges/{id}/accept or /decline answers it); sent again as the stream "
     "opens while it is open"),
    ("challenge_accepted", obj("", {"game": GAME, "game_type": string(), "seat": SEAT, "version": integer(minimum=0),
                                    "rated": boolean("a rated table"), "challenge": ref("Challenge")}),
     "A challenge of the player's was accepted: this new table, where its key holds `seat`"),
    ("challenge_declined", obj("", {"challenge": ref("Challenge")}), "The player's challenge was declined"),
    ("challenge_withdrawn", obj("", {"challenge": ref("Challenge")}), "A challenge to the player was withdrawn"),
    ("challenge_expired", obj("", {"challenge": ref("Challenge")}), "A challenge of the player's, or to it, lapsed "
                                                                      "unanswered"),
)


def _message(kind: str, with_id: bool, data: Schema, description: str) -> Schema:
    properties: dict[str, Schema] = {"type": {"type": "string", "const": kind}}
    if with_id:
        properties["id"] = integer("the version it brings the reader to", minimum=0)
    properties["data"] = data
    return obj(description, properties)


def _sse(kind: str, with_id: bool, data: Schema, description: str) -> Schema:
    properties: dict[str, Schema] = {"event": {"type": "string", "const": kind}}
    if with_id:
        properties["id"] = string("the version it brings the reader to (send it back as Last-Event-ID)")
    properties["data"] = {"type": "string", "contentMediaType": "application/json", "contentSchema": data,
                          "description": "JSON"}
    return obj(description, properties)


def _union(names: list[str], description: str) -> Schema:
    return {"oneOf": [ref(n) for n in names], "description": description}


def stream_components() -> dict[str, Schema]:
    out: dict[str, Schema] = {"Retry": RETRY, "TableSummary": TABLE_SUMMARY}
    lines, events = [], []
    for kind, with_id, data, about in GAME_MESSAGES:
        lines.append(pascal(kind) + "Message")
        out[lines[-1]] = _message(kind, with_id, data, about)
        if kind != "retry":
            events.append(pascal(kind) + "StreamEvent")
            out[events[-1]] = _sse(kind, with_id, data, about)
    out["SseRetry"] = obj("Sent alone before the process closes the stream: reconnect after this many ms",
                          {"retry": integer(minimum=0)})
    out["GameStreamMessage"] = {**_union(lines, "One line of a game's NDJSON (JSON Lines) stream; a keep-alive is "
                                                        "an empty line"),
                                "discriminator": {"propertyName": "type",
                                                  "mapping": {k: REF + pascal(k) + "Message" for k, *_ in GAME_MESSAGES}}}
    out["GameStreamEvent"] = _union([*events, "SseRetry"], "One Server-Sent Event of a game's stream (keep-alives "
                                                                    "are SSE comments)")
    player_lines, player_events = [], []
    for kind, data, about in PLAYER_MESSAGES:
        player_lines.append(pascal(kind) + "PlayerMessage")
        out[player_lines[-1]] = _message(kind, False, data, about)
        player_events.append(pascal(kind) + "PlayerEvent")
        out[player_events[-1]] = _sse(kind, False, data, about)
    out["PlayerStreamMessage"] = {
        **_union(player_lines, "One line of the player's NDJSON stream; a keep-alive is an empty line"),
        "discriminator": {"propertyName": "type",
                          "mapping": {k: REF + pascal(k) + "PlayerMessage" for k, *_ in PLAYER_MESSAGES}}}
    out["PlayerStreamEvent"] = _union([*player_events, "SseRetry"], "One Server-Sent Event of the player's stream")
    out["RetryPlayerMessage"] = _message("retry", False, ref("Retry"), "NDJSON only: the process is going away")
    out["PlayerStreamMessage"]["oneOf"].append(ref("RetryPlayerMessage"))
    out["PlayerStreamMessage"]["discriminator"]["mapping"]["retry"] = REF + "RetryPlayerMessage"
    return out


# -- all of it -----------------------------------------------------------------------------------------------------------


def components(games: Mapping[str, Game]) -> dict[str, Schema]:
    """Every component above for these games (the unions the endpoints name cover them all)."""
    out = shared_components()
    names = [pascal(game_id) for game_id in games]
    for game in games.values():
        out.update(GameComponents(game).components())
    out["Command"] = {"anyOf": [ref(n + "Command") for n in names],
                      "description": "A command of one of the games: its game's <Game>Command component describes it"}
    out["View"] = {"anyOf": [*(ref(n + "View") for n in names), ref("WaitingView")],
                   "description": "What the reader may know of a game: its game's <Game>View, or WaitingView while "
                                  "seats are open"}
    out["Outcome"] = {"anyOf": [ref(n + "Outcome") for n in names],
                      "description": "How a game ended: its game's <Game>Outcome describes it"}
    for kind, about in (("State", "The reader's full state"), ("Turn", "Where the game stands for the reader after a "
                        "batch of events"), ("End", "The game is over, with its outcome")):
        out[kind] = {"oneOf": [ref(n + kind) for n in names], "discriminator": {"propertyName": "game", "mapping": {
            game_id: REF + pascal(game_id) + kind for game_id in games}},
                     "description": f"{about}: its game's <Game>{kind}, told apart by its game"}
    out["Event"] = {"oneOf": [ref(n + "Event") for n in names],
                    "description": "An event as its reader receives it: its game's <Game>Event (by its game, then its "
                                   "type)"}
    out.update(stream_components())
    return out


def by_game(schemas: dict[str, Schema], games: Mapping[str, Game], names: tuple[str, ...] = ("GameResource", "Export")) -> None:
    """Each of these components (built from marshmallow, naming its game in ``game``) as a union of one per game
    whose ``outcome`` is that game's (``<Game>GameResource`` …): a table knows its game, so a generated client
    files its outcome under it. Run once every endpoint is registered (they register these components)."""
    for name in names:
        if name not in schemas:
            continue
        base = schemas[name]
        for game_id in games:
            schemas[pascal(game_id) + name] = {**base, "properties": {
                **base["properties"], "game": game_type(game_id),
                "outcome": nullable(ref(pascal(game_id) + "Outcome"), base["properties"]["outcome"].get(
                    "description", "null while the game is on"))}}
        schemas[name] = {"oneOf": [ref(pascal(g) + name) for g in games],
                         "discriminator": {"propertyName": "game", "mapping": {g: REF + pascal(g) + name for g in games}},
                         "description": f"{base.get('description') or name}: its game's <Game>{name}, told apart by its game"}


def register(spec: Any, games: Mapping[str, Game]) -> None:
    """Add the components to an apispec ``APISpec`` (the session service's, before its views are registered: the
    marshmallow schemas they name are registered here first, under the names the components use)."""
    for name, schema in (("Text", schemas.Text), ("Event", schemas.Event), ("State", schemas.State),
                         ("ChatLine", around.ChatLine), ("Rematch", around.Rematch)):
        spec.components.schema(name, schema=schema)
    for name, component in components(games).items():
        if name in spec.components.schemas:  # the marshmallow schema dumps it; the document says it per game
            spec.components.schemas[name] = component
        else:
            spec.components.schema(name, component)
