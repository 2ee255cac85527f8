"""Marshmallow schemas for every request and response of both services; the OpenAPI document is built from them."""

from __future__ import annotations

import re
from typing import Any, cast

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

MAX_VERSION = 2**31


class Pattern(validate.Regexp):
    """``validate.Regexp`` matching the whole value. Python's ``$`` also matches before a final newline, so
    ``^[0-9a-f]+$`` let "000\\n" through to ``bytes.fromhex`` (a 500); the pattern shown in the OpenAPI document
    is unchanged, since there (ECMA-262) ``$`` is the very end."""

    def __call__(self, value: str) -> str:  # type: ignore[override]  # our patterns are str patterns for str fields
        if cast("re.Pattern[str]", self.regex).fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


HEX = Pattern(r"^[0-9a-f]{2,128}$")
MAX_OPTION_DEPTH = 8  # options and commands are flat in every game; a little nesting is allowed, a bomb is not


def shallow(value: object, depth: int = 0) -> bool:
    """Is ``value`` nested at most MAX_OPTION_DEPTH deep? (A deeply nested value would cost the encoders'
    recursion, for nothing: no game has such an option.)"""
    if depth > MAX_OPTION_DEPTH:
        return False
    if isinstance(value, dict):
        return all(shallow(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return all(shallow(v, depth + 1) for v in value)
    return True


def check_shallow(value: object) -> None:
    if not shallow(value):
        raise ValidationError(f"nested more than {MAX_OPTION_DEPTH} deep")


class StrictBoolean(fields.Boolean):
    """A request's boolean: true or false only (marshmallow's Boolean also takes 0, 1, "yes" … and ``{"bot": 0}``
    read as false, where the document says boolean)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


class WholeNumber(fields.Integer):
    """A request's integer as JSON Schema's: a whole number, ``3`` or ``3.0`` (marshmallow's strict Integer refused
    ``3.0``, which the document admits), never ``true``, ``"3"`` or ``3.5``."""

    def __init__(self, **kwargs: Any):
        super().__init__(strict=True, **kwargs)

    def _validated(self, value: Any) -> int:
        if type(value) is float and value.is_integer():
            value = int(value)
        if type(value) is not int:
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


class Component(fields.Raw):
    """A field the OpenAPI document describes by one of its components (``shared/wire/contract.py``: the games'
    views, commands and outcomes), named here and drawn in by ``flaskapp.make_api``. ``mapping``: it loads only a
    JSON object (as ``fields.Dict`` does)."""

    default_error_messages = {"invalid": "Not a valid mapping type."}

    def __init__(self, component: str, *, mapping: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        self.component, self.mapping = component, mapping

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if self.mapping and not isinstance(value, dict):
            raise self.make_error("invalid")
        return value


class ErrorBody(Schema):
    code = fields.String(required=True, metadata={"example": "rules/not_your_turn"})
    message = fields.String(required=True)
    details = fields.Dict(required=True)


class Error(Schema):
    error = fields.Nested(ErrorBody, required=True)


# -- catalogue ----------------------------------------------------------------------------------------
class GameType(Schema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    options = fields.Dict(required=True, metadata={"description": "name → {type, default, choices?, description}"})
    commands = fields.Dict(required=True, metadata={"description": "command type → JSON schema of its fields"})
    ai_levels = fields.List(fields.String(), required=True)
    out_of_turn = fields.List(fields.String(), required=True, metadata={
        "description": "command types a seat may post when the game does not wait on it (it finds them in its own legal_commands)"})
    card_data = fields.Dict(required=True)


class Catalog(Schema):
    games = fields.List(fields.Nested(GameType), required=True)


# -- games --------------------------------------------------------------------------------------------
STATUSES = ["waiting", "active", "finished", "aborted"]
TO_ACT = ("the seats the game waits on (public). A seat may also have plays it can make out of turn (a Sign, a "
          "power-play, a knock): it finds them in its own legal_commands; nothing public says that it can")
STUCK = ("true when the game waits on a seat that has nothing to play: a defect of the game's rules, which the server "
         "has logged. Nobody can move the table: any seat may still resign, and it ends as abandoned once idle "
         "(IDLE_TABLE_S)")
PLAYER_ID = Pattern(r"^p_[A-Za-z0-9_-]{1,32}$")


class SeatRequest(Schema):
    """One seat: a person by name (its token is answered once), an AI (``name`` and ``ai``), an open seat for
    someone to join (``open``, optionally kept for one ``player``), or, with a player key, the caller's (``me``)."""

    name = fields.String(validate=validate.Length(1, 64), metadata={"description": "who sits here (not for open or me seats)"})
    ai = fields.String(allow_none=True, load_default=None, validate=validate.Length(1, 32),
                       metadata={"description": "an AI level from the catalogue: the server plays this seat"})
    open = StrictBoolean(load_default=False, metadata={"description": "left open: someone joins it with POST /join"})
    me = StrictBoolean(load_default=False, metadata={"description": "the caller's own seat (needs a player key)"})
    player = fields.String(validate=PLAYER_ID, metadata={
        "description": "with open: the seat is kept for this player (its stream gets an `invited` message)"})

    @validates_schema
    def one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        kinds = [bool(data.get("open")), bool(data.get("me")), data.get("name") is not None]
        if sum(kinds) != 1:
            raise ValidationError("a seat is exactly one of {name[, ai]}, {open: true} or {me: true}")
        if data.get("ai") is not None and data.get("name") is None:
            raise ValidationError("an AI seat needs a name")
        if data.get("player") and not data.get("open"):
            raise ValidationError("player keeps an open seat for someone: use it with open: true")


class CreateGame(Schema):
    game = fields.String(required=True, validate=validate.Length(1, 64))
    seats = fields.List(fields.Nested(SeatRequest), required=True, validate=validate.Length(1, 16))
    options = fields.Dict(keys=fields.String(), load_default=dict, validate=check_shallow)
    turn_timeout_s = WholeNumber(allow_none=True, load_default=None, validate=validate.Range(1, 7 * 86400))
    visibility = fields.String(load_default="public", validate=validate.OneOf(["public", "private"]), metadata={
        "description": "public tables with open seats are listed (GET /v1/games?status=waiting); a private one answers "
                       "an `invite` code that joining needs"})
    seed = fields.String(
        validate=HEX,
        metadata={"description": "hex; accepted only by a server started with MYTHOS_ALLOW_CLIENT_SEED=1 (tests, replays)"},
    )
    rated = StrictBoolean(load_default=False, metadata={
        "description": "a rated table: its end moves its players' ratings (GET /v1/leaderboards/{game}). Needs a player "
                       "key, a public table, and every seat a person holds a player's ({me: true} or open seats, which "
                       "only players may join); a rematch keeps it"})


class Seat(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True, allow_none=True, metadata={"description": "null while the seat is open"})
    ai = fields.String(allow_none=True, required=True)
    player = fields.String(allow_none=True, metadata={"description": "the player holding (or invited to) the seat"})
    open = fields.Boolean(metadata={"description": "true while nobody holds the seat (the resource always says)"})
    resigned = fields.Boolean(metadata={"description": "the seat conceded; an AI of the TAKEOVER_AI level plays it"})
    bot = fields.Boolean(metadata={"description": "true when a bot account holds the seat (a player made with bot: "
                                                 "true: a program, not a person); left out otherwise"})
    token = fields.String(metadata={"description": "returned once, at creation, for seats held by a person without a player key"})


class Host(Schema):
    name = fields.String(required=True, metadata={"description": "who opened the table"})
    player = fields.String(metadata={"description": "the player who opened it, when a player did"})
    seats = fields.List(fields.Integer(), metadata={"description": "the seats it opened the table with: they (and the "
                                                                   "player) may call it off before its first move"})


class GameResource(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    version = fields.Integer(required=True)
    visibility = fields.String(validate=validate.OneOf(["public", "private"]))
    invite = fields.String(metadata={"description": "a private table's invite code: answered once, at creation"})
    seed_commitment = fields.String(required=True)
    seats = fields.List(fields.Nested(Seat), required=True)
    options = fields.Dict(required=True)
    turn_timeout_s = fields.Integer(allow_none=True, required=True)
    rules_version = fields.String(required=True)
    head_hash = fields.String(required=True)
    to_act = fields.List(fields.Integer(), required=True, metadata={"description": TO_ACT})
    outcome = Component("Outcome", allow_none=True, required=True, metadata={"description": "null while the game is on"})
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)
    stuck = fields.Boolean(metadata={"description": STUCK})
    seed = fields.String(metadata={"description": "revealed once the game is over"})
    host = fields.Nested(Host, metadata={"description": "who opened the table"})
    watchers = fields.Integer(metadata={"description": "live streams open on the table that hold no seat (every process's)"})
    rematch_of = fields.String(metadata={"description": "the finished table this one is the rematch of"})
    rated = fields.Boolean(metadata={"description": "a rated table: its end moves its players' ratings"})


class GamePage(Schema):
    games = fields.List(fields.Nested(GameResource), required=True)
    next = fields.String(allow_none=True, required=True)


class GamesQuery(Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    game = fields.String(validate=validate.Length(1, 64))
    cursor = fields.String(validate=validate.Length(1, 64))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 200))
    open_seats = fields.Integer(load_default=0, validate=validate.Range(0, 16),
                                metadata={"description": "only tables with at least this many open seats"})


# -- playing ------------------------------------------------------------------------------------------
class StateQuery(Schema):
    at = fields.Integer(validate=validate.Range(1, MAX_VERSION), metadata={"description": "the version to show (time travel): 1 to the current one"})
    seat = fields.Integer(validate=validate.Range(0, 64), metadata={"description": "must be the caller's own seat"})


GAME_TYPE = "the game's type (the catalogue's id): a client reads the rest with that game's components"


class State(Schema):
    game = fields.String(required=True, metadata={"description": GAME_TYPE})
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    to_act = fields.List(fields.Integer(), required=True, metadata={"description": TO_ACT})
    view = Component("View", required=True, metadata={
        "description": "what the caller may know: its game's <Game>View (a seat's own or a spectator's; every hand "
                       "once the game is over), or WaitingView while seats are open"})
    legal_commands = fields.List(Component("Command"), required=True, metadata={
        "description": "every command the caller's seat may post now, each postable as it is (its game's "
                       "<Game>Command); empty for a spectator"})
    deadline = fields.String(allow_none=True, required=True)
    outcome = Component("Outcome", allow_none=True, required=True, metadata={"description": "null while the game is on"})
    stuck = fields.Boolean(metadata={"description": STUCK})


class CommandRequest(Schema):
    command = Component("Command", mapping=True, required=True, validate=check_shallow, metadata={
        "description": "{type, ...fields}: one of legal_commands (its game's <Game>Command component)"})
    expected_version = WholeNumber(allow_none=True, load_default=None, validate=validate.Range(0, MAX_VERSION))


class Text(Schema):
    """An event in words for its reader, redacted exactly as the event is (shared/kernel/narration.py)."""

    template = fields.String(required=True, metadata={
        "description": "the sentence with {named} placeholders, each an entry of args; `{seat}'s` reads \"your\" for the "
                       "reader's own seat", "example": "{seat} drew {cards}"})
    args = fields.Dict(keys=fields.String(), values=Component("TextArg"), required=True, metadata={
        "description": "each placeholder's value: a number, a word, a seat {seat, name, you?}, a named thing such as a "
                       "card {card, name}, or a list of those",
        "example": {"seat": {"seat": 1, "name": "Bot 1"}, "cards": [{"card": 13, "name": "Shoggoth"}]}})
    plain = fields.String(required=True, metadata={
        "description": "the sentence in plain words: names, never ids", "example": "Bot 1 drew Shoggoth"})


class Event(Schema):
    game = fields.String(required=True, metadata={"description": GAME_TYPE})
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    at = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True, metadata={
        "description": "the seat whose command caused the event (null: the server); the seat the event is about is in "
                       "its data and its text"})
    by = fields.String(required=True, validate=validate.OneOf(["seat", "ai", "timeout", "server"]), metadata={
        "description": "seat, ai, timeout (the turn timer moved for the seat) or server"})
    data = fields.Dict(required=True, metadata={
        "description": "the public part plus whatever secret parts the caller may see: its game's <Game>Event "
                       "component (one per event type) describes it"})
    text = fields.Nested(Text, required=True, metadata={"description": "the event as a sentence for the reader"})
    hash = fields.String(required=True)
    prev_hash = fields.String(required=True)


