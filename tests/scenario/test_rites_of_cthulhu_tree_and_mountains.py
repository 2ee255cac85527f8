"""The Tree on the Hill (pages 24-28) and At the Mountains of Madness (pages 35-40)."""

from __future__ import annotations

import random

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import entity
from shared.kernel import ev
from tests.support.rites_positions import dealt_again, position
from tests.support.scenario import given, offered, timeout_choice

E = entity
LUKE, JACK, JANE, SUSAN = range(4)
LYNNE, SIDNEY, LANCE, WARREN = range(4)
DRAW = {"type": "draw_card"}
END = {"type": "end_turn"}


def grow(name, tree):
    return {"type": "grow_tree", "card": E(name), "tree": tree}


def plant(name):
    return {"type": "plant_tree", "card": E(name)}


def planted(seat, name, tree):
    return ev("card_played_to_tree", seat=seat, card=E(name), tree=tree, planted=True, double_play=False)


def grown(seat, name, tree, double_play=False):
    return ev("card_played_to_tree", seat=seat, card=E(name), tree=tree, planted=False, double_play=double_play)


def passed(seat):
    """The turn passes to ``seat``."""
    return ev("turn_passed", seat=seat)


def drew(seat, name):
    """``seat`` could play nothing, so it drew ``name`` (seen by it only)."""
    return ev("drew_unable_to_play", seat=seat), ev("cards_drawn", seat=seat, cards=[E(name)], secret={"cards": [seat]})


def won(seat, reason, players=4):
    """``seat`` wins the rite; the Grand Cultist's seat passes to the left of the first one (seat 0 here), and the next
    rite is dealt."""
    return ev("rite_won", seat=seat, reason=reason), ev("grand_cultist_passed", seat=1), *dealt_again(players)


TREE_HANDS = {
    LUKE: ["Asenath Waite", "Mother Hydra", "Hastur", "Nyarlathotep", "Shub-Niggurath"],
    JACK: ["Klarkash-Ton", "Randolph Carter", "Walter Gilman", "Nightgaunt", "Azathoth"],
    JANE: ["Edward Pickman Derby", "Deep One", "Bukrog", "Nug", "Yeb"],
    SUSAN: ["Lobon", "Henry Anthony Wilcox", "Nasht", "Zkauba the Wizard", "Pnakotic Fragments"],
}


def tree_example():
    return given(GAME, *position(4, LUKE, TREE_HANDS, ["The Mindless Flutist", "Kamog"], rite="tree_on_the_hill",
                                 artifacts=[9]))


def test_tree_play_example_susan_wins_with_an_empty_hand():
    # 1-2: Luke, the Grand Cultist, plants Asenath Waite (gray 3); Jack's Klarkash-Ton (blue 4) finishes the trunk
    move = tree_example().when(LUKE, plant("Asenath Waite")).then(planted(LUKE, "Asenath Waite", 0), passed(JACK))
    move = move.when(JACK, grow("Klarkash-Ton", 0)).then(grown(JACK, "Klarkash-Ton", 0), passed(JANE))
    # 3-4: Jane's Edward Pickman Derby (gray 2) is sequential to and of the cult of Asenath Waite: a double play, so
    # she plays again, and plants Deep One (green 9)
    move = move.when(JANE, grow("Edward Pickman Derby", 0)).then(grown(JANE, "Edward Pickman Derby", 0, double_play=True))
    move = move.when(JANE, plant("Deep One")).then(planted(JANE, "Deep One", 1), passed(SUSAN))
    # 5-7: Susan's Lobon (green 8) and Henry Anthony Wilcox (green 7) are two double plays; she plants Nasht (yellow 10)
    move = move.when(SUSAN, grow("Lobon", 1)).then(grown(SUSAN, "Lobon", 1, double_play=True))
    move = move.when(SUSAN, grow("Henry Anthony Wilcox", 1)).then(grown(SUSAN, "Henry Anthony Wilcox", 1, double_play=True))
    move = move.when(SUSAN, plant("Nasht")).then(planted(SUSAN, "Nasht", 2), passed(LUKE))
    # 8-9: Luke has no card for a tree (Mother Hydra does not extend Nasht's run): he draws The Mindless Flutist
    # (yellow 11) and plays it on Susan's tree, a double play, then Mother Hydra (green 12)
    assert offered(GAME, move.after, LUKE) == [DRAW]
    move = move.when(LUKE, DRAW).then(*drew(LUKE, "The Mindless Flutist"))
    move = move.when(LUKE, grow("The Mindless Flutist", 2)).then(grown(LUKE, "The Mindless Flutist", 2, double_play=True))
    move = move.when(LUKE, grow("Mother Hydra", 2)).then(grown(LUKE, "Mother Hydra", 2), passed(JACK))
    # 10: Jack can play nothing, draws, cannot play the drawn card either: his turn is over
    move = move.when(JACK, DRAW).then(*drew(JACK, "Kamog"))
    assert {"type": "end_turn"} in offered(GAME, move.after, JACK)
    move = move.when(JACK, END).then(passed(JANE))
    # 11-12: Jane's Bukrog (green 10) completes her tree, a double play. Erratum: Nug (gray 10) fits no incomplete
    # tree (Susan's already holds a 10, the first runs 2-4), so she plants it, as her double play allows
    bukrog = move.when(JANE, grow("Bukrog", 1)).then(grown(JANE, "Bukrog", 1, double_play=True))
    bukrog.when(JANE, grow("Nug", 2)).refused("rules/tree_must_be_a_run")
    move = bukrog.when(JANE, plant("Nug")).then(planted(JANE, "Nug", 3), passed(SUSAN))
    # 13: Susan's Zkauba the Wizard (blue 5) completes the first tree, a double play; she plants her last card and
    # wins the rite, and the Coveted Artifact
    move = move.when(SUSAN, grow("Zkauba the Wizard", 0)).then(grown(SUSAN, "Zkauba the Wizard", 0, double_play=True))
    won_rite = move.when(SUSAN, plant("Pnakotic Fragments")).then(
        planted(SUSAN, "Pnakotic Fragments", 4), *won(SUSAN, "emptied_hand"))
    assert won_rite.after.captured[SUSAN] == (9,)


