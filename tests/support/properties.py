"""Properties every game must have, checked over seeded random playouts.

At every step: the state keeps its invariants (cards conserved); the game waits on some seat or is over;
a seat the game waits on has an ordinary command, and a seat it does not wait on may only post out-of-turn
plays; the turn timer's choice is legal and ordinary; every listed legal command parses and is accepted; and
for every seat, resampling what it cannot know leaves its view, its legal commands, the seats waited on, the
timer's choice and its redaction of other seats' moves byte-identical (non-interference); after any move,
two worlds that looked the same to a seat and sent it the same events look the same to it afterwards (a
client that folds its own events can rebuild its view). What a seat receives of an event is its type, its
redacted data and its sentence (``text``, told from that data): every check on events holds of all three. At the end: every event conforms to its declared fact,
replaying the recorded events after a JSON round trip rebuilds the live state, and the state survives the
snapshot codec.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import orjson

from shared.kernel import Command, Event, entropy_for, fold, redact
from shared.kernel.game import Game
from shared.kernel.table_narration import voice_for
from shared.wire.commands import parse_command


def canonical(value: Any) -> str:
    """``value`` as compact JSON with sorted keys: equal strings for equal JSON values (what the suites compare, and
    what a JSON round trip reads back). orjson, several times faster than ``json`` on the suites' hot path; the
    standard encoder for what orjson refuses (an integer past 64 bits)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))


def wire(commands: list[Command]) -> list[dict[str, Any]]:
    """Commands as they go on the wire (what a seat's client gets of its legal commands)."""
    return [c.to_wire() for c in commands]


def seat_names(players: int) -> list[str]:
    """The names the suites give the seats of a table they tell events to."""
    return [f"Seat {seat}" for seat in range(players)]


def received(game: Game, event: Event, seat: int | None, players: int) -> str:
    """What ``seat`` (None: a spectator) receives of ``event``: its type, its redacted data, and its sentence as
    told from that data (the API's ``text``)."""
    return received_data(game, event.type, redact(event, seat), seat, players)


def received_data(game: Game, event_type: str, data: dict[str, Any], seat: int | None, players: int) -> str:
    """``received`` from the event's type and its data as redacted for ``seat``: all it depends on."""
    text = voice_for(game, seat, seat_names(players)).tell(event_type, data)
    return canonical([event_type, data, text.to_json()])


@dataclass
class Playout:
    game: Game
    players: int
    options: dict[str, Any]
    events: list[Event] = field(default_factory=list)
    commands: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (seat, the command as posted)
    states: list[Any] = field(default_factory=list)
    batches: list[int] = field(default_factory=list)  # how many events setup, then each command, produced

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
    play = Playout(game, players, resolved, list(events), batches=[len(events)])
    state = fold(game, events)
    play.states.append(state)
    for _ in range(max_commands):
        if game.decider.outcome(state) is not None:
            return play
        seat, command = choose(game, state, chooser)
        new, state = game.checked_decide(state, command, seat, entropy_for(game_seed, len(play.events)))
        play.events.extend(new)
        play.commands.append((seat, command.to_wire()))
        play.batches.append(len(new))
        if keep_states:
            play.states.append(state)
        else:
            play.states[-1] = state
    raise AssertionError(f"{game.id}: no outcome after {max_commands} random commands (seed {seed})")


def choose(game: Game, state: Any, chooser: random.Random) -> tuple[int, Command]:
    """A random seat among those that may act (out-of-turn plays included), then a random legal command of it."""
    options = [(seat, cmd) for seat in range(state.players) for cmd in game.decider.legal_commands(state, seat)]
    assert options, f"{game.id}: the game is not over but no seat has a legal command"
    seat = chooser.choice(sorted({s for s, _ in options}))
    return seat, chooser.choice([cmd for s, cmd in options if s == seat])


