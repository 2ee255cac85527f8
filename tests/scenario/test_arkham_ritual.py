"""Arkham Ritual rulebook scenarios: one test per rule, named after it, on fixed deals.

Seats are clockwise 0, 1, 2…; in the rulebook's examples Player A is seat 0, B seat 1 and so on.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared.kernel import EVERYONE, ev, fold, redact
from shared.games.arkham_ritual import GAME
from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.rules import dummies_for
from shared.games.arkham_ritual.state import Drawing, Finished, Offered, Passing, Peeking
from tests.support.scenario import ENTROPY, decide, first_difference, given, given_state, offered, play_from, play_moves
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


def table(hands, top=(), dummies=None, active=0, sanity=None, doom=None, **options):
    """The events of a first-round position with a fixed deal: ``top`` are the first cards of the Deck."""
    players = len(hands)
    dummies = list(dummies) if dummies is not None else []
    resolved = GAME.resolve_options(options)
    chosen = C.cards_in_play({g: resolved[g] for g in C.GROUPS})
    placed = [*hands, *dummies, *top]
    assert len(set(placed)) == len(placed) and set(placed) <= set(chosen), "the deal uses distinct cards in play"
    deck = [*top, *(c for c in sorted(chosen) if c not in placed)]
    events = [
        ev("game_started", players=players, dummies=len(dummies), cards=list(chosen),
           doom_track=resolved["doom_track"], competitive=resolved["competitive"], sanity=7),
        ev("round_started", round=1),
        *(ev("hand_dealt", seat=s, card=c, secret={"card": [o for o in range(players) if o != s]})
          for s, c in enumerate(hands)),
        *(ev("dummy_dealt", dummy=d, card=c) for d, c in enumerate(dummies)),
        ev("deck_formed", size=len(deck), cards=deck, secret={"cards": []}),
    ]
    for seat, value in enumerate(sanity or []):
        if value != 7:
            events.append(ev("sanity_changed", seat=seat, change=value - 7, sanity=value, cause="scenario"))
    if doom:
        events.append(ev("doom_advanced", spot=doom))
    events.append(ev("active_player_chosen", seat=active, rule="random"))
    return events


def everyone_passes(active, order):
    """The Active Player draws and passes; every Follower in ``order`` passes; the last one has nobody left."""
    moves = [(active, DRAW), (active, to(order[0]))]
    moves += [(a, to(b)) for a, b in zip(order, order[1:])]
    return [*moves, (order[-1], NOBODY)]


def of_type(events, kind):
    return [e for e in events if e.type == kind]


def one(events, kind):
    found = of_type(events, kind)
    assert len(found) == 1, [e.type for e in events]
    return found[0]


def losses(events):
    return {e.data["seat"]: e.data["change"] for e in of_type(events, "sanity_changed")}


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
    events = GAME.decider.setup(5, GAME.resolve_options({}), ENTROPY)
    for e in of_type(events, "hand_dealt"):
        assert "card" not in redact(e, e.data["seat"])
        assert all(redact(e, s)["card"] == e.data["card"] for s in range(5) if s != e.data["seat"])
    deck = one(events, "deck_formed")
    assert all("cards" not in redact(deck, s) for s in range(5)) and redact(deck, 0)["size"] == 17


def test_the_first_active_player_is_chosen_at_random_and_recorded():
    chosen = {one(GAME.decider.setup(5, GAME.resolve_options({}), bytes([i]) * 32), "active_player_chosen").data["seat"]
              for i in range(30)}
    assert len(chosen) > 2
    event = one(GAME.decider.setup(5, GAME.resolve_options({}), ENTROPY), "active_player_chosen")
    assert event.data["rule"] == "random"


def test_later_rounds_start_with_the_lowest_sanity_player():
    state, events = play_from(GAME, table(FIVE_UNIQUE, sanity=[6, 7, 7, 7, 5], active=2), *everyone_passes(2, [3, 4, 0, 1]))
    chosen = one(events, "active_player_chosen")
    assert chosen.data == {"seat": 4, "rule": "lowest_sanity"}
    assert state.round.number == 2 and state.round.active == 4


def test_a_tie_for_lowest_sanity_goes_to_the_closest_clockwise_from_the_last_active_player():
    state, _ = play_from(GAME, table(FIVE_UNIQUE, sanity=[7, 4, 7, 4, 7], active=2), *everyone_passes(2, [3, 4, 0, 1]))
    assert state.round.active == 3


def test_the_last_active_player_comes_last_in_a_tie_for_lowest_sanity():
    state, _ = play_from(GAME, table(FIVE_UNIQUE, sanity=[7, 7, 4, 4, 7], active=2), *everyone_passes(2, [3, 4, 0, 1]))
    assert state.round.active == 3


def test_three_players_play_with_two_dummy_players_and_four_with_one():
    assert [dummies_for(p) for p in range(3, 8)] == [2, 1, 0, 0, 0]
    for players, dummies in ((3, 2), (4, 1), (5, 0)):
        state = given(GAME, *GAME.decider.setup(players, GAME.resolve_options({}), ENTROPY)).state
        assert len(state.round.dummies) == dummies and len(state.sanity) == players
        assert len(state.round.deck) == 22 - players - dummies


def test_dummy_players_cards_are_dealt_face_up():
    events = GAME.decider.setup(3, GAME.resolve_options({}), ENTROPY)
    for e in of_type(events, "dummy_dealt"):
        assert not e.secret
    state = given(GAME, *events).state
    assert GAME.decider.view(state, None)["dummies"] == list(state.round.dummies)


def test_a_dummy_player_may_never_receive_a_card():
    state, _ = play_from(GAME, table([KEY, CANDELABRA, DAGGER], dummies=[FLUTE, IDOL]), (0, DRAW))
    given_state(GAME, state).when(0, to(3)).refused("rules/dummy_players_never_receive_cards")
    given_state(GAME, state).when(0, to(4)).refused("rules/dummy_players_never_receive_cards")
    assert {c["to"] for c in offered(GAME, state, 0)} == {1, 2}


def test_a_dummy_player_never_becomes_the_active_player_and_has_no_sanity():
    # nobody is left with a hand on the table: the Deck goes to the left, to seat 0, never to a Dummy
    state, events = play_from(GAME, table([KEY, CANDELABRA, DAGGER], dummies=[FLUTE, IDOL], active=2),
                         (2, DRAW), (2, to(0)), (0, to(1)), (1, TAKE))
    assert one(events, "deck_passed").data == {"seat": 2, "to": 0}
    assert len(state.sanity) == 3 and GAME.decider.to_act(state) == {0}


def test_dummy_players_count_as_players_when_judging_and_counting():
    # seat 0's sane Candelabra clashes with a Dummy's cursed Candelabra; the Dummy fails too and is counted
    events = table([CANDELABRA, KEY, DAGGER], dummies=[CANDELABRA_CURSED, FLUTE])
    state, produced = play_from(GAME, events, *everyone_passes(0, [1, 2]))
    assert one(produced, "ritual_judged").data == {"survived": [False, True, True, False, True], "failed": 2, "loss": 2}
    assert losses(produced) == {0: -2}


def test_a_cultist_held_by_a_dummy_player_inverts_the_survival_rules():
    events = table([KEY, CANDELABRA_CURSED, FLUTE], dummies=[CULTIST, DAGGER_CURSED])
    _, produced = play_from(GAME, events, *everyone_passes(0, [1, 2]))
    assert one(produced, "ritual_judged").data == {"survived": [False, True, False, False, True], "failed": 3, "loss": 3}
    assert losses(produced) == {0: -3, 2: -3}


def test_a_mad_professor_held_by_a_dummy_player_makes_non_artifact_holders_fail():
    events = table([KEY, ELDER_SIGN, FLUTE], dummies=[MAD_PROFESSOR, DAGGER], cultist_or_mad_professor="mad_professor")
    _, produced = play_from(GAME, events, *everyone_passes(0, [1, 2]))
    assert one(produced, "ritual_judged").data == {"survived": [True, False, True, False, True], "failed": 2, "loss": 2}
    assert losses(produced) == {1: -2}


# -- 6. Player turns ----------------------------------------------------------------------------------------


def test_the_active_player_draws_the_top_card_and_only_they_see_it():
    g = given(GAME, *table(FIVE_UNIQUE, top=[GATE]))
    drawn = g.when(0, DRAW).then_types("card_drawn")[0]
    assert drawn.data["card"] == GATE
    assert redact(drawn, 0)["card"] == GATE
    assert all("card" not in redact(drawn, s) for s in (1, 2, 3, 4, None))
    after = g.when(0, DRAW).after
    assert GAME.decider.view(after, 0)["passed_card"]["card"] == GATE
    assert all("card" not in GAME.decider.view(after, s)["passed_card"] for s in (1, 2, 3, 4, None))


def test_the_active_player_must_draw_before_passing():
    given(GAME, *table(FIVE_UNIQUE)).when(0, to(1)).refused("rules/must_draw_first")


def test_faq_q1_the_active_player_may_not_keep_the_card():
    state, _ = play_from(GAME, table(FIVE_UNIQUE), (0, DRAW))
    given_state(GAME, state).when(0, TAKE).refused("rules/active_player_may_not_keep_the_card")
    given_state(GAME, state).when(0, to(0)).refused("rules/must_pass_to_a_hand_on_the_table")
    given_state(GAME, state).when(0, NOBODY).refused("rules/no_such_player")


def test_at_the_start_of_each_turn_every_follower_places_a_hand_on_the_table():
    """6-1 (1): the Active Player announces the turn and all other players place a hand on the table, before the
    draw; 6-3: at the end of the turn they take them off, and the next turn's Followers place theirs."""
    first = fold(GAME, table(FIVE_UNIQUE, active=2))
    assert isinstance(first.phase, Drawing)
    assert all(GAME.decider.view(first, s)["hands_on_table"] == [0, 1, 3, 4] for s in (*range(5), None))
    state, _ = play_from(GAME, table(FIVE_UNIQUE, active=2), (2, DRAW), (2, to(3)), (3, TAKE))
    assert isinstance(state.phase, Drawing) and state.round.active == 4
    assert GAME.decider.view(state, 1)["hands_on_table"] == [0, 1, 2, 3]


