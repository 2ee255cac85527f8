"""Arkham Ritual rulebook scenarios: one test per rule, named after it, on fixed deals.

Seats are clockwise 0, 1, 2…; in the rulebook's examples Player A is seat 0, B seat 1 and so on.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared.kernel import EVERYONE, ev
from shared.games.arkham_ritual import GAME
from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.rules import dummies_for
from shared.games.arkham_ritual.state import Drawing, Finished, Offered, Passing, Peeking
from tests.support.scenario import ENTROPY, given, given_state, offered, set_up
from tests.support.resignation import resigned_and_played_out

# Card ids (cards.py): artifact type t is 3t, 3t+1 sane and 3t+2 cursed.
CANDELABRA, CANDELABRA_2, CANDELABRA_CURSED = 0, 1, 2
KEY, KEY_2, KEY_CURSED = 3, 4, 5
DAGGER, DAGGER_2, DAGGER_CURSED = 6, 7, 8
FLUTE, FLUTE_2, FLUTE_CURSED = 9, 10, 11
IDOL, IDOL_2, IDOL_CURSED = 12, 13, 14
ELDER_SIGN, GATE, GATE_2, ORB, TRAPEZOHEDRON = 15, 16, 17, 18, 19
INVESTIGATOR, WARY_STUDENT, CULTIST, MAD_PROFESSOR = 20, 21, 22, 23
CTHULHU, NYARLATHOTEP, YOG_SOTHOTH, HASTUR = 24, 25, 26, 27

DRAW = {"type": "draw_card"}
TAKE = {"type": "take_card"}
NOBODY = {"type": "pass_card", "to": None}
RETURN = {"type": "return_top_card"}
REMOVE = {"type": "remove_top_card"}


def to(seat):
    return {"type": "pass_card", "to": seat}


# The shuffle the fixed ENTROPY makes of the 22 cards of the base set, at setup and at every round's start (the same
# shuffle each time). An option's card sorts where the base card it replaces does, so it takes that card's place.
SHUFFLED = [FLUTE_2, CULTIST, ORB, DAGGER, CANDELABRA, INVESTIGATOR, FLUTE_CURSED, CANDELABRA_CURSED, KEY, FLUTE,
            KEY_CURSED, DAGGER_2, KEY_2, GATE_2, IDOL_CURSED, CTHULHU, ELDER_SIGN, GATE, DAGGER_CURSED, CANDELABRA_2,
            IDOL_2, IDOL]
BASE_CARD = {TRAPEZOHEDRON: ORB, WARY_STUDENT: INVESTIGATOR, MAD_PROFESSOR: CULTIST,
             NYARLATHOTEP: CTHULHU, YOG_SOTHOTH: CTHULHU, HASTUR: CTHULHU}


def others(seat, players=5):
    return [s for s in range(players) if s != seat]


# -- facts --------------------------------------------------------------------------------------------------


def game_started(players, dummies=0, **options):
    resolved = GAME.resolve_options(options)
    return ev("game_started", players=players, dummies=dummies, cards=list(C.cards_in_play({g: resolved[g] for g in C.GROUPS})),
              doom_track=resolved["doom_track"], competitive=resolved["competitive"], sanity=7)


def dealt(hands, dummies=(), deck=(), number=1):
    """A round's deal: each hand seen by every other seat, the Dummies' cards face up, the Deck's order by nobody."""
    return [ev("round_started", round=number),
            *(ev("hand_dealt", seat=s, card=c, secret={"card": others(s, len(hands))}) for s, c in enumerate(hands)),
            *(ev("dummy_dealt", dummy=d, card=c) for d, c in enumerate(dummies)),
            ev("deck_formed", size=len(deck), cards=list(deck), secret={"cards": []})]


def next_round(first, players=5, dummies=0, alternates=(), number=2):
    """The next round's deal (``SHUFFLED``, with ``alternates`` in their base cards' places) and its first Active
    Player, the lowest Sanity's (5-1)."""
    order = [next((a for a in alternates if BASE_CARD[a] == c), c) for c in SHUFFLED]
    return [*dealt(order[:players], order[players:players + dummies], order[players + dummies:], number),
            ev("active_player_chosen", seat=first, rule="lowest_sanity")]


def drawn(seat, card):
    return ev("card_drawn", seat=seat, card=card, secret={"card": [seat]})


def taken(seat, card, discarded, players=5):
    """6-2-1: ``seat`` takes the passed ``card`` unseen (every other seat sees it) and discards its own face up."""
    return ev("card_taken", seat=seat, card=card, discarded=discarded, secret={"card": others(seat, players)})


def unclaimed(card, seat=4):
    """6-2-2: the last Follower has nobody left to pass ``card`` to: it is discarded without effect."""
    return ev("card_unclaimed", seat=seat, card=card)


def revealed(cards, cause="all_passed", dummy_cards=(), number=1):
    """7: the round ends and every card (a seat's, then a Dummy's) is shown to everyone."""
    return ev("round_ended", round=number, cause=cause, cards=list(cards), dummy_cards=list(dummy_cards))


def judged(*survived, loss=None):
    """7-1 to 7-3: who survived, and the markers each non-survivor loses (their number, unless ``loss`` says)."""
    failed = survived.count(False)
    return ev("ritual_judged", survived=list(survived), failed=failed, loss=failed if loss is None else loss)


def sanity_changed(seat, change, now, cause="failed_ritual"):
    return ev("sanity_changed", seat=seat, change=change, sanity=now, cause=cause)


def awakened(card, holder=None, dummy=None):
    return ev("great_old_one_awakened", card=card, holder=holder, dummy=dummy)


def game_ended(*winners):
    return ev("game_ended", reason="sanity_lost", winners=list(winners))


# -- positions ----------------------------------------------------------------------------------------------


def table(hands, top=(), dummies=None, active=0, sanity=None, doom=None, **options):
    """The events of a first-round position with a fixed deal: ``top`` are the first cards of the Deck."""
    players = len(hands)
    dummies = list(dummies) if dummies is not None else []
    started = game_started(players, len(dummies), **options)
    chosen = started.data["cards"]
    placed = [*hands, *dummies, *top]
    assert len(set(placed)) == len(placed) and set(placed) <= set(chosen), "the deal uses distinct cards in play"
    deck = [*top, *(c for c in sorted(chosen) if c not in placed)]
    events = [started, *dealt(hands, dummies, deck)]
    for seat, value in enumerate(sanity or []):
        if value != 7:
            events.append(ev("sanity_changed", seat=seat, change=value - 7, sanity=value, cause="scenario"))
    if doom:
        events.append(ev("doom_advanced", spot=doom))
    events.append(ev("active_player_chosen", seat=active, rule="random"))
    return events


def everyone_passes(active, players):
    """The Active Player draws and passes; every Follower, clockwise, passes; the last one has nobody left."""
    order = [(active + step) % players for step in range(1, players)]
    moves = [(active, DRAW), (active, to(order[0]))]
    moves += [(a, to(b)) for a, b in zip(order, order[1:])]
    return [*moves, (order[-1], NOBODY)]