class Position:
    """One position of a playout and the answers every seat's checks ask of it again and again: each seat's legal
    commands, the seats waited on, a command's decision (with the position's one entropy), what a reader receives of
    an event and its view after a command. Computed once per position instead of once per seat checked (the
    non-interference checks ask them of every seat in turn), and each only when a check asks for it."""

    def __init__(self, game: Game, state: Any, entropy: bytes):
        self.game, self.state, self.entropy = game, state, entropy
        self.to_act = game.decider.to_act(state)
        self._legal: dict[int, list[Command]] = {}
        self._decided: dict[tuple[int, Command], tuple[list[Event], Any]] = {}
        self._seen: dict[tuple[int, int, Command], list[str]] = {}
        self._view_after: dict[tuple[int, int, Command], str] = {}
        self._received: dict[tuple[int | None, str, str], str] = {}
        self._retold: set[tuple[int | None, str, str]] = set()

    def legal(self, seat: int) -> list[Command]:
        if seat not in self._legal:
            self._legal[seat] = self.game.decider.legal_commands(self.state, seat)
        return self._legal[seat]

    def decide(self, command: Command, seat: int) -> tuple[list[Event], Any]:
        """``command`` from ``seat`` decided here (through the kernel's checks): its events and the state after."""
        key = (seat, command)
        if key not in self._decided:
            self._decided[key] = tuple(self.game.checked_decide(self.state, command, seat, self.entropy))
        return self._decided[key]

    def received(self, event: Event, reader: int | None) -> str:
        """``received`` of ``event`` by ``reader``, told once per redacted event: the worlds a check compares send
        the reader mostly the same events. Keyed by the redacted data's ``repr``, which tells apart what ``==`` does
        not (``1`` and ``True``, a tuple and a list), so an event is told afresh unless the reader gets the very
        same value."""
        data = redact(event, reader)
        key = (reader, event.type, repr(data))
        seen = self._received.get(key)
        if seen is None:
            seen = self._received[key] = received_data(self.game, event.type, data, reader, self.state.players)
        elif key not in self._retold:
            # which rests on the sentence being told from the redacted data alone: the first time it comes back,
            # it is told again and must come out the same
            self._retold.add(key)
            again = received_data(self.game, event.type, data, reader, self.state.players)
            assert again == seen, f"{self.game.id}: {event.type} told to seat {reader} in two ways: {seen} {again}"
        return seen

    def seen(self, reader: int, command: Command, seat: int) -> list[str]:
        """What ``reader`` receives of ``command`` from ``seat`` decided here (``received``)."""
        key = (reader, seat, command)
        if key not in self._seen:
            self._seen[key] = [self.received(e, reader) for e in self.decide(command, seat)[0]]
        return self._seen[key]

    def view_after(self, reader: int, command: Command, seat: int) -> str:
        """``reader``'s view (canonical) after ``command`` from ``seat`` decided here."""
        key = (reader, seat, command)
        if key not in self._view_after:
            self._view_after[key] = canonical(self.game.decider.view(self.decide(command, seat)[1], reader))
        return self._view_after[key]


def check_step(game: Game, state: Any, entropy: bytes, chooser: random.Random, legal_sample: int = 12) -> None:
    """Every per-position property: invariants, who waits and who may act, legality, non-interference."""
    game.decider.invariant(state)
    if game.decider.outcome(state) is not None:
        return
    here = Position(game, state, entropy)
    assert here.to_act, f"{game.id}: the game waits on nobody while it runs"
    for seat in range(state.players):
        legal = here.legal(seat)
        check_who_may_act(game, state, seat, legal, chooser)
        for command in chooser.sample(legal, min(len(legal), legal_sample)):
            posted = json.loads(canonical(command.to_wire()))
            assert parse_command(game, posted) == command, f"{game.id}: {command} does not parse to itself"
            here.decide(command, seat)
        check_non_interference(game, state, seat, entropy, chooser, here)


def check_who_may_act(game: Game, state: Any, seat: int, legal: list[Command], chooser: random.Random) -> None:
    """A waited seat has an ordinary command and the timer picks one of those; any other seat may only play out of turn."""
    kinds = {c.type for c in legal}
    if seat in game.decider.to_act(state):
        assert kinds - game.decider.out_of_turn, f"{game.id}: seat {seat} is waited on but has no ordinary command ({sorted(kinds)})"
        choice = game.timeout_choice(state, seat, random.Random(chooser.random()))
        assert choice in legal, f"{game.id}: the timer's choice {choice} for seat {seat} is not a legal command"
        assert choice.type not in game.decider.out_of_turn, f"{game.id}: the timer spends an out-of-turn play: {choice}"
    else:
        assert kinds <= game.decider.out_of_turn, (
            f"{game.id}: seat {seat} is not waited on but may post {sorted(kinds - game.decider.out_of_turn)}, which are not out-of-turn plays"
        )


