"""The state codec's format must not move: stored snapshots were written with it, and the rules service reads
what the session service sends. ``ReferenceCodec`` is the codec as it was before it was made fast (kept here
verbatim); the fast one must write the same bytes for real game states and read back what either wrote."""

from __future__ import annotations

import dataclasses
import enum
from collections import namedtuple
from typing import Any

import orjson
import pytest

from shared.games import GAMES
from shared.kernel.codec import Bounds, StateCodec, TooLarge
from tests.support.properties import random_playout
from tests.support.toy import GAME as TOY

STATES_PER_PLAYOUT = 25


class ReferenceCodec:
    """The codec's format as first written (commit cc03be6), slow and plain."""

    def __init__(self, types):
        self._types = {t.__name__: t for t in types}

    def encode(self, obj: Any) -> Any:
        if obj is None or isinstance(obj, (bool, int, float, str)):
            return obj
        if isinstance(obj, enum.Enum):
            return {"$e": type(obj).__name__, "v": obj.value}
        if dataclasses.is_dataclass(obj):
            out = {"$": type(obj).__name__}
            for f in dataclasses.fields(obj):
                out[f.name] = self.encode(getattr(obj, f.name))
            return out
        if isinstance(obj, tuple):
            return [self.encode(x) for x in obj]
        if isinstance(obj, frozenset):
            return {"$s": [self.encode(x) for x in sorted(obj, key=repr)]}
        if isinstance(obj, dict):
            return {"$d": [[self.encode(k), self.encode(v)] for k, v in obj.items()]}
        raise TypeError(f"state holds a {type(obj).__name__}, which the codec does not store")

    def decode(self, raw: Any) -> Any:
        if raw is None or isinstance(raw, (bool, int, float, str)):
            return raw
        if isinstance(raw, list):
            return tuple(self.decode(x) for x in raw)
        if not isinstance(raw, dict):
            raise ValueError("not an encoded state")
        if "$" in raw:
            cls = self._class(raw["$"])
            return cls(**{k: self.decode(v) for k, v in raw.items() if k != "$"})
        if "$s" in raw:
            return frozenset(self.decode(x) for x in raw["$s"])
        if "$d" in raw:
            return {self.decode(k): self.decode(v) for k, v in raw["$d"]}
        if "$e" in raw:
            return self._class(raw["$e"])(raw["v"])
        raise ValueError("not an encoded state")

    def _class(self, name: Any) -> type:
        try:
            return self._types[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown state type {name!r}") from None


def sampled_states(game, players: int, seed: int) -> list[Any]:
    states = random_playout(game, players, seed, keep_states=True).states
    step = max(1, len(states) // STATES_PER_PLAYOUT)
    return states[::step] + [states[-1]]


TABLES = [(game, players) for game in [TOY, *GAMES.values()] for players in sorted({game.catalogue.min_players, game.catalogue.max_players})]


@pytest.mark.parametrize("game, players", TABLES, ids=[f"{g.id}-{p}p" for g, p in TABLES])
def test_real_game_states_encode_to_the_same_bytes_and_decode_both_ways(game, players):
    fast, reference = StateCodec(game.decider.state_types), ReferenceCodec(game.decider.state_types)
    for state in sampled_states(game, players, seed=players):
        written = orjson.dumps(fast.encode(state))
        assert written == orjson.dumps(reference.encode(state)), f"{game.id}: the encoded format changed"
        assert fast.decode(orjson.loads(written)) == state
        assert reference.decode(orjson.loads(written)) == state
        # the live codec (Game.codec is cached per game, so its per-type tables are warm) agrees too
        assert orjson.dumps(game.codec.encode(state)) == written


class Suit(enum.Enum):
    CUPS = "cups"
    SWORDS = 2


class Colour(enum.StrEnum):
    RED = "red"


class Rank(enum.IntEnum):
    ACE = 1


@dataclasses.dataclass(frozen=True, slots=True)
class Card:
    suit: Suit
    rank: int


@dataclasses.dataclass(frozen=True)
class Board:
    cards: tuple[Card, ...]
    tags: frozenset
    scores: dict
    nested: tuple
    colour: Colour
    rank: Rank
    ratio: float
    flag: bool
    nothing: None = None
    extra: Any = dataclasses.field(default=(), compare=True)
    kind: dataclasses.InitVar[int] = 0
    label: str = dataclasses.field(default="b", init=True)


Point = namedtuple("Point", "x y")

BOARD = Board(
    cards=(Card(Suit.CUPS, 3), Card(Suit.SWORDS, 11)),
    tags=frozenset({"b", "a", (1, "x"), Suit.CUPS}),
    scores={0: (1, 2), "k": Card(Suit.CUPS, 1), (1, 2): frozenset(), None: {}},
    nested=((), ((1, "a"), (True, None, 2.5)), ("x",)),
    colour=Colour.RED,
    rank=Rank.ACE,
    ratio=-0.5,
    flag=False,
    extra=(Point(1, 2), Suit.SWORDS, ""),
)


def test_every_kind_of_value_encodes_as_before_and_round_trips():
    types = (Board, Card, Suit)
    fast, reference = StateCodec(types), ReferenceCodec(types)
    for _ in range(2):  # the second pass runs on the codec's cached per-type encoders
        written = orjson.dumps(fast.encode(BOARD))
        assert written == orjson.dumps(reference.encode(BOARD))
        decoded = fast.decode(orjson.loads(written))
        assert decoded == reference.decode(orjson.loads(written))
    # what the codec cannot tell apart after JSON (a StrEnum is its string, a namedtuple a tuple) it never could
    assert decoded.colour == "red" and decoded.rank == 1 and decoded.extra == ((1, 2), Suit.SWORDS, "")
    assert decoded.cards == BOARD.cards and decoded.tags == BOARD.tags and decoded.scores == BOARD.scores


@pytest.mark.parametrize("value", [[1], {1, 2}, object(), b"bytes", (1, [2])])
def test_a_value_the_format_cannot_hold_is_refused_when_encoding(value):
    for codec in (StateCodec((Card,)), ReferenceCodec((Card,))):
        with pytest.raises(TypeError):
            codec.encode(value)


@pytest.mark.parametrize(
    "raw",
    [
        {"$": "Popen", "args": ["sh"]},
        {"$": "Card", "suit": {"$e": "Signal", "v": 9}, "rank": 1},
        [1, [2, {"$": "os.system", "command": "id"}]],
        {"$s": [{"$": "Exec"}]},
        {"$d": [[{"$": "Eval"}, 1]]},
        {"$e": ["Suit"], "v": "cups"},
        {"$": {"name": "Card"}},
        {"x": 1},
        b"bytes",
    ],
)
def test_decoding_builds_only_the_listed_classes(raw):
    with pytest.raises(ValueError):
        StateCodec((Card, Suit)).decode(raw)


def test_decoding_a_listed_class_with_fields_it_does_not_have_fails_in_its_constructor():
    with pytest.raises(TypeError):
        StateCodec((Card, Suit)).decode({"$": "Card", "suit": {"$e": "Suit", "v": "cups"}, "rank": 1, "__class__": 1})


# -- bounds on documents from outside (issue 16) ----------------------------------------------------------------
BUILT: list[int] = []


@dataclasses.dataclass(frozen=True)
class Built:
    n: Any

    def __post_init__(self):
        BUILT.append(1)


BOUNDED = StateCodec([Built])


@pytest.mark.parametrize("raw", [
    [{"$": "Built", "n": i} for i in range(40)],
    {"$": "Built", "n": [0] * 100},
    {"$": "Built", "n": {"$d": [[1, [[2]] * 30]]}},
    {"$": "Built", "n": 10**6},
    {"$": "Built", "n": [1, 2, -(10**6)]},
])
def test_a_document_past_the_bounds_is_refused_before_anything_is_built(raw):
    BUILT.clear()
    with pytest.raises(TooLarge):
        BOUNDED.decode(raw, Bounds(items=50, integer=1000))
    assert BUILT == []


def test_a_document_within_the_bounds_decodes_as_without_them():
    raw = [{"$": "Built", "n": [i, True, None, "x", 1.5]} for i in range(8)]
    assert BOUNDED.decode(raw, Bounds(items=65, integer=7)) == BOUNDED.decode(raw)  # 1 list, 8 objects, 16 fields, 40 values
    with pytest.raises(TooLarge):
        BOUNDED.decode(raw, Bounds(items=64, integer=7))


def test_booleans_are_not_integers_to_the_bound():
    assert BOUNDED.decode([True, False], Bounds(items=3, integer=0)) == (True, False)


def test_a_field_annotated_with_a_str_enum_decodes_to_its_member_though_it_is_stored_as_a_string():
    """The format stores a StrEnum member as its plain string (stored snapshots depend on it); a dataclass field
    annotated with the enum (or an optional one) gets the member back, so a state's enums stay enums after a
    snapshot or the hop to the rules service (Pocket Madness's ``Turn.action``, the table's ``status``)."""
    from shared.games.pocket_madness.state import Action, Playing
    from shared.kernel.table import Status, Table

    codec = StateCodec((Board, Card, Suit))
    stored = orjson.dumps(codec.encode(BOARD))
    assert b'"colour":"red"' in stored and type(codec.decode(orjson.loads(stored)).colour) is Colour
    game = GAMES["pocket-madness"]
    acted = next(s for s in random_playout(game, 2, 3, keep_states=True).states
                 if isinstance(s.phase, Playing) and s.phase.turn.action is not None)
    again = game.codec.decode(orjson.loads(orjson.dumps(game.codec.encode(acted))))
    assert again == acted and type(again.phase.turn.action) is Action
    table = Table("g", "toy", {}, (), "public", Status.ACTIVE)
    assert type(StateCodec((Table,)).decode(orjson.loads(orjson.dumps(StateCodec((Table,)).encode(table)))).status) is Status
    with pytest.raises(ValueError):  # a string the enum does not have is not a state
        StateCodec((Table,)).decode({**StateCodec((Table,)).encode(table), "status": "dancing"})


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_snapshots_its_table_and_reads_it_back(game_id):
    """A table in play (the kernel's types and the game's) survives a snapshot: no two state types share a name,
    or one would decode as the other and every snapshot of the game would be thrown away (Rites' ``Table``)."""
    from shared.kernel.table import Seating, TableOpened

    game = GAMES[game_id]
    seating = Seating(game)
    players = game.catalogue.min_players
    table = seating.fold(None, [TableOpened(game_id="g_x", game=game_id, options={},
                                            seats=[{"name": f"S{i}", "ai": None, "open": False} for i in range(players)],
                                            visibility="public").event()])
    setup = game.decider.setup(players, game.resolve_options({}), bytes(32))
    table = seating.fold(table, setup)
    assert seating.codec.decode(orjson.loads(orjson.dumps(seating.codec.encode(table)))) == table