def test_the_active_player_may_pass_the_card_face_down_to_any_follower():
    state, _ = play_from(GAME, table(FIVE_UNIQUE), (0, DRAW))
    assert offered(GAME, state, 0) == [to(1), to(2), to(3), to(4)]
    assert GAME.decider.view(state, 2)["hands_on_table"] == [1, 2, 3, 4]
    passed = given_state(GAME, state).when(0, to(3)).then_types("card_passed")[0]
    assert passed.data == {"seat": 0, "to": 3} and not passed.secret


def test_only_the_player_who_must_decide_may_act():
    state, _ = play_from(GAME, table(FIVE_UNIQUE), (0, DRAW), (0, to(3)))
    given_state(GAME, state).when(1, TAKE).refused("rules/not_your_turn")
    given_state(GAME, state).when(0, to(1)).refused("rules/not_your_turn")
    assert GAME.decider.to_act(state) == {3}


def test_a_follower_who_receives_the_card_takes_their_hand_off_the_table_and_may_take_or_pass():
    state, _ = play_from(GAME, table(FIVE_UNIQUE), (0, DRAW), (0, to(3)))
    assert GAME.decider.view(state, 1)["hands_on_table"] == [1, 2, 4]
    assert offered(GAME, state, 3) == [TAKE, to(1), to(2), to(4)]


