"""Pocket Madness rulebook scenarios: one test per rule or ruling (docs/rulings/pocket-madness.md)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from shared.games.pocket_madness import GAME
from shared.games.pocket_madness.cards import FULL_DECK
from shared.games.pocket_madness.state import Designating, Playing, hand_cards
from shared.kernel import EVERYONE, ev, fold, redact
from tests.support.scenario import ENTROPY, after_moves, given_state, offered
from tests.support.resignation import resigned_and_played_out

R, ARKHAM, LOMAR, INNS, VALLEY, DUNWICH, UNDER = 6, 7, 8, 9, 10, 11, 12
CTHULHU, AZATHOTH, SHUB, DAGON, NYARL, SHOGGOTH, GUG = 6, 7, 8, 9, 10, 11, 12
RUN = [R, ARKHAM, LOMAR, INNS, VALLEY, DUNWICH, UNDER]


# -- positions ----------------------------------------------------------------------------------------


def down(location):
    """A face-down card of the splayed deck."""
    return ("down", location)


def dealt(hands, deck=(), round_no=1, chooser=None):
    players = len(hands)
    return ev(
        "round_dealt",
        round=round_no,
        players=players,
        chooser=chooser,
        deck=[None if isinstance(c, tuple) else c for c in deck],
        face_down=[c[1] for c in deck if isinstance(c, tuple)],
        **{f"hand_{s}": sorted(h) for s, h in enumerate(hands)},
        secret={"face_down": [], **{f"hand_{s}": [s] for s in range(players)}},
    )


def table(hands, deck=(VALLEY, DUNWICH, UNDER, LOMAR, INNS, VALLEY), first=0, portals=None, madness=None):
    """A position at the start of ``first``'s turn: given hands, deck (top first) and portals in front of players."""
    events = [dealt(hands, deck), ev("first_player_chosen", seat=first, chooser=None)]
    for portal, seat in (portals or {}).items():
        events.append(ev("portal_claimed", seat=seat, portal=portal, previous_owner=None))
    events.append(ev("turn_started", seat=first, extra=False))
    state = fold(GAME, events)
    if madness is not None:
        state = replace(state, madness=tuple(madness))
    return state


def when(state, seat, command, entropy=ENTROPY):
    return given_state(GAME, state).when(seat, command, entropy)


def hand(state, seat):
    return hand_cards(state.cards.hands[seat])


def legal(state, seat):
    return offered(GAME, state, seat)


DRAW1 = {"type": "draw_cards", "count": 1}
END = {"type": "end_turn"}


def seal(portal):
    return {"type": "seal_portal", "portal": portal}


def meld_set(location, count=3):
    return {"type": "meld_set", "location": location, "count": count}


MELD_RUN = {"type": "meld_run"}


# -- facts -----------------------------------------------------------------------------------------------


def drawn(seat, revealed=(), face_down=()):
    return ev("cards_drawn", seat=seat, count=len(revealed) + len(face_down), revealed=list(revealed),
              face_down=list(face_down), secret={"face_down": [seat]})


def turn_passes(seat, to, extra=False):
    """``seat``'s turn ends and ``to``'s begins (``extra``: a Dagon turn)."""
    return ev("turn_ended", seat=seat), ev("turn_started", seat=to, extra=extra)


def set_melded(seat, location, count=3):
    return ev("set_melded", seat=seat, location=location, count=count)


def claimed(seat, portal, previous_owner=None):
    return ev("portal_claimed", seat=seat, portal=portal, previous_owner=previous_owner)


def sealed(seat, portal):
    return ev("portal_sealed", seat=seat, portal=portal)


def run_melded(seat, number, madness):
    return ev("run_melded", seat=seat, number=number, madness=madness)


def resolved(seat, portal):
    return ev("power_resolved", seat=seat, portal=portal)


def given_card(seat, to, location):
    return ev("card_given", seat=seat, to=to, location=location, secret={"location": [seat, to]})


def round_ended(reason, seat, gained, hands=None):
    """The round's end: why, who emptied her hand (None: the deck ran out), the Madness each seat gained, and the
    hands laid down when the deck ran out."""
    return ev("round_ended", reason=reason, seat=seat, gained=list(gained), **({} if hands is None else {"hands": hands}))


def madness(state):
    """Each seat's Madness as every view shows it."""
    return GAME.decider.view(state, None)["madness"]


# -- setup ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_two_cards_each_and_splays_the_rest_with_17_face_down(players):
    state = fold(GAME, GAME.decider.setup(players, {}, bytes(32)))
    assert isinstance(state.phase, Playing)
    assert [sum(h) for h in state.cards.hands] == [2] * players
    assert len(state.cards.deck) == 63 - 2 * players
    assert sum(1 for _, up in state.cards.deck if not up) == 17
    assert all(owner is None for owner in state.cards.portals)
    assert state.madness == (0,) * players
    GAME.decider.invariant(state)


def test_the_face_down_cards_are_secret_to_everyone_and_each_hand_to_its_owner():
    events = GAME.decider.setup(3, {}, bytes(32))
    dealt_event = events[0]
    for viewer in (0, 1, 2, None):
        seen = redact(dealt_event, viewer)
        assert "face_down" not in seen
        assert [k for k in seen if k.startswith("hand_")] == ([] if viewer is None else [f"hand_{viewer}"])
        assert len(seen["deck"]) == 57 and seen["deck"].count(None) == 17
    assert len(redact(dealt_event, EVERYONE)["face_down"]) == 17


def test_views_show_the_deck_order_and_face_up_cards_but_never_a_face_down_identity():
    state = table([[R, R], [LOMAR, INNS]], deck=[VALLEY, down(DUNWICH), UNDER])
    seen = GAME.decider.view(state, 0)
    assert seen["deck"] == [{"location": VALLEY, "face_up": True}, {"face_up": False}, {"location": UNDER, "face_up": True}]
    assert seen["hand"] == [R, R] and seen["hand_counts"] == [2, 2] and "hands" not in seen
    assert "hand" not in GAME.decider.view(state, None)
    assert GAME.decider.view(state, EVERYONE)["deck"][1] == {"location": DUNWICH, "face_up": False}


def test_the_first_player_of_round_one_is_drawn_at_random_and_recorded_as_a_fact():
    firsts = set()
    for n in range(40):
        events = GAME.decider.setup(4, {}, n.to_bytes(32, "big"))
        assert events[-1].type == "first_player_chosen" and events[-1].data["chooser"] is None
        firsts.add(events[-1].data["seat"])
        assert fold(GAME, events).phase.turn.seat == events[-1].data["seat"]
    assert firsts == {0, 1, 2, 3}


# -- a/ Persevere in Your Investigations -----------------------------------------------------------------