class CommandResult(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(Event), required=True)


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_VERSION))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


class EventPage(Schema):
    events = fields.List(fields.Nested(Event), required=True)
    version = fields.Integer(required=True)


class StreamQuery(Schema):
    after = fields.Integer(validate=validate.Range(0, MAX_VERSION))
    chat_after = fields.Integer(validate=validate.Range(0, 2**53))


# -- audit --------------------------------------------------------------------------------------------
class Audit(Schema):
    chain_ok = fields.Boolean(required=True)
    replay_ok = fields.Boolean(allow_none=True, required=True)
    first_divergence = fields.Dict(allow_none=True, required=True)
    head_hash = fields.String(required=True)
    events = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    seed_ok = fields.Boolean(allow_none=True, required=True, metadata={"description": "sha256(seed) matches the commitment"})


class Export(Schema):
    """The portable record of a finished game; docs/record-format.md describes each field."""

    format = fields.String(required=True)
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    rules_version = fields.String(required=True)
    options = fields.Dict(required=True)
    seats = fields.List(fields.Dict(), required=True)
    seed = fields.String(required=True)
    seed_commitment = fields.String(required=True)
    head_hash = fields.String(required=True)
    outcome = Component("Outcome", allow_none=True, required=True)
    commands = fields.List(fields.Dict(), required=True)
    events = fields.List(fields.Dict(), required=True)
    rating_algorithm = fields.Dict(metadata={"description": "the rating algorithm and its parameters the server rates "
                                                            "with (docs/record-format.md, \"Ratings\")"})


