"""The kernel's own guarantees, on the toy game."""

import dataclasses

import pytest

from shared.kernel import EVERYONE, RuleViolation, entropy_for, ev, redact
from shared.games.toy.commands import DrawCard
from shared.kernel.game import GameOver
from shared.wire.commands import MalformedCommand, decide_posted
from tests.support.properties import check_game_properties
from tests.support.toy import GAME


def test_a_secret_field_is_seen_only_by_its_audience():
    event = ev("card_drawn", seat=1, card=7, secret={"card": [1]})
    assert redact(event, 1) == {"seat": 1, "card": 7}
    assert redact(event, 0) == {"seat": 1}
    assert redact(event, None) == {"seat": 1}
    assert redact(event, EVERYONE) == {"seat": 1, "card": 7}


def test_an_empty_audience_hides_a_field_from_every_seat_until_the_game_ends():
    event = ev("deck_shuffled", order=[3, 1, 2], secret={"order": []})
    assert all(redact(event, s) == {} for s in (0, 1, None))
    assert redact(event, EVERYONE) == {"order": [3, 1, 2]}


def test_a_secret_must_name_a_field_of_the_event():
    with pytest.raises(ValueError):
        ev("x", a=1, secret={"b": [0]})


def test_entropy_is_a_deterministic_function_of_seed_and_version():
    assert entropy_for(b"s", 3) == entropy_for(b"s", 3)
    assert entropy_for(b"s", 3) != entropy_for(b"s", 4) != entropy_for(b"t", 4)


@pytest.mark.parametrize(
    "options, code",
    [({"nope": 1}, "rules/invalid_option"), ({"target": "x"}, "rules/invalid_option"), ({"target": 0}, "rules/invalid_option")],
)
def test_options_are_checked(options, code):
    with pytest.raises(RuleViolation) as info:
        GAME.start(2, options, b"e")
    assert info.value.code == code


def test_player_count_is_checked():
    with pytest.raises(RuleViolation) as info:
        GAME.start(5, {}, b"e")
    assert info.value.code == "rules/player_count"


@pytest.mark.parametrize("command", [None, [], {"type": 3}, {"type": "play_card"}, {"type": "play_card", "card": "1"}, {"type": "draw_card", "extra": 1}])
def test_a_malformed_command_is_refused_before_the_rules(command):
    state = GAME.replay(GAME.start(2, {}, b"e")[1])
    with pytest.raises(MalformedCommand):
        decide_posted(GAME, state, command, 0, b"e")


def test_an_unknown_command_type_is_a_rule_violation():
    state = GAME.replay(GAME.start(2, {}, b"e")[1])
    with pytest.raises(RuleViolation) as info:
        decide_posted(GAME, state, {"type": "castle"}, 0, b"e")
    assert info.value.code == "rules/unknown_command"


def test_the_kernel_refuses_a_seat_the_game_does_not_wait_on_with_one_error_that_names_who_is_to_act():
    state = GAME.replay(GAME.start(3, {}, b"e")[1])
    assert GAME.decider.to_act(state) == {0}
    with pytest.raises(RuleViolation) as info:
        GAME.checked_decide(state, DrawCard(), 2, b"e")
    assert (info.value.code, info.value.message, info.value.details) == ("rules/not_your_turn", "It is not your turn.", {"to_act": [0]})


def test_a_command_the_game_lists_as_out_of_turn_reaches_its_rules_from_any_seat():
    state = GAME.replay(GAME.start(3, {}, b"e")[1])
    lenient = dataclasses.replace(GAME, decider=dataclasses.replace(GAME.decider, out_of_turn=frozenset({"draw_card"})))
    assert [e.type for e in lenient.checked_decide(state, DrawCard(), 2, b"e").events] == ["card_drawn"]


def test_no_command_is_accepted_once_the_game_is_over():
    play = check_game_properties(GAME, 2, seed=1)
    with pytest.raises(GameOver):
        GAME.checked_decide(play.state, DrawCard(), 0, b"e")
    with pytest.raises(GameOver):  # before its shape is read, as ever
        decide_posted(GAME, play.state, {"type": "castle", "extra": 1}, 0, b"e")


def test_the_codec_refuses_to_build_classes_a_game_did_not_list():
    with pytest.raises(ValueError):
        GAME.codec.decode({"$": "Popen", "args": ["sh"]})


@pytest.mark.parametrize("seed", range(10))
def test_the_toy_game_has_every_property(seed):
    check_game_properties(GAME, 2 + seed % 3, seed)


def test_the_timer_plays_nothing_rather_than_raise_where_the_waited_seat_has_nothing_to_play():
    """Issue 27: a game waiting on a seat with no legal command (a liveness breach) made the game's own timeout
    policy raise (Rites: random.choice([]), IndexError). The kernel asks the policy only when the seat has an ordinary
    command; otherwise its choice is None, which the turn timer reports as a defect."""
    import dataclasses
    import random

    from shared.kernel import fold

    frozen = dataclasses.replace(GAME, decider=dataclasses.replace(
        GAME.decider, legal_commands=lambda state, seat: [], timeout_command=lambda state, seat, rand: rand.choice([])))
    state = fold(frozen, frozen.decider.setup(2, {}, bytes(32)))
    waited = next(iter(frozen.decider.to_act(state)))
    assert frozen.timeout_choice(state, waited, random.Random(1)) is None
    # with something to play, the game's policy decides as before
    playing = dataclasses.replace(GAME, decider=dataclasses.replace(GAME.decider, timeout_command=lambda state, seat, rand: {"type": "chosen"}))
    assert playing.timeout_choice(state, waited, random.Random(1)) == {"type": "chosen"}


def test_the_toy_invariant_finds_a_card_lost_or_points_not_earned():
    """The template's conservation law can fail: every card in the deck, a hand, or played into the points."""
    state = GAME.replay(GAME.start(2, {}, b"e")[1])
    GAME.decider.invariant(state)
    for broken in (dataclasses.replace(state, deck=state.deck[1:]),  # a card gone
                   dataclasses.replace(state, points=(3, 0)),  # points no card earned
                   dataclasses.replace(state, hands=(state.hands[0] * 2, state.hands[1]))):  # a card twice
        with pytest.raises(AssertionError):
            GAME.decider.invariant(broken)