def test_a_tree_may_not_repeat_a_number():
    tree_example().played((LUKE, plant("Asenath Waite"))).when(JACK, grow("Randolph Carter", 0)).refused(
        "rules/tree_must_be_a_run")


def test_cards_must_be_played_on_an_incomplete_tree_rather_than_planted():
    tree_example().played((LUKE, plant("Asenath Waite"))).when(JACK, plant("Klarkash-Ton")).refused(
        "rules/must_play_on_incomplete_tree")


def test_a_cultist_who_can_play_may_not_draw():
    tree_example().played((LUKE, plant("Asenath Waite"))).when(JACK, DRAW).refused("rules/must_play_if_able")


def test_a_double_play_forces_another_play_by_the_same_cultist():
    double = tree_example().played((LUKE, plant("Asenath Waite")), (JACK, grow("Klarkash-Ton", 0))).when(
        JANE, grow("Edward Pickman Derby", 0)).then(grown(JANE, "Edward Pickman Derby", 0, double_play=True))  # no turn_passed
    assert GAME.decider.to_act(double.after) == {JANE}
    double.played().when(SUSAN, grow("Zkauba the Wizard", 0)).refused("rules/not_your_turn")


def test_when_the_last_card_is_drawn_the_fewest_cards_win():
    hands = {0: ["Hastur", "Yeb"], 1: ["Asenath Waite", "Kamog"]}
    deal = position(2, 0, hands, ["Dagon"], rite="tree_on_the_hill", artifacts=[9], fill_pile=False)
    # neither of seat 1's cards fits on Hastur (gray 12), nor does Dagon, the last card: seat 0 holds the fewest
    given(GAME, *deal).played((0, plant("Hastur"))).when(1, DRAW).then(*drew(1, "Dagon"), *won(0, "fewest_cards", players=2))


MOUNTAIN_HANDS = {
    LYNNE: ["Klarkash-Ton", "Nephren-Ka", "Liber Ivonis", "Nyarlathotep", "The Mad Arab Abdul Alhazred"],
    SIDNEY: ["Dhole", "Nug", "Shoggoth", "Hastur", "Dagon"],
    LANCE: ["Randolph Carter", "Harley Warren", "Zadok Allen", "Kaman-Thah", "Walter Gilman"],
    WARREN: ["Zkauba the Wizard", "Abdul Reis el Drogman", "Pharaoh Nitocris", "Deep One", "Lavinia Whateley"],
}


def mountains():
    return given(GAME, *position(4, LYNNE, MOUNTAIN_HANDS, ["Bukrog", "The Mindless Flutist"],
                                 rite="mountains_of_madness", artifacts=[9]))


def ridge(name):
    return {"type": "extend_ridge", "card": E(name)}