# -- rules service ------------------------------------------------------------------------------------
RULES_VERSION = "the rules version to decide with (a game keeps the one it started under); the current one if absent"


class SetupRequest(Schema):
    game = fields.String(required=True, validate=validate.Length(1, 64))
    rules_version = fields.String(validate=validate.Length(1, 64), metadata={"description": RULES_VERSION})
    players = WholeNumber(required=True, validate=validate.Range(1, 64))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    entropy = fields.String(required=True, validate=HEX)


class Position(Schema):
    """A position is either an encoded state (as the session service sends it) or the events that led to it."""

    game = fields.String(required=True, validate=validate.Length(1, 64))
    rules_version = fields.String(validate=validate.Length(1, 64), metadata={"description": RULES_VERSION})
    state = fields.Raw(metadata={"description": "encoded state (snapshot codec)"})
    events = fields.List(fields.Dict(), metadata={"description": "the events from setup on, instead of state"})


class DecideRequest(Position):
    command = fields.Dict(required=True)
    seat = WholeNumber(required=True, validate=validate.Range(0, 64))
    entropy = fields.String(required=True, validate=HEX)


class LegalRequest(Position):
    seat = WholeNumber(required=True, validate=validate.Range(0, 64))


class RawEvent(Schema):
    type = fields.String(required=True)
    data = fields.Dict(required=True)
    secret = fields.Dict()