def test_a_player_draws_one_to_three_cards_in_deck_order():
    state = table([[R, R], [R, R]], deck=[VALLEY, DUNWICH, UNDER, LOMAR])
    when(state, 0, {"type": "draw_cards", "count": 3}).then(drawn(0, [VALLEY, DUNWICH, UNDER]), *turn_passes(0, 1))
    when(after_moves(GAME, state, (0, {"type": "draw_cards", "count": 3})), 1, DRAW1).then(
        drawn(1, [LOMAR]), ev("deck_exhausted", last_turns=[0, 1]), *turn_passes(1, 0))
    assert [c["count"] for c in legal(state, 0) if c["type"] == "draw_cards"] == [1, 2, 3]


def test_a_drawn_face_down_card_is_seen_by_the_drawer_only():
    state = table([[R, R], [R, R]], deck=[VALLEY, down(DUNWICH), UNDER])
    drawn_event = when(state, 0, {"type": "draw_cards", "count": 2}).then(
        drawn(0, [VALLEY], [DUNWICH]), *turn_passes(0, 1)).events[0]
    assert redact(drawn_event, 0) == {"seat": 0, "count": 2, "revealed": [VALLEY], "face_down": [DUNWICH]}
    assert redact(drawn_event, 1) == {"seat": 0, "count": 2, "revealed": [VALLEY]}


def test_a_player_cannot_draw_more_cards_than_the_deck_holds():
    state = table([[R, R], [R, R]], deck=[VALLEY, DUNWICH])
    when(state, 0, {"type": "draw_cards", "count": 3}).refused("rules/not_enough_cards_in_deck")
    assert [c["count"] for c in legal(state, 0) if c["type"] == "draw_cards"] == [1, 2]


def test_a_player_takes_only_one_obligatory_action_per_turn():
    state = table([[R, R, R], [R, R]], portals={AZATHOTH: 0})
    when(state, 0, DRAW1).then(drawn(0, [VALLEY]))
    after = after_moves(GAME, state, (0, DRAW1))
    when(after, 0, meld_set(R)).refused("rules/action_already_taken")
    when(after, 0, DRAW1).refused("rules/action_already_taken")


def test_a_turn_cannot_end_before_its_action_while_the_deck_holds_cards():
    state = table([[R, R], [R, R]])
    when(state, 0, END).refused("rules/action_required")


def test_the_turn_ends_by_itself_when_nothing_is_left_to_do():
    state = table([[R, R], [LOMAR, LOMAR]])
    when(state, 0, DRAW1).then(drawn(0, [VALLEY]), *turn_passes(0, 1))


# -- b/ Open a Portal ----------------------------------------------------------------------------------


def test_melding_a_set_claims_the_matching_portal_from_the_pool():
    state = table([[DUNWICH] * 3 + [R], [R, R]])
    when(state, 0, meld_set(DUNWICH)).then(set_melded(0, DUNWICH), claimed(0, SHOGGOTH))
    after = after_moves(GAME, state, (0, meld_set(DUNWICH)))
    assert GAME.decider.view(after, 1)["portals"][SHOGGOTH - 6]["owner"] == 0
    assert GAME.decider.view(after, 1)["melds"][0] == [{"kind": "set", "location": DUNWICH, "count": 3}]


def test_melding_a_set_claims_the_portal_from_an_opponent():
    state = table([[LOMAR] * 4 + [R], [R, R]], portals={SHUB: 1})
    when(state, 0, meld_set(LOMAR, 4)).then(set_melded(0, LOMAR, 4), claimed(0, SHUB, previous_owner=1))
    assert GAME.decider.view(after_moves(GAME, state, (0, meld_set(LOMAR, 4))), 1)["portals"][SHUB - 6]["owner"] == 0


def test_melding_a_set_of_a_portal_already_held_claims_nothing():
    state = table([[LOMAR] * 3 + [R], [R, R]], portals={SHUB: 0})
    when(state, 0, meld_set(LOMAR)).then(set_melded(0, LOMAR))


def test_a_set_needs_three_or_more_identical_cards_from_the_hand():
    state = table([[LOMAR, LOMAR, R], [R, R]])
    when(state, 0, meld_set(LOMAR)).refused("rules/not_enough_cards")
    assert not [c for c in legal(state, 0) if c["type"] == "meld_set"]


def test_a_player_may_meld_up_to_three_sets_in_one_turn_one_per_command():
    state = table([[R] * 3 + [ARKHAM] * 3 + [LOMAR] * 3 + [INNS] * 4, [R, R]])
    after = after_moves(GAME, state, (0, meld_set(R)))
    when(after, 0, meld_set(ARKHAM)).then(set_melded(0, ARKHAM), claimed(0, AZATHOTH))  # the turn goes on
    after = after_moves(GAME, after, (0, meld_set(ARKHAM)))
    assert {c["type"] for c in legal(after, 0)} >= {"meld_set", "end_turn", "seal_portal"}
    when(after, 0, meld_set(LOMAR)).then(set_melded(0, LOMAR), claimed(0, SHUB))
    after = after_moves(GAME, after, (0, meld_set(LOMAR)))
    # Three portals claimed this turn: Cthulhu, Azathoth and Shub-Niggurath may still be sealed.
    assert GAME.decider.to_act(after) == {0} and not [c for c in legal(after, 0) if c["type"] == "meld_set"]
    when(after, 0, meld_set(INNS)).refused("rules/three_melds_per_turn")


def test_sets_and_runs_cannot_be_mixed_in_one_turn():
    state = table([RUN + [R, R, R], [LOMAR, LOMAR]])
    after = after_moves(GAME, state, (0, meld_set(R)))
    when(after, 0, MELD_RUN).refused("rules/cannot_mix_sets_and_runs")
    after = after_moves(GAME, state, (0, MELD_RUN))
    when(after, 0, meld_set(R)).refused("rules/cannot_mix_sets_and_runs")


def test_melding_ends_with_end_turn_and_the_next_player_follows_clockwise():
    state = table([[R] * 3 + [LOMAR], [R, R], [ARKHAM, ARKHAM]])
    when(after_moves(GAME, state, (0, meld_set(R))), 0, END).then(*turn_passes(0, 1))
    after = after_moves(GAME, state, (0, meld_set(R)), (0, END))
    assert DRAW1 in legal(after, 1)  # a new turn: its action still to take


def test_cards_of_a_location_are_identical_so_melds_name_locations_not_cards():
    state = table([RUN + RUN + [R, R], [LOMAR, LOMAR]])
    commands = legal(state, 0)
    assert commands.count(MELD_RUN) == 1
    assert [c for c in commands if c["type"] == "meld_set"] == [meld_set(R, 3), meld_set(R, 4)]


# -- c/ Publish Your Research ----------------------------------------------------------------------------