def all_pass(deal, active=0):
    """``deal``'s first turn up to its last pass, to nobody: the round ends."""
    moves = everyone_passes(active, deal[0].data["players"])
    return given(GAME, *deal).played(*moves[:-1]).when(*moves[-1])


FIVE_UNIQUE = [KEY, CANDELABRA, DAGGER, FLUTE, IDOL]  # five sane artifacts of five types: everyone survives


# -- 3. Game setup and 9. Alternate card setup --------------------------------------------------------------


def test_each_player_starts_with_seven_sanity_markers():
    state = given(GAME, *GAME.decider.setup(5, GAME.resolve_options({}), ENTROPY)).state
    assert state.sanity == (7, 7, 7, 7, 7)


def test_the_game_uses_22_cards_and_the_default_set_is_orb_investigator_cultist_cthulhu():
    state = given(GAME, *GAME.decider.setup(5, GAME.resolve_options({}), ENTROPY)).state
    assert len(state.cards) == 22
    keys = [C.key(c) for c in state.cards]
    assert {"magical_orb", "investigator", "cultist", "cthulhu"} <= set(keys)
    assert not {"shining_trapezohedron", "wary_student", "mad_professor", "nyarlathotep", "yog_sothoth", "hastur"} & set(keys)
    assert sum(C.is_artifact(c) for c in state.cards) == 15 and keys.count("gate") == 2


@pytest.mark.parametrize(
    "option, choice",
    [("event_card", "shining_trapezohedron"), ("investigator_or_wary_student", "wary_student"),
     ("cultist_or_mad_professor", "mad_professor"), ("great_old_one", "nyarlathotep"),
     ("great_old_one", "yog_sothoth"), ("great_old_one", "hastur")],
)
def test_options_exchange_a_base_card_for_its_alternate(option, choice):
    state = given(GAME, *GAME.decider.setup(5, GAME.resolve_options({option: choice}), ENTROPY)).state
    keys = [C.key(c) for c in state.cards]
    assert len(state.cards) == 22 and choice in keys
    assert C.GROUPS[option][0] not in keys


def test_four_of_the_five_artifact_names_are_project_data():
    names = {kind["name"]: kind["source"] for kind in C.ARTIFACT_TYPES}
    assert names.pop("Candelabra") == "rulebook"
    assert len(names) == 4 and set(names.values()) == {"project"}
    assert all(card["source"] in ("rulebook", "project") for card in GAME.catalogue.card_data["cards"])


# -- 5. Round setup, 5-1 initial Active Player, 14. Dummy players ---------------------------------------------


def test_round_setup_deals_one_card_to_each_player_and_the_rest_become_the_deck():
    state = given(GAME, *GAME.decider.setup(6, GAME.resolve_options({}), ENTROPY)).state
    assert all(c is not None for c in state.round.hands)
    assert len(state.round.deck) == 22 - 6
    GAME.decider.invariant(state)


def test_each_seat_sees_every_held_card_except_its_own():
    state = given(GAME, *table([KEY, CANDELABRA, DAGGER, FLUTE, IDOL])).state
    for seat in range(5):
        cards = GAME.decider.view(state, seat)["cards"]
        assert cards[seat] is None
        assert [c for s, c in enumerate(cards) if s != seat] == [c for s, c in enumerate(FIVE_UNIQUE) if s != seat]
    assert GAME.decider.view(state, None)["cards"] == [None] * 5
    assert GAME.decider.view(state, EVERYONE)["cards"] == FIVE_UNIQUE


def test_the_deal_shows_each_card_to_every_seat_but_its_holder():
    set_up(GAME, 5).then(game_started(5), *dealt(SHUFFLED[:5], deck=SHUFFLED[5:]),
                         ev("active_player_chosen", seat=2, rule="random"))


def test_the_first_active_player_is_chosen_at_random_and_recorded():
    chosen = {set_up(GAME, 5, bytes([i]) * 32).events[-1].data["seat"] for i in range(30)}
    assert len(chosen) > 2


def test_later_rounds_start_with_the_lowest_sanity_player():
    all_pass(table(FIVE_UNIQUE, sanity=[6, 7, 7, 7, 5], active=2), active=2).then(
        unclaimed(CANDELABRA_2, seat=1), revealed(FIVE_UNIQUE), judged(True, True, True, True, True),
        *next_round(first=4))


def test_a_tie_for_lowest_sanity_goes_to_the_closest_clockwise_from_the_last_active_player():
    all_pass(table(FIVE_UNIQUE, sanity=[7, 4, 7, 4, 7], active=2), active=2).then(
        unclaimed(CANDELABRA_2, seat=1), revealed(FIVE_UNIQUE), judged(True, True, True, True, True),
        *next_round(first=3))


def test_the_last_active_player_comes_last_in_a_tie_for_lowest_sanity():
    all_pass(table(FIVE_UNIQUE, sanity=[7, 7, 4, 4, 7], active=2), active=2).then(
        unclaimed(CANDELABRA_2, seat=1), revealed(FIVE_UNIQUE), judged(True, True, True, True, True),
        *next_round(first=3))


def test_three_players_play_with_two_dummy_players_and_four_with_one():
    assert [dummies_for(p) for p in range(3, 8)] == [2, 1, 0, 0, 0]
    for players, dummies in ((3, 2), (4, 1), (5, 0)):
        state = given(GAME, *GAME.decider.setup(players, GAME.resolve_options({}), ENTROPY)).state
        assert len(state.round.dummies) == dummies and len(state.sanity) == players
        assert len(state.round.deck) == 22 - players - dummies


def test_dummy_players_cards_are_dealt_face_up():
    set_up(GAME, 3).then(game_started(3, dummies=2), *dealt(SHUFFLED[:3], SHUFFLED[3:5], SHUFFLED[5:]),
                         ev("active_player_chosen", seat=1, rule="random"))
    state = set_up(GAME, 3).state
    assert GAME.decider.view(state, None)["dummies"] == SHUFFLED[3:5]


def test_a_dummy_player_may_never_receive_a_card():
    g = given(GAME, *table([KEY, CANDELABRA, DAGGER], dummies=[FLUTE, IDOL])).played((0, DRAW))
    g.when(0, to(3)).refused("rules/dummy_players_never_receive_cards")
    g.when(0, to(4)).refused("rules/dummy_players_never_receive_cards")
    assert {c["to"] for c in offered(GAME, g.state, 0)} == {1, 2}


def test_a_dummy_player_never_becomes_the_active_player_and_has_no_sanity():
    # nobody is left with a hand on the table: the Deck goes to the left, to seat 0, never to a Dummy
    took = given(GAME, *table([KEY, CANDELABRA, DAGGER], dummies=[FLUTE, IDOL], active=2)).played(
        (2, DRAW), (2, to(0)), (0, to(1))).when(1, TAKE)
    took.then(taken(1, CANDELABRA_2, discarded=CANDELABRA, players=3), ev("deck_passed", seat=2, to=0))
    assert len(took.after.sanity) == 3 and GAME.decider.to_act(took.after) == {0}


