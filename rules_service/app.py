"""The stateless rules service.

It holds no game: each request brings the position (an encoded state, or the events that led to it), and
the answer is events or a rule violation. Because it keeps nothing it scales by process count, and third
parties can ask it "is this move legal here?" directly.

Because the caller builds the position, nothing in it is trusted: a position is decoded only within
``POSITION_BOUNDS`` and must pass the game's ``invariant`` before any rule runs, and an answer longer than
``MAX_ANSWER_BYTES`` is refused. A 1 KB state claiming hands of 10⁶ cards once bought a 48 MB answer and seconds
of CPU (issue 16); docs/reliability.md has the figures.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

import orjson
from flask import Flask, Response, current_app, jsonify, request

from shared.games import GAMES
from shared.kernel import Event, Game, RuleViolation
from shared.kernel.codec import Bounds, TooLarge, check_bounds
from shared.kernel.game import GameOver
from shared.wire import logs, schemas
from shared.wire.catalog import catalog
from shared.wire.commands import MalformedCommand, decide_posted
from shared.wire.errors import ApiError, body as error_body, malformed
from shared.wire.flaskapp import Blueprint, documented_errors, make_api, ops_blueprint

# Every real position of every game holds under 330 values and no integer over 160 (random playouts at the
# largest tables; tests/unit/test_position_bounds.py keeps each under a quarter of these bounds). Positions past
# them are refused before they are built, so decoding, the invariant and the rules work on ~2,000 values at most.
POSITION_BOUNDS = Bounds(items=int(os.environ.get("MAX_POSITION_ITEMS", "2048")),
                         integer=int(os.environ.get("MAX_POSITION_INTEGER", "2048")))
# The largest real answer is ~12 KB (Great Old One's legal commands at six seats); ten times that is the cap.
MAX_ANSWER_BYTES = int(os.environ.get("MAX_ANSWER_BYTES", str(128 * 1024)))
POSITION_ENDPOINTS = frozenset({"rules.decide", "rules.legal_commands"})

DECIDE_REQUEST = schemas.DecideRequest()
DECIDE_FIELDS = frozenset({"game", "state", "command", "seat", "entropy"})
VERSIONED_DECIDE_FIELDS = DECIDE_FIELDS | {"rules_version"}  # what the session service sends (docs/operations.md)
HEX_ENTROPY = re.compile(r"[0-9a-f]{2,128}")  # schemas.HEX, matched whole


def plainly_valid_decide(data: bytes) -> dict[str, Any] | None:
    """The body of a decide request (its raw JSON) when it is plainly one ``schemas.DecideRequest`` loads as it is
    (the session service's kind: a state, a command, a seat in range, hex entropy, nothing else), else None.

    On the rules service's hottest path marshmallow's load and dump cost about as much as the decision itself
    (docs/performance.md, issue 20): the lean decide (rules_service/lean.py) decides a body this accepts without
    them. These checks only ever accept: anything they do not goes to Flask and the schema as before, so every
    refusal, and its message, is the schema's."""
    try:
        body = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    if type(body) is not dict or body.keys() not in (DECIDE_FIELDS, VERSIONED_DECIDE_FIELDS):
        return None
    version = body.get("rules_version", "")
    if type(version) is not str or len(version) > 64:
        return None
    game, seat, entropy = body["game"], body["seat"], body["entropy"]
    if (type(game) is str and 0 < len(game) <= 64 and type(body["command"]) is dict and type(seat) is int
            and 0 <= seat <= 64 and type(entropy) is str and HEX_ENTROPY.fullmatch(entropy)):
        return body
    return None


blp = Blueprint("rules", __name__, url_prefix="/v1", description="Set up games, decide commands, list legal commands")


def _registry() -> Mapping[str, Game]:
    games: Mapping[str, Game] = current_app.extensions["games"]
    return games


def _game(game_id: str, rules_version: str | None = None, registry: Mapping[str, Game] | None = None) -> Game:
    """The game's rules at ``rules_version`` (an in-flight game keeps the version it started under)."""
    registry = _registry() if registry is None else registry
    game = registry.get(game_id)
    if game is None:
        raise RuleViolation("rules/unknown_game", "there is no such game type", {"known": sorted(registry)})
    rules = game.at_version(rules_version)
    if rules is None:
        raise RuleViolation("rules/unknown_rules_version", "this rules service does not provide that rules version",
                            {"provided": game.rules_versions})
    return rules


def _entropy(hex_text: str) -> bytes:
    return bytes.fromhex(hex_text) if len(hex_text) % 2 == 0 else malformed_entropy()


def malformed_entropy() -> bytes:
    raise malformed("entropy must be an even number of hex digits")


def position(game: Game, body: Mapping[str, Any], bounds: Bounds | None = None) -> Any:
    """The state a request describes, from an encoded state or from its events, within the bounds (the app's
    unless given) and the game's invariant. A position that does not decode or fold is the caller's error,
    never a crash."""
    if ("state" in body) == ("events" in body):
        raise malformed("give exactly one of state or events")
    bounds = _bounds() if bounds is None else bounds
    try:
        if "state" in body:
            state = game.codec.decode(body["state"], bounds)
        else:
            check_bounds(body["events"], bounds)
            state = game.replay(Event.from_json(e) for e in body["events"])
    except TooLarge:
        raise ApiError(413, "request/too_large", f"a position may hold at most {bounds.items} values and no integer "
                       f"beyond ±{bounds.integer}", {"max_items": bounds.items, "max_integer": bounds.integer}) from None
    except (RuleViolation, ApiError):
        raise
    except Exception as exc:
        raise malformed("the position does not decode to a state of this game", reason=type(exc).__name__) from None
    try:
        game.decider.invariant(state)
    except Exception:  # an AssertionError, or whatever the check trips on in a state no game builds
        raise malformed("the position breaks this game's invariants: it is not one the game can reach", reason="invariant") from None
    return state


def _bounds() -> Bounds:
    bounds: Bounds = current_app.config["POSITION_BOUNDS"]
    return bounds


_T = TypeVar("_T")


def _guarded(call: Callable[..., _T], *args: Any) -> _T:
    """Run game code on a caller-supplied position: a crash there means the position was not a real one."""
    try:
        return call(*args)
    except (RuleViolation, MalformedCommand, GameOver, ApiError):
        raise
    except Exception as exc:
        raise malformed("the position is not one this game can reach", reason=type(exc).__name__) from None


@blp.route("/catalog")
@blp.response(200, schemas.Catalog)
def get_catalog() -> dict[str, Any]:
    return catalog(_registry())


@blp.route("/setup", methods=["POST"])
@blp.arguments(schemas.SetupRequest())
@blp.response(200, schemas.SetupResult)
@documented_errors(422)
def setup(body: dict[str, Any]) -> dict[str, Any]:
    game = _game(body["game"], body.get("rules_version"))
    options, events = game.start(body["players"], body["options"], _entropy(body["entropy"]))
    return {"options": options, "events": [e.to_json() for e in events], "rules_version": game.rules_version}


@blp.route("/decide", methods=["POST"])
@blp.arguments(DECIDE_REQUEST)
@blp.response(200, schemas.DecideResult)
@documented_errors(409, 422)
def decide(body: dict[str, Any]) -> Response:
    # Answered as it is: ``schemas.DecideResult`` would dump this very shape (tests/unit/test_rules_decide_fast.py).
    return cast(Response, current_app.json.response(decision(body, _registry(), _bounds())))


def decision(body: Mapping[str, Any], registry: Mapping[str, Game], bounds: Bounds) -> dict[str, Any]:
    """The answer to a decide request whose body the schema (or ``plainly_valid_decide``) has let through."""
    game = _game(body["game"], body.get("rules_version"), registry)
    state = position(game, body, bounds)
    decided = _guarded(decide_posted, game, state, body["command"], body["seat"], _entropy(body["entropy"]))
    return {"events": [e.to_json() for e in decided.events], "rules_version": game.rules_version}


@blp.route("/legal-commands", methods=["POST"])
@blp.arguments(schemas.LegalRequest())
@blp.response(200, schemas.LegalResult)
@documented_errors(422)
def legal_commands(body: dict[str, Any]) -> dict[str, Any]:
    game = _game(body["game"], body.get("rules_version"))
    state = position(game, body)
    return {
        "legal_commands": _guarded(game.decider.legal_commands, state, body["seat"]),
        "to_act": sorted(_guarded(game.decider.to_act, state)),
    }


def _cap_answers(app: Flask) -> None:
    """Refuse a decision or a list of legal commands whose answer would pass MAX_ANSWER_BYTES."""
    limit = app.config["MAX_ANSWER_BYTES"]

    @app.after_request
    def cap(response: Response) -> Response:
        if request.endpoint in POSITION_ENDPOINTS and response.status_code == 200 and (response.content_length or 0) > limit:
            message = f"the answer would be longer than {limit} bytes; no real position needs that"
            response = jsonify(error_body("request/too_large", message, {"max_answer_bytes": limit}))
            response.status_code = 413
        return response


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask("rules_service")
    app.config.update(POSITION_BOUNDS=POSITION_BOUNDS, MAX_ANSWER_BYTES=MAX_ANSWER_BYTES)
    app.config.update(config or {})
    app.extensions["games"] = app.config.get("GAMES", GAMES)
    bounds, answer = app.config["POSITION_BOUNDS"], app.config["MAX_ANSWER_BYTES"]
    api = make_api(app, "Mythos Tables rules service", "Stateless: setup, decide and legal commands for every game. "
                   f"A position holds at most {bounds.items} values and no integer beyond ±{bounds.integer} (413 past "
                   f"them) and must pass the game's invariants (400); an answer longer than {answer} bytes is refused (413).")
    logs.install(app)
    api.register_blueprint(blp)
    api.register_blueprint(ops_blueprint(lambda: {"games": bool(app.extensions["games"])}))
    _cap_answers(app)
    from rules_service.lean import LeanDecide  # it reuses this module's checks and decision

    app.wsgi_app = LeanDecide(app, app.wsgi_app)  # type: ignore[method-assign]  # Flask's way
    return app


def main() -> None:
    """Run the rules service with Flask's server (development only; deploy with gunicorn)."""
    create_app().run(host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "8001")))