def slope(name, ridge_card, side):
    return {"type": "play_on_slope", "card": E(name), "ridge_card": E(ridge_card), "side": side}


def cliff(book, name, ridge_card, side):
    return {"type": "play_cliff", "book": E(book), "card": E(name), "ridge_card": E(ridge_card), "side": side}


def extended(seat, name):
    return ev("ridge_extended", seat=seat, card=E(name))


def sloped(seat, names, ridge_card, side, cliff=False):
    return ev("slope_played", seat=seat, cards=[E(n) for n in names], ridge_card=E(ridge_card), side=side, cliff=cliff)


def test_mountains_play_example_lynne_wins_with_a_cliff():
    # Lynne, the Grand Cultist, declares the Elder Sign with Klarkash-Ton (4); Nephren-Ka (5) must go on the ridge
    move = mountains().when(LYNNE, ridge("Klarkash-Ton")).then(extended(LYNNE, "Klarkash-Ton"))
    move = move.when(LYNNE, ridge("Nephren-Ka")).then(extended(LYNNE, "Nephren-Ka"))
    move = move.when(LYNNE, END).then(passed(SIDNEY))
    # Sidney can play nothing: she draws, cannot play the drawn card, and keeps it
    assert offered(GAME, move.after, SIDNEY) == [DRAW]
    move = move.when(SIDNEY, DRAW).then(*drew(SIDNEY, "Bukrog"))
    assert offered(GAME, move.after, SIDNEY) == [END]
    move = move.when(SIDNEY, END).then(passed(LANCE))
    # Lance finishes the ridge with Randolph Carter (3) and Harley Warren (2), and starts a slope with Zadok Allen (1)
    move = move.when(LANCE, ridge("Randolph Carter")).then(extended(LANCE, "Randolph Carter"))
    move = move.when(LANCE, ridge("Harley Warren")).then(extended(LANCE, "Harley Warren"))
    move = move.when(LANCE, slope("Zadok Allen", "Harley Warren", "below")).then(
        sloped(LANCE, ["Zadok Allen"], "Harley Warren", "below"))
    move = move.when(LANCE, END).then(passed(WARREN))
    # Erratum: Warren could play at the start of his turn (Abdul Reis el Drogman fits a slope), so he may not
    # draw; and Abdul Reis (3) cannot cover Zkauba (5): he starts the slope above Harley Warren instead.
    move.when(WARREN, DRAW).refused("rules/must_play_if_able")
    move = move.when(WARREN, slope("Zkauba the Wizard", "Klarkash-Ton", "above")).then(
        sloped(WARREN, ["Zkauba the Wizard"], "Klarkash-Ton", "above"))
    move.when(WARREN, slope("Abdul Reis el Drogman", "Klarkash-Ton", "above")).refused("rules/slopes_step_by_one")
    move = move.when(WARREN, slope("Abdul Reis el Drogman", "Harley Warren", "above")).then(
        sloped(WARREN, ["Abdul Reis el Drogman"], "Harley Warren", "above"))
    move = move.when(WARREN, slope("Pharaoh Nitocris", "Harley Warren", "above")).then(
        sloped(WARREN, ["Pharaoh Nitocris"], "Harley Warren", "above"))
    move = move.when(WARREN, END).then(passed(LYNNE))
    # Lynne plays a cliff, Liber Ivonis (0) and Nyarlathotep (13) below Klarkash-Ton, so he draws The Mindless Flutist
    move = move.when(LYNNE, cliff("Liber Ivonis", "Nyarlathotep", "Klarkash-Ton", "below")).then(
        sloped(LYNNE, ["Liber Ivonis", "Nyarlathotep"], "Klarkash-Ton", "below", cliff=True),
        ev("cards_drawn", seat=LYNNE, cards=[E("The Mindless Flutist")], secret={"cards": [LYNNE]}))
    # he plays The Mad Arab (12) and The Mindless Flutist (11) on Nyarlathotep: his hand is empty, he wins the rite
    move = move.when(LYNNE, slope("The Mad Arab Abdul Alhazred", "Klarkash-Ton", "below")).then(
        sloped(LYNNE, ["The Mad Arab Abdul Alhazred"], "Klarkash-Ton", "below"))
    move.when(LYNNE, slope("The Mindless Flutist", "Klarkash-Ton", "below")).then(
        sloped(LYNNE, ["The Mindless Flutist"], "Klarkash-Ton", "below"), *won(LYNNE, "emptied_hand"))