def test_a_run_is_seven_different_locations_and_gives_each_opponent_one_madness():
    state = table([RUN + [R], [LOMAR, LOMAR], [INNS, INNS]])
    when(state, 0, MELD_RUN).then(run_melded(0, 1, 1))
    after = after_moves(GAME, state, (0, MELD_RUN))
    assert hand(after, 0) == [R] and madness(after) == [0, 1, 1]
    short = table([RUN[:-1] + [R], [LOMAR, LOMAR]])
    when(short, 0, MELD_RUN).refused("rules/run_needs_seven_different")


def test_each_run_in_a_round_gives_one_more_madness_than_the_previous_whoever_melds_it():
    state = table([RUN + RUN + [R], RUN + [LOMAR], [INNS, INNS]])
    when(after_moves(GAME, state, (0, MELD_RUN)), 0, MELD_RUN).then(run_melded(0, 2, 2))
    after = after_moves(GAME, state, (0, MELD_RUN), (0, MELD_RUN))
    assert madness(after) == [0, 3, 3]
    when(after_moves(GAME, after, (0, END)), 1, MELD_RUN).then(run_melded(1, 3, 3))
    after = after_moves(GAME, after, (0, END), (1, MELD_RUN))
    assert madness(after) == [3, 3, 6]
    assert GAME.decider.view(after, 2)["next_run_madness"] == 4


def test_a_player_may_meld_up_to_three_runs_in_one_turn():
    state = table([RUN * 4 + [R], [LOMAR, LOMAR]])
    after = after_moves(GAME, state, (0, MELD_RUN), (0, MELD_RUN))
    # The third run: nothing left to do, so the turn ends by itself.
    when(after, 0, MELD_RUN).then(run_melded(0, 3, 3), *turn_passes(0, 1))
    assert madness(after_moves(GAME, after, (0, MELD_RUN))) == [0, 6]


# -- Seal a Portal ---------------------------------------------------------------------------------------


def test_a_player_may_seal_only_one_portal_per_turn():
    state = table([[R, R, LOMAR], [INNS, INNS]], portals={AZATHOTH: 0, DAGON: 0})
    when(state, 0, seal(DAGON)).then(sealed(0, DAGON))
    after = after_moves(GAME, state, (0, seal(DAGON)))
    when(after, 0, seal(AZATHOTH)).refused("rules/one_seal_per_turn")
    assert not [c for c in legal(after, 0) if c["type"] == "seal_portal"]


def test_a_portal_may_be_sealed_before_the_action_and_the_action_follows():
    state = table([[R, R], [INNS, INNS]], portals={AZATHOTH: 0})
    when(state, 0, seal(AZATHOTH)).then(sealed(0, AZATHOTH), ev("card_discarded", seat=1, card=INNS))
    after = after_moves(GAME, state, (0, seal(AZATHOTH)))
    assert GAME.decider.view(after, 1)["portals"][AZATHOTH - 6]["owner"] is None  # back in the pool
    when(after, 0, DRAW1).then(drawn(0, [VALLEY]), *turn_passes(0, 1))


def test_a_portal_just_claimed_may_be_sealed_after_the_action():
    state = table([[DUNWICH] * 3 + [R], [INNS, INNS]])
    after = after_moves(GAME, state, (0, meld_set(DUNWICH)))
    assert seal(SHOGGOTH) in legal(after, 0)
    when(after, 0, seal(SHOGGOTH)).then(sealed(0, SHOGGOTH), *turn_passes(0, 1))
    assert GAME.decider.view(after_moves(GAME, after, (0, seal(SHOGGOTH))), 1)["bound_by_shoggoth"]


def test_sealing_a_portal_after_melding_ends_the_melding():
    state = table([[R] * 3 + [LOMAR] * 3 + [INNS], [INNS, INNS]], portals={DAGON: 0})
    # The seal closed the action: Dagon's extra turn starts at once.
    when(after_moves(GAME, state, (0, meld_set(R))), 0, seal(DAGON)).then(sealed(0, DAGON), *turn_passes(0, 0, extra=True))
    assert DRAW1 in legal(after_moves(GAME, state, (0, meld_set(R)), (0, seal(DAGON))), 0)


def test_melding_may_continue_after_a_portal_sealed_before_it():
    state = table([[R] * 3 + [LOMAR] * 3 + [INNS], [INNS, INNS]], portals={DAGON: 0})
    after = after_moves(GAME, state, (0, seal(DAGON)), (0, meld_set(R)))
    assert meld_set(LOMAR) in legal(after, 0)


def test_a_player_cannot_seal_a_portal_that_is_not_in_front_of_her():
    state = table([[R, R], [INNS, INNS]], portals={AZATHOTH: 1})
    when(state, 0, seal(AZATHOTH)).refused("rules/portal_not_yours")
    when(state, 0, seal(DAGON)).refused("rules/portal_not_yours")


# -- Portal powers ---------------------------------------------------------------------------------------


def test_gug_passes_the_turn_instead_of_the_action():
    state = table([[R, R], [INNS, INNS]], portals={GUG: 0})
    when(state, 0, seal(GUG)).then(sealed(0, GUG), ev("turn_passed", seat=0), *turn_passes(0, 1))
    after = after_moves(GAME, state, (0, seal(GUG)))
    assert hand(after, 0) == [R, R] and GAME.decider.view(after, 1)["portals"][GUG - 6]["owner"] is None


def test_gug_cannot_be_sealed_on_the_turn_it_was_claimed():
    state = table([[UNDER] * 3 + [R], [INNS, INNS]], portals={DAGON: 0})
    when(state, 0, meld_set(UNDER)).then(set_melded(0, UNDER), claimed(0, GUG))
    after = after_moves(GAME, state, (0, meld_set(UNDER)))
    assert seal(GUG) not in legal(after, 0)
    when(after, 0, seal(GUG)).refused("rules/gug_not_on_the_turn_claimed")


def test_gug_cannot_be_played_on_the_dagon_turn_immediately_after_it_was_claimed():
    # "This Portal card cannot be played immediately after having been drawn": Dagon's extra turn follows at once.
    state = table([[UNDER] * 3 + [R, R], [INNS, INNS]], portals={DAGON: 0})
    before = after_moves(GAME, state, (0, seal(DAGON)), (0, meld_set(UNDER)))
    when(before, 0, END).then(*turn_passes(0, 0, extra=True))
    after = after_moves(GAME, before, (0, END))
    assert GAME.decider.view(after, 1)["portals"][GUG - 6]["owner"] == 0
    assert seal(GUG) not in legal(after, 0)
    when(after, 0, seal(GUG)).refused("rules/gug_not_on_the_turn_claimed")
    assert GAME.decider.view(after, 1)["turn"]["gug_claimed_before"]
    # After the opponent's turn, Gug may pass the turn.
    after = after_moves(GAME, after, (0, DRAW1), (1, DRAW1))
    assert GAME.decider.to_act(after) == {0} and seal(GUG) in legal(after, 0)