class SetupResult(Schema):
    options = fields.Dict(required=True)
    events = fields.List(fields.Nested(RawEvent), required=True)
    rules_version = fields.String(required=True)


class DecideResult(Schema):
    events = fields.List(fields.Nested(RawEvent), required=True)
    rules_version = fields.String(required=True)


class LegalResult(Schema):
    legal_commands = fields.List(fields.Dict(), required=True)
    to_act = fields.List(fields.Integer(), required=True)


class Health(Schema):
    status = fields.String(required=True)
    checks = fields.Dict()


# The two hot doors' bodies without marshmallow (issue 32): a decide on the rules service's hop, a command on the
# session service's edge. marshmallow's load was a quarter of the rules service's CPU per decide under load. Each
# check only ever accepts, and accepts only what its schema would load unchanged: anything else is left to the
# schema (None), so every refusal is the schema's (tests/unit/test_plain_loads.py holds them to that).
DECIDE_FIELDS = (frozenset({"game", "state", "command", "seat", "entropy"}),
                 frozenset({"game", "rules_version", "state", "command", "seat", "entropy"}))
COMMAND_FIELDS = (frozenset({"command"}), frozenset({"command", "expected_version"}))
HEX_TEXT = re.compile(r"[0-9a-f]{2,128}")


def plain_decide_request(body: object) -> dict[str, Any] | None:
    """``body`` when it is plainly a ``DecideRequest`` (its state form), else None: ask the schema."""
    if type(body) is not dict or body.keys() not in DECIDE_FIELDS:
        return None
    game, version, seat, entropy = body["game"], body.get("rules_version", "x"), body["seat"], body["entropy"]
    if (type(game) is str and 0 < len(game) <= 64 and type(version) is str and 0 < len(version) <= 64
            and type(body["command"]) is dict and type(seat) is int and 0 <= seat <= 64 and type(entropy) is str
            and HEX_TEXT.fullmatch(entropy) and body["state"] is not None):
        return body
    return None


def plain_command_request(body: object) -> dict[str, Any] | None:
    """``body`` as ``CommandRequest`` loads it when it plainly is one, else None: ask the schema."""
    if type(body) is not dict or body.keys() not in COMMAND_FIELDS:
        return None
    command, version = body["command"], body.get("expected_version")
    if type(command) is not dict or not shallow(command):
        return None
    if version is not None and not (type(version) is int and 0 <= version <= MAX_VERSION):
        return None
    return {"command": command, "expected_version": version}