def test_dummy_players_count_as_players_when_judging_and_counting():
    # seat 0's sane Candelabra clashes with a Dummy's cursed Candelabra; the Dummy fails too and is counted
    all_pass(table([CANDELABRA, KEY, DAGGER], dummies=[CANDELABRA_CURSED, FLUTE])).then(
        unclaimed(CANDELABRA_2, seat=2), revealed([CANDELABRA, KEY, DAGGER], dummy_cards=[CANDELABRA_CURSED, FLUTE]),
        judged(False, True, True, False, True), sanity_changed(0, -2, 5), *next_round(first=0, players=3, dummies=2))


def test_a_cultist_held_by_a_dummy_player_inverts_the_survival_rules():
    all_pass(table([KEY, CANDELABRA_CURSED, FLUTE], dummies=[CULTIST, DAGGER_CURSED])).then(
        unclaimed(CANDELABRA, seat=2), revealed([KEY, CANDELABRA_CURSED, FLUTE], dummy_cards=[CULTIST, DAGGER_CURSED]),
        judged(False, True, False, False, True), sanity_changed(0, -3, 4), sanity_changed(2, -3, 4),
        *next_round(first=2, players=3, dummies=2))


def test_a_mad_professor_held_by_a_dummy_player_makes_non_artifact_holders_fail():
    all_pass(table([KEY, ELDER_SIGN, FLUTE], dummies=[MAD_PROFESSOR, DAGGER], cultist_or_mad_professor="mad_professor")).then(
        unclaimed(CANDELABRA, seat=2), revealed([KEY, ELDER_SIGN, FLUTE], dummy_cards=[MAD_PROFESSOR, DAGGER]),
        judged(True, False, True, False, True), sanity_changed(1, -2, 5),
        *next_round(first=1, players=3, dummies=2, alternates=[MAD_PROFESSOR]))


# -- 6. Player turns ----------------------------------------------------------------------------------------


def test_the_active_player_draws_the_top_card_and_only_they_see_it():
    draws = given(GAME, *table(FIVE_UNIQUE, top=[GATE])).when(0, DRAW).then(drawn(0, GATE))
    assert GAME.decider.view(draws.after, 0)["passed_card"]["card"] == GATE
    assert all("card" not in GAME.decider.view(draws.after, s)["passed_card"] for s in (1, 2, 3, 4, None))


def test_the_active_player_must_draw_before_passing():
    given(GAME, *table(FIVE_UNIQUE)).when(0, to(1)).refused("rules/must_draw_first")


def test_faq_q1_the_active_player_may_not_keep_the_card():
    g = given(GAME, *table(FIVE_UNIQUE)).played((0, DRAW))
    g.when(0, TAKE).refused("rules/active_player_may_not_keep_the_card")
    g.when(0, to(0)).refused("rules/must_pass_to_a_hand_on_the_table")
    g.when(0, NOBODY).refused("rules/no_such_player")


def test_at_the_start_of_each_turn_every_follower_places_a_hand_on_the_table():
    """6-1 (1): the Active Player announces the turn and all other players place a hand on the table, before the
    draw; 6-3: at the end of the turn they take them off, and the next turn's Followers place theirs."""
    first = given(GAME, *table(FIVE_UNIQUE, active=2)).state
    assert isinstance(first.phase, Drawing)
    assert all(GAME.decider.view(first, s)["hands_on_table"] == [0, 1, 3, 4] for s in (*range(5), None))
    took = given(GAME, *table(FIVE_UNIQUE, active=2)).played((2, DRAW), (2, to(3))).when(3, TAKE)
    took.then(taken(3, CANDELABRA_2, discarded=FLUTE), ev("deck_passed", seat=2, to=4))
    assert isinstance(took.after.phase, Drawing)
    assert GAME.decider.view(took.after, 1)["hands_on_table"] == [0, 1, 2, 3]


def test_the_active_player_may_pass_the_card_face_down_to_any_follower():
    g = given(GAME, *table(FIVE_UNIQUE)).played((0, DRAW))
    assert offered(GAME, g.state, 0) == [to(1), to(2), to(3), to(4)]
    assert GAME.decider.view(g.state, 2)["hands_on_table"] == [1, 2, 3, 4]
    g.when(0, to(3)).then(ev("card_passed", seat=0, to=3))  # face down: no seat is told the card


def test_only_the_player_who_must_decide_may_act():
    g = given(GAME, *table(FIVE_UNIQUE)).played((0, DRAW), (0, to(3)))
    g.when(1, TAKE).refused("rules/not_your_turn")
    g.when(0, to(1)).refused("rules/not_your_turn")
    assert GAME.decider.to_act(g.state) == {3}


def test_a_follower_who_receives_the_card_takes_their_hand_off_the_table_and_may_take_or_pass():
    state = given(GAME, *table(FIVE_UNIQUE)).played((0, DRAW), (0, to(3))).state
    assert GAME.decider.view(state, 1)["hands_on_table"] == [1, 2, 4]
    assert offered(GAME, state, 3) == [TAKE, to(1), to(2), to(4)]


def test_a_follower_may_pass_only_to_a_player_with_a_hand_on_the_table():
    g = given(GAME, *table(FIVE_UNIQUE)).played((0, DRAW), (0, to(3)), (3, to(1)))
    g.when(1, to(3)).refused("rules/must_pass_to_a_hand_on_the_table")
    g.when(1, to(0)).refused("rules/must_pass_to_a_hand_on_the_table")
    g.when(1, NOBODY).refused("rules/must_pass_to_a_hand_on_the_table")
    assert g.state.phase == Offered(card=CANDELABRA_2, holder=1, passers=(0, 3))


def test_taking_the_card_discards_the_held_card_face_up_and_the_taker_does_not_see_the_new_one():
    took = given(GAME, *table(FIVE_UNIQUE, top=[KEY_CURSED])).played((0, DRAW), (0, to(2))).when(2, TAKE)
    took.then(taken(2, KEY_CURSED, discarded=DAGGER), ev("deck_passed", seat=0, to=1))
    assert GAME.decider.view(took.after, 2)["cards"][2] is None and GAME.decider.view(took.after, 1)["cards"][2] == KEY_CURSED
    assert GAME.decider.view(took.after, 3)["discards"] == [DAGGER]


def test_if_every_follower_passes_the_card_is_discarded_without_effect_and_the_round_ends():
    # the dropped card is a Gate while a Great Old One is held: nothing awakens, the round is judged normally
    all_pass(table([KEY, CANDELABRA, CTHULHU, FLUTE, IDOL], top=[GATE])).then(
        unclaimed(GATE), revealed([KEY, CANDELABRA, CTHULHU, FLUTE, IDOL]), judged(True, True, False, True, True),
        sanity_changed(2, -1, 6), *next_round(first=2))


def test_the_last_follower_may_pass_to_nobody_only_when_no_hand_is_left_on_the_table():
    state = given(GAME, *table(FIVE_UNIQUE)).played((0, DRAW), (0, to(1)), (1, to(2)), (2, to(3)), (3, to(4))).state
    assert offered(GAME, state, 4) == [TAKE, NOBODY]