def test_a_follower_may_pass_only_to_a_player_with_a_hand_on_the_table():
    state, _ = play_from(GAME, table(FIVE_UNIQUE), (0, DRAW), (0, to(3)), (3, to(1)))
    given_state(GAME, state).when(1, to(3)).refused("rules/must_pass_to_a_hand_on_the_table")
    given_state(GAME, state).when(1, to(0)).refused("rules/must_pass_to_a_hand_on_the_table")
    given_state(GAME, state).when(1, NOBODY).refused("rules/must_pass_to_a_hand_on_the_table")
    assert state.phase == Offered(card=state.phase.card, holder=1, passers=(0, 3))


def test_taking_the_card_discards_the_held_card_face_up_and_the_taker_does_not_see_the_new_one():
    state, events = play_from(GAME, table(FIVE_UNIQUE, top=[KEY_CURSED]), (0, DRAW), (0, to(2)), (2, TAKE))
    taken = one(events, "card_taken")
    assert taken.data == {"seat": 2, "card": KEY_CURSED, "discarded": DAGGER}
    assert "card" not in redact(taken, 2) and redact(taken, 4)["card"] == KEY_CURSED
    assert state.round.discards == (DAGGER,) and state.round.hands[2] == KEY_CURSED
    assert GAME.decider.view(state, 2)["cards"][2] is None and GAME.decider.view(state, 1)["cards"][2] == KEY_CURSED
    assert GAME.decider.view(state, 3)["discards"] == [DAGGER]


def test_if_every_follower_passes_the_card_is_discarded_without_effect_and_the_round_ends():
    # the dropped card is a Gate while a Great Old One is held: nothing awakens, the round is judged normally
    events = table([KEY, CANDELABRA, CTHULHU, FLUTE, IDOL], top=[GATE])
    state, produced = play_from(GAME, events, *everyone_passes(0, [1, 2, 3, 4]))
    assert one(produced, "card_unclaimed").data == {"seat": 4, "card": GATE}
    assert one(produced, "round_ended").data["cause"] == "all_passed"
    assert not of_type(produced, "great_old_one_awakened")
    assert one(produced, "ritual_judged").data["survived"] == [True, True, False, True, True]


def test_the_last_follower_may_pass_to_nobody_only_when_no_hand_is_left_on_the_table():
    state, _ = play_from(GAME, table(FIVE_UNIQUE), (0, DRAW), (0, to(1)), (1, to(2)), (2, to(3)), (3, to(4)))
    assert offered(GAME, state, 4) == [TAKE, NOBODY]


def test_example_1_the_deck_passes_to_the_first_player_clockwise_with_a_hand_on_the_table():
    # Player A (seat 0) is Active; Player B (seat 1) takes the card, so his hand is off the table; Player C has hers on
    taken = given(GAME, *table(FIVE_UNIQUE)).played((0, DRAW), (0, to(1))).when(1, TAKE)
    taken.then(ev("card_taken", seat=1, card=CANDELABRA_2, discarded=CANDELABRA, secret={"card": [0, 2, 3, 4]}),
               ev("deck_passed", seat=0, to=2))
    state = taken.after
    assert state.round.active == 2 and isinstance(state.phase, Drawing)
    assert GAME.decider.view(state, 0)["hands_on_table"] == [0, 1, 3, 4]  # 6-1: the new turn's Followers


def test_the_deck_skips_players_whose_hand_is_off_the_table():
    state, events = play_from(GAME, table(FIVE_UNIQUE), (0, DRAW), (0, to(2)), (2, to(1)), (1, TAKE))
    assert one(events, "deck_passed").data["to"] == 3


def test_with_no_hand_left_on_the_table_the_deck_goes_to_the_players_left():
    state, events = play_from(GAME, table(FIVE_UNIQUE, active=3), (3, DRAW), (3, to(0)), (0, to(1)), (1, to(2)), (2, to(4)), (4, TAKE))
    assert one(events, "deck_passed").data == {"seat": 3, "to": 4}


def test_the_round_ends_when_no_cards_are_left_in_the_deck():
    state = given(GAME, *table(FIVE_UNIQUE, top=[KEY_2])).state
    rest = state.round.deck[1:]
    state = replace(state, round=replace(state.round, deck=(KEY_2,), discards=rest))
    _, events = play_moves(GAME, state, (0, DRAW), (0, to(1)), (1, TAKE))
    assert one(events, "round_ended").data["cause"] == "deck_empty"


def test_a_new_round_shuffles_all_22_cards_again():
    state, _ = play_from(GAME, table(FIVE_UNIQUE, top=[DAGGER_2], dummies=None), *everyone_passes(0, [1, 2, 3, 4]))
    assert state.round.number == 2 and state.round.discards == () and state.round.removed == ()
    GAME.decider.invariant(state)


# -- 7. End of a round --------------------------------------------------------------------------------------


def last_pass(hands):
    """An Example's deal once the drawn card (the Deck's top, the second Candelabra) has gone round to Player E, who
    passes it to nobody: the round ends."""
    moves = everyone_passes(0, [1, 2, 3, 4])
    return given(GAME, *table(hands)).played(*moves[:-1]).when(*moves[-1])


def round_two(first):
    """The second round's deal after every Example's first (a fixed entropy: the same shuffle each time)."""
    hands = [FLUTE_2, CULTIST, ORB, DAGGER, CANDELABRA]
    deck = [INVESTIGATOR, FLUTE_CURSED, CANDELABRA_CURSED, KEY, FLUTE, KEY_CURSED, DAGGER_2, KEY_2, GATE_2,
            IDOL_CURSED, CTHULHU, ELDER_SIGN, GATE, DAGGER_CURSED, CANDELABRA_2, IDOL_2, IDOL]
    return [ev("round_started", round=2),
            *(ev("hand_dealt", seat=s, card=c, secret={"card": [o for o in range(5) if o != s]}) for s, c in enumerate(hands)),
            ev("deck_formed", size=17, cards=deck, secret={"cards": []}),
            ev("active_player_chosen", seat=first, rule="lowest_sanity")]