def check_non_interference(game: Game, state: Any, seat: int, entropy: bytes, chooser: random.Random,
                           here: Position | None = None) -> None:
    """Reshuffle what ``seat`` cannot know: its view, legal commands, the seats waited on and the timer's choice
    for it stay the same; so does what it sees of another seat's move (against ``resample_unrevealable`` where a
    game declares one); and after any move whose events it sees the same way, its view is the same. ``here``: the
    position's answers already computed for other seats (``Position``), if any."""
    here = here or Position(game, state, entropy)
    seed = chooser.random()
    other = game.ai.resample(state, seat, random.Random(seed))
    assert other is not state, f"{game.id}: resample handed back the real state"
    game.decider.invariant(other)
    there = Position(game, other, entropy)
    assert canonical(game.decider.view(state, seat)) == canonical(game.decider.view(other, seat)), f"{game.id}: seat {seat}'s view leaks"
    assert canonical(wire(here.legal(seat))) == canonical(wire(there.legal(seat))), (
        f"{game.id}: seat {seat}'s legal commands leak"
    )
    assert here.to_act == there.to_act, f"{game.id}: the seats waited on depend on what seat {seat} cannot know"
    again = chooser.random()
    assert game.ai.resample(state, seat, random.Random(again)) == game.ai.resample(other, seat, random.Random(again)), (
        f"{game.id}: resample for seat {seat} depends on more than what the seat knows (given the same random stream, "
        "two worlds it cannot tell apart must resample to the same world: an AI fed either must choose the same)"
    )
    if seat in here.to_act:
        assert game.timeout_choice(state, seat, random.Random(seed)) == game.timeout_choice(other, seat, random.Random(seed)), (
            f"{game.id}: the timer's choice for seat {seat} depends on what it cannot know"
        )
    check_views_follow_events(here, there, seat, chooser, must_match=False)
    if game.ai.resample_unrevealable is not None:
        # Other seats' moves may rightly reveal some of what the full resample changed (a card taken face up):
        # compare their effect against a world that differs only in what no single move can show.
        there = Position(game, game.ai.resample_unrevealable(state, seat, random.Random(chooser.random())), entropy)
    check_views_follow_events(here, there, seat, chooser, must_match=True)


def check_views_follow_events(here: Position, there: Position, seat: int, chooser: random.Random, must_match: bool) -> None:
    """Moves by any seat that may act, decided in two worlds ``seat`` cannot tell apart (``here``, the real one, and
    ``there``): where ``seat`` receives the same events from both, its views after must be the same (its view
    changes only as its events say). With ``must_match``, another seat's move must send ``seat`` the same events in
    both worlds."""
    game, state = here.game, here.state
    for actor in range(state.players):
        legal_here = here.legal(actor)
        legal_there = set(there.legal(actor))
        for command in chooser.sample(legal_here, min(len(legal_here), 3)):
            if command not in legal_there:
                continue
            seen_here = here.seen(seat, command, actor)
            events_there, after_there = there.decide(command, actor)
            seen_there = [here.received(e, seat) for e in events_there]
            if must_match and actor != seat:
                assert seen_here == seen_there, f"{game.id}: seat {seat} learns something hidden from seat {actor}'s {command}: {[(a, b) for a, b in zip(seen_here, seen_there) if a != b]}"
            if seen_here == seen_there:
                assert here.view_after(seat, command, actor) == canonical(game.decider.view(after_there, seat)), (
                    f"{game.id}: after seat {actor}'s {command}, seat {seat}'s view changed by more than its events say"
                )


def check_facts(game: Game, events: list[Event]) -> None:
    """Every event conforms to the fact the game declares for its type."""
    if not len(game.decider.facts):
        return
    problems = [p for e in events for p in game.decider.facts.problems(e)]
    assert not problems, f"{game.id}: events that do not match their facts: {sorted(set(problems))[:10]}"


def check_game_properties(game: Game, players: int, seed: int, options: dict[str, Any] | None = None, every: int = 1) -> Playout:
    """A random playout with every property checked at every ``every``-th position; returns the playout."""
    chooser = random.Random(seed ^ 0x5EED)
    play = random_playout(game, players, seed, options, keep_states=True)
    for index, state in enumerate(play.states):
        if index % every == 0 or index == len(play.states) - 1:
            check_step(game, state, entropy_for(b"check", index), chooser)
    check_facts(game, play.events)
    replayed = fold(game, [Event.from_json(json.loads(canonical(e.to_json()))) for e in play.events])
    assert replayed == play.state, f"{game.id}: replay after a JSON round trip differs from the live state"
    encoded = json.loads(canonical(game.codec.encode(play.state)))
    decoded = game.codec.decode(encoded)
    assert decoded == play.state, f"{game.id}: the state does not survive the snapshot codec"
    for final in (game.decider.outcome(play.state), game.decider.outcome(decoded)):
        assert final is not None and type(final.reason) is game.decider.reasons, f"{game.id}: {final} has no typed reason"
    everyone = frozenset(range(players))
    assert tuple(sorted(game.decider.winners_among(play.state, everyone))) == tuple(sorted(final.winners)), \
        f"{game.id}: winners_among with every seat standing is not the outcome's winners"
    return play