def test_example_1_the_deck_passes_to_the_first_player_clockwise_with_a_hand_on_the_table():
    # Player A (seat 0) is Active; Player B (seat 1) takes the card, so his hand is off the table; Player C has hers on
    took = given(GAME, *table(FIVE_UNIQUE)).played((0, DRAW), (0, to(1))).when(1, TAKE)
    took.then(taken(1, CANDELABRA_2, discarded=CANDELABRA), ev("deck_passed", seat=0, to=2))
    assert isinstance(took.after.phase, Drawing)
    assert GAME.decider.view(took.after, 0)["hands_on_table"] == [0, 1, 3, 4]  # 6-1: the new turn's Followers


def test_the_deck_skips_players_whose_hand_is_off_the_table():
    given(GAME, *table(FIVE_UNIQUE)).played((0, DRAW), (0, to(2)), (2, to(1))).when(1, TAKE).then(
        taken(1, CANDELABRA_2, discarded=CANDELABRA), ev("deck_passed", seat=0, to=3))


def test_with_no_hand_left_on_the_table_the_deck_goes_to_the_players_left():
    given(GAME, *table(FIVE_UNIQUE, active=3)).played((3, DRAW), (3, to(0)), (0, to(1)), (1, to(2)), (2, to(4))).when(
        4, TAKE).then(taken(4, CANDELABRA_2, discarded=IDOL), ev("deck_passed", seat=3, to=4))


def last_card(hands, top):
    """``hands``' first round with ``top`` the last card of the Deck (the others discarded), once seat 0 has drawn
    it and passed it to seat 1."""
    state = given(GAME, *table(hands, top=[top])).state
    state = replace(state, round=replace(state.round, deck=(top,), discards=state.round.deck[1:]))
    return given_state(GAME, state).played((0, DRAW), (0, to(1)))


def test_the_round_ends_when_no_cards_are_left_in_the_deck():
    # seat 1 takes the last card, a second Silver Key: the round ends and the two Keys clash
    last_card(FIVE_UNIQUE, KEY_2).when(1, TAKE).then(
        taken(1, KEY_2, discarded=CANDELABRA), revealed([KEY, KEY_2, DAGGER, FLUTE, IDOL], cause="deck_empty"),
        judged(False, False, True, True, True), sanity_changed(0, -2, 5), sanity_changed(1, -2, 5), *next_round(first=1))


def test_a_new_round_shuffles_all_22_cards_again():
    ended = all_pass(table(FIVE_UNIQUE, top=[DAGGER_2])).then(
        unclaimed(DAGGER_2), revealed(FIVE_UNIQUE), judged(True, True, True, True, True), *next_round(first=1))
    assert ended.after.round.discards == () and ended.after.round.removed == ()


# -- 7. End of a round --------------------------------------------------------------------------------------


def test_example_2_cursed_cards_and_shared_artifacts_do_not_survive():
    # A Silver Key, B Candelabra (sane), C Ritual Dagger, D cursed Bone Flute, E cursed Candelabra. B, D and E do not
    # survive and "lose their sanity" (three non-survivors: 3 markers each, 7-3); A and C keep theirs.
    ended = all_pass(table([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, CANDELABRA_CURSED]))
    ended.then(unclaimed(CANDELABRA_2), revealed([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, CANDELABRA_CURSED]),
               judged(True, False, True, False, False), *(sanity_changed(s, -3, 4) for s in (1, 3, 4)), *next_round(first=1))
    assert ended.after.sanity == (7, 4, 7, 4, 4)


def example_3():
    """A Silver Key, B Candelabra, C Cultist (all sane), D cursed Bone Flute, E cursed Candelabra, once the
    card has gone round to E, who passes it to nobody."""
    return all_pass(table([KEY, CANDELABRA, CULTIST, FLUTE_CURSED, CANDELABRA_CURSED]))


def test_example_3_with_the_cultist_only_a_unique_cursed_card_survives():
    # with the Cultist out, only D's unique cursed card survives
    example_3().then(
        unclaimed(CANDELABRA_2), revealed([KEY, CANDELABRA, CULTIST, FLUTE_CURSED, CANDELABRA_CURSED]),
        judged(False, False, False, True, False), *(sanity_changed(s, -4, 3) for s in (0, 1, 2, 4)), *next_round(first=1))


def test_example_4_every_non_survivor_loses_one_marker_per_non_survivor():
    # Example 3's round: four players did not survive, so each of them discards 4 Sanity Markers; D keeps 7.
    ended = example_3().then(
        unclaimed(CANDELABRA_2), revealed([KEY, CANDELABRA, CULTIST, FLUTE_CURSED, CANDELABRA_CURSED]),
        judged(False, False, False, True, False, loss=4), *(sanity_changed(s, -4, 3) for s in (0, 1, 2, 4)),
        *next_round(first=1))
    assert ended.after.sanity == (3, 3, 3, 7, 3)


def test_the_round_end_reveals_every_card_to_everyone():
    # round_ended has no secret part: every seat and spectator is told every card
    all_pass(table(FIVE_UNIQUE)).then(
        unclaimed(CANDELABRA_2), revealed(FIVE_UNIQUE), judged(True, True, True, True, True), *next_round(first=1))


def test_sane_event_and_character_cards_survive_and_the_two_gates_are_not_the_same_card():
    all_pass(table([GATE, GATE_2, ELDER_SIGN, INVESTIGATOR, KEY])).then(
        unclaimed(CANDELABRA), revealed([GATE, GATE_2, ELDER_SIGN, INVESTIGATOR, KEY]),
        judged(True, True, True, True, True), *next_round(first=1))


def test_with_the_cultist_a_great_old_one_survives_and_the_cultist_never_does():
    all_pass(table([CTHULHU, CULTIST, KEY_CURSED, KEY, GATE])).then(
        unclaimed(CANDELABRA), revealed([CTHULHU, CULTIST, KEY_CURSED, KEY, GATE]),
        judged(True, False, False, False, False), *(sanity_changed(s, -4, 3) for s in (1, 2, 3, 4)), *next_round(first=1))


def test_investigator_gains_one_sanity_if_they_survived():
    all_pass(table([INVESTIGATOR, KEY, CANDELABRA, DAGGER, FLUTE_CURSED], sanity=[5, 7, 7, 7, 7])).then(
        unclaimed(CANDELABRA_2), revealed([INVESTIGATOR, KEY, CANDELABRA, DAGGER, FLUTE_CURSED]),
        judged(True, True, True, True, False), sanity_changed(0, 1, 6, cause="investigator"), sanity_changed(4, -1, 6),
        *next_round(first=4))


def test_investigator_gains_nothing_if_they_did_not_survive():
    all_pass(table([INVESTIGATOR, KEY, CULTIST, DAGGER, FLUTE_CURSED], sanity=[5, 7, 7, 7, 7])).then(
        unclaimed(CANDELABRA), revealed([INVESTIGATOR, KEY, CULTIST, DAGGER, FLUTE_CURSED]),
        judged(False, False, False, False, True), sanity_changed(0, -4, 1), *(sanity_changed(s, -4, 3) for s in (1, 2, 3)),
        *next_round(first=0))