def test_example_2_cursed_cards_and_shared_artifacts_do_not_survive():
    # A Silver Key, B Candelabra (sane), C Ritual Dagger, D cursed Bone Flute, E cursed Candelabra. B, D and E do not
    # survive and "lose their sanity" (three non-survivors: 3 markers each, 7-3); A and C keep theirs.
    ended = last_pass([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, CANDELABRA_CURSED])
    ended.then(ev("card_unclaimed", seat=4, card=CANDELABRA_2),
               ev("round_ended", round=1, cause="all_passed", cards=[KEY, CANDELABRA, DAGGER, FLUTE_CURSED, CANDELABRA_CURSED],
                  dummy_cards=[]),
               ev("ritual_judged", survived=[True, False, True, False, False], failed=3, loss=3),
               *(ev("sanity_changed", seat=s, change=-3, sanity=4, cause="failed_ritual") for s in (1, 3, 4)),
               *round_two(first=1))
    assert ended.after.sanity == (7, 4, 7, 4, 4)


def test_example_3_with_the_cultist_only_a_unique_cursed_card_survives():
    # A Silver Key, B Candelabra, C Cultist (all sane), D cursed Bone Flute, E cursed Candelabra: with the Cultist
    # out, only D's unique cursed card survives.
    last_pass([KEY, CANDELABRA, CULTIST, FLUTE_CURSED, CANDELABRA_CURSED]).then(
        ev("card_unclaimed", seat=4, card=CANDELABRA_2),
        ev("round_ended", round=1, cause="all_passed", cards=[KEY, CANDELABRA, CULTIST, FLUTE_CURSED, CANDELABRA_CURSED],
           dummy_cards=[]),
        ev("ritual_judged", survived=[False, False, False, True, False], failed=4, loss=4),
        *(ev("sanity_changed", seat=s, change=-4, sanity=3, cause="failed_ritual") for s in (0, 1, 2, 4)),
        *round_two(first=1))


def test_example_4_every_non_survivor_loses_one_marker_per_non_survivor():
    # Example 3's round: four players did not survive, so each of them discards 4 Sanity Markers; D keeps 7.
    ended = last_pass([KEY, CANDELABRA, CULTIST, FLUTE_CURSED, CANDELABRA_CURSED])
    judged = [e for e in ended.events if e.type in ("ritual_judged", "sanity_changed")]
    assert first_difference([ev("ritual_judged", survived=[False, False, False, True, False], failed=4, loss=4),
                             *(ev("sanity_changed", seat=s, change=-4, sanity=3, cause="failed_ritual") for s in (0, 1, 2, 4))],
                            judged) is None
    assert ended.after.sanity == (3, 3, 3, 7, 3)


def test_the_round_end_reveals_every_card_to_everyone():
    _, events = play_from(GAME, table(FIVE_UNIQUE), *everyone_passes(0, [1, 2, 3, 4]))
    ended = one(events, "round_ended")
    assert not ended.secret and ended.data["cards"] == FIVE_UNIQUE


def test_sane_event_and_character_cards_survive_and_the_two_gates_are_not_the_same_card():
    _, events = play_from(GAME, table([GATE, GATE_2, ELDER_SIGN, INVESTIGATOR, KEY]), *everyone_passes(0, [1, 2, 3, 4]))
    assert one(events, "ritual_judged").data["survived"] == [True, True, True, True, True]
    assert losses(events) == {}


def test_with_the_cultist_a_great_old_one_survives_and_the_cultist_never_does():
    _, events = play_from(GAME, table([CTHULHU, CULTIST, KEY_CURSED, KEY, GATE]), *everyone_passes(0, [1, 2, 3, 4]))
    assert one(events, "ritual_judged").data["survived"] == [True, False, False, False, False]


def test_investigator_gains_one_sanity_if_they_survived():
    _, events = play_from(GAME, table([INVESTIGATOR, KEY, CANDELABRA, DAGGER, FLUTE_CURSED], sanity=[5, 7, 7, 7, 7]),
                     *everyone_passes(0, [1, 2, 3, 4]))
    assert losses(events) == {0: 1, 4: -1}


def test_investigator_gains_nothing_if_they_did_not_survive():
    _, events = play_from(GAME, table([INVESTIGATOR, KEY, CULTIST, DAGGER, FLUTE_CURSED], sanity=[5, 7, 7, 7, 7]),
                     *everyone_passes(0, [1, 2, 3, 4]))
    assert losses(events)[0] == -4


def test_faq_q5_sanity_never_exceeds_seven():
    _, events = play_from(GAME, table([INVESTIGATOR, KEY, CANDELABRA, DAGGER, FLUTE_CURSED]), *everyone_passes(0, [1, 2, 3, 4]))
    assert 0 not in losses(events)


def test_wary_student_never_survives_but_only_ever_loses_one_sanity():
    events = table([WARY_STUDENT, KEY, CANDELABRA, FLUTE_CURSED, CANDELABRA_CURSED], investigator_or_wary_student="wary_student")
    state, produced = play_from(GAME, events, *everyone_passes(0, [1, 2, 3, 4]))
    judged = one(produced, "ritual_judged").data
    assert judged["survived"] == [False, True, False, False, False] and judged["loss"] == 4
    assert losses(produced) == {0: -1, 2: -4, 3: -4, 4: -4}


def test_mad_professor_makes_everyone_holding_a_non_artifact_fail_including_its_holder():
    events = table([MAD_PROFESSOR, KEY, GATE, ELDER_SIGN, CANDELABRA], cultist_or_mad_professor="mad_professor")
    _, produced = play_from(GAME, events, *everyone_passes(0, [1, 2, 3, 4]))
    assert one(produced, "ritual_judged").data["survived"] == [False, True, False, False, True]