def test_gug_claimed_before_an_unrelated_dagon_turn_may_pass_that_turn():
    state = table([[R] * 3 + [LOMAR], [INNS, INNS]], portals={DAGON: 0, GUG: 0})
    when(after_moves(GAME, state, (0, meld_set(R))), 0, seal(DAGON)).then(sealed(0, DAGON), *turn_passes(0, 0, extra=True))
    after = after_moves(GAME, state, (0, meld_set(R)), (0, seal(DAGON)))
    assert seal(GUG) in legal(after, 0)


def test_gug_cannot_be_sealed_after_the_action():
    state = table([[R, R], [INNS, INNS]], portals={GUG: 0, AZATHOTH: 0})
    after = after_moves(GAME, state, (0, DRAW1))
    when(after, 0, seal(GUG)).refused("rules/gug_replaces_the_action")


def test_under_shoggoth_opponents_must_draw_exactly_one_card_for_their_action():
    state = table([[R, R], [LOMAR] * 3 + [INNS] * 7 + RUN, [ARKHAM] * 2], portals={SHOGGOTH: 0, AZATHOTH: 1})
    after = after_moves(GAME, state, (0, seal(SHOGGOTH)))
    when(after, 0, DRAW1).then(drawn(0, [VALLEY]), *turn_passes(0, 1))
    after = after_moves(GAME, after, (0, DRAW1))
    assert legal(after, 1) == [DRAW1, seal(AZATHOTH)]
    when(after, 1, meld_set(LOMAR)).refused("rules/must_draw_one_under_shoggoth")
    when(after, 1, MELD_RUN).refused("rules/must_draw_one_under_shoggoth")
    when(after, 1, {"type": "draw_cards", "count": 2}).refused("rules/must_draw_one_under_shoggoth")
    when(after, 1, DRAW1).then(drawn(1, [DUNWICH]))  # the turn goes on: Azathoth may still be sealed
    after = after_moves(GAME, after, (1, DRAW1))
    assert legal(after, 1) == [seal(AZATHOTH), END]
    assert legal(after_moves(GAME, after, (1, END)), 2) == [DRAW1]


def test_shoggoth_ends_at_the_start_of_its_sealers_next_turn():
    state = table([[R, R], [LOMAR] * 3], portals={SHOGGOTH: 0})
    after = after_moves(GAME, state, (0, seal(SHOGGOTH)), (0, DRAW1))
    when(after, 1, DRAW1).then(drawn(1, [DUNWICH]), *turn_passes(1, 0))
    after = after_moves(GAME, after, (1, DRAW1))
    assert not GAME.decider.view(after, 1)["bound_by_shoggoth"]
    after = after_moves(GAME, after, (0, DRAW1))
    assert meld_set(LOMAR) in legal(after, 1)


def test_shoggoth_does_not_let_gug_dodge_the_draw():
    state = table([[R, R], [LOMAR, LOMAR]], portals={SHOGGOTH: 0, GUG: 1})
    after = after_moves(GAME, state, (0, seal(SHOGGOTH)), (0, DRAW1))
    when(after, 1, seal(GUG)).refused("rules/must_draw_one_under_shoggoth")


def test_shoggoth_has_no_effect_once_the_deck_is_empty():
    state = table([[R, R], [LOMAR] * 3], deck=[VALLEY, INNS], portals={SHOGGOTH: 0})
    after = after_moves(GAME, state, (0, seal(SHOGGOTH)), (0, DRAW1))
    # Seat 1 takes the last card: seat 0 then seat 1 take their last turns; Shoggoth had ended at seat 0's turn.
    when(after, 1, DRAW1).then(drawn(1, [INNS]), ev("deck_exhausted", last_turns=[0, 1]), *turn_passes(1, 0))
    after = after_moves(GAME, after, (1, DRAW1), (0, END))
    assert meld_set(LOMAR) in legal(after, 1)
    bound = replace(after, phase=replace(after.phase, shoggoth=0))
    assert meld_set(LOMAR) in legal(bound, 1) and seal(SHOGGOTH) not in legal(bound, 1)


def test_nyarlathotep_takes_any_card_of_the_deck_even_a_face_down_one_seen_by_the_taker_only():
    state = table([[R, R], [INNS, INNS]], deck=[VALLEY, down(DUNWICH), UNDER], portals={NYARL: 0})
    after = after_moves(GAME, state, (0, seal(NYARL)))
    assert legal(after, 0) == [{"type": "take_deck_card", "position": i} for i in range(3)]
    when(after, 0, DRAW1).refused("rules/finish_the_portal_power")
    taken = when(after, 0, {"type": "take_deck_card", "position": 1}).then(
        ev("deck_card_taken", seat=0, position=1, face_up=False, card=DUNWICH, secret={"card": [0]}),
        resolved(0, NYARL),  # sealed before the action: the action follows, in the same turn
    ).events[0]
    assert redact(taken, 0)["card"] == DUNWICH and "card" not in redact(taken, 1)
    after = after_moves(GAME, after, (0, {"type": "take_deck_card", "position": 1}))
    assert hand(after, 0) == [R, R, DUNWICH]
    when(after, 0, {"type": "draw_cards", "count": 2}).then(drawn(0, [VALLEY, UNDER]), ev("deck_exhausted", last_turns=[1, 0]),
                                                            *turn_passes(0, 1))


def test_nyarlathotep_taking_the_last_card_empties_the_deck():
    state = table([[R, R], [INNS, INNS]], deck=[VALLEY], portals={NYARL: 0})
    when(after_moves(GAME, state, (0, seal(NYARL))), 0, {"type": "take_deck_card", "position": 0}).then(
        ev("deck_card_taken", seat=0, position=0, face_up=True, card=VALLEY),
        resolved(0, NYARL),
        ev("deck_exhausted", last_turns=[1, 0]),
    )
    after = after_moves(GAME, state, (0, seal(NYARL)), (0, {"type": "take_deck_card", "position": 0}))
    assert END in legal(after, 0)


def test_dagon_gives_another_complete_turn():
    state = table([[R] * 3 + [LOMAR], [INNS, INNS]], portals={DAGON: 0})
    when(after_moves(GAME, state, (0, DRAW1)), 0, seal(DAGON)).then(sealed(0, DAGON), *turn_passes(0, 0, extra=True))
    after = after_moves(GAME, state, (0, DRAW1), (0, seal(DAGON)))
    assert DRAW1 in legal(after, 0) and not [c for c in legal(after, 0) if c["type"] == "seal_portal"]
    when(after_moves(GAME, after, (0, meld_set(R))), 0, END).then(*turn_passes(0, 1))


