"""The scenario DSL says what differs: whole events compared, the first difference named by its index."""

import pytest

from shared.kernel import ev
from tests.support.scenario import decide, first_difference, given, play_moves, set_up
from tests.support.toy import GAME


def test_equal_events_are_no_difference_and_tuples_read_as_lists():
    assert first_difference([ev("card_played", seat=1, cards=[3, 4])], [ev("card_played", seat=1, cards=(3, 4))]) is None


def test_a_differing_field_names_the_event_by_index():
    said = first_difference(
        [ev("turn_ended", seat=1), ev("card_played", seat=1, card=14)],
        [ev("turn_ended", seat=1), ev("card_played", seat=1, card=15)],
    )
    assert said.splitlines()[0] == "event 1: expected card_played{seat:1,card:14} got card_played{seat:1,card:15}"


def test_a_missing_or_extra_event_and_a_differing_audience_are_differences():
    assert first_difference([ev("turn_ended", seat=1)], []).startswith("event 0: expected turn_ended{seat:1} got nothing")
    assert "expected 0 events, got 1" in first_difference([], [ev("turn_ended", seat=1)])
    secret = first_difference([ev("card_drawn", seat=0, card=3, secret={"card": [0]})], [ev("card_drawn", seat=0, card=3)])
    assert secret.startswith('event 0: expected card_drawn{seat:0,card:3} secret{card:[0]} got card_drawn{seat:0,card:3}')


def test_then_fails_with_the_difference_and_refused_checks_the_code():
    table = given(GAME, *GAME.decider.setup(2, {}, bytes(32)))
    with pytest.raises(pytest.fail.Exception, match=r"when seat 0 posts .*\nevent 0: expected nothing got "):
        table.when(0, {"type": "draw_card"}).then()
    table.when(1, {"type": "draw_card"}).refused("rules/not_your_turn")


def test_set_up_compares_a_new_tables_whole_facts():
    opened = set_up(GAME, 2)
    assert opened.then(*opened.events) is opened
    with pytest.raises(pytest.fail.Exception, match=r"when 2 players set up \{\}:\nevent 0: expected nothing got "):
        opened.then()


def test_a_play_example_goes_on_move_by_move_from_the_position_each_move_left():
    table = given(GAME, *GAME.decider.setup(2, {}, bytes(32)))
    draw = {"type": "draw_card"}
    drawn = table.when(0, draw)
    assert drawn.when(1, draw).state == drawn.after == drawn.played().state
    assert drawn.when(1, draw).events == decide(GAME, drawn.after, draw, 1).events
    assert drawn.played((1, draw)).state == play_moves(GAME, table.state, (0, draw), (1, draw))[0]
