"""The rules service works only on positions of a sane size (issue 16). A client builds the position it asks
about, so a 1 KB Pocket Madness state claiming hands of 10⁶ cards made /legal-commands answer 48 MB after
seconds of CPU, and Great Old One hands of 2,000 cards cost seconds more (quadratic). Now a position is
checked against the service's bounds while it is decoded (nothing is built past them), then against the game's
invariant, before any rule runs; and an answer past its own bound is refused.

Work is counted, not timed: every game function is wrapped to count its calls."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from rules_service.app import POSITION_BOUNDS, create_app
from shared.games import GAMES
from shared.kernel import Game
from shared.kernel.codec import Bounds
from tests.support.absurd import long_hands, mid_game, million_card_hands
from tests.support.properties import random_playout
from tests.support.toy import GAME as TOY

GAME_FUNCTIONS = ("decide", "legal_commands", "to_act", "evolve", "invariant", "outcome", "view")


def counted(game: Game) -> tuple[Game, Counter]:
    """``game`` with each of its functions counting its calls."""
    calls: Counter = Counter()

    def wrap(name: str, function: Any) -> Any:
        def counting(*args: Any) -> Any:
            calls[name] += 1
            return function(*args)
        return counting

    rules = dataclasses.replace(game.decider, **{name: wrap(name, getattr(game.decider, name)) for name in GAME_FUNCTIONS})
    return dataclasses.replace(game, decider=rules), calls


def service(game: Game, **config: Any):
    return create_app({"GAMES": {game.id: game}, **config}).test_client()


def ask(client, path: str, body: dict[str, Any]):
    if path == "/v1/legal-commands":
        body = {k: v for k, v in body.items() if k in ("game", "seat", "state", "events")}
    else:
        body = {"entropy": "00", **body}
    return client.post(path, json=body)


PATHS = ["/v1/legal-commands", "/v1/decide"]


@pytest.mark.parametrize("path", PATHS)
def test_hands_of_a_million_cards_are_refused_before_any_game_code_runs(path):
    game, body = million_card_hands()
    watched, calls = counted(game)
    reply = ask(service(watched), path, body)
    assert (reply.status_code, reply.json["error"]["code"]) == (413, "request/too_large"), str(reply.data[:300])
    assert reply.json["error"]["details"] == {"max_items": POSITION_BOUNDS.items, "max_integer": POSITION_BOUNDS.integer}
    assert not calls, calls


@pytest.mark.parametrize("path", PATHS)
def test_hands_of_two_thousand_cards_are_refused_before_any_game_code_runs(path):
    game, body = long_hands(2000)
    watched, calls = counted(game)
    reply = ask(service(watched), path, body)
    assert (reply.status_code, reply.json["error"]["code"]) == (413, "request/too_large"), str(reply.data[:300])
    assert not calls, calls


@pytest.mark.parametrize("path", PATHS)
def test_a_position_within_the_bounds_that_breaks_the_invariant_is_refused_before_the_rules_run(path):
    game, body = long_hands(100)  # 100 cards in each hand: small, but no card may be in two places
    watched, calls = counted(game)
    reply = ask(service(watched), path, body)
    assert (reply.status_code, reply.json["error"]["code"]) == (400, "request/malformed"), str(reply.data[:300])
    assert reply.json["error"]["details"] == {"reason": "invariant"}
    assert calls == Counter(invariant=1)


def broken_invariant(state: Any) -> None:
    raise AssertionError("every card is in exactly one place")


@pytest.mark.parametrize("game", [TOY, *GAMES.values()], ids=lambda g: g.id)
@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("given", ["state", "events"])
def test_every_game_s_invariant_is_checked_before_deciding_or_listing(game, path, given):
    """Whichever way the position comes (a state, or the events that led to it), the invariant runs first."""
    _, events = game.start(game.catalogue.min_players, {}, b"\x07" * 32)
    position = {"state": game.codec.encode(game.replay(events))} if given == "state" else {"events": [e.to_json() for e in events]}
    watched, calls = counted(dataclasses.replace(game, decider=dataclasses.replace(game.decider, invariant=broken_invariant)))
    reply = ask(service(watched), path, {"game": game.id, "seat": 0, "command": {"type": "x"}, **position})
    assert (reply.status_code, reply.json["error"]["code"], reply.json["error"]["details"]) == (400, "request/malformed", {"reason": "invariant"})
    assert not calls["decide"] and not calls["legal_commands"] and not calls["to_act"]


@pytest.mark.parametrize("game", [TOY, *GAMES.values()], ids=lambda g: g.id)
@pytest.mark.parametrize("bend", ["too many items", "an integer too large", "events too many"])
def test_every_game_refuses_a_position_past_the_bounds_before_decoding_it(game, bend):
    state, seat, _ = mid_game(game, players=game.catalogue.min_players, steps=2)
    raw = game.codec.encode(state)
    if bend == "too many items":
        position = {"state": {**raw, "players": [0] * POSITION_BOUNDS.items}}
    elif bend == "an integer too large":
        position = {"state": {**raw, "players": POSITION_BOUNDS.integer + 1}}
    else:
        position = {"events": [{"type": "x", "data": {}}] * POSITION_BOUNDS.items}
    watched, calls = counted(game)
    for path in PATHS:
        reply = ask(service(watched), path, {"game": game.id, "seat": seat, "command": {"type": "x"}, **position})
        assert (reply.status_code, reply.json["error"]["code"]) == (413, "request/too_large"), reply.json
    assert not calls, calls


@pytest.mark.parametrize("game", [TOY, *GAMES.values()], ids=lambda g: g.id)
def test_real_positions_stay_far_inside_the_bounds(game):
    """A quarter of each bound holds every position of random playouts at the largest table: the bounds refuse
    only what no game reaches."""
    quarter = Bounds(items=POSITION_BOUNDS.items // 4, integer=POSITION_BOUNDS.integer // 4)
    for seed in range(3):
        for state in random_playout(game, game.catalogue.max_players, seed, keep_states=True).states:
            game.codec.decode(game.codec.encode(state), quarter)


@pytest.mark.parametrize("path", PATHS)
def test_an_answer_past_its_bound_is_refused_with_the_bound(path):
    state, seat, command = mid_game(TOY, steps=1)
    body = {"game": TOY.id, "state": TOY.codec.encode(state), "seat": seat, "command": command}
    assert ask(service(TOY), path, body).status_code == 200
    reply = ask(service(TOY, MAX_ANSWER_BYTES=40), path, body)
    assert (reply.status_code, reply.json["error"]["code"]) == (413, "request/too_large"), reply.json
    assert reply.json["error"]["details"] == {"max_answer_bytes": 40}