def test_dagon_sealed_before_the_action_gives_the_extra_turn_after_this_one():
    state = table([[R, R], [INNS, INNS]], portals={DAGON: 0})
    when(state, 0, seal(DAGON)).then(sealed(0, DAGON))
    after = after_moves(GAME, state, (0, seal(DAGON)))
    assert DRAW1 in legal(after, 0)
    when(after, 0, DRAW1).then(drawn(0, [VALLEY]), *turn_passes(0, 0, extra=True))


def test_shub_niggurath_looks_at_an_opponents_hand_then_takes_one_card():
    state = table([[R, R], [INNS, LOMAR, LOMAR], [ARKHAM]], portals={SHUB: 0})
    after = after_moves(GAME, state, (0, seal(SHUB)))
    assert legal(after, 0) == [{"type": "look_at_hand", "seat": 1}, {"type": "look_at_hand", "seat": 2}]
    look = {"type": "look_at_hand", "seat": 1}
    shown = when(after, 0, look).then(
        ev("hand_looked_at", seat=0, target=1, cards=[LOMAR, LOMAR, INNS], secret={"cards": [0]})).events[0]
    assert redact(shown, 0)["cards"] == [LOMAR, LOMAR, INNS] and "cards" not in redact(shown, 2)
    after = after_moves(GAME, after, (0, look))
    assert GAME.decider.view(after, 0)["pending"]["target_hand"] == [LOMAR, LOMAR, INNS]
    assert "target_hand" not in GAME.decider.view(after, 1)["pending"] and "target_hand" not in GAME.decider.view(after, 2)["pending"]
    assert legal(after, 0) == [{"type": "take_card", "location": LOMAR}, {"type": "take_card", "location": INNS}]
    taken = when(after, 0, {"type": "take_card", "location": INNS}).then(
        ev("card_taken", seat=0, target=1, location=INNS, secret={"location": [0, 1]}), resolved(0, SHUB)).events[0]
    assert "location" not in redact(taken, 2) and redact(taken, 1)["location"] == INNS
    after = after_moves(GAME, after, (0, {"type": "take_card", "location": INNS}))
    assert hand(after, 0) == [R, R, INNS] and hand(after, 1) == [LOMAR, LOMAR]


def test_shub_niggurath_cannot_look_at_an_empty_hand():
    state = table([[R, R], [], [ARKHAM]], portals={SHUB: 0})
    after = after_moves(GAME, state, (0, seal(SHUB)))
    when(after, 0, {"type": "look_at_hand", "seat": 1}).refused("rules/opponent_has_no_cards")
    nobody = table([[R, R], []], portals={SHUB: 0})
    when(nobody, 0, seal(SHUB)).refused("rules/portal_has_no_effect")


def test_azathoth_discards_one_random_card_from_each_opponent_face_up():
    state = table([[R, R], [INNS, LOMAR], [ARKHAM, ARKHAM], [VALLEY]], portals={AZATHOTH: 0})
    # Face up before each player: every viewer sees the card, and nothing else (no index into the hand).
    discards = when(state, 0, seal(AZATHOTH)).then(
        sealed(0, AZATHOTH),
        ev("card_discarded", seat=1, card=INNS),  # one of Innsmouth and Lomar, by the entropy
        ev("card_discarded", seat=2, card=ARKHAM),
        ev("card_discarded", seat=3, card=VALLEY),
    ).events[1:]
    for e in discards:
        assert redact(e, None) == redact(e, e.data["seat"]) == e.data
    after = after_moves(GAME, state, (0, seal(AZATHOTH)))
    assert GAME.decider.view(after, None)["hand_counts"] == [2, 1, 1, 0]
    assert GAME.decider.view(after, 1)["discards"] == [[], [INNS], [ARKHAM], [VALLEY]]


def test_azathoth_discards_are_random():
    state = table([[R, R], RUN], portals={AZATHOTH: 0})
    seen = set()
    for n in range(30):
        events = when(state, 0, seal(AZATHOTH), n.to_bytes(32, "big")).events
        seen.add(next(e.data["card"] for e in events if e.type == "card_discarded"))
    assert len(seen) >= 5


def test_azathoth_cannot_be_sealed_when_no_opponent_holds_a_card():
    state = table([[R, R], [], []], portals={AZATHOTH: 0})
    assert seal(AZATHOTH) not in legal(state, 0)
    err = when(state, 0, seal(AZATHOTH)).refused("rules/portal_has_no_effect")
    assert "Azathoth" in err.message
    one = table([[R, R], [], [LOMAR]], portals={AZATHOTH: 0})
    when(one, 0, seal(AZATHOTH)).then(sealed(0, AZATHOTH), ev("card_discarded", seat=2, card=LOMAR))


def test_a_hand_emptied_by_an_opponent_does_not_end_the_round():
    state = table([[R, R], [INNS], [LOMAR, LOMAR]], portals={AZATHOTH: 0})
    when(state, 0, seal(AZATHOTH)).then(sealed(0, AZATHOTH), ev("card_discarded", seat=1, card=INNS),
                                        ev("card_discarded", seat=2, card=LOMAR))
    after = after_moves(GAME, state, (0, seal(AZATHOTH)))
    assert hand(after, 1) == []
    when(after, 0, DRAW1).then(drawn(0, [VALLEY]), *turn_passes(0, 1))
    assert legal(after_moves(GAME, after, (0, DRAW1)), 1)[0] == DRAW1


def give(location, seat):
    return {"type": "give_card", "location": location, "seat": seat}


def test_cthulhu_can_give_one_card_to_one_player():
    state = table([[R, R, LOMAR], [INNS, INNS], [ARKHAM]], portals={CTHULHU: 0})
    when(after_moves(GAME, state, (0, seal(CTHULHU))), 0, give(LOMAR, 2)).then(given_card(0, 2, LOMAR))
    after = after_moves(GAME, state, (0, seal(CTHULHU)), (0, give(LOMAR, 2)))
    assert {"type": "stop_giving"} in legal(after, 0)
    when(after, 0, {"type": "stop_giving"}).then(resolved(0, CTHULHU))
    after = after_moves(GAME, after, (0, {"type": "stop_giving"}))
    assert hand(after, 0) == [R, R] and hand(after, 2) == [ARKHAM, LOMAR] and GAME.decider.view(after, 0)["pending"] is None


