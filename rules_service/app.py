"""The stateless rules service.

It holds no game: each request brings the position (an encoded state, or the events that led to it), and
the answer is events or a rule violation. Because it keeps nothing it scales by process count, and third
parties can ask it "is this move legal here?" directly.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from shared.games import GAMES
from shared.kernel import Event, Game, RuleViolation
from shared.kernel.game import GameOver, MalformedCommand
from shared.wire import schemas
from shared.wire.catalog import catalog
from shared.wire.errors import ApiError, malformed
from shared.wire.flaskapp import Blueprint, documented_errors, make_api, ops_blueprint

blp = Blueprint("rules", __name__, url_prefix="/v1", description="Set up games, decide commands, list legal commands")


def _registry() -> Mapping[str, Game]:
    from flask import current_app

    return current_app.extensions["games"]


def _game(game_id: str) -> Game:
    game = _registry().get(game_id)
    if game is None:
        raise RuleViolation("rules/unknown_game", "there is no such game type", {"known": sorted(_registry())})
    return game


def _entropy(hex_text: str) -> bytes:
    return bytes.fromhex(hex_text) if len(hex_text) % 2 == 0 else malformed_entropy()


def malformed_entropy() -> bytes:
    raise malformed("entropy must be an even number of hex digits")


def position(game: Game, body: Mapping[str, Any]) -> Any:
    """The state a request describes, from an encoded state or from its events. A position that does not
    decode or fold is the caller's error, never a crash."""
    if ("state" in body) == ("events" in body):
        raise malformed("give exactly one of state or events")
    try:
        if "state" in body:
            return game.codec.decode(body["state"])
        return game.replay(Event.from_json(e) for e in body["events"])
    except (RuleViolation, ApiError):
        raise
    except Exception as exc:
        raise malformed("the position does not decode to a state of this game", reason=type(exc).__name__) from None


def _guarded(call, *args):
    """Run game code on a caller-supplied position: a crash there means the position was not a real one."""
    try:
        return call(*args)
    except (RuleViolation, MalformedCommand, GameOver, ApiError):
        raise
    except Exception as exc:
        raise malformed("the position is not one this game can reach", reason=type(exc).__name__) from None


@blp.route("/catalog")
@blp.response(200, schemas.Catalog)
def get_catalog():
    return catalog(_registry())


@blp.route("/setup", methods=["POST"])
@blp.arguments(schemas.SetupRequest())
@blp.response(200, schemas.SetupResult)
@documented_errors(422)
def setup(body):
    game = _game(body["game"])
    options, events = game.start(body["players"], body["options"], _entropy(body["entropy"]))
    return {"options": options, "events": [e.to_json() for e in events], "rules_version": game.rules_version}


@blp.route("/decide", methods=["POST"])
@blp.arguments(schemas.DecideRequest())
@blp.response(200, schemas.DecideResult)
@documented_errors(409, 422)
def decide(body):
    game = _game(body["game"])
    state = position(game, body)
    events = _guarded(game.checked_decide, state, body["command"], body["seat"], _entropy(body["entropy"]))
    return {"events": [e.to_json() for e in events], "rules_version": game.rules_version}


@blp.route("/legal-commands", methods=["POST"])
@blp.arguments(schemas.LegalRequest())
@blp.response(200, schemas.LegalResult)
@documented_errors(422)
def legal_commands(body):
    game = _game(body["game"])
    state = position(game, body)
    return {
        "legal_commands": _guarded(game.legal_commands, state, body["seat"]),
        "to_act": sorted(_guarded(game.to_act, state)),
    }


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask("rules_service")
    app.config.update(config or {})
    app.extensions["games"] = app.config.get("GAMES", GAMES)
    api = make_api(app, "Mythos Tables rules service", "Stateless: setup, decide and legal commands for every game.")
    api.register_blueprint(blp)
    api.register_blueprint(ops_blueprint(lambda: {"games": bool(app.extensions["games"])}))
    return app


def main() -> None:
    """Run the rules service with Flask's server (development only; deploy with gunicorn)."""
    create_app().run(host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "8001")))
