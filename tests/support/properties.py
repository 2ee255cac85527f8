"""Properties every game must have, checked over seeded random playouts.

At every step: the state keeps its invariants (cards conserved); some seat can act or the game is over;
every listed legal command parses and is accepted; and for every seat, resampling what it cannot know leaves
its view, its legal commands and its redaction of other seats' events byte-identical (non-interference).
At the end: replaying the recorded events after a JSON round trip rebuilds the live state, and the state
survives the snapshot codec.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from shared.kernel import Event, entropy_for, fold, redact
from shared.kernel.game import Game


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@dataclass
class Playout:
    game: Game
    players: int
    options: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    commands: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)

    @property
    def state(self) -> Any:
        return self.states[-1]


def random_playout(
    game: Game,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    max_commands: int = 3000,
    keep_states: bool = False,
) -> Playout:
    """Play uniformly random legal commands (random acting seat, then random command) until the game ends."""
    chooser = random.Random(seed)
    game_seed = seed.to_bytes(8, "big")
    resolved, events = game.start(players, options, entropy_for(game_seed, 0))
    play = Playout(game, players, resolved, list(events))
    state = fold(game, events)
    play.states.append(state)
    for _ in range(max_commands):
        if game.outcome(state) is not None:
            return play
        seat, command = choose(game, state, chooser)
        new = game.checked_decide(state, command, seat, entropy_for(game_seed, len(play.events)))
        play.events.extend(new)
        play.commands.append((seat, command))
        state = fold(game, new, state)
        if keep_states:
            play.states.append(state)
        else:
            play.states[-1] = state
    raise AssertionError(f"{game.id}: no outcome after {max_commands} random commands (seed {seed})")


def choose(game: Game, state: Any, chooser: random.Random) -> tuple[int, dict[str, Any]]:
    options = [(seat, cmd) for seat in sorted(game.to_act(state)) for cmd in game.legal_commands(state, seat)]
    assert options, f"{game.id}: the game is not over but no seat has a legal command"
    seat = chooser.choice(sorted({s for s, _ in options}))
    return seat, chooser.choice([cmd for s, cmd in options if s == seat])


def check_step(game: Game, state: Any, entropy: bytes, chooser: random.Random, legal_sample: int = 12) -> None:
    """Every per-position property: invariants, legality, non-interference."""
    game.invariant(state)
    if game.outcome(state) is not None:
        return
    acting = game.to_act(state)
    assert acting, f"{game.id}: nobody to act in a running game"
    for seat in range(state.players):
        legal = game.legal_commands(state, seat)
        assert bool(legal) == (seat in acting), f"{game.id}: seat {seat} has legal commands iff it is to act"
        for command in chooser.sample(legal, min(len(legal), legal_sample)):
            assert game.parse_command(json.loads(canonical(command))) == command, f"{game.id}: {command} does not parse to itself"
            game.checked_decide(state, command, seat, entropy)
        check_non_interference(game, state, seat, entropy, chooser)


def check_non_interference(game: Game, state: Any, seat: int, entropy: bytes, chooser: random.Random) -> None:
    """Reshuffle what ``seat`` cannot know: its view and legal commands stay the same, and so does what it
    sees of another seat's move (against ``resample_unrevealable`` where a game declares one)."""
    other = game.resample(state, seat, random.Random(chooser.random()))
    game.invariant(other)
    assert canonical(game.view(state, seat)) == canonical(game.view(other, seat)), f"{game.id}: seat {seat}'s view leaks"
    assert canonical(game.legal_commands(state, seat)) == canonical(game.legal_commands(other, seat)), (
        f"{game.id}: seat {seat}'s legal commands leak"
    )
    assert game.to_act(state) == game.to_act(other)
    if game.resample_unrevealable is not None:
        # Other seats' moves may rightly reveal some of what the full resample changed (a card taken face up):
        # compare their effect against a world that differs only in what no single move can show.
        other = game.resample_unrevealable(state, seat, random.Random(chooser.random()))
    for actor in sorted(game.to_act(state) - {seat}):
        legal_here = game.legal_commands(state, actor)
        legal_there = {canonical(c) for c in game.legal_commands(other, actor)}
        for command in chooser.sample(legal_here, min(len(legal_here), 4)):
            if canonical(command) not in legal_there:
                continue
            here = [canonical([e.type, redact(e, seat)]) for e in game.checked_decide(state, command, actor, entropy)]
            there = [canonical([e.type, redact(e, seat)]) for e in game.checked_decide(other, command, actor, entropy)]
            assert here == there, f"{game.id}: seat {seat} learns something hidden from seat {actor}'s {command}"


def check_game_properties(game: Game, players: int, seed: int, options: dict[str, Any] | None = None, every: int = 1) -> Playout:
    """A random playout with every property checked at every ``every``-th position; returns the playout."""
    chooser = random.Random(seed ^ 0x5EED)
    play = random_playout(game, players, seed, options, keep_states=True)
    for index, state in enumerate(play.states):
        if index % every == 0 or index == len(play.states) - 1:
            check_step(game, state, entropy_for(b"check", index), chooser)
    replayed = fold(game, [Event.from_json(json.loads(canonical(e.to_json()))) for e in play.events])
    assert replayed == play.state, f"{game.id}: replay after a JSON round trip differs from the live state"
    encoded = json.loads(canonical(game.codec.encode(play.state)))
    assert game.codec.decode(encoded) == play.state, f"{game.id}: the state does not survive the snapshot codec"
    assert game.outcome(play.state) is not None
    return play
