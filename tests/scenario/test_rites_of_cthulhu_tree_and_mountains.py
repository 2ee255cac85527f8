"""The Tree on the Hill (pages 24-28) and At the Mountains of Madness (pages 35-40)."""

from __future__ import annotations

import random

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import entity
from shared.kernel import ev
from tests.support.rites_positions import position
from tests.support.scenario import given, given_state, offered, play_moves, timeout_choice

E = entity
LUKE, JACK, JANE, SUSAN = range(4)
LYNNE, SIDNEY, LANCE, WARREN = range(4)


def grow(name, tree):
    return {"type": "grow_tree", "card": E(name), "tree": tree}


def plant(name):
    return {"type": "plant_tree", "card": E(name)}


TREE_HANDS = {
    LUKE: ["Asenath Waite", "Mother Hydra", "Hastur", "Nyarlathotep", "Shub-Niggurath"],
    JACK: ["Klarkash-Ton", "Randolph Carter", "Walter Gilman", "Nightgaunt", "Azathoth"],
    JANE: ["Edward Pickman Derby", "Deep One", "Bukrog", "Nug", "Yeb"],
    SUSAN: ["Lobon", "Henry Anthony Wilcox", "Nasht", "Zkauba the Wizard", "Pnakotic Fragments"],
}


def tree_example():
    return given(GAME, *position(4, LUKE, TREE_HANDS, ["The Mindless Flutist", "Kamog"], rite="tree_on_the_hill",
                                 artifacts=[9])).state


def test_tree_play_example_susan_wins_with_an_empty_hand():
    state = tree_example()
    # Jane's Edward Pickman Derby follows Jack's Klarkash-Ton on Luke's tree: the same number, a double play.
    given_state(GAME, state).played((LUKE, plant("Asenath Waite")), (JACK, grow("Klarkash-Ton", 0))).when(
        JANE, grow("Edward Pickman Derby", 0)
    ).then(ev("card_played_to_tree", seat=JANE, card=E("Edward Pickman Derby"), tree=0, planted=False, double_play=True))
    state, events = play_moves(
        GAME, state,
        (LUKE, plant("Asenath Waite")),
        (JACK, grow("Klarkash-Ton", 0)),
        (JANE, grow("Edward Pickman Derby", 0)),
        (JANE, plant("Deep One")),
        (SUSAN, grow("Lobon", 1)),
        (SUSAN, grow("Henry Anthony Wilcox", 1)),
        (SUSAN, plant("Nasht")),
    )
    doubles = [e.data["card"] for e in events if e.type == "card_played_to_tree" and e.data["double_play"]]
    assert doubles == [E("Edward Pickman Derby"), E("Lobon"), E("Henry Anthony Wilcox")]
    assert offered(GAME, state, LUKE) == [{"type": "draw_card"}]  # Mother Hydra does not extend Nasht's run
    state, _ = play_moves(GAME, state, (LUKE, {"type": "draw_card"}))
    assert E("The Mindless Flutist") in state.table.hands[LUKE]
    state, events = play_moves(GAME, state, (LUKE, grow("The Mindless Flutist", 2)), (LUKE, grow("Mother Hydra", 2)))
    assert len(state.table.hands[LUKE]) == 3
    state, _ = play_moves(GAME, state, (JACK, {"type": "draw_card"}))
    assert {"type": "end_turn"} in offered(GAME, state, JACK)
    state, _ = play_moves(GAME, state, (JACK, {"type": "end_turn"}))
    assert len(state.table.hands[JACK]) == 5
    # Erratum: Nug cannot go on an incomplete tree after Bukrog completes Jane's tree: she plants it.
    given_state(GAME, play_moves(GAME, state, (JANE, grow("Bukrog", 1)))[0]).when(JANE, grow("Nug", 2)).refused(
        "rules/tree_must_be_a_run")
    state, _ = play_moves(GAME, state, (JANE, grow("Bukrog", 1)), (JANE, plant("Nug")))
    assert len(state.table.hands[JANE]) == 1
    state, events = play_moves(GAME, state, (SUSAN, grow("Zkauba the Wizard", 0)), (SUSAN, plant("Pnakotic Fragments")))
    won = [e.data for e in events if e.type == "rite_won"]
    assert won == [{"seat": SUSAN, "reason": "emptied_hand"}] and 9 in state.captured[SUSAN]


def test_a_tree_may_not_repeat_a_number():
    state, _ = play_moves(GAME, tree_example(), (LUKE, plant("Asenath Waite")))
    given_state(GAME, state).when(JACK, grow("Randolph Carter", 0)).refused("rules/tree_must_be_a_run")


def test_cards_must_be_played_on_an_incomplete_tree_rather_than_planted():
    state, _ = play_moves(GAME, tree_example(), (LUKE, plant("Asenath Waite")))
    given_state(GAME, state).when(JACK, plant("Klarkash-Ton")).refused("rules/must_play_on_incomplete_tree")