def test_a_card_that_extends_the_ridge_may_not_go_on_a_slope():
    mountains().played((LYNNE, ridge("Klarkash-Ton"))).when(LYNNE, slope("Nephren-Ka", "Klarkash-Ton", "above")).refused(
        "rules/ridge_before_slopes")


def test_forbidden_books_may_not_be_part_of_the_ridge():
    mountains().when(LYNNE, ridge("Liber Ivonis")).refused("rules/no_forbidden_books_in_ridge")


def test_the_ridge_is_at_most_four_cards_in_a_run():
    mountains().played((LYNNE, ridge("Klarkash-Ton"))).when(LYNNE, ridge("Nyarlathotep")).refused("rules/ridge_must_be_a_run")


def test_a_cliff_draws_a_card_and_the_turn_goes_on():
    drawn = mountains().played((LYNNE, ridge("Klarkash-Ton"))).when(
        LYNNE, cliff("Liber Ivonis", "Nyarlathotep", "Klarkash-Ton", "above")).then(
        sloped(LYNNE, ["Liber Ivonis", "Nyarlathotep"], "Klarkash-Ton", "above", cliff=True),
        ev("cards_drawn", seat=LYNNE, cards=[E("Bukrog")], secret={"cards": [LYNNE]}))  # no turn_passed
    assert GAME.decider.to_act(drawn.after) == {LYNNE}


# --- the turn timer --------------------------------------------------------------------------------------------


def test_a_silent_cultist_who_drew_or_has_played_ends_the_turn_and_otherwise_plays_at_random():
    """Rulings: playing the drawn card, or playing on, is a "may": the timer ends the turn; where a play (or the draw
    when unable) is compulsory it picks one of the legal ones at random."""
    start = tree_example().state
    plays = {str(timeout_choice(GAME, start, LUKE, random.Random(seed))) for seed in range(30)}
    assert len(plays) > 1 and all("plant_tree" in p for p in plays)
    state = tree_example().played(
        (LUKE, plant("Asenath Waite")), (JACK, grow("Klarkash-Ton", 0)), (JANE, grow("Edward Pickman Derby", 0)),
        (JANE, plant("Deep One")), (SUSAN, grow("Lobon", 1)), (SUSAN, grow("Henry Anthony Wilcox", 1)),
        (SUSAN, plant("Nasht")), (LUKE, DRAW)).state
    assert {"type": "end_turn"} in offered(GAME, state, LUKE) and len(offered(GAME, state, LUKE)) > 1
    assert [timeout_choice(GAME, state, LUKE, random.Random(seed)) for seed in range(20)] == [{"type": "end_turn"}] * 20
    state = mountains().played((LYNNE, ridge("Klarkash-Ton"))).state
    assert len(offered(GAME, state, LYNNE)) > 1
    assert [timeout_choice(GAME, state, LYNNE, random.Random(seed)) for seed in range(20)] == [END] * 20


def test_a_mountains_slope_may_go_back_and_forth_by_one():
    """Ruling (issue 27, item 6): "Slope cards played on slope piles must increment by 1 Elder Sign above or below
    the cards on which they are played": each card steps from the card it covers, so 4-5-4-5 is a slope; a step
    of two is not."""
    hands = {0: ["Klarkash-Ton", "Randolph Carter", "Harley Warren", "Zadok Allen",
                 "Zkauba the Wizard", "Kamog", "Nephren-Ka", "Hastur"],
             1: ["Nug", "Dagon", "Yeb"]}
    ridge_of_four = given(GAME, *position(2, 0, hands, ["Bukrog"], rite="mountains_of_madness", artifacts=[9])).played(
        (0, ridge("Klarkash-Ton")), (0, ridge("Randolph Carter")), (0, ridge("Harley Warren")), (0, ridge("Zadok Allen")))
    ridge_of_four.when(0, slope("Hastur", "Klarkash-Ton", "above")).refused("rules/slopes_step_by_one")  # 4 to 12
    # Klarkash-Ton (4), then Zkauba (5), Kamog (4), Nephren-Ka (5) on one slope above it
    move = ridge_of_four.when(0, slope("Zkauba the Wizard", "Klarkash-Ton", "above")).then(
        sloped(0, ["Zkauba the Wizard"], "Klarkash-Ton", "above"))
    move = move.when(0, slope("Kamog", "Klarkash-Ton", "above")).then(sloped(0, ["Kamog"], "Klarkash-Ton", "above"))
    move.when(0, slope("Nephren-Ka", "Klarkash-Ton", "above")).then(sloped(0, ["Nephren-Ka"], "Klarkash-Ton", "above"))