def test_faq_q5_sanity_never_exceeds_seven():
    # the Investigator survives at 7 Sanity: no marker is gained, and no change is recorded
    all_pass(table([INVESTIGATOR, KEY, CANDELABRA, DAGGER, FLUTE_CURSED])).then(
        unclaimed(CANDELABRA_2), revealed([INVESTIGATOR, KEY, CANDELABRA, DAGGER, FLUTE_CURSED]),
        judged(True, True, True, True, False), sanity_changed(4, -1, 6), *next_round(first=4))


def test_wary_student_never_survives_but_only_ever_loses_one_sanity():
    deal = table([WARY_STUDENT, KEY, CANDELABRA, FLUTE_CURSED, CANDELABRA_CURSED], investigator_or_wary_student="wary_student")
    all_pass(deal).then(
        unclaimed(CANDELABRA_2), revealed([WARY_STUDENT, KEY, CANDELABRA, FLUTE_CURSED, CANDELABRA_CURSED]),
        judged(False, True, False, False, False), sanity_changed(0, -1, 6, cause="wary_student"),
        *(sanity_changed(s, -4, 3) for s in (2, 3, 4)), *next_round(first=2, alternates=[WARY_STUDENT]))


def test_mad_professor_makes_everyone_holding_a_non_artifact_fail_including_its_holder():
    deal = table([MAD_PROFESSOR, KEY, GATE, ELDER_SIGN, CANDELABRA], cultist_or_mad_professor="mad_professor")
    all_pass(deal).then(
        unclaimed(CANDELABRA_2), revealed([MAD_PROFESSOR, KEY, GATE, ELDER_SIGN, CANDELABRA]),
        judged(False, True, False, False, True), *(sanity_changed(s, -3, 4) for s in (0, 2, 3)),
        *next_round(first=2, alternates=[MAD_PROFESSOR]))


def test_mad_professor_keeps_the_normal_survival_rules():
    deal = table([MAD_PROFESSOR, KEY, KEY_CURSED, FLUTE_CURSED, CANDELABRA], cultist_or_mad_professor="mad_professor")
    all_pass(deal).then(
        unclaimed(CANDELABRA_2), revealed([MAD_PROFESSOR, KEY, KEY_CURSED, FLUTE_CURSED, CANDELABRA]),
        judged(False, False, False, False, True), *(sanity_changed(s, -4, 3) for s in (0, 1, 2, 3)),
        *next_round(first=1, alternates=[MAD_PROFESSOR]))


# -- 10-2 Event cards ---------------------------------------------------------------------------------------


def elder_sign_discarded():
    """Seat 1 holds the Elder Sign and takes the cursed Candelabra seat 0 passes it: the Elder Sign is discarded."""
    deal = table([KEY, ELDER_SIGN, DAGGER, FLUTE, IDOL], top=[CANDELABRA_CURSED])
    return given(GAME, *deal).played((0, DRAW), (0, to(1))).when(1, TAKE)


def test_discarding_the_elder_sign_ends_the_round_immediately():
    # the round is revealed at once: no Deck passed, no other turn
    elder_sign_discarded().then(
        taken(1, CANDELABRA_CURSED, discarded=ELDER_SIGN),
        revealed([KEY, CANDELABRA_CURSED, DAGGER, FLUTE, IDOL], cause="elder_sign"),
        judged(True, False, True, True, True), sanity_changed(1, -1, 6), *next_round(first=1))


def test_faq_q2_after_the_elder_sign_you_compare_the_card_you_were_given():
    # seat 1 is judged on the cursed Candelabra it was given (and fails), not on the Elder Sign it discarded
    elder_sign_discarded().then(
        taken(1, CANDELABRA_CURSED, discarded=ELDER_SIGN),
        revealed([KEY, CANDELABRA_CURSED, DAGGER, FLUTE, IDOL], cause="elder_sign"),
        judged(True, False, True, True, True), sanity_changed(1, -1, 6), *next_round(first=1))


def test_discarding_a_gate_when_nobody_holds_a_great_old_one_does_nothing():
    took = given(GAME, *table([KEY, GATE, DAGGER, FLUTE, IDOL], top=[CANDELABRA])).played((0, DRAW), (0, to(1))).when(1, TAKE)
    took.then(taken(1, CANDELABRA, discarded=GATE), ev("gate_found_no_great_old_one", seat=1),
              ev("deck_passed", seat=0, to=2))
    assert GAME.decider.view(took.after, 3)["cleared_of_great_old_one"] == [0, 1, 2, 3, 4]


def test_discarding_a_gate_awakens_a_great_old_one_held_by_another_player():
    # the Great Old One's effect replaces the ritual's judgement: no ritual_judged
    gate_taken([KEY, None, CTHULHU, FLUTE, IDOL]).then(
        *gate_opened([KEY, None, CTHULHU, FLUTE, IDOL]), awakened(CTHULHU, holder=2),
        *(sanity_changed(s, -4, 3, cause="cthulhu") for s in (0, 1, 3, 4)), *next_round(first=1))


def test_faq_q4_taking_cthulhu_while_discarding_a_gate_awakens_it():
    deal = table([KEY, GATE, DAGGER, FLUTE, IDOL], top=[CTHULHU])
    given(GAME, *deal).played((0, DRAW), (0, to(1))).when(1, TAKE).then(
        taken(1, CTHULHU, discarded=GATE), revealed([KEY, CTHULHU, DAGGER, FLUTE, IDOL], cause="great_old_one"),
        awakened(CTHULHU, holder=1), *(sanity_changed(s, -4, 3, cause="cthulhu") for s in (0, 2, 3, 4)), *next_round(first=2))


def orb_discarded(top):
    """Seat 1 holds the Magical Orb and takes the Candelabra seat 0 passes it, ``top`` under it in the Deck."""
    deal = table([KEY, ORB, DAGGER, FLUTE, IDOL], top=[CANDELABRA, *top])
    return given(GAME, *deal).played((0, DRAW), (0, to(1)))


def test_magical_orb_shows_only_the_discarder_the_top_card():
    took = orb_discarded([CTHULHU]).when(1, TAKE)
    took.then(taken(1, CANDELABRA, discarded=ORB),
              ev("top_card_seen", seat=1, card=CTHULHU, by="magical_orb", secret={"card": [1]}))
    state = took.after
    assert isinstance(state.phase, Peeking) and offered(GAME, state, 1) == [RETURN, REMOVE]
    assert GAME.decider.view(state, 1)["remembered"]["deck_top"] == CTHULHU
    assert GAME.decider.view(state, 2)["remembered"]["deck_top"] is None
    given_state(GAME, state).when(1, DRAW).refused("rules/must_return_or_remove_the_top_card")


def test_magical_orb_may_return_the_card_to_the_top_of_the_deck():
    seen = orb_discarded([CTHULHU]).played((1, TAKE))
    seen.when(1, RETURN).then(ev("top_card_returned", seat=1), ev("deck_passed", seat=0, to=2))
    seen.played((1, RETURN)).when(2, DRAW).then(drawn(2, CTHULHU))