def test_a_cultist_who_can_play_may_not_draw():
    state, _ = play_moves(GAME, tree_example(), (LUKE, plant("Asenath Waite")))
    given_state(GAME, state).when(JACK, {"type": "draw_card"}).refused("rules/must_play_if_able")


def test_a_double_play_forces_another_play_by_the_same_cultist():
    state, _ = play_moves(GAME, tree_example(), (LUKE, plant("Asenath Waite")), (JACK, grow("Klarkash-Ton", 0)),
                    (JANE, grow("Edward Pickman Derby", 0)))
    assert GAME.decider.to_act(state) >= {JANE} and state.stage.rite.again
    given_state(GAME, state).when(SUSAN, grow("Zkauba the Wizard", 0)).refused("rules/not_your_turn")


def test_when_the_last_card_is_drawn_the_fewest_cards_win():
    hands = {0: ["Hastur", "Yeb"], 1: ["Asenath Waite", "Kamog"]}
    state = given(GAME, *position(2, 0, hands, ["Dagon"], rite="tree_on_the_hill", artifacts=[9], fill_pile=False)).state
    state, _ = play_moves(GAME, state, (0, plant("Hastur")))
    state, events = play_moves(GAME, state, (1, {"type": "draw_card"}))  # neither card fits; Dagon is the last card
    assert [e.data for e in events if e.type == "rite_won"] == [{"seat": 0, "reason": "fewest_cards"}]


MOUNTAIN_HANDS = {
    LYNNE: ["Klarkash-Ton", "Nephren-Ka", "Liber Ivonis", "Nyarlathotep", "The Mad Arab Abdul Alhazred"],
    SIDNEY: ["Dhole", "Nug", "Shoggoth", "Hastur", "Dagon"],
    LANCE: ["Randolph Carter", "Harley Warren", "Zadok Allen", "Kaman-Thah", "Walter Gilman"],
    WARREN: ["Zkauba the Wizard", "Abdul Reis el Drogman", "Pharaoh Nitocris", "Deep One", "Lavinia Whateley"],
}


def mountains():
    return given(GAME, *position(4, LYNNE, MOUNTAIN_HANDS, ["Bukrog", "The Mindless Flutist"],
                                 rite="mountains_of_madness", artifacts=[9])).state


def ridge(name):
    return {"type": "extend_ridge", "card": E(name)}


def slope(name, ridge_card, side):
    return {"type": "play_on_slope", "card": E(name), "ridge_card": E(ridge_card), "side": side}


END = {"type": "end_turn"}


def test_mountains_play_example_lynne_wins_with_a_cliff():
    state, _ = play_moves(GAME, mountains(), (LYNNE, ridge("Klarkash-Ton")), (LYNNE, ridge("Nephren-Ka")), (LYNNE, END))
    assert offered(GAME, state, SIDNEY) == [{"type": "draw_card"}]
    state, _ = play_moves(GAME, state, (SIDNEY, {"type": "draw_card"}))
    assert offered(GAME, state, SIDNEY) == [END]
    state, _ = play_moves(GAME, state, (SIDNEY, END), (LANCE, ridge("Randolph Carter")), (LANCE, ridge("Harley Warren")),
                    (LANCE, slope("Zadok Allen", "Harley Warren", "below")), (LANCE, END))
    # Erratum: Warren could play at the start of his turn (Abdul Reis el Drogman fits a slope), so he may not
    # draw; and Abdul Reis (3) cannot cover Zkauba (5): he starts the slope above Harley Warren instead.
    given_state(GAME, state).when(WARREN, {"type": "draw_card"}).refused("rules/must_play_if_able")
    state, _ = play_moves(GAME, state, (WARREN, slope("Zkauba the Wizard", "Klarkash-Ton", "above")))
    given_state(GAME, state).when(WARREN, slope("Abdul Reis el Drogman", "Klarkash-Ton", "above")).refused(
        "rules/slopes_step_by_one")
    state, _ = play_moves(GAME, state, (WARREN, slope("Abdul Reis el Drogman", "Harley Warren", "above")),
                    (WARREN, slope("Pharaoh Nitocris", "Harley Warren", "above")), (WARREN, END))
    cliff = {"type": "play_cliff", "book": E("Liber Ivonis"), "card": E("Nyarlathotep"),
             "ridge_card": E("Klarkash-Ton"), "side": "below"}
    state, events = play_moves(GAME, state, (LYNNE, cliff))
    assert E("The Mindless Flutist") in state.table.hands[LYNNE]
    state, events = play_moves(GAME, state, (LYNNE, slope("The Mad Arab Abdul Alhazred", "Klarkash-Ton", "below")),
                         (LYNNE, slope("The Mindless Flutist", "Klarkash-Ton", "below")))
    assert [e.data for e in events if e.type == "rite_won"] == [{"seat": LYNNE, "reason": "emptied_hand"}]


