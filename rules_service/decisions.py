"""What the rules service answers, apart from its doors: the position a request describes (decoded within bounds,
checked against the game's invariant), a setup, a decision. The public HTTP API (``app.py``) and the internal hop
(``hop.py``) both answer with these, on bodies the same schemas loaded."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from shared.kernel import Event, Game, RuleViolation
from shared.kernel.codec import Bounds, TooLarge, check_bounds
from shared.kernel.game import GameOver
from shared.wire.commands import MalformedCommand, decide_posted
from shared.wire.errors import ApiError, malformed


def answer_too_long(limit: int) -> ApiError:
    """The refusal of an answer past MAX_ANSWER_BYTES (either door's)."""
    return ApiError(413, "request/too_large", f"the answer would be longer than {limit} bytes; no real position needs that",
                    {"max_answer_bytes": limit})


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


def setup(body: Mapping[str, Any], registry: Mapping[str, Game]) -> dict[str, Any]:
    """The answer to a setup request whose body the schema has let through."""
    game = game_at(body["game"], body.get("rules_version"), registry)
    options, events = game.start(body["players"], body["options"], entropy_of(body["entropy"]))
    return {"options": options, "events": [e.to_json() for e in events], "rules_version": game.rules_version}


def decision(body: Mapping[str, Any], registry: Mapping[str, Game], bounds: Bounds) -> dict[str, Any]:
    """The answer to a decide request whose body the schema has let through."""
    return decided(body, registry, bounds)[0]


def decided(body: Mapping[str, Any], registry: Mapping[str, Game], bounds: Bounds,
            known: Any = None) -> tuple[dict[str, Any], Any]:
    """The answer to a decide request, and the game's state after its events. ``known``: the position, when the
    caller kept it itself (the hop's kept positions: states this process decided, so not checked again)."""
    game = game_at(body["game"], body.get("rules_version"), registry)
    state = position(game, body, bounds) if known is None else known
    done = guarded(decide_posted, game, state, body["command"], body["seat"], entropy_of(body["entropy"]))
    return {"events": [e.to_json() for e in done.events], "rules_version": game.rules_version}, done.state