def test_cthulhu_can_give_one_card_each_to_two_players():
    state = table([[R, R, LOMAR], [INNS, INNS], [ARKHAM]], portals={CTHULHU: 0})
    after = after_moves(GAME, state, (0, DRAW1), (0, seal(CTHULHU)), (0, give(LOMAR, 2)))
    # Two cards given: the power and the turn are over.
    when(after, 0, give(R, 1)).then(given_card(0, 1, R), resolved(0, CTHULHU), *turn_passes(0, 1))
    after = after_moves(GAME, after, (0, give(R, 1)))
    assert hand(after, 1) == [R, INNS, INNS] and hand(after, 2) == [ARKHAM, LOMAR]


def test_cthulhu_can_give_two_cards_to_one_player():
    state = table([[R, R, LOMAR], [INNS, INNS], [ARKHAM]], portals={CTHULHU: 0})
    after = after_moves(GAME, state, (0, seal(CTHULHU)), (0, give(R, 1)))
    # Sealed before the action: the power is over, the turn is not.
    when(after, 0, give(R, 1)).then(given_card(0, 1, R), resolved(0, CTHULHU))
    after = after_moves(GAME, after, (0, give(R, 1)))
    assert hand(after, 1) == [R, R, INNS, INNS] and DRAW1 in legal(after, 0)


def test_cthulhu_distributes_at_least_one_card_and_gifts_are_seen_by_giver_and_receiver_only():
    state = table([[R, R, LOMAR], [INNS, INNS], [ARKHAM]], portals={CTHULHU: 0})
    after = after_moves(GAME, state, (0, seal(CTHULHU)))
    assert {"type": "stop_giving"} not in legal(after, 0)
    when(after, 0, {"type": "stop_giving"}).refused("rules/give_at_least_one")
    when(after, 0, give(R, 0)).refused("rules/give_to_an_opponent")
    gift = when(after, 0, give(LOMAR, 1)).then(given_card(0, 1, LOMAR)).events[0]
    assert redact(gift, 1)["location"] == LOMAR and "location" not in redact(gift, 2)


def test_giving_away_the_last_card_with_cthulhu_ends_the_round():
    state = table([[R], [INNS, INNS]], portals={CTHULHU: 0}, madness=[4, 2])
    # Her hand emptied: half her Madness discarded, one to each opponent.
    when(after_moves(GAME, state, (0, seal(CTHULHU))), 0, give(R, 1)).then(
        given_card(0, 1, R), round_ended("hand_emptied", 0, [-2, 1]))
    after = after_moves(GAME, state, (0, seal(CTHULHU)), (0, give(R, 1)))
    assert GAME.decider.view(after, 0)["phase"] == "round_over" and madness(after) == [2, 3]


def test_portal_powers_that_cannot_take_effect_cannot_be_sealed():
    state = table([[], [INNS, INNS]], deck=[], portals={CTHULHU: 0, NYARL: 0, SHOGGOTH: 0, GUG: 0, DAGON: 0})
    state = replace(state, phase=replace(state.phase, last_turns=(1, 0)))
    assert [c["portal"] for c in legal(state, 0) if c["type"] == "seal_portal"] == [DAGON]


# -- end of the round ----------------------------------------------------------------------------------


def test_an_empty_deck_gives_each_player_one_last_turn_ending_with_the_player_who_took_the_last_card():
    state = table([[R, R], [INNS, INNS], [LOMAR, LOMAR]], deck=[VALLEY, DUNWICH], first=1)
    when(state, 1, {"type": "draw_cards", "count": 2}).then(
        drawn(1, [VALLEY, DUNWICH]), ev("deck_exhausted", last_turns=[2, 0, 1]), *turn_passes(1, 2))
    after = after_moves(GAME, state, (1, {"type": "draw_cards", "count": 2}))
    when(after, 2, END).then(*turn_passes(2, 0))
    after = after_moves(GAME, after, (2, END))
    when(after, 0, END).then(*turn_passes(0, 1))
    after = after_moves(GAME, after, (0, END))
    when(after, 1, END).then(ev("turn_ended", seat=1), round_ended("deck_exhausted", None, [1, 3, 1],
                                                                   hands=[[R, R], [INNS, INNS, VALLEY, DUNWICH], [LOMAR, LOMAR]]))


def test_last_turns_are_for_melding_only_and_may_end_without_a_meld():
    state = table([[R, R, R, LOMAR], [INNS, INNS]], deck=[VALLEY], first=1, portals={AZATHOTH: 0})
    when(state, 1, DRAW1).then(drawn(1, [VALLEY]), ev("deck_exhausted", last_turns=[0, 1]), *turn_passes(1, 0))
    after = after_moves(GAME, state, (1, DRAW1))
    commands = legal(after, 0)
    assert {c["type"] for c in commands} == {"meld_set", "seal_portal", "end_turn"}
    when(after, 0, DRAW1).refused("rules/deck_empty")
    when(after_moves(GAME, after, (0, meld_set(R))), 0, END).then(*turn_passes(0, 1))


def test_a_dagon_turn_during_the_last_turns_is_one_more_last_turn():
    state = table([[R, R, R, LOMAR], [INNS, INNS]], deck=[VALLEY], first=1, portals={DAGON: 0})
    after = after_moves(GAME, state, (1, DRAW1), (0, seal(DAGON)))
    when(after, 0, END).then(*turn_passes(0, 0, extra=True))
    after = after_moves(GAME, after, (0, END))
    assert GAME.decider.view(after, 1)["last_turns"] == [1]
    after = after_moves(GAME, after, (0, meld_set(R)), (0, END))
    when(after, 1, END).then(ev("turn_ended", seat=1), round_ended("deck_exhausted", None, [1, 2],
                                                                   hands=[[LOMAR], [INNS, INNS, VALLEY]]))


def test_at_the_end_of_the_deck_each_player_takes_one_madness_per_different_location_in_hand():
    state = table([[R, R, LOMAR], [INNS, INNS, ARKHAM, VALLEY], []], deck=[VALLEY], madness=[1, 0, 3])
    after = after_moves(GAME, state, (0, DRAW1), (1, END), (2, END))
    laid_down = [[R, R, LOMAR, VALLEY], [ARKHAM, INNS, INNS, VALLEY], []]
    # The hands are laid down: the event carries them and the Madness as public facts, for every viewer.
    events = when(after, 0, END).then(
        ev("turn_ended", seat=0), round_ended("deck_exhausted", None, [3, 3, 0], hands=laid_down)).events
    assert all(redact(events[-1], viewer) == events[-1].data for viewer in (0, 1, 2, None))
    after = after_moves(GAME, after, (0, END))
    assert madness(after) == [4, 3, 3]
    seen = GAME.decider.view(after, 2)
    assert seen["hands"] == laid_down
    assert seen["phase"] == "round_over"


