"""Cthulhu: The Great Old One: the generic game properties over seeded random playouts, plus the game's own.

Own properties: a seat never learns a card taken from another hand at random unless it is the taker or the
victim (its own loss); a seat's view never shows another seat's hidden cards; resampling keeps hand sizes and
the seat's own hand; seats out of turn act only with Signs, which are finite, so random play always ends.
"""

from __future__ import annotations

import pytest

from shared.games.great_old_one import GAME
from shared.games.great_old_one.cards import SIGN_CARDS
from shared.games.great_old_one.state import EndReason, Over, Turn
from shared.kernel import redact
from tests.support.budgets import kernel_runs
from tests.support.properties import check_game_properties, random_playout


# More seeds at lower density for the longer, wider games: tests/support/budgets.py.
@pytest.mark.parametrize("players, seed, every, options", kernel_runs(GAME))
def test_game_properties_hold_for_every_table_size(players, seed, every, options):
    """The kernel's properties over this game's line of tests/support/budgets.py."""
    check_game_properties(GAME, players, seed, options, every=every)

@pytest.mark.parametrize("first", [1, 2])
def test_game_properties_hold_when_another_seat_is_the_youngest(first):
    for seed in range(6):
        play = check_game_properties(GAME, 3, 100 + seed, options={"first_player": first}, every=3)
        assert play.events[0].data["first_player"] == first


@pytest.mark.parametrize("players", [2, 4, 6])
def test_game_properties_hold_with_the_finish_the_round_variant(players):
    for seed in range(6):
        play = check_game_properties(GAME, players, 300 + seed, options={"finish_round": True}, every=3)
        final = play.state
        assert isinstance(final.phase, Over)
        if final.phase.reason is EndReason.SEVENTH_PAIR:
            assert (final.phase.last.seat + 1) % players == final.first_player, "the round was played out"


def _hidden_from(event, seat):
    """Whether ``seat`` is kept from the card an event moves between two other hands."""
    return "card" not in redact(event, seat)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_seat_never_learns_a_card_taken_at_random_except_as_its_own_loss(players):
    moved = 0
    for seed in range(12):
        play = random_playout(GAME, players, 500 + seed)
        for event in play.events:
            if event.type == "story_called" and event.data["card"] is not None:
                taker, victim = event.data["seat"], event.data["target"]
            elif event.type == "card_taken":
                taker, victim = event.data["seat"], event.data["from_seat"]
            elif event.type == "card_given":
                taker, victim = event.data["to_seat"], event.data["seat"]
            else:
                continue
            moved += 1
            for seat in range(players):
                if seat in (taker, victim):
                    assert redact(event, seat)["card"] == event.data["card"]
                else:
                    assert _hidden_from(event, seat)
            assert _hidden_from(event, None)
    assert moved > 0


def _cards_in(view_part):
    if isinstance(view_part, dict):
        for key, value in view_part.items():
            if key in ("hand", "cards", "horrors", "centre", "removed", "deck"):
                yield from value
            else:
                yield from _cards_in(value)
    elif isinstance(view_part, list):
        for item in view_part:
            yield from _cards_in(item)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seat_never_sees_another_hand_or_the_deck_while_the_game_runs(players):
    for seed in range(6):
        play = random_playout(GAME, players, 700 + seed, keep_states=True)
        for state in play.states[:-1]:
            public = set(state.centre) | set(state.removed)
            for area in state.areas:
                public |= {c for p in area.pairs for c in p.cards} | set(area.horrors)
            for seat in range(players):
                seen = set(_cards_in(GAME.decider.view(state, seat)))
                assert seen <= public | set(state.hands[seat])
            assert set(_cards_in(GAME.decider.view(state, None))) <= public
        final = GAME.decider.view(play.state, 0)
        assert all("hand" in s for s in final["seats"]), "hands are revealed at the end"


@pytest.mark.parametrize("players", [3, 5])
def test_resampling_keeps_hand_sizes_and_the_seats_own_hand(players):
    import random

    for seed in range(4):
        play = random_playout(GAME, players, 900 + seed, keep_states=True)
        for state in play.states[1::5]:
            for seat in range(players):
                other = GAME.ai.resample(state, seat, random.Random(seed))
                assert other.hands[seat] == state.hands[seat] and other.areas == state.areas
                assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
                assert len(other.deck) == len(state.deck)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_out_of_turn_commands_are_only_signs_so_random_play_always_ends(players):
    for seed in range(10):
        play = random_playout(GAME, players, 1100 + seed, keep_states=True)
        out_of_turn = 0
        for state, (seat, command) in zip(play.states, play.commands):
            if isinstance(state.phase, Turn) and seat != state.phase.seat:
                assert command["type"] == "play_sign"
                out_of_turn += 1
        assert out_of_turn <= len(SIGN_CARDS)
        assert len(play.commands) < 600
        assert GAME.decider.outcome(play.state) is not None


@pytest.mark.parametrize("players", [2, 5])
def test_every_position_survives_the_state_codec_with_the_same_types_and_moves(players):
    """The session service ships the state to the rules service through the codec and snapshots are stored with
    it: at every position the decoded state must be the same, value for value and type for type (a StrEnum phase
    came back as a str and turned every rule check on the phase false; the end's reason is a StrEnum), with the same
    moves."""
    import json

    from tests.support.properties import canonical

    for seed in range(3):
        play = random_playout(GAME, players, 1300 + seed, keep_states=True)
        for state in play.states:
            decoded = GAME.codec.decode(json.loads(canonical(GAME.codec.encode(state))))
            assert decoded == state and type(decoded.phase) is type(state.phase)
            if isinstance(state.phase, Over):
                assert type(decoded.phase.reason) is EndReason
            assert [type(getattr(decoded, f)) for f in state.__slots__] == [type(getattr(state, f)) for f in state.__slots__]
            assert GAME.decider.to_act(decoded) == GAME.decider.to_act(state)
            for seat in range(players):
                assert GAME.decider.legal_commands(decoded, seat) == GAME.decider.legal_commands(state, seat)