def test_magical_orb_may_remove_the_card_from_the_game_face_down():
    seen = orb_discarded([CTHULHU, IDOL_2]).played((1, TAKE))
    removed = seen.when(1, REMOVE).then(ev("top_card_removed", seat=1, card=CTHULHU, secret={"card": [1]}),
                                        ev("deck_passed", seat=0, to=2))
    assert GAME.decider.view(removed.after, 3)["removed_count"] == 1
    assert GAME.decider.view(removed.after, 1)["remembered"]["removed"] == [CTHULHU]
    seen.played((1, REMOVE)).when(2, DRAW).then(drawn(2, IDOL_2))


def test_the_card_seen_with_the_orb_is_known_to_its_viewer_when_it_comes_back_to_them():
    back = orb_discarded([KEY_CURSED]).played((1, TAKE), (1, RETURN), (2, DRAW), (2, to(1)))
    assert GAME.decider.view(back.state, 1)["passed_card"]["card"] == KEY_CURSED
    state = back.played((1, TAKE)).state
    assert GAME.decider.view(state, 1)["remembered"]["own_card"] == KEY_CURSED
    assert GAME.decider.view(state, 2)["remembered"]["own_card"] is None


def trapezohedron_discarded(top, sanity=None):
    """Seat 1 holds the Shining Trapezohedron and takes the Candelabra seat 0 passes it, ``top`` under it."""
    deal = table([KEY, TRAPEZOHEDRON, DAGGER, FLUTE, IDOL], top=[CANDELABRA, top], sanity=sanity,
                 event_card="shining_trapezohedron")
    return given(GAME, *deal).played((0, DRAW), (0, to(1))).when(1, TAKE)


def seen_by_trapezohedron(card, sane):
    return ev("top_card_seen", seat=1, card=card, by="shining_trapezohedron", sane=sane, secret={"card": [1]})


def test_shining_trapezohedron_gains_one_sanity_on_a_sane_top_card_up_to_seven():
    took = trapezohedron_discarded(GATE, sanity=[7, 6, 7, 7, 7]).then(
        taken(1, CANDELABRA, discarded=TRAPEZOHEDRON), seen_by_trapezohedron(GATE, sane=True),
        sanity_changed(1, 1, 7, cause="shining_trapezohedron"), ev("deck_passed", seat=0, to=2))
    assert GAME.decider.view(took.after, 3)["deck_top_colour"] == "sane"
    trapezohedron_discarded(GATE).then(  # at 7 already: no marker gained, no change recorded
        taken(1, CANDELABRA, discarded=TRAPEZOHEDRON), seen_by_trapezohedron(GATE, sane=True),
        ev("deck_passed", seat=0, to=2))


def test_shining_trapezohedron_loses_one_sanity_on_a_cursed_top_card():
    took = trapezohedron_discarded(KEY_CURSED).then(
        taken(1, CANDELABRA, discarded=TRAPEZOHEDRON), seen_by_trapezohedron(KEY_CURSED, sane=False),
        sanity_changed(1, -1, 6, cause="shining_trapezohedron"), ev("deck_passed", seat=0, to=2))
    given_state(GAME, took.after).when(2, DRAW).then(drawn(2, KEY_CURSED))  # the card stays on top


def test_shining_trapezohedron_loss_may_end_the_game_immediately():
    # no round_ended: the game ends at once, before the round is judged
    took = trapezohedron_discarded(KEY_CURSED, sanity=[7, 1, 7, 7, 7]).then(
        taken(1, CANDELABRA, discarded=TRAPEZOHEDRON), seen_by_trapezohedron(KEY_CURSED, sane=False),
        sanity_changed(1, -1, 0, cause="shining_trapezohedron"), game_ended(0, 2, 3, 4))
    assert GAME.decider.outcome(took.after).winners == (0, 2, 3, 4)


# -- 10-4 Great Old Ones ------------------------------------------------------------------------------------


def gate_taken(hands, sanity=None, dummies=None, **options):
    """Seat 1 holds a Gate; seat 0 passes it a sane Candelabra, and it takes it: the Gate is discarded."""
    hands = [GATE if seat == 1 else card for seat, card in enumerate(hands)]
    deal = table(hands, top=[CANDELABRA], sanity=sanity, dummies=dummies, **options)
    return given(GAME, *deal).played((0, DRAW), (0, to(1))).when(1, TAKE)


def gate_opened(hands, dummies=()):
    """``gate_taken``'s first facts: seat 1 takes the Candelabra for its Gate, and the round ends with a Great Old One
    held (its effect follows)."""
    cards = [CANDELABRA if seat == 1 else card for seat, card in enumerate(hands)]
    return [taken(1, CANDELABRA, discarded=GATE, players=len(hands)),
            revealed(cards, cause="great_old_one", dummy_cards=dummies)]


def test_cthulhu_makes_every_other_player_lose_the_number_of_players_minus_one():
    hands = [KEY, None, CTHULHU, FLUTE, IDOL, WARY_STUDENT]
    gate_taken(hands, investigator_or_wary_student="wary_student").then(
        *gate_opened(hands), awakened(CTHULHU, holder=2), *(sanity_changed(s, -5, 2, cause="cthulhu") for s in (0, 1, 3, 4, 5)),
        *next_round(first=1, players=6, alternates=[WARY_STUDENT]))


def test_a_great_old_one_held_by_a_dummy_player_awakens_and_dummies_count_as_players():
    gate_taken([KEY, None, DAGGER], dummies=[CTHULHU, FLUTE]).then(
        *gate_opened([KEY, None, DAGGER], dummies=[CTHULHU, FLUTE]), awakened(CTHULHU, dummy=0),
        *(sanity_changed(s, -4, 3, cause="cthulhu") for s in (0, 1, 2)), *next_round(first=1, players=3, dummies=2))


def test_characters_have_no_effect_when_a_great_old_one_ends_the_round():
    # the Investigator neither survives nor gains, and the Cultist changes nothing
    hands = [INVESTIGATOR, None, CTHULHU, CULTIST, IDOL]
    gate_taken(hands, sanity=[5, 7, 7, 7, 7]).then(
        *gate_opened(hands), awakened(CTHULHU, holder=2), sanity_changed(0, -4, 1, cause="cthulhu"),
        *(sanity_changed(s, -4, 3, cause="cthulhu") for s in (1, 3, 4)), *next_round(first=0))


def test_nyarlathotep_the_most_sanity_players_lose_the_normal_amount_and_the_holder_gains_it():
    # seats 1 and 3 tie for the most Sanity (6): two fail, so each loses 2; the holder gains the 4 lost
    hands = [KEY, None, NYARLATHOTEP, FLUTE, IDOL]
    gate_taken(hands, sanity=[5, 6, 3, 6, 2], great_old_one="nyarlathotep").then(
        *gate_opened(hands), awakened(NYARLATHOTEP, holder=2), sanity_changed(1, -2, 4, cause="nyarlathotep"),
        sanity_changed(3, -2, 4, cause="nyarlathotep"), sanity_changed(2, 4, 7, cause="nyarlathotep"),
        *next_round(first=4, alternates=[NYARLATHOTEP]))