def test_mad_professor_keeps_the_normal_survival_rules():
    events = table([MAD_PROFESSOR, KEY, KEY_CURSED, FLUTE_CURSED, CANDELABRA], cultist_or_mad_professor="mad_professor")
    _, produced = play_from(GAME, events, *everyone_passes(0, [1, 2, 3, 4]))
    assert one(produced, "ritual_judged").data["survived"] == [False, False, False, False, True]


# -- 10-2 Event cards ---------------------------------------------------------------------------------------


def test_discarding_the_elder_sign_ends_the_round_immediately():
    state, events = play_from(GAME, table([KEY, ELDER_SIGN, DAGGER, FLUTE, IDOL], top=[CANDELABRA_CURSED]), (0, DRAW), (0, to(1)), (1, TAKE))
    assert one(events, "round_ended").data["cause"] == "elder_sign"
    assert state.round.number == 2


def test_faq_q2_after_the_elder_sign_you_compare_the_card_you_were_given():
    _, events = play_from(GAME, table([KEY, ELDER_SIGN, DAGGER, FLUTE, IDOL], top=[CANDELABRA_CURSED]), (0, DRAW), (0, to(1)), (1, TAKE))
    assert one(events, "round_ended").data["cards"][1] == CANDELABRA_CURSED
    assert one(events, "ritual_judged").data["survived"] == [True, False, True, True, True]


def test_discarding_a_gate_when_nobody_holds_a_great_old_one_does_nothing():
    taken = given(GAME, *table([KEY, GATE, DAGGER, FLUTE, IDOL], top=[CANDELABRA])).played((0, DRAW), (0, to(1))).when(1, TAKE)
    taken.then(ev("card_taken", seat=1, card=CANDELABRA, discarded=GATE, secret={"card": [0, 2, 3, 4]}),
               ev("gate_found_no_great_old_one", seat=1),
               ev("deck_passed", seat=0, to=2))
    state = taken.after
    assert state.round.number == 1
    assert GAME.decider.view(state, 3)["cleared_of_great_old_one"] == [0, 1, 2, 3, 4]


def test_discarding_a_gate_awakens_a_great_old_one_held_by_another_player():
    state, events = play_from(GAME, table([KEY, GATE, CTHULHU, FLUTE, IDOL], top=[CANDELABRA]), (0, DRAW), (0, to(1)), (1, TAKE))
    assert one(events, "round_ended").data["cause"] == "great_old_one"
    assert one(events, "great_old_one_awakened").data == {"card": CTHULHU, "holder": 2, "dummy": None}
    assert not of_type(events, "ritual_judged")


def test_faq_q4_taking_cthulhu_while_discarding_a_gate_awakens_it():
    _, events = play_from(GAME, table([KEY, GATE, DAGGER, FLUTE, IDOL], top=[CTHULHU]), (0, DRAW), (0, to(1)), (1, TAKE))
    assert one(events, "great_old_one_awakened").data["holder"] == 1
    assert losses(events) == {0: -4, 2: -4, 3: -4, 4: -4}


def test_magical_orb_shows_only_the_discarder_the_top_card():
    taken = given(GAME, *table([KEY, ORB, DAGGER, FLUTE, IDOL], top=[CANDELABRA, CTHULHU])).played(
        (0, DRAW), (0, to(1))).when(1, TAKE)
    taken.then(ev("card_taken", seat=1, card=CANDELABRA, discarded=ORB, secret={"card": [0, 2, 3, 4]}),
               ev("top_card_seen", seat=1, card=CTHULHU, by="magical_orb", secret={"card": [1]}))
    state = taken.after
    assert isinstance(state.phase, Peeking) and offered(GAME, state, 1) == [RETURN, REMOVE]
    assert GAME.decider.view(state, 1)["remembered"]["deck_top"] == CTHULHU
    assert GAME.decider.view(state, 2)["remembered"]["deck_top"] is None
    given_state(GAME, state).when(1, DRAW).refused("rules/must_return_or_remove_the_top_card")


def test_magical_orb_may_return_the_card_to_the_top_of_the_deck():
    returned = given(GAME, *table([KEY, ORB, DAGGER, FLUTE, IDOL], top=[CANDELABRA, CTHULHU])).played(
        (0, DRAW), (0, to(1)), (1, TAKE)).when(1, RETURN)
    returned.then(ev("top_card_returned", seat=1), ev("deck_passed", seat=0, to=2))
    state = returned.after
    assert state.round.deck[0] == CTHULHU and state.round.active == 2
    state, events = play_moves(GAME, state, (2, DRAW))
    assert one(events, "card_drawn").data["card"] == CTHULHU


def test_magical_orb_may_remove_the_card_from_the_game_face_down():
    removed = given(GAME, *table([KEY, ORB, DAGGER, FLUTE, IDOL], top=[CANDELABRA, CTHULHU, IDOL_2])).played(
        (0, DRAW), (0, to(1)), (1, TAKE)).when(1, REMOVE)
    removed.then(ev("top_card_removed", seat=1, card=CTHULHU, secret={"card": [1]}), ev("deck_passed", seat=0, to=2))
    state = removed.after
    assert state.round.removed == (CTHULHU,) and state.round.deck[0] == IDOL_2
    assert GAME.decider.view(state, 3)["removed_count"] == 1 and GAME.decider.view(state, 1)["remembered"]["removed"] == [CTHULHU]


def test_the_card_seen_with_the_orb_is_known_to_its_viewer_when_it_comes_back_to_them():
    state, _ = play_from(GAME, table([KEY, ORB, DAGGER, FLUTE, IDOL], top=[CANDELABRA, KEY_CURSED]),
                    (0, DRAW), (0, to(1)), (1, TAKE), (1, RETURN), (2, DRAW), (2, to(1)))
    assert GAME.decider.view(state, 1)["passed_card"]["card"] == KEY_CURSED
    state, _ = play_moves(GAME, state, (1, TAKE))
    assert GAME.decider.view(state, 1)["remembered"]["own_card"] == KEY_CURSED
    assert GAME.decider.view(state, 2)["remembered"]["own_card"] is None