def test_discarded_cards_do_not_count_at_the_end_of_the_round():
    state = table([[R, R], [INNS, INNS]], deck=[VALLEY], portals={AZATHOTH: 0}, madness=[0, 0])
    after = after_moves(GAME, state, (0, seal(AZATHOTH)), (0, DRAW1), (1, END))
    assert GAME.decider.view(after, 0)["discards"][1] == [INNS]
    when(after, 0, END).then(ev("turn_ended", seat=0), round_ended("deck_exhausted", None, [2, 1],
                                                                   hands=[[R, R, VALLEY], [INNS]]))


def test_a_player_who_plays_all_her_cards_ends_the_round_immediately():
    state = table([[R] * 3, [INNS, INNS], [LOMAR]], portals={DAGON: 0}, madness=[6, 2, 9])
    # She discards half her tokens rounded up (6 -> 3) and each opponent takes 1; no seal, no Dagon turn.
    when(state, 0, meld_set(R)).then(set_melded(0, R), claimed(0, CTHULHU), round_ended("hand_emptied", 0, [-3, 1, 1]))
    after = after_moves(GAME, state, (0, meld_set(R)))
    assert madness(after) == [3, 3, 10]
    assert "hands" not in GAME.decider.view(after, 1)


def test_a_player_who_plays_out_her_cards_during_the_last_turns_ends_the_round_at_once():
    # The deck is empty, but the round ends "immediately" the other way: halving and 1 token each, no scoring
    # of the hands left, and the players still owed a last turn lose it.
    state = table([[R, R, R], [INNS, INNS], [LOMAR, ARKHAM]], deck=[VALLEY], first=2, madness=[4, 1, 2])
    when(state, 2, DRAW1).then(drawn(2, [VALLEY]), ev("deck_exhausted", last_turns=[0, 1, 2]), *turn_passes(2, 0))
    after = after_moves(GAME, state, (2, DRAW1))
    when(after, 0, meld_set(R)).then(set_melded(0, R), claimed(0, CTHULHU), round_ended("hand_emptied", 0, [-2, 1, 1]))
    over = after_moves(GAME, after, (0, meld_set(R)))
    assert madness(over) == [2, 2, 3] and "hands" not in GAME.decider.view(over, 1)


def test_halving_discards_the_larger_half():
    state = table([[R] * 3, [INNS, INNS]], madness=[5, 0])
    when(state, 0, meld_set(R)).then(set_melded(0, R), claimed(0, CTHULHU), round_ended("hand_emptied", 0, [-3, 1]))
    assert madness(after_moves(GAME, state, (0, meld_set(R)))) == [2, 1]


def test_a_run_that_plays_out_the_last_cards_gives_the_run_madness_then_the_round_end_madness():
    state = table([RUN, [INNS, INNS], [LOMAR]], madness=[3, 0, 0])
    state = replace(state, phase=replace(state.phase, runs=1))
    when(state, 0, MELD_RUN).then(run_melded(0, 2, 2), round_ended("hand_emptied", 0, [-2, 1, 1]))
    assert madness(after_moves(GAME, state, (0, MELD_RUN))) == [1, 3, 3]


def test_the_game_ends_at_the_end_of_a_round_when_a_player_has_ten_madness_and_the_fewest_wins():
    state = table([[R] * 3, [INNS, INNS], [LOMAR]], madness=[4, 9, 2])
    after = after_moves(GAME, state, (0, meld_set(R)))
    result = GAME.decider.outcome(after)
    assert result is not None and result.winners == (0,) and result.scores == (2.0, 10.0, 3.0)
    assert GAME.decider.to_act(after) == frozenset() and GAME.decider.view(after, 0)["phase"] == "game_over"


def test_ten_madness_during_a_round_does_not_end_the_game_before_the_round_ends():
    state = table([RUN + [R], [INNS, INNS]], madness=[0, 9])
    when(state, 0, MELD_RUN).then(run_melded(0, 1, 1))
    after = after_moves(GAME, state, (0, MELD_RUN))
    assert madness(after) == [0, 10] and GAME.decider.outcome(after) is None
    assert GAME.decider.view(after, 0)["phase"] == "playing"


def test_tied_players_with_the_fewest_madness_share_the_victory():
    state = table([[R] * 3, [INNS, INNS], [LOMAR]], madness=[6, 9, 2])
    result = GAME.decider.outcome(after_moves(GAME, state, (0, meld_set(R))))
    assert result.winners == (0, 2)


def test_madness_tokens_are_not_limited_by_the_supply_of_forty():
    state = table([RUN * 3 + [R], [INNS], [LOMAR], [ARKHAM]], madness=[0, 12, 12, 12])
    state = replace(state, phase=replace(state.phase, runs=1))
    when(state, 0, MELD_RUN).then(run_melded(0, 2, 2))
    after = after_moves(GAME, state, (0, MELD_RUN))
    assert madness(after) == [0, 14, 14, 14]
    assert GAME.decider.view(after, 0)["madness_supply"] == 0
    when(after, 0, MELD_RUN).then(run_melded(0, 3, 3))
    assert madness(after_moves(GAME, after, (0, MELD_RUN))) == [0, 17, 17, 17]


# -- a new round ---------------------------------------------------------------------------------------


def test_the_player_with_most_madness_deals_the_new_round_and_then_designates_who_goes_first():
    state = table([[R] * 3, [INNS, INNS], [LOMAR]], madness=[2, 3, 5])
    over = after_moves(GAME, state, (0, meld_set(R)))  # madness becomes 1, 4, 6
    assert GAME.decider.to_act(over) == frozenset({2}) and legal(over, 2) == [{"type": "deal_next_round"}]
    when(over, 0, {"type": "deal_next_round"}).refused("rules/not_your_turn")
    dealt_round = after_moves(GAME, over, (2, {"type": "deal_next_round"}))
    assert isinstance(dealt_round.phase, Designating) and dealt_round.round == 2 and dealt_round.phase.chooser == 2
    assert legal(dealt_round, 2) == [{"type": "choose_first_player", "seat": s} for s in range(3)]
    GAME.decider.invariant(dealt_round)
    when(dealt_round, 2, {"type": "choose_first_player", "seat": 2}).then(
        ev("first_player_chosen", seat=2, chooser=2))
    started = after_moves(GAME, dealt_round, (2, {"type": "choose_first_player", "seat": 2}))
    assert isinstance(started.phase, Playing) and started.phase.turn.seat == 2 and started.start == 2
    assert started.madness == (1, 4, 6) and started.phase.runs == 0 and started.phase.shoggoth is None
    assert all(owner is None for owner in started.cards.portals)
    assert [sum(h) for h in started.cards.hands] == [2, 2, 2] and len(started.cards.deck) == 57