def test_nyarlathotep_gain_never_exceeds_seven():
    hands = [KEY, None, NYARLATHOTEP, FLUTE, IDOL]
    gate_taken(hands, sanity=[5, 7, 6, 4, 2], great_old_one="nyarlathotep").then(
        *gate_opened(hands), awakened(NYARLATHOTEP, holder=2), sanity_changed(1, -1, 6, cause="nyarlathotep"),
        sanity_changed(2, 1, 7, cause="nyarlathotep"), *next_round(first=4, alternates=[NYARLATHOTEP]))


def consumed(*losses):
    """Yog-Sothoth's effect: each ``(seat, markers)`` loses them all."""
    return [sanity_changed(seat, -left, 0, cause="yog_sothoth") for seat, left in losses]


def test_yog_sothoth_consumes_everyone_but_the_least_sanity_player_and_the_holder():
    hands = [KEY, None, YOG_SOTHOTH, FLUTE, IDOL]
    gate_taken(hands, sanity=[5, 6, 4, 2, 7], great_old_one="yog_sothoth").then(
        *gate_opened(hands), awakened(YOG_SOTHOTH, holder=2), *consumed((0, 5), (1, 6), (4, 7)), game_ended(2, 3))


def test_yog_sothoth_on_a_tie_for_least_sanity_the_holder_keeps_one_and_everyone_else_loses_one():
    hands = [KEY, None, YOG_SOTHOTH, FLUTE, IDOL]
    gate_taken(hands, sanity=[5, 2, 4, 2, 7], great_old_one="yog_sothoth").then(
        *gate_opened(hands), awakened(YOG_SOTHOTH, holder=2), sanity_changed(0, -1, 4, cause="yog_sothoth"),
        sanity_changed(1, -1, 1, cause="yog_sothoth"), sanity_changed(2, -3, 1, cause="yog_sothoth"),
        sanity_changed(3, -1, 1, cause="yog_sothoth"), sanity_changed(4, -1, 6, cause="yog_sothoth"),
        *next_round(first=1, alternates=[YOG_SOTHOTH]))


def test_yog_sothoth_when_its_holder_has_the_least_sanity_everyone_else_is_consumed():
    hands = [KEY, None, YOG_SOTHOTH, FLUTE, IDOL]
    gate_taken(hands, sanity=[5, 6, 2, 4, 7], great_old_one="yog_sothoth").then(
        *gate_opened(hands), awakened(YOG_SOTHOTH, holder=2), *consumed((0, 5), (1, 6), (3, 4), (4, 7)), game_ended(2))


def test_yog_sothoth_held_by_a_dummy_consumes_everyone_but_the_least_sanity_player():
    gate_taken([KEY, None, DAGGER], sanity=[5, 3, 6], dummies=[YOG_SOTHOTH, FLUTE], great_old_one="yog_sothoth").then(
        *gate_opened([KEY, None, DAGGER], dummies=[YOG_SOTHOTH, FLUTE]), awakened(YOG_SOTHOTH, dummy=0),
        *consumed((0, 5), (2, 6)), game_ended(1))


def test_yog_sothoth_held_by_a_dummy_on_a_tie_for_least_everyone_loses_one():
    gate_taken([KEY, None, DAGGER], sanity=[3, 3, 6], dummies=[YOG_SOTHOTH, FLUTE], great_old_one="yog_sothoth").then(
        *gate_opened([KEY, None, DAGGER], dummies=[YOG_SOTHOTH, FLUTE]), awakened(YOG_SOTHOTH, dummy=0),
        sanity_changed(0, -1, 2, cause="yog_sothoth"), sanity_changed(1, -1, 2, cause="yog_sothoth"),
        sanity_changed(2, -1, 5, cause="yog_sothoth"), *next_round(first=1, players=3, dummies=2, alternates=[YOG_SOTHOTH]))


def test_nyarlathotep_held_by_a_dummy_the_most_sanity_players_lose_and_nobody_gains():
    gate_taken([KEY, None, DAGGER], sanity=[5, 6, 6], dummies=[NYARLATHOTEP, FLUTE], great_old_one="nyarlathotep").then(
        *gate_opened([KEY, None, DAGGER], dummies=[NYARLATHOTEP, FLUTE]), awakened(NYARLATHOTEP, dummy=0),
        sanity_changed(1, -2, 4, cause="nyarlathotep"), sanity_changed(2, -2, 4, cause="nyarlathotep"),
        *next_round(first=1, players=3, dummies=2, alternates=[NYARLATHOTEP]))


def test_hastur_counts_dummy_artifacts_among_the_non_survivors_and_dummy_cursed_cards():
    # artifacts: seat 0's Key, seat 1's taken Candelabra, both Dummies' (4); cursed: Hastur and the Dagger (2)
    gate_taken([KEY, None, HASTUR], dummies=[DAGGER_CURSED, FLUTE], great_old_one="hastur").then(
        *gate_opened([KEY, None, HASTUR], dummies=[DAGGER_CURSED, FLUTE]), awakened(HASTUR, holder=2),
        sanity_changed(0, -6, 1, cause="hastur"), sanity_changed(1, -6, 1, cause="hastur"),
        *next_round(first=1, players=3, dummies=2, alternates=[HASTUR]))


def test_hastur_artifact_holders_lose_the_normal_amount_plus_the_number_of_cursed_cards():
    # after the take: artifacts held by seats 0, 1 (the Candelabra it took) and 4; cursed: Hastur and the Dagger
    hands = [KEY, None, HASTUR, INVESTIGATOR, DAGGER_CURSED]
    gate_taken(hands, great_old_one="hastur").then(
        *gate_opened(hands), awakened(HASTUR, holder=2), *(sanity_changed(s, -5, 2, cause="hastur") for s in (0, 1, 4)),
        *next_round(first=1, alternates=[HASTUR]))


# -- 8. End of the game -------------------------------------------------------------------------------------


def last_sanity(**options):
    """A deal where only D (one Sanity Marker left) fails the ritual, once the card has gone round to E."""
    return all_pass(table([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL], sanity=[7, 5, 7, 1, 6], **options))


def the_last_marker_lost(*winners):
    """``last_sanity``'s round ending: D's cursed Bone Flute costs her the last marker, and the game ends."""
    return [unclaimed(CANDELABRA_2), revealed([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL]),
            judged(True, True, True, False, True), sanity_changed(3, -1, 0), game_ended(*winners)]


def test_the_game_ends_when_a_player_has_no_sanity_and_every_other_player_wins():
    ended = last_sanity().then(*the_last_marker_lost(0, 1, 2, 4))
    state = ended.after
    assert isinstance(state.phase, Finished)
    assert GAME.decider.outcome(state).winners == (0, 1, 2, 4)
    assert GAME.decider.outcome(state).scores == (7.0, 5.0, 7.0, 0.0, 6.0)
    assert offered(GAME, state, 0) == [] and GAME.decider.to_act(state) == frozenset()