def test_shining_trapezohedron_gains_one_sanity_on_a_sane_top_card_up_to_seven():
    events = table([KEY, TRAPEZOHEDRON, DAGGER, FLUTE, IDOL], top=[CANDELABRA, GATE], sanity=[7, 6, 7, 7, 7],
                   event_card="shining_trapezohedron")
    taken = given(GAME, *events).played((0, DRAW), (0, to(1))).when(1, TAKE)
    taken.then(ev("card_taken", seat=1, card=CANDELABRA, discarded=TRAPEZOHEDRON, secret={"card": [0, 2, 3, 4]}),
               ev("top_card_seen", seat=1, card=GATE, by="shining_trapezohedron", sane=True, secret={"card": [1]}),
               ev("sanity_changed", seat=1, change=1, sanity=7, cause="shining_trapezohedron"),
               ev("deck_passed", seat=0, to=2))
    state = taken.after
    assert GAME.decider.view(state, 3)["deck_top_colour"] == "sane"
    state, produced = play_from(GAME, table([KEY, TRAPEZOHEDRON, DAGGER, FLUTE, IDOL], top=[CANDELABRA, GATE],
                                 event_card="shining_trapezohedron"), (0, DRAW), (0, to(1)), (1, TAKE))
    assert losses(produced) == {} and state.sanity[1] == 7


def test_shining_trapezohedron_loses_one_sanity_on_a_cursed_top_card():
    events = table([KEY, TRAPEZOHEDRON, DAGGER, FLUTE, IDOL], top=[CANDELABRA, KEY_CURSED],
                   event_card="shining_trapezohedron")
    taken = given(GAME, *events).played((0, DRAW), (0, to(1))).when(1, TAKE)
    taken.then(ev("card_taken", seat=1, card=CANDELABRA, discarded=TRAPEZOHEDRON, secret={"card": [0, 2, 3, 4]}),
               ev("top_card_seen", seat=1, card=KEY_CURSED, by="shining_trapezohedron", sane=False, secret={"card": [1]}),
               ev("sanity_changed", seat=1, change=-1, sanity=6, cause="shining_trapezohedron"),
               ev("deck_passed", seat=0, to=2))
    assert taken.after.round.deck[0] == KEY_CURSED


def test_shining_trapezohedron_loss_may_end_the_game_immediately():
    events = table([KEY, TRAPEZOHEDRON, DAGGER, FLUTE, IDOL], top=[CANDELABRA, KEY_CURSED], sanity=[7, 1, 7, 7, 7],
                   event_card="shining_trapezohedron")
    state, produced = play_from(GAME, events, (0, DRAW), (0, to(1)), (1, TAKE))
    assert not of_type(produced, "round_ended")
    assert one(produced, "game_ended").data["winners"] == [0, 2, 3, 4]
    assert GAME.decider.outcome(state).winners == (0, 2, 3, 4)


# -- 10-4 Great Old Ones ------------------------------------------------------------------------------------


def gate_taken(hands, sanity=None, dummies=None, **options):
    """Seat 1 holds a Gate; seat 0 passes it a sane Candelabra, and it takes it: the Gate is discarded."""
    hands = list(hands)
    hands[1] = GATE
    deal = table(hands, top=[CANDELABRA], sanity=sanity, dummies=dummies, **options)
    return given(GAME, *deal).played((0, DRAW), (0, to(1))).when(1, TAKE)


def gate_opens(hands, sanity=None, dummies=None, **options):
    """``gate_taken``'s position after the take, and its events."""
    taken = gate_taken(hands, sanity, dummies, **options)
    return taken.after, taken.events


def yog_sothoth_awakened(cards, holder, dummy=None, dummy_cards=(), others=(0, 2, 3, 4)):
    """A Gate discarded by seat 1 for the Candelabra: the round ends and Yog-Sothoth awakens."""
    return [ev("card_taken", seat=1, card=CANDELABRA, discarded=GATE, secret={"card": list(others)}),
            ev("round_ended", round=1, cause="great_old_one", cards=cards, dummy_cards=list(dummy_cards)),
            ev("great_old_one_awakened", card=YOG_SOTHOTH, holder=holder, dummy=dummy)]


def consumed(*losses):
    """Yog-Sothoth's effect: each ``(seat, markers)`` loses them all."""
    return [ev("sanity_changed", seat=seat, change=-left, sanity=0, cause="yog_sothoth") for seat, left in losses]


def test_cthulhu_makes_every_other_player_lose_the_number_of_players_minus_one():
    state, events = gate_opens([KEY, None, CTHULHU, FLUTE, IDOL, WARY_STUDENT],
                               investigator_or_wary_student="wary_student")
    assert losses(events) == {0: -5, 1: -5, 3: -5, 4: -5, 5: -5}
    assert state.sanity == (2, 2, 7, 2, 2, 2)


def test_a_great_old_one_held_by_a_dummy_player_awakens_and_dummies_count_as_players():
    state, events = gate_opens([KEY, None, DAGGER], dummies=[CTHULHU, FLUTE])
    assert one(events, "great_old_one_awakened").data == {"card": CTHULHU, "holder": None, "dummy": 0}
    assert losses(events) == {0: -4, 1: -4, 2: -4}


def test_characters_have_no_effect_when_a_great_old_one_ends_the_round():
    state, events = gate_opens([INVESTIGATOR, None, CTHULHU, CULTIST, IDOL], sanity=[5, 7, 7, 7, 7])
    assert losses(events) == {0: -4, 1: -4, 3: -4, 4: -4}


