"""What the rules service answers, apart from its HTTP edge: the position a request describes (decoded within
bounds, checked against the game's invariant), a decision, and the check that lets the lean decide skip the
schema. The Flask views (``app.py``) and the lean decide (``lean.py``) both answer with these."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import orjson

from shared.kernel import Event, Game, RuleViolation
from shared.kernel.codec import Bounds, TooLarge, check_bounds
from shared.kernel.game import GameOver
from shared.wire.commands import MalformedCommand, decide_posted
from shared.wire.errors import ApiError, malformed

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


def game_at(game_id: str, rules_version: str | None, registry: Mapping[str, Game]) -> Game:
    """The game's rules at ``rules_version`` (an in-flight game keeps the version it started under)."""
    game = registry.get(game_id)
    if game is None:
        raise RuleViolation("rules/unknown_game", "there is no such game type", {"known": sorted(registry)})
    rules = game.at_version(rules_version)
    if rules is None:
        raise RuleViolation("rules/unknown_rules_version", "this rules service does not provide that rules version",
                            {"provided": game.rules_versions})
    return rules


def entropy_of(hex_text: str) -> bytes:
    return bytes.fromhex(hex_text) if len(hex_text) % 2 == 0 else malformed_entropy()


def malformed_entropy() -> bytes:
    raise malformed("entropy must be an even number of hex digits")


def position(game: Game, body: Mapping[str, Any], bounds: Bounds) -> Any:
    """The state a request describes, from an encoded state or from its events, within ``bounds`` and the game's
    invariant. A position that does not decode or fold is the caller's error, never a crash."""
    if ("state" in body) == ("events" in body):
        raise malformed("give exactly one of state or events")
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


T = TypeVar("T")


def guarded(call: Callable[..., T], *args: Any) -> T:
    """Run game code on a caller-supplied position: a crash there means the position was not a real one."""
    try:
        return call(*args)
    except (RuleViolation, MalformedCommand, GameOver, ApiError):
        raise
    except Exception as exc:
        raise malformed("the position is not one this game can reach", reason=type(exc).__name__) from None


def decision(body: Mapping[str, Any], registry: Mapping[str, Game], bounds: Bounds) -> dict[str, Any]:
    """The answer to a decide request whose body the schema (or ``plainly_valid_decide``) has let through."""
    game = game_at(body["game"], body.get("rules_version"), registry)
    state = position(game, body, bounds)
    decided = guarded(decide_posted, game, state, body["command"], body["seat"], entropy_of(body["entropy"]))
    return {"events": [e.to_json() for e in decided.events], "rules_version": game.rules_version}