def test_competitive_variant_the_most_sanity_wins_and_ties_share_the_victory():
    ended = last_sanity(competitive=True).then(*the_last_marker_lost(0, 2))
    assert GAME.decider.outcome(ended.after).winners == (0, 2)


def test_if_every_player_is_consumed_nobody_wins():
    ended = gate_taken([KEY, None, DAGGER], sanity=[2, 3, 4], dummies=[CTHULHU, FLUTE]).then(
        *gate_opened([KEY, None, DAGGER], dummies=[CTHULHU, FLUTE]), awakened(CTHULHU, dummy=0),
        sanity_changed(0, -2, 0, cause="cthulhu"), sanity_changed(1, -3, 0, cause="cthulhu"), sanity_changed(2, -4, 0, cause="cthulhu"),
        game_ended())
    assert GAME.decider.outcome(ended.after).winners == ()


def test_competitive_variant_nobody_wins_if_every_player_is_consumed():
    ended = gate_taken([KEY, None, DAGGER], sanity=[2, 3, 4], dummies=[CTHULHU, FLUTE], competitive=True).then(
        *gate_opened([KEY, None, DAGGER], dummies=[CTHULHU, FLUTE]), awakened(CTHULHU, dummy=0),
        sanity_changed(0, -2, 0, cause="cthulhu"), sanity_changed(1, -3, 0, cause="cthulhu"), sanity_changed(2, -4, 0, cause="cthulhu"),
        game_ended())
    assert GAME.decider.outcome(ended.after).winners == ()


# -- 13. Doom Track -----------------------------------------------------------------------------------------


def test_doom_track_non_survivors_lose_the_current_spot_and_it_advances_after_each_round():
    # Example 3's deal with the Doom Track on its first spot: four fail, and each loses 1, not 4
    ended = all_pass(table([KEY, CANDELABRA, CULTIST, FLUTE_CURSED, CANDELABRA_CURSED], doom_track=True)).then(
        unclaimed(CANDELABRA_2), revealed([KEY, CANDELABRA, CULTIST, FLUTE_CURSED, CANDELABRA_CURSED]),
        judged(False, False, False, True, False, loss=1), *(sanity_changed(s, -1, 6) for s in (0, 1, 2, 4)),
        ev("doom_advanced", spot=2), *next_round(first=1))
    assert GAME.decider.view(ended.after, 0)["doom"] == 2


def test_doom_track_spot_three_costs_three_markers():
    all_pass(table([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL], doom_track=True, doom=3)).then(
        unclaimed(CANDELABRA_2), revealed([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL]),
        judged(True, True, True, False, True, loss=3), sanity_changed(3, -3, 4), ev("doom_advanced", spot=4),
        *next_round(first=3))


def test_doom_track_sets_the_normal_amount_in_great_old_one_effects():
    # Hastur with the marker on spot 2: 2, plus the two cursed cards; the marker advances after this round too
    hands = [KEY, None, HASTUR, INVESTIGATOR, DAGGER_CURSED]
    gate_taken(hands, great_old_one="hastur", doom_track=True, doom=2).then(
        *gate_opened(hands), awakened(HASTUR, holder=2), *(sanity_changed(s, -4, 3, cause="hastur") for s in (0, 1, 4)),
        ev("doom_advanced", spot=3), *next_round(first=1, alternates=[HASTUR]))


def test_doom_track_wary_student_still_loses_only_one():
    deal = table([WARY_STUDENT, KEY, CANDELABRA, FLUTE_CURSED, IDOL], doom_track=True, doom=3,
                 investigator_or_wary_student="wary_student")
    all_pass(deal).then(
        unclaimed(CANDELABRA_2), revealed([WARY_STUDENT, KEY, CANDELABRA, FLUTE_CURSED, IDOL]),
        judged(False, True, True, False, True, loss=3), sanity_changed(0, -1, 6, cause="wary_student"), sanity_changed(3, -3, 4),
        ev("doom_advanced", spot=4), *next_round(first=3, alternates=[WARY_STUDENT]))


def test_the_doom_track_does_not_advance_when_the_round_ends_the_game():
    all_pass(table([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL], doom_track=True, sanity=[7, 7, 7, 1, 7])).then(
        unclaimed(CANDELABRA_2), revealed([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL]),
        judged(True, True, True, False, True, loss=1), sanity_changed(3, -1, 0), game_ended(0, 1, 2, 4))


# -- FAQ Q3 and errors ---------------------------------------------------------------------------------------


def test_faq_q3_a_player_can_never_look_at_their_own_card():
    state = given(GAME, *table(FIVE_UNIQUE, top=[KEY_2])).played((0, DRAW), (0, to(1)), (1, TAKE)).state
    for seat in range(5):
        v = GAME.decider.view(state, seat)
        assert v["cards"][seat] is None and v["remembered"]["own_card"] is None
    assert all(c["type"] != "look" for s in range(5) for c in offered(GAME, state, s))


def test_rule_violations_never_name_a_hidden_card():
    g = given(GAME, *table(FIVE_UNIQUE, top=[CTHULHU])).played((0, DRAW), (0, to(3)))
    for seat, command, code in [(1, TAKE, "rules/not_your_turn"), (3, to(0), "rules/must_pass_to_a_hand_on_the_table"),
                                (3, to(3), "rules/must_pass_to_a_hand_on_the_table"),
                                (3, NOBODY, "rules/must_pass_to_a_hand_on_the_table"),
                                (3, DRAW, "rules/must_take_or_pass"), (0, to(1), "rules/not_your_turn")]:
        refusal = g.when(seat, command).refused(code)
        text = str(refusal.to_json())
        assert "Cthulhu" not in text and str(CTHULHU) not in text


def test_unknown_commands_and_bad_shapes_are_refused():
    g = given(GAME, *table(FIVE_UNIQUE))
    g.when(0, {"type": "look_at_card"}).refused("rules/unknown_command")
    assert isinstance(g.state.phase, Drawing) and not isinstance(g.state.phase, Passing)


def test_an_orb_discarded_when_the_deck_is_empty_does_nothing_and_the_round_ends():
    last_card([KEY, ORB, DAGGER, FLUTE, IDOL], CANDELABRA).when(1, TAKE).then(
        taken(1, CANDELABRA, discarded=ORB), revealed([KEY, CANDELABRA, DAGGER, FLUTE, IDOL], cause="deck_empty"),
        judged(True, True, True, True, True), *next_round(first=1))


def test_seats_consumed_by_the_ritual_never_win_when_the_survivor_resigned():
    """Resignation (docs/rulings/arkham-ritual.md): seat 0 resigns before the first move and the table's AI plays it
    to the end (seed 1003), where Sanity stands 3, 0, 0, 0. The only survivor resigned; the other seats are consumed
    and lose (8, End of a Game): nobody wins, rather than the three consumed seats."""
    seating, table = resigned_and_played_out(GAME, 4, [0], seed=1003)
    assert table.game.sanity == (3, 0, 0, 0) and GAME.decider.outcome(table.game).winners == (0,)
    assert seating.outcome(table).winners == ()