def test_nyarlathotep_the_most_sanity_players_lose_the_normal_amount_and_the_holder_gains_it():
    state, events = gate_opens([KEY, None, NYARLATHOTEP, FLUTE, IDOL], sanity=[5, 6, 3, 6, 2],
                               great_old_one="nyarlathotep")
    assert losses(events) == {1: -2, 3: -2, 2: 4}
    assert state.sanity == (5, 4, 7, 4, 2)


def test_nyarlathotep_gain_never_exceeds_seven():
    state, events = gate_opens([KEY, None, NYARLATHOTEP, FLUTE, IDOL], sanity=[5, 7, 6, 4, 2],
                               great_old_one="nyarlathotep")
    assert losses(events) == {1: -1, 2: 1} and state.sanity[2] == 7


def test_yog_sothoth_consumes_everyone_but_the_least_sanity_player_and_the_holder():
    taken = gate_taken([KEY, None, YOG_SOTHOTH, FLUTE, IDOL], sanity=[5, 6, 4, 2, 7], great_old_one="yog_sothoth")
    taken.then(*yog_sothoth_awakened([KEY, CANDELABRA, YOG_SOTHOTH, FLUTE, IDOL], holder=2), *consumed((0, 5), (1, 6), (4, 7)),
               ev("game_ended", reason="sanity_lost", winners=[2, 3]))


def test_yog_sothoth_on_a_tie_for_least_sanity_the_holder_keeps_one_and_everyone_else_loses_one():
    state, events = gate_opens([KEY, None, YOG_SOTHOTH, FLUTE, IDOL], sanity=[5, 2, 4, 2, 7],
                               great_old_one="yog_sothoth")
    assert state.sanity == (4, 1, 1, 1, 6)
    assert GAME.decider.outcome(state) is None


def test_yog_sothoth_when_its_holder_has_the_least_sanity_everyone_else_is_consumed():
    taken = gate_taken([KEY, None, YOG_SOTHOTH, FLUTE, IDOL], sanity=[5, 6, 2, 4, 7], great_old_one="yog_sothoth")
    taken.then(*yog_sothoth_awakened([KEY, CANDELABRA, YOG_SOTHOTH, FLUTE, IDOL], holder=2),
               *consumed((0, 5), (1, 6), (3, 4), (4, 7)), ev("game_ended", reason="sanity_lost", winners=[2]))


def test_yog_sothoth_held_by_a_dummy_consumes_everyone_but_the_least_sanity_player():
    taken = gate_taken([KEY, None, DAGGER], sanity=[5, 3, 6], dummies=[YOG_SOTHOTH, FLUTE], great_old_one="yog_sothoth")
    taken.then(*yog_sothoth_awakened([KEY, CANDELABRA, DAGGER], holder=None, dummy=0, dummy_cards=[YOG_SOTHOTH, FLUTE], others=(0, 2)),
               *consumed((0, 5), (2, 6)), ev("game_ended", reason="sanity_lost", winners=[1]))


def test_yog_sothoth_held_by_a_dummy_on_a_tie_for_least_everyone_loses_one():
    state, _ = gate_opens([KEY, None, DAGGER], sanity=[3, 3, 6], dummies=[YOG_SOTHOTH, FLUTE],
                          great_old_one="yog_sothoth")
    assert state.sanity == (2, 2, 5)


def test_nyarlathotep_held_by_a_dummy_the_most_sanity_players_lose_and_nobody_gains():
    state, events = gate_opens([KEY, None, DAGGER], sanity=[5, 6, 6], dummies=[NYARLATHOTEP, FLUTE],
                               great_old_one="nyarlathotep")
    assert losses(events) == {1: -2, 2: -2} and state.sanity == (5, 4, 4)


def test_hastur_counts_dummy_artifacts_among_the_non_survivors_and_dummy_cursed_cards():
    # artifacts: seat 0's Key, seat 1's taken Candelabra, both Dummies' (4); cursed: Hastur and the Dagger (2)
    state, events = gate_opens([KEY, None, HASTUR], dummies=[DAGGER_CURSED, FLUTE], great_old_one="hastur")
    assert losses(events) == {0: -6, 1: -6} and state.sanity == (1, 1, 7)


def test_hastur_artifact_holders_lose_the_normal_amount_plus_the_number_of_cursed_cards():
    # after the take: artifacts held by seats 0, 1 (the Candelabra it took) and 4; cursed: Hastur and the Dagger
    state, events = gate_opens([KEY, None, HASTUR, INVESTIGATOR, DAGGER_CURSED], great_old_one="hastur")
    assert losses(events) == {0: -5, 1: -5, 4: -5}


# -- 8. End of the game -------------------------------------------------------------------------------------


def game_ends(winners):
    """The round of ``last_sanity``'s deal ending: D's cursed Bone Flute costs her the last marker, the game ends."""
    return [ev("card_unclaimed", seat=4, card=CANDELABRA_2),
            ev("round_ended", round=1, cause="all_passed", cards=[KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL], dummy_cards=[]),
            ev("ritual_judged", survived=[True, True, True, False, True], failed=1, loss=1),
            ev("sanity_changed", seat=3, change=-1, sanity=0, cause="failed_ritual"),
            ev("game_ended", reason="sanity_lost", winners=winners)]


def last_sanity(**options):
    """A deal where only D (one Sanity Marker left) fails the ritual, once the card has gone round to E."""
    moves = everyone_passes(0, [1, 2, 3, 4])
    deal = table([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL], sanity=[7, 5, 7, 1, 6], **options)
    return given(GAME, *deal).played(*moves[:-1]).when(*moves[-1])


def test_the_game_ends_when_a_player_has_no_sanity_and_every_other_player_wins():
    ended = last_sanity().then(*game_ends(winners=[0, 1, 2, 4]))
    state = ended.after
    assert isinstance(state.phase, Finished)
    assert GAME.decider.outcome(state).winners == (0, 1, 2, 4)
    assert GAME.decider.outcome(state).scores == (7.0, 5.0, 7.0, 0.0, 6.0)
    assert offered(GAME, state, 0) == [] and GAME.decider.to_act(state) == frozenset()