def test_ties_for_most_madness_go_to_the_earliest_in_turn_order_after_the_start_player():
    state = table([[INNS, INNS], [R] * 3, [LOMAR], [ARKHAM]], first=1, madness=[4, 0, 3, 4])
    over = after_moves(GAME, state, (1, meld_set(R)))  # madness 5, 0, 4, 5; start player was seat 1
    assert over.madness == (5, 0, 4, 5)
    assert GAME.decider.to_act(over) == frozenset({3})
    over_again = replace(over, start=3)
    assert GAME.decider.to_act(over_again) == frozenset({0})


def test_the_start_player_breaks_a_tie_only_after_everyone_else():
    state = table([[INNS, INNS], [R] * 3], first=1, madness=[3, 6])
    over = after_moves(GAME, state, (1, meld_set(R)))  # 4 and 3
    assert GAME.decider.to_act(replace(over, madness=(4, 4))) == frozenset({0})
    assert GAME.decider.to_act(replace(over, madness=(4, 4), start=0)) == frozenset({1})


# -- hidden information in refusals --------------------------------------------------------------------


def test_refusals_never_name_another_players_cards():
    state = table([[R, R, LOMAR], [INNS, INNS, DUNWICH]], portals={SHUB: 0})
    after = after_moves(GAME, state, (0, seal(SHUB)), (0, {"type": "look_at_hand", "seat": 1}))
    err = when(after, 0, {"type": "take_card", "location": R}).refused("rules/card_not_in_that_hand")
    assert "Innsmouth" not in err.message and "Dunwich" not in err.message and not err.details


def test_the_deck_composition_is_every_location_card_once():
    assert sorted(FULL_DECK) == sorted(loc for loc in RUN for _ in range(loc))
    assert GAME.catalogue.card_data["madness_tokens"]["count"] == 40
    assert all(c["source"] == "rulebook" for c in GAME.catalogue.card_data["locations"] + GAME.catalogue.card_data["portals"])


def test_cards_drawn_face_up_are_known_to_everyone_until_they_may_have_left_the_hand():
    state = table([[R, R, R], [INNS, INNS]], deck=[LOMAR, down(DUNWICH), LOMAR, ARKHAM], portals={CTHULHU: 0})
    after = after_moves(GAME, state, (0, {"type": "draw_cards", "count": 3}))
    assert GAME.decider.view(after, 1)["known_cards"] == [[LOMAR, LOMAR], []]
    after = after_moves(GAME, after, (0, seal(CTHULHU)), (0, give(LOMAR, 1)), (0, {"type": "stop_giving"}))
    # Which card went to seat 1 is secret: everyone else may only be sure of one Lomar less.
    assert GAME.decider.view(after, 1)["known_cards"] == [[LOMAR], []]
    resampled = GAME.ai.resample(after, 1, __import__("random").Random(3))
    assert LOMAR in hand(resampled, 0)


def test_the_full_resample_keeps_what_a_seat_learnt_privately():
    """A Shub-Niggurath sealer knows the rest of the hand she looked at, her victim knows where its card went, and
    a Cthulhu giver knows who holds her gift: every world resampled for that seat keeps it; a seat that saw
    nothing gets worlds that differ."""
    state = table([[R, R, LOMAR], [INNS, INNS, DUNWICH, VALLEY], [ARKHAM, UNDER]], portals={SHUB: 0, CTHULHU: 1})
    looked = after_moves(GAME, state, (0, seal(SHUB)), (0, {"type": "look_at_hand", "seat": 1}),
                  (0, {"type": "take_card", "location": DUNWICH}))
    assert all(hand(GAME.ai.resample(looked, 0, random.Random(n)), 1) == [INNS, INNS, VALLEY] for n in range(30))
    after = after_moves(GAME, looked, (0, DRAW1), (1, seal(CTHULHU)), (1, give(VALLEY, 2)), (1, {"type": "stop_giving"}))
    assert hand(after, 1) == [INNS, INNS] and VALLEY in hand(after, 2) and DUNWICH in hand(after, 0)
    worlds = {s: [GAME.ai.resample(after, s, random.Random(n)) for n in range(30)] for s in range(3)}
    assert all(INNS in hand(w, 1) for w in worlds[0])  # one card left seat 1 unseen by seat 0: an Innsmouth stays
    assert all(DUNWICH in hand(w, 0) and VALLEY in hand(w, 2) for w in worlds[1])  # its theft and its gift
    assert len({tuple(hand(w, 1)) for w in worlds[2]}) > 1  # seat 2 saw none of it
    assert all(w != after for w in worlds[2])


def test_melded_and_discarded_cards_leave_the_known_cards():
    state = table([[R, R], [INNS, INNS]], deck=[LOMAR, LOMAR, LOMAR, ARKHAM], portals={AZATHOTH: 1})
    after = after_moves(GAME, state, (0, {"type": "draw_cards", "count": 3}), (1, DRAW1))
    assert GAME.decider.view(after, 1)["known_cards"] == [[LOMAR, LOMAR, LOMAR], [ARKHAM]]
    after = after_moves(GAME, after, (1, END), (0, meld_set(LOMAR)), (0, END))
    assert GAME.decider.view(after, 1)["known_cards"][0] == []


def test_views_tell_a_player_what_she_needs_to_play():
    state = table([[R, R], [INNS, INNS]], deck=[VALLEY], first=1, portals={SHOGGOTH: 1})
    after = after_moves(GAME, state, (1, seal(SHOGGOTH)), (1, DRAW1))
    seen = GAME.decider.view(after, 0)
    assert seen["phase"] == "playing" and seen["to_act"] == [0] and seen["turn"]["last"]
    assert seen["last_turns"] == [1] and not seen["bound_by_shoggoth"] and seen["deck_size"] == 0
    assert seen["portals"][SHOGGOTH - 6] == {"portal": SHOGGOTH, "name": "Shoggoth", "owner": None}


def test_every_ruling_names_tests_that_exist():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", (root / "docs/rulings/pocket-madness.md").read_text()))
    sources = [root / "tests/scenario/test_pocket_madness.py", root / "tests/property/test_pocket_madness_properties.py"]
    defined = {name for path in sources for name in re.findall(r"def (test_[a-z0-9_]+)", path.read_text())}
    assert named and named <= defined, sorted(named - defined)


def test_a_resigned_winners_victory_goes_to_the_fewest_madness_among_the_seats_still_standing():
    """Resignation (docs/rulings/pocket-madness.md): seat 0 resigns before the first move and the table's AI plays
    it to the end (seed 1011), where Madness stands 8, 10, 9. Seat 0 has the fewest but resigned: the fewest among
    the seats still standing win, seat 2 with 9, not seat 1, the maddest (the table gave it the highest score)."""
    seating, table = resigned_and_played_out(GAME, 3, [0], seed=1011)
    assert table.game.madness == (8, 10, 9) and GAME.decider.outcome(table.game).winners == (0,)
    assert seating.outcome(table).winners == (2,) and seating.outcome(table).details["resigned"] == [0]
