"""Arkham Ritual over seeded random playouts: the kernel's properties, plus the game's own hidden-information ones.

Non-interference here is "whatever a seat's own card is (or the passed card it did not draw), its view, its legal
commands and its redaction of every event stay byte-identical", checked two ways: the full ``resample`` at every
position (view, legal commands, who acts), and twin games whose deals differ only in one hidden card, played with
the same commands until the rules themselves reveal that card.
"""

from __future__ import annotations

import json
import random

import pytest

from shared.kernel import entropy_for, fold, redact
from shared.games.arkham_ritual import GAME, views
from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.state import Drawing, Offered
from tests.support.budgets import arkham_options, kernel_runs
from tests.support.properties import canonical, check_game_properties, random_playout

# Every option in turn: alternates, each Great Old One, the Doom Track, the competitive variant.
options_for = arkham_options


# The kernel's one-move non-interference check runs against GAME.ai.resample_unrevealable (rulings: "Non-interference"),
# at every player count with every option in turn.
@pytest.mark.parametrize("players, seed, every, options", kernel_runs(GAME))
def test_kernel_properties_hold_for_every_player_count_and_option(players, seed, every, options):
    """The kernel's properties over this game's line of tests/support/budgets.py."""
    check_game_properties(GAME, players, seed, options, every=every)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_full_resample_keeps_view_legal_commands_and_turn(players):
    """Re-dealing the own card, the passed card and the Deck changes nothing a seat sees or may do."""
    varied = 0
    for seed in range(8):
        play = random_playout(GAME, players, 100 + seed, options_for(seed), keep_states=True)
        rnd = random.Random(seed)
        for state in play.states[::2]:
            if GAME.decider.outcome(state) is not None:
                continue
            for seat in range(players):
                other = GAME.ai.resample(state, seat, rnd)
                GAME.decider.invariant(other)
                assert canonical(GAME.decider.view(state, seat)) == canonical(GAME.decider.view(other, seat))
                assert GAME.decider.legal_commands(state, seat) == GAME.decider.legal_commands(other, seat)
                assert GAME.decider.to_act(state) == GAME.decider.to_act(other)
                # what the seat can see is untouched
                for s in range(players):
                    if s != seat:
                        assert other.round.hands[s] == state.round.hands[s]
                assert other.round.dummies == state.round.dummies
                assert other.round.discards == state.round.discards
                varied += other.round.hands[seat] != state.round.hands[seat]
    assert varied > 50, "the resample really re-deals the seat's own card"


@pytest.mark.parametrize("players", [3, 5, 7])
def test_resample_draws_from_what_the_seat_knows_only(players):
    """Two worlds that differ only in the seat's own card resample alike for the same random stream (the
    resample draws from the seat's knowledge, not from where the hidden cards really are), and every world it
    draws keeps the colour the Shining Trapezohedron showed and the Gate's clearing."""
    compared = constrained = 0
    for seed in range(6):
        play = random_playout(GAME, players, 300 + seed, options_for(seed), keep_states=True)
        for state in play.states[::3]:
            r = state.round
            if GAME.decider.outcome(state) is not None or not r.deck:
                continue
            for seat in range(players):
                own, bottom = r.hands[seat], r.deck[-1]
                if {(own, seat), (bottom, seat)} & r.known or {own, bottom} & (r.shown_colour | r.cleared):
                    continue
                if C.is_great_old_one(own) != C.is_great_old_one(bottom):
                    continue
                twin = views.relabel(state, {own: bottom, bottom: own})
                assert GAME.ai.resample(state, seat, random.Random(seed)) == GAME.ai.resample(twin, seat, random.Random(seed))
                compared += 1
                world = GAME.ai.resample(state, seat, random.Random(seed + 1)).round
                places = [*zip(r.hands, world.hands), *zip(r.deck, world.deck)]
                for real, drawn in places:
                    if real in r.shown_colour:
                        assert C.is_sane(real) == C.is_sane(drawn) and drawn in world.shown_colour
                        constrained += 1
                    if real in r.cleared:
                        assert not C.is_great_old_one(drawn) and drawn in world.cleared
                        constrained += 1
    assert compared > 50 and constrained > 10


def _swap_in_events(events, a, b):
    """The same deal with cards ``a`` and ``b`` exchanged."""
    out = []
    for e in events:
        raw = json.loads(canonical(e.to_json()))
        data = raw["data"]
        if e.type not in ("hand_dealt", "deck_formed"):
            out.append(e)
            continue
        for name in ("card", "cards"):
            if name in data:
                if isinstance(data[name], list):
                    data[name] = [b if c == a else a if c == b else c for c in data[name]]
                elif data[name] in (a, b):
                    data[name] = b if data[name] == a else a
        out.append(type(e).from_json(raw))
    return out


def _redacted(events, seat):
    return [canonical([e.type, redact(e, seat)]) for e in events]


