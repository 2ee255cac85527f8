"""Pocket Madness properties over seeded random playouts, for 2, 3 and 4 players."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from shared.games.pocket_madness import GAME
from shared.games.pocket_madness.cards import LOCATIONS
from shared.games.pocket_madness.state import Playing, RoundOver
from shared.kernel import RuleViolation, entropy_for
from shared.wire.commands import MalformedCommand, decide_posted
from tests.support.budgets import kernel_runs
from tests.support.properties import canonical, check_game_properties, random_playout


@pytest.mark.parametrize("players, seed, every, options", kernel_runs(GAME))
def test_kernel_properties_hold_in_random_games(players, seed, every, options):
    """The kernel's properties over this game's line of tests/support/budgets.py."""
    check_game_properties(GAME, players, seed, options, every=every)


def candidate_commands(state):
    """A superset of every command a seat could try now, legal or not."""
    seats = range(4)
    out = [{"type": "draw_cards", "count": n} for n in range(1, 4)]
    out += [{"type": "meld_set", "location": loc, "count": n} for loc in LOCATIONS for n in range(3, 13)]
    out += [{"type": t} for t in ("meld_run", "stop_giving", "end_turn", "deal_next_round")]
    out += [{"type": "seal_portal", "portal": p} for p in LOCATIONS]
    out += [{"type": "give_card", "location": loc, "seat": s} for loc in LOCATIONS for s in seats]
    out += [{"type": "look_at_hand", "seat": s} for s in seats]
    out += [{"type": "take_card", "location": loc} for loc in LOCATIONS]
    deck = len(state.cards.deck)
    out += [{"type": "take_deck_card", "position": i} for i in range(min(deck + 2, 63))]
    out += [{"type": "choose_first_player", "seat": s} for s in seats]
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_decide_accepts_exactly_the_listed_legal_commands(players):
    rand = random.Random(players)
    for seed in range(4):
        play = random_playout(GAME, players, 1000 + seed, keep_states=True)
        for index, state in enumerate(play.states[::4]):
            if GAME.decider.outcome(state) is not None:
                continue
            for seat in range(players):
                legal = {canonical(c.to_wire()) for c in GAME.decider.legal_commands(state, seat)}
                candidates = candidate_commands(state)
                if seat not in GAME.decider.to_act(state):
                    candidates = rand.sample(candidates, 12)
                for command in candidates:
                    try:
                        decide_posted(GAME, state, json.loads(canonical(command)), seat, entropy_for(b"x", index))
                        accepted = True
                    except (RuleViolation, MalformedCommand):
                        accepted = False
                    assert accepted == (canonical(command) in legal), (seat, command)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_within_a_few_hundred_commands(players):
    lengths = [len(random_playout(GAME, players, 500 + seed).commands) for seed in range(20)]
    assert max(lengths) < 600
    assert sum(lengths) / len(lengths) < 300


def test_random_games_use_every_portal_and_both_round_endings():
    sealed, reasons, winners = set(), set(), set()
    for seed in range(60):
        play = random_playout(GAME, 2 + seed % 3, 2000 + seed)
        for event in play.events:
            if event.type == "portal_sealed":
                sealed.add(event.data["portal"])
            if event.type == "round_ended":
                reasons.add(event.data["reason"])
        winners.add(len(GAME.decider.outcome(play.state).winners))
    assert sealed == set(LOCATIONS)
    assert reasons == {"deck_exhausted", "hand_emptied"}


def test_every_round_conserves_cards_and_only_ends_at_ten_madness():
    for seed in range(30):
        play = random_playout(GAME, 2 + seed % 3, 3000 + seed, keep_states=True)
        rounds = [s for s in play.states if isinstance(s.phase, RoundOver)]
        for state in rounds[:-1]:
            assert max(state.madness) < 10
        assert max(play.state.madness) >= 10
        for state in play.states:
            if isinstance(state.phase, Playing):
                assert sum(1 for _, up in state.cards.deck if not up) <= 17


def test_resample_keeps_face_up_cards_and_deck_order_and_changes_only_hidden_cards():
    play = random_playout(GAME, 4, 77, keep_states=True)
    rand = random.Random(1)
    changed = 0
    for state in play.states[::5]:
        other = GAME.ai.resample(state, 0, rand)
        assert other.cards.hands[0] == state.cards.hands[0]
        assert [up for _, up in other.cards.deck] == [up for _, up in state.cards.deck]
        assert [loc for loc, up in other.cards.deck if up] == [loc for loc, up in state.cards.deck if up]
        assert [sum(h) for h in other.cards.hands] == [sum(h) for h in state.cards.hands]
        changed += other != state
    assert changed


def test_resample_unrevealable_reshuffles_only_the_face_down_deck_cards():
    """Any hand card can be shown by one move of another seat (Azathoth, the round's last turn); the face-down
    deck cards cannot: they are the only thing the narrow resample moves, among their own places."""
    assert GAME.ai.resample_unrevealable is not None
    rand = random.Random(5)
    changed = 0
    for seed in range(3):
        play = random_playout(GAME, 2 + seed, 90 + seed, keep_states=True)
        for state in play.states[::3]:
            for seat in range(state.players):
                other = GAME.ai.resample_unrevealable(state, seat, rand)
                GAME.decider.invariant(other)
                assert other.cards.hands == state.cards.hands and other.cards.known == state.cards.known
                assert [(loc if up else None, up) for loc, up in other.cards.deck] == [
                    (loc if up else None, up) for loc, up in state.cards.deck
                ]
                assert sorted(loc for loc, up in other.cards.deck if not up) == sorted(
                    loc for loc, up in state.cards.deck if not up
                )
                assert replace(other, cards=state.cards) == state
                changed += other != state
    assert changed


def refusal(state, command, seat, entropy):
    try:
        decide_posted(GAME, state, json.loads(canonical(command)), seat, entropy)
    except RuleViolation as exc:
        return canonical([exc.code, str(exc.message), exc.details])
    except MalformedCommand as exc:
        return canonical(["malformed", exc.message, exc.details])
    return "accepted"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_refusals_say_the_same_whatever_the_seat_cannot_know(players):
    """Every refusal (code, message, details) a seat gets is the same in every world consistent with what it
    knows: no RuleViolation names another hand, a face-down card or the cards a power is about to move."""
    rand = random.Random(players * 7)
    for seed in range(3):
        play = random_playout(GAME, players, 4000 + seed, keep_states=True)
        for index, state in enumerate(play.states[::5]):
            if GAME.decider.outcome(state) is not None:
                continue
            entropy = entropy_for(b"r", index)
            for seat in sorted(GAME.decider.to_act(state)):
                other = GAME.ai.resample(state, seat, rand)
                for command in candidate_commands(state):
                    here, there = refusal(state, command, seat, entropy), refusal(other, command, seat, entropy)
                    assert here == there, (seat, command, here, there)
