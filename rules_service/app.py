"""The rules service: setups, decisions and legal commands on positions its callers send.

It stores no game: each request brings the position (an encoded state, or the events that led to it), and the
answer is events or a rule violation, so third parties can ask it "is this move legal here?" directly. The only
thing it keeps is a cache it may lose (the hop's last positions, ``HOP_KEPT_POSITIONS``; a miss costs a resend),
so any process answers any request and it scales by process count.

Because the caller builds the position, nothing in it is trusted: a position is decoded only within
``POSITION_BOUNDS`` and must pass the game's ``invariant`` before any rule runs, and an answer longer than
``MAX_ANSWER_BYTES`` is refused. A 1 KB state claiming hands of 10⁶ cards once bought a 48 MB answer and seconds
of CPU (issue 16); docs/reliability.md has the figures.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask, Response, current_app

from shared.games import GAMES
from shared.kernel import Game
from shared.kernel.codec import Bounds
from shared.wire import schemas
from shared.wire.catalog import catalog
from shared.wire.edge import Cors, Edge
from shared.wire.request_rules import say_request_rules
from shared.wire.flaskapp import Blueprint, documented_errors, make_api, ops_blueprint
from rules_service.decisions import answer_too_long, decision, game_at, guarded, position, setup as setup_answer

# Every real position of every game holds under 330 values and no integer over 160 (random playouts at the
# largest tables; tests/unit/test_position_bounds.py keeps each under a quarter of these bounds). Positions past
# them are refused before they are built, so decoding, the invariant and the rules work on ~2,000 values at most.
POSITION_BOUNDS = Bounds(items=2048, integer=2048)
# The largest real answer is ~12 KB (Great Old One's legal commands at six seats); ten times that is the cap.
MAX_ANSWER_BYTES = 128 * 1024
# The positions each rules process keeps for the internal hop's next decide (rules_service/hop.py): one per game
# in play covers them all; a game past it is sent its state again. Rites positions are the largest, ~10 kB.
HOP_KEPT_POSITIONS = 2000


@dataclass(frozen=True)
class Settings:
    """The rules service's configuration, read from the environment once, by ``create_app`` (the defaults above)."""

    position_bounds: Bounds = POSITION_BOUNDS
    max_answer_bytes: int = MAX_ANSWER_BYTES
    hop_kept_positions: int = HOP_KEPT_POSITIONS
    cors_origins: str = "*"

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        return cls(position_bounds=Bounds(items=int(env.get("MAX_POSITION_ITEMS", POSITION_BOUNDS.items)),
                                          integer=int(env.get("MAX_POSITION_INTEGER", POSITION_BOUNDS.integer))),
                   max_answer_bytes=int(env.get("MAX_ANSWER_BYTES", MAX_ANSWER_BYTES)),
                   hop_kept_positions=int(env.get("HOP_KEPT_POSITIONS", HOP_KEPT_POSITIONS)),
                   cors_origins=env.get("CORS_ORIGINS", "*"))

blp = Blueprint("rules", __name__, url_prefix="/v1", description="Set up games, decide commands, list legal commands")


def _registry() -> Mapping[str, Game]:
    games: Mapping[str, Game] = current_app.extensions["games"]
    return games


def _bounds() -> Bounds:
    bounds: Bounds = current_app.config["POSITION_BOUNDS"]
    return bounds


@blp.route("/catalog")
@blp.response(200, schemas.Catalog)
def get_catalog() -> dict[str, Any]:
    return catalog(_registry())


@blp.route("/setup", methods=["POST"])
@blp.arguments(schemas.SetupRequest())
@blp.response(200, schemas.SetupResult)
@documented_errors(422)
def setup(body: dict[str, Any]) -> dict[str, Any]:
    return setup_answer(body, _registry())


@blp.route("/decide", methods=["POST"])
@blp.arguments(schemas.DecideRequest())
@blp.response(200, schemas.DecideResult)
@documented_errors(409, 413, 422)
def decide(body: dict[str, Any]) -> Response:
    return _capped(decision(body, _registry(), _bounds()))


@blp.route("/legal-commands", methods=["POST"])
@blp.arguments(schemas.LegalRequest())
@blp.response(200, schemas.LegalResult)
@documented_errors(413, 422)
def legal_commands(body: dict[str, Any]) -> Response:
    game = game_at(body["game"], body.get("rules_version"), _registry())
    state = position(game, body, _bounds())
    return _capped({
        "legal_commands": [c.to_wire() for c in guarded(game.decider.legal_commands, state, body["seat"])],
        "to_act": sorted(guarded(game.decider.to_act, state)),
    })


def _capped(answer: dict[str, Any]) -> Response:
    """The answer, unless it would pass MAX_ANSWER_BYTES: a client-built position may ask for a huge one."""
    response = cast(Response, current_app.json.response(answer))
    limit = current_app.config["MAX_ANSWER_BYTES"]
    if (response.content_length or 0) > limit:
        raise answer_too_long(limit)
    return response


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The app of the environment's settings (``config``, a test's, overrides them by their capitalised names)."""
    app = Flask("rules_service")
    settings = Settings.from_env()
    app.config.update(POSITION_BOUNDS=settings.position_bounds, MAX_ANSWER_BYTES=settings.max_answer_bytes,
                      HOP_KEPT_POSITIONS=settings.hop_kept_positions, CORS_ORIGINS=settings.cors_origins)
    app.config.update(config or {})
    app.extensions["games"] = app.config.get("GAMES", GAMES)
    bounds, answer = app.config["POSITION_BOUNDS"], app.config["MAX_ANSWER_BYTES"]
    api = make_api(app, "Mythos Tables rules service", "Setup, decide and legal commands for every game, on positions the caller sends. "
                   f"A position holds at most {bounds.items} values and no integer beyond ±{bounds.integer} (413 past "
                   f"them) and must pass the game's invariants (400); an answer longer than {answer} bytes is refused (413).")
    api.register_blueprint(blp)
    api.register_blueprint(ops_blueprint(lambda: {"games": bool(app.extensions["games"])}))
    say_request_rules(api.spec.components.schemas)
    app.wsgi_app = Edge(app, cors=Cors.parse(app.config["CORS_ORIGINS"]))  # type: ignore[method-assign]  # Flask's way
    return app


def main() -> None:
    """Run the rules service with Flask's server (development only; deploy with gunicorn)."""
    create_app().run(host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "8001")))