def test_a_card_that_extends_the_ridge_may_not_go_on_a_slope():
    state, _ = play_moves(GAME, mountains(), (LYNNE, ridge("Klarkash-Ton")))
    given_state(GAME, state).when(LYNNE, slope("Nephren-Ka", "Klarkash-Ton", "above")).refused("rules/ridge_before_slopes")


def test_forbidden_books_may_not_be_part_of_the_ridge():
    given_state(GAME, mountains()).when(LYNNE, ridge("Liber Ivonis")).refused("rules/no_forbidden_books_in_ridge")


def test_the_ridge_is_at_most_four_cards_in_a_run():
    state, _ = play_moves(GAME, mountains(), (LYNNE, ridge("Klarkash-Ton")))
    given_state(GAME, state).when(LYNNE, ridge("Nyarlathotep")).refused("rules/ridge_must_be_a_run")


def test_a_cliff_draws_a_card_and_the_turn_goes_on():
    state, _ = play_moves(GAME, mountains(), (LYNNE, ridge("Klarkash-Ton")))
    cliff = {"type": "play_cliff", "book": E("Liber Ivonis"), "card": E("Nyarlathotep"),
             "ridge_card": E("Klarkash-Ton"), "side": "above"}
    state, events = play_moves(GAME, state, (LYNNE, cliff))
    assert [e.type for e in events][-1] == "cards_drawn" and GAME.decider.to_act(state) >= {LYNNE}
    assert state.stage.rite.turn == LYNNE


# --- the turn timer --------------------------------------------------------------------------------------------


def test_a_silent_cultist_who_drew_or_has_played_ends_the_turn_and_otherwise_plays_at_random():
    """Rulings: playing the drawn card, or playing on, is a "may": the timer ends the turn; where a play (or the draw
    when unable) is compulsory it picks one of the legal ones at random."""
    start = tree_example()
    plays = {str(timeout_choice(GAME, start, LUKE, random.Random(seed))) for seed in range(30)}
    assert len(plays) > 1 and all("plant_tree" in p for p in plays)
    state, _ = play_moves(GAME, start, (LUKE, plant("Asenath Waite")), (JACK, grow("Klarkash-Ton", 0)),
                    (JANE, grow("Edward Pickman Derby", 0)), (JANE, plant("Deep One")), (SUSAN, grow("Lobon", 1)),
                    (SUSAN, grow("Henry Anthony Wilcox", 1)), (SUSAN, plant("Nasht")), (LUKE, {"type": "draw_card"}))
    assert {"type": "end_turn"} in offered(GAME, state, LUKE) and len(offered(GAME, state, LUKE)) > 1
    assert [timeout_choice(GAME, state, LUKE, random.Random(seed)) for seed in range(20)] == [{"type": "end_turn"}] * 20
    state, _ = play_moves(GAME, mountains(), (LYNNE, ridge("Klarkash-Ton")))
    assert len(offered(GAME, state, LYNNE)) > 1
    assert [timeout_choice(GAME, state, LYNNE, random.Random(seed)) for seed in range(20)] == [END] * 20


def test_a_mountains_slope_may_go_back_and_forth_by_one():
    """Ruling (issue 27, item 6): "Slope cards played on slope piles must increment by 1 Elder Sign above or below
    the cards on which they are played": each card steps from the card it covers, so 4-5-4-5 is a slope; a step
    of two is not."""
    hands = {0: ["Klarkash-Ton", "Randolph Carter", "Harley Warren", "Zadok Allen",
                 "Zkauba the Wizard", "Kamog", "Nephren-Ka", "Hastur"],
             1: ["Nug", "Dagon", "Yeb"]}
    state = given(GAME, *position(2, 0, hands, ["Bukrog"], rite="mountains_of_madness", artifacts=[9])).state
    state, _ = play_moves(GAME, state, (0, ridge("Klarkash-Ton")), (0, ridge("Randolph Carter")), (0, ridge("Harley Warren")),
                    (0, ridge("Zadok Allen")))
    given_state(GAME, state).when(0, slope("Hastur", "Klarkash-Ton", "above")).refused(
        "rules/slopes_step_by_one")
    state, _ = play_moves(GAME, state, (0, slope("Zkauba the Wizard", "Klarkash-Ton", "above")),
                    (0, slope("Kamog", "Klarkash-Ton", "above")), (0, slope("Nephren-Ka", "Klarkash-Ton", "above")))
    above = [s for s in state.stage.rite.slopes if s.ridge_card == E("Klarkash-Ton") and s.side == "above"]
    assert [c % 14 for c in above[0].cards] == [5, 4, 5]
