"""The kernel's toolkit for games: a decision that emits and folds, tuple replacement, typed facts."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from shared.kernel import EVERYONE, Decision, Event, Fact, Facts, replace, replace_at, viewer_for
from shared.kernel.facts import conforms


@dataclass(frozen=True, slots=True)
class CardDrawn(Fact, type="card_drawn"):
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class PileShown(Fact, type="pile_shown"):
    cards: list[int]
    owner: int | None = None


@dataclass(frozen=True, slots=True)
class HandsShown(Fact, type="hands_shown", optional=("hand_2",)):
    hand_0: list[int]
    hand_2: list[int] | None = None


FACTS = Facts(CardDrawn, PileShown, HandsShown)


def test_a_decision_folds_each_event_as_it_is_emitted():
    decision = Decision(0, lambda total, event: total + event.data["card"], entropy=b"e")
    decision.emit(CardDrawn(seat=1, card=4), secret={"card": [1]})
    assert decision.emit(CardDrawn(seat=0, card=3)) == 7
    assert [e.data for e in decision.events] == [{"seat": 1, "card": 4}, {"seat": 0, "card": 3}]
    assert decision.events[0].secret == {"card": (1,)}


def test_a_decision_inside_simulating_keeps_no_events_but_counts_what_it_emitted():
    """A rule that asks whether a step emitted anything (Rites of Cthulhu's settling, to its fixed point) reads
    ``emitted``: a playout's decision keeps no events, and ``len(events)`` there would say nothing happened."""
    from shared.kernel.decision import simulating

    def fold(total, fact):
        return total + FACTS.parse(fact).card  # type: ignore[attr-defined]

    with simulating():
        bare = Decision(0, fold, entropy=b"e")
        bare.emit(CardDrawn(seat=1, card=4), secret={"card": [1]})
        assert bare.emit(CardDrawn(seat=0, card=3)) == 7
    full = Decision(0, fold, entropy=b"e")
    full.emit(CardDrawn(seat=1, card=4))
    assert (bare.emitted, bare.events) == (2, []) and (full.emitted, len(full.events)) == (1, 1)


def test_a_decision_without_entropy_may_not_draw():
    with pytest.raises(RuntimeError):
        Decision(None, lambda s, e: s).rng.random()


def test_replace_at_replaces_one_item():
    assert replace_at((1, 2, 3), 1, 9) == (1, 9, 3)


@dataclass(frozen=True, slots=True)
class Seated:
    seat: int
    hand: tuple[int, ...] = ()
    rest: tuple[int, ...] = field(default=(), kw_only=True)


@dataclass(frozen=True)
class Counted:
    seat: int
    size: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", self.seat * 2)


def test_replace_gives_what_dataclasses_replace_gives():
    before = Seated(1, (2, 3), rest=(4,))
    for changes in ({}, {"seat": 5}, {"hand": (), "rest": (9,)}, {"seat": 0, "hand": (1,), "rest": ()}):
        after = replace(before, **changes)
        assert after == dataclasses.replace(before, **changes) and type(after) is Seated
    assert before == Seated(1, (2, 3), rest=(4,))  # the old value is untouched
    with pytest.raises(TypeError, match="no field"):
        replace(before, seats=2)
    # a field outside __init__ is recomputed by __post_init__, as dataclasses.replace does
    assert replace(Counted(1), seat=3) == dataclasses.replace(Counted(1), seat=3) == Counted(3)
    with pytest.raises(ValueError):
        replace(Counted(1), size=4)


@dataclass(frozen=True, slots=True)
class SlottedSeat:
    seat: int
    hand: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SortedHand:
    hand: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand", tuple(sorted(self.hand)))


def test_replace_of_a_slotted_record_sets_its_slots_and_still_runs_its_post_init():
    before = SlottedSeat(1, (2, 3))
    for changes in ({}, {"seat": 5}, {"hand": ()}, {"seat": 0, "hand": (1,)}):
        after = replace(before, **changes)
        assert after == dataclasses.replace(before, **changes) and type(after) is SlottedSeat and after is not before
    with pytest.raises(TypeError, match="no field"):
        replace(before, hands=())
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(before, seat=2).seat = 3  # still frozen
    assert replace(SortedHand((1,)), hand=(3, 1, 2)).hand == (1, 2, 3)  # a record with __post_init__ is built by it
    assert replace(OwnInit((1,)), hand=(3, 1, 2)).hand == (1, 2, 3)  # and one with an __init__ of its own by that


@dataclass(frozen=True, slots=True, init=False)
class OwnInit:
    hand: tuple[int, ...]

    def __init__(self, hand: tuple[int, ...]) -> None:
        object.__setattr__(self, "hand", tuple(sorted(hand)))


def test_the_viewer_is_the_seat_while_the_game_runs_and_everyone_after():
    assert viewer_for(2, game_over=False) == 2
    assert viewer_for(None, game_over=True) is EVERYONE


def test_a_fact_is_its_event_and_reads_back_from_it():
    event = CardDrawn(seat=1, card=7).event(secret={"card": [1]})
    assert event == Event("card_drawn", {"seat": 1, "card": 7}, {"card": (1,)})
    assert FACTS.parse(event) == CardDrawn(1, 7)
    assert FACTS.problems(event) == []


@pytest.mark.parametrize(
    "event, problem",
    [
        (Event("card_drawn", {"seat": 1}), "fields"),
        (Event("card_drawn", {"seat": "1", "card": 7}), "card_drawn.seat"),
        (Event("card_drawn", {"seat": True, "card": 7}), "card_drawn.seat"),
        (Event("pile_shown", {"cards": [1, "x"], "owner": None}), "pile_shown.cards"),
        (Event("nothing_happened", {}), "not a declared fact"),
    ],
)
def test_an_event_that_does_not_match_its_fact_is_named(event, problem):
    assert any(problem in p for p in FACTS.problems(event))


def test_an_optional_field_is_stored_only_when_it_holds_a_value():
    assert HandsShown(hand_0=[1]).event().data == {"hand_0": [1]}
    assert HandsShown(hand_0=[1], hand_2=[3]).event().data == {"hand_0": [1], "hand_2": [3]}
    assert FACTS.parse(Event("hands_shown", {"hand_0": [1]})) == HandsShown([1])
    assert FACTS.problems(Event("hands_shown", {"hand_0": [1]})) == []
    assert FACTS.problems(Event("hands_shown", {"hand_0": [1], "hand_2": [3]})) == []
    assert FACTS.problems(Event("hands_shown", {"hand_2": [3]}))
    assert FACTS.problems(Event("hands_shown", {"hand_0": [1], "hand_2": None}))


def test_an_optional_field_must_default_to_none():
    @dataclass(frozen=True, slots=True)
    class Bad(Fact, type="bad", optional=("seat",)):
        seat: int

    with pytest.raises(TypeError):
        Facts(Bad)


def test_two_facts_may_not_share_a_name():
    @dataclass(frozen=True, slots=True)
    class Again(Fact, type="card_drawn"):
        seat: int

    with pytest.raises(TypeError):
        Facts(CardDrawn, Again)


@pytest.mark.parametrize(
    "value, hint, ok",
    [(3, int, True), (3, float, True), (True, int, False), (None, int | None, True), ([[1, 2]], list[list[int]], True),
     ({"a": 1}, dict[str, int], True), ({"a": "b"}, dict[str, int], False), ([1, 2], tuple[int, int], True),
     ([1], tuple[int, int], False)],
)
def test_conforms_reads_json_values_against_annotations(value, hint, ok):
    assert conforms(value, hint) is ok
