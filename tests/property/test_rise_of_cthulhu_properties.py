"""Rise of Cthulhu properties: the kernel's checks over many seeded random games, plus the game's own laws."""

from __future__ import annotations

import pytest

from shared.games.rise_of_cthulhu import GAME
from shared.games.rise_of_cthulhu.cards import CULTISTS, OLD_ONE_SLOT, placement
from shared.games.rise_of_cthulhu.state import is_over, locations_facing, points
from shared.kernel import fold
from tests.support.budgets import kernel_runs
from tests.support.properties import check_game_properties, random_playout


# Every position of 16 games, and every seventh of 60 more: tests/support/budgets.py.
@pytest.mark.parametrize("players, seed, every, options", kernel_runs(GAME))
def test_every_property_holds_in_random_games(players, seed, every, options):
    """The kernel's properties over this game's line of tests/support/budgets.py."""
    check_game_properties(GAME, players, seed, options, every=every)


@pytest.mark.parametrize("seed", range(200, 240))
def test_random_play_ends_with_three_old_ones_awake_before_the_deck_runs_out(seed):
    play = random_playout(GAME, 2, seed, max_commands=1000)
    state = play.state
    assert len(state.awake) == 3 and is_over(state)
    assert OLD_ONE_SLOT not in state.deck and len(state.deck) >= 7
    assert len(play.commands) < 400


@pytest.mark.parametrize("seed", range(300, 330))
def test_turn_structure_and_old_one_placement_hold_in_random_games(seed):
    play = random_playout(GAME, 2, seed, keep_states=True)
    state = fold(GAME, play.events[:3])
    for event in play.events[3:]:
        before = state
        state = GAME.decider.evolve(state, event)
        if event.type == "old_one_awakened":
            taken = {loc.name for loc in before.locations if loc.old_one}
            free = [name for name in placement(event.data["old_one"]) if name not in taken]
            assert event.data["location"] == free[0], "an Old One wakes on the first free Location of its letters"
            assert before.deck[0] == OLD_ONE_SLOT
        if event.type == "turn_passed":
            assert before.actions_taken == before.actions_allowed, "a turn passes after all its actions"
            assert before.must_draw is False or before.deck_drawn, "a forced turn drew from the Cultist Deck"
    assert state == play.state


def _whole_position(state):
    """Everything a turn starts from, hidden cards included (the ruling's digest uses public facts only)."""
    return (state.current, state.hunter, state.valley, state.discard, state.spent, state.locations, state.hands,
            state.known, state.deck, state.monster_deck, state.artifact_deck, state.awake)


@pytest.mark.parametrize("seed", [*range(30), 114])
def test_random_games_force_a_cultist_deck_draw_only_when_a_whole_position_repeats(seed):
    """Issue 15, ruling 25: a turn is forced to draw from the Cultist Deck exactly when the whole position it
    begins in (hidden cards too) already began a turn since the last Cultist Deck draw; every other turn keeps
    every rulebook choice. (The old six-idle-turns rule forced draws in about a third of these games; seeds 6
    and 114 hold a real loop.)"""
    play = random_playout(GAME, 2, seed)
    state = fold(GAME, play.events[:3])
    starts: set = set()
    for event in play.events[3:]:
        before, state = state, GAME.decider.evolve(state, event)
        if len(state.deck) != len(before.deck):
            starts = set()
        if event.type == "turn_passed":
            assert event.data["must_draw"] == (_whole_position(state) in starts), f"seed {seed}: {event.data}"
            starts.add(_whole_position(state))
    if seed in (6, 114):
        assert any(e.type == "turn_passed" and e.data["must_draw"] for e in play.events), "the loop is stopped"


@pytest.mark.parametrize("seed", range(400, 420))
def test_views_never_show_the_opponents_unseen_hand_cards(seed):
    play = random_playout(GAME, 2, seed, keep_states=True)
    for state in play.states[::5]:
        for seat in (0, 1):
            view = GAME.decider.view(state, seat)
            opponent = state.hands[1 - seat]
            hidden = [c for c in opponent if c not in state.known[1 - seat] and c in CULTISTS]
            on_view = set(view["hand"]) | {c for loc in view["locations"] for s in loc["sides"] for c in s["cultists"]}
            on_view |= set(view["valley"]) | set(view["discard"]) | {c for k in view["known_in_hand"] for c in k}
            assert not set(hidden) & on_view
            assert "deck" not in view and "hands" not in view


@pytest.mark.parametrize("seed", range(500, 530))
def test_the_outcome_follows_the_tie_break_order(seed):
    state = random_playout(GAME, 2, seed).state
    result = GAME.decider.outcome(state)
    locs = [locations_facing(state, s) for s in (0, 1)]
    pts = [points(state, s) for s in (0, 1)]
    if "azathoth" not in state.awake and locs[0] != locs[1]:
        assert result.reason == "locations" and result.winners == (locs.index(max(locs)),)
    elif pts[0] != pts[1]:
        assert result.reason == "points" and result.winners == (pts.index(max(pts)),)
    else:
        assert result.reason in ("artifacts", "monsters", "hand", "tie")


def test_the_position_digest_is_the_digest_of_the_public_facts_text():
    """The digest is stored (``seen``), so its text may not change: ``position`` assembles the facts' ``repr`` with
    each Location's text made once, and it must equal ``repr`` of the whole tuple, in every position of random games."""
    import hashlib

    from shared.games.rise_of_cthulhu.state import ARTIFACTS, MONSTERS, position

    checked = 0
    for seed in range(3):
        for state in random_playout(GAME, 2, 300 + seed, keep_states=True).states:
            kinds = tuple((sum(c in MONSTERS for c in h), sum(c in ARTIFACTS for c in h), len(h)) for h in state.hands)
            for turn in (0, 1):
                facts = (turn, state.hunter, state.valley, state.discard, state.spent, state.locations, state.known,
                         kinds, len(state.deck), len(state.monster_deck), len(state.artifact_deck), state.awake)
                assert position(state, turn) == hashlib.blake2b(repr(facts).encode(), digest_size=8).hexdigest()
                checked += 1
    assert checked > 300
