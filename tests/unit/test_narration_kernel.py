"""The kernel's narration toolkit: one function renders a template with its arguments into plain words."""

from __future__ import annotations

import pytest

from shared.kernel.narration import Narrator, Voice, clauses, named, render, say

ADA = {"seat": 0, "name": "Ada"}
YOU = {"seat": 1, "name": "Bo", "you": True}


def test_a_template_renders_names_counts_and_lists_and_starts_with_a_capital():
    cards = [named("card", 13, "Shoggoth"), named("card", 2, "Dagon"), named("card", 7, "Nug")]
    assert render("{seat} drew {cards}", {"seat": YOU, "cards": cards}) == "You drew Shoggoth, Dagon and Nug"
    assert render("{seat} gave {count} cards to {other}", {"seat": ADA, "count": 2, "other": YOU}) == "Ada gave 2 cards to you"


def test_a_possessive_reads_your_for_the_reader_and_s_for_anyone_else():
    assert render("{seat} looked at {other}'s hand", {"seat": ADA, "other": YOU}) == "Ada looked at your hand"
    assert render("{other}'s hand was seen", {"other": YOU}) == "Your hand was seen"
    assert render("{seat} looked at {other}'s hand", {"seat": YOU, "other": ADA}) == "You looked at Ada's hand"


def test_a_placeholder_without_an_argument_is_an_error_and_an_unused_argument_is_left_out():
    with pytest.raises(KeyError):
        render("{seat} drew {card}", {"seat": ADA})
    told = say("{seat} drew a card", seat=ADA, count=1)
    assert told.args == {"seat": ADA} and told.plain == "Ada drew a card"


def test_clauses_number_their_arguments_apart():
    template, args = clauses(("{seat} took {madness}", {"seat": seat, "madness": n}) for seat, n in ((ADA, 3), (YOU, 0)))
    assert template == "{seat_0} took {madness_0}, {seat_1} took {madness_1}"
    assert render(template, args) == "Ada took 3, you took 0"


def test_a_voice_marks_only_its_readers_seat_and_names_a_seat_it_learns_later():
    voice = Voice(Narrator(), reader=1, names=("Ada", None))
    assert voice.seat(0) == {"seat": 0, "name": "Ada"} and voice.seat(1) == {"seat": 1, "name": "Seat 1", "you": True}
    assert voice.named(1, "Bo").seat(1)["name"] == "Bo"
    assert voice.tell("some_new_event", {}).plain == "Some new event", "a type without a line reads as its words"