def _twin_compare(state_a, state_b, seat, chooser, seed, stop):
    """Play the same random commands in both worlds; ``seat`` must see the same until ``stop`` says the card shows."""
    steps = 0
    for version in range(1, 400):
        assert canonical(GAME.decider.view(state_a, seat)) == canonical(GAME.decider.view(state_b, seat))
        assert GAME.decider.to_act(state_a) == GAME.decider.to_act(state_b)
        for s in range(state_a.players):
            if s == seat:
                assert GAME.decider.legal_commands(state_a, s) == GAME.decider.legal_commands(state_b, s)
        if GAME.decider.outcome(state_a) is not None:
            return steps
        actor = chooser.choice(sorted(GAME.decider.to_act(state_a)))
        legal = GAME.decider.legal_commands(state_a, actor)
        command = chooser.choice(legal)
        if stop(state_a, actor, command):
            return steps
        entropy = entropy_for(seed.to_bytes(8, "big"), version)
        events_a, after_a = GAME.checked_decide(state_a, command, actor, entropy)
        events_b, after_b = GAME.checked_decide(state_b, command, actor, entropy)
        ended = next((i for i, e in enumerate(events_a) if e.type == "round_ended"), None)
        # the round's end reveals every card (section 7): compare everything before it
        assert _redacted(events_a[:ended], seat) == _redacted(events_b[:ended], seat), (seat, actor, command)
        if ended is not None:
            return steps + 1
        state_a, state_b = after_a, after_b
        steps += 1
    return steps


@pytest.mark.parametrize("players", range(3, 8))
def test_a_seats_view_commands_and_events_are_identical_whatever_its_own_card_is(players):
    """Twin deals differing only in the seat's own card: identical for that seat until it discards the card."""
    compared = 0
    for seed in range(10):
        resolved, events = GAME.start(players, options_for(seed), entropy_for(seed.to_bytes(8, "big"), 0))
        state = fold(GAME, events)
        deck = state.round.deck
        for seat in range(players):
            own = state.round.hands[seat]
            partner = next(c for c in reversed(deck) if not C.is_great_old_one(c))
            if C.is_great_old_one(own):
                continue  # a Gate would legitimately show it
            depth = len(deck) - deck.index(partner)
            twin_events = _swap_in_events(events, own, partner)
            assert _redacted(events, seat) == _redacted(twin_events, seat), "the deal shows a seat its own card"
            twin = fold(GAME, twin_events)
            assert twin.round.hands[seat] == partner

            def stop(st, actor, command, seat=seat, depth=depth):
                # the seat discarding its card shows it; the partner reaching the top may be seen or coloured
                return (actor == seat and command.type == "take_card") or len(st.round.deck) <= depth

            compared += _twin_compare(state, twin, seat, random.Random(seed * 31 + seat), seed, stop)
    assert compared > 100


@pytest.mark.parametrize("players", [3, 4, 6, 7])
def test_the_card_being_passed_is_seen_only_by_the_active_player(players):
    """Twin positions differing only in the top card: nobody but the drawer learns it until it is taken or dropped."""
    compared = 0
    for seed in range(12):
        play = random_playout(GAME, players, 500 + seed, options_for(seed), keep_states=True)
        for state in play.states:
            r = state.round
            if not isinstance(state.phase, Drawing) or r.number != 1 or len(r.deck) < 3:
                continue
            card, partner = r.deck[0], r.deck[-1]
            if any(C.is_great_old_one(c) or c in r.shown_colour for c in (card, partner)):
                continue
            twin = views.relabel(state, {card: partner, partner: card})
            for seat in range(players):
                if seat == r.active or {(card, seat), (partner, seat)} & r.known:
                    continue

                def stop(st, actor, command):
                    # taking the card shows it to the taker's neighbours; dropping it shows it to all
                    if isinstance(st.phase, Offered) and (
                        command.type == "take_card" or command.to_wire() == {"type": "pass_card", "to": None}
                    ):
                        return True
                    return len(st.round.deck) <= 1

                compared += _twin_compare(state, twin, seat, random.Random(seed + seat), seed, stop)
            break
    assert compared > 20


def test_the_taker_never_learns_the_card_it_took():
    """6-2-1: the taker's redaction of its own take hides the card; everyone else sees it."""
    play = random_playout(GAME, 5, 7, {})
    takes = [e for e in play.events if e.type == "card_taken"]
    assert takes
    for e in takes:
        assert "card" not in redact(e, e.data["seat"])
        for s in range(5):
            if s != e.data["seat"]:
                assert redact(e, s)["card"] == e.data["card"]
        assert "card" not in redact(e, None)


def test_random_games_end_well_within_the_command_limit():
    longest = 0
    for players in range(3, 8):
        for seed in range(20):
            play = random_playout(GAME, players, 900 + seed, options_for(seed))
            longest = max(longest, len(play.commands))
            assert GAME.decider.outcome(play.state) is not None
    assert longest < 1000