def test_competitive_variant_the_most_sanity_wins_and_ties_share_the_victory():
    ended = last_sanity(competitive=True).then(*game_ends(winners=[0, 2]))
    assert GAME.decider.outcome(ended.after).winners == (0, 2)


def test_if_every_player_is_consumed_nobody_wins():
    state, _ = gate_opens([KEY, None, DAGGER], sanity=[2, 3, 4], dummies=[CTHULHU, FLUTE])
    assert state.sanity == (0, 0, 0) and GAME.decider.outcome(state).winners == ()


def test_competitive_variant_nobody_wins_if_every_player_is_consumed():
    state, _ = gate_opens([KEY, None, DAGGER], sanity=[2, 3, 4], dummies=[CTHULHU, FLUTE], competitive=True)
    assert state.sanity == (0, 0, 0) and GAME.decider.outcome(state).winners == ()


# -- 13. Doom Track -----------------------------------------------------------------------------------------


def test_doom_track_non_survivors_lose_the_current_spot_and_it_advances_after_each_round():
    state, events = play_from(GAME, table([KEY, CANDELABRA, CULTIST, FLUTE_CURSED, CANDELABRA_CURSED], doom_track=True),
                         *everyone_passes(0, [1, 2, 3, 4]))
    assert losses(events) == {0: -1, 1: -1, 2: -1, 4: -1}
    assert one(events, "doom_advanced").data == {"spot": 2} and state.doom == 2
    assert GAME.decider.view(state, 0)["doom"] == 2


def test_doom_track_spot_three_costs_three_markers():
    _, events = play_from(GAME, table([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL], doom_track=True, doom=3),
                     *everyone_passes(0, [1, 2, 3, 4]))
    assert losses(events) == {3: -3}


def test_doom_track_sets_the_normal_amount_in_great_old_one_effects():
    state, events = gate_opens([KEY, None, HASTUR, INVESTIGATOR, DAGGER_CURSED], great_old_one="hastur",
                               doom_track=True, doom=2)
    assert losses(events) == {0: -4, 1: -4, 4: -4}
    # the marker advances after a Great Old One round too
    assert one(events, "doom_advanced").data == {"spot": 3} and state.doom == 3


def test_doom_track_wary_student_still_loses_only_one():
    events = table([WARY_STUDENT, KEY, CANDELABRA, FLUTE_CURSED, IDOL], doom_track=True, doom=3,
                   investigator_or_wary_student="wary_student")
    _, produced = play_from(GAME, events, *everyone_passes(0, [1, 2, 3, 4]))
    assert losses(produced) == {0: -1, 3: -3}


def test_the_doom_track_does_not_advance_when_the_round_ends_the_game():
    events = table([KEY, CANDELABRA, DAGGER, FLUTE_CURSED, IDOL], doom_track=True, sanity=[7, 7, 7, 1, 7])
    state, produced = play_from(GAME, events, *everyone_passes(0, [1, 2, 3, 4]))
    assert isinstance(state.phase, Finished) and not of_type(produced, "doom_advanced")


# -- FAQ Q3 and errors ---------------------------------------------------------------------------------------


def test_faq_q3_a_player_can_never_look_at_their_own_card():
    state, _ = play_from(GAME, table(FIVE_UNIQUE, top=[KEY_2]), (0, DRAW), (0, to(1)), (1, TAKE))
    for seat in range(5):
        v = GAME.decider.view(state, seat)
        assert v["cards"][seat] is None and v["remembered"]["own_card"] is None
    assert all(c["type"] != "look" for s in range(5) for c in offered(GAME, state, s))


def test_rule_violations_never_name_a_hidden_card():
    state, _ = play_from(GAME, table(FIVE_UNIQUE, top=[CTHULHU]), (0, DRAW), (0, to(3)))
    for seat, command in [(1, TAKE), (3, to(0)), (3, to(3)), (3, NOBODY), (3, DRAW), (0, to(1))]:
        try:
            decide(GAME, state, command, seat, ENTROPY)
        except Exception as exc:  # noqa: BLE001 - every refusal is inspected
            text = str(exc.to_json() if hasattr(exc, "to_json") else exc)
            assert "Cthulhu" not in text and str(CTHULHU) not in text
        else:
            raise AssertionError(f"{command} should be refused")


def test_unknown_commands_and_bad_shapes_are_refused():
    state = given(GAME, *table(FIVE_UNIQUE)).state
    given_state(GAME, state).when(0, {"type": "look_at_card"}).refused("rules/unknown_command")
    assert isinstance(state.phase, Drawing) and not isinstance(state.phase, Passing)


def test_an_orb_discarded_when_the_deck_is_empty_does_nothing_and_the_round_ends():
    state = given(GAME, *table([KEY, ORB, DAGGER, FLUTE, IDOL], top=[CANDELABRA])).state
    state = replace(state, round=replace(state.round, deck=(CANDELABRA,), discards=state.round.deck[1:]))
    _, events = play_moves(GAME, state, (0, DRAW), (0, to(1)), (1, TAKE))
    assert not of_type(events, "top_card_seen")
    assert one(events, "round_ended").data["cause"] == "deck_empty"


def test_seats_consumed_by_the_ritual_never_win_when_the_survivor_resigned():
    """Resignation (docs/rulings/arkham-ritual.md): seat 0 resigns before the first move and the table's AI plays it
    to the end (seed 1003), where Sanity stands 3, 0, 0, 0. The only survivor resigned; the other seats are consumed
    and lose (8, End of a Game): nobody wins, rather than the three consumed seats."""
    seating, table = resigned_and_played_out(GAME, 4, [0], seed=1003)
    assert table.game.sanity == (3, 0, 0, 0) and GAME.decider.outcome(table.game).winners == (0,)
    assert seating.outcome(table).winners == ()
