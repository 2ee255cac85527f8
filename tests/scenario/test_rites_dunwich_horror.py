"""The Dunwich Horror (rulebook "Dunwich Horror", p. 29): twins, walls, pairs, captures, the knock race, the win."""

from __future__ import annotations

import dataclasses
import random

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import entity
from shared.games.rites_of_cthulhu.rites.dunwich_horror.cards import HORROR, TWINS, WILBUR
from shared.games.rites_of_cthulhu.rites.dunwich_horror.state import Claims
from shared.kernel import ev, fold
from tests.support.rites_positions import dealt_again, position, rite_begin
from tests.support.scenario import given, given_state, offered, timeout_choice

E = entity
RITE = "dunwich_horror"
LUCY, MARK, REGGIE = range(3)

# The play example (p. 34): Lucy (the Grand Cultist), Mark on her left, then Reggie.
EXAMPLE_HANDS = {
    LUCY: ["Nug", "Asenath Waite", "Abdul Reis el Drogman", "Zadok Allen", "Randolph Carter"],
    MARK: ["Swami Chandraputra", "Francis Wayland Thurston", "Dagon", "Dhole", "Klarkash-Ton"],
    REGGIE: ["Nasht", "Lobon", "Yog-Sothoth", "Yeb", "Deep One"],
}
# Walls: slots 0-3 surround Wilbur Whateley (7), slots 4-7 The Dunwich Horror (6). Then Lucy's four draws.
EXAMPLE_WALLS = ["Robert Harrison Blake", "Kaman-Thah", "Nephren-Ka", "Enoch Bowen",
                 "Edward Pickman Derby", "Brown Jenkin", "Ephraim Waite", "Keziah Mason"]
LUCY_DRAWS = ["Pharaoh Nitocris", "Kamog", "Nightgaunt", "Hastur"]


def start(hands=EXAMPLE_HANDS, pile=(*EXAMPLE_WALLS, *LUCY_DRAWS), players=3, grand_cultist=LUCY, fill_pile=True):
    """A game whose Dunwich Horror has just begun: the rite's own deal run on exactly this deal."""
    before = position(players, grand_cultist, hands, pile, fill_pile=fill_pile)
    chosen = fold(GAME, before + [ev("rite_chosen", rite=RITE)])
    begin = rite_begin(chosen, RITE)
    return given(GAME, *position(players, grand_cultist, hands, pile, rite=RITE, begin=begin,
                                 fill_pile=fill_pile)).state


def pair(a, b):
    return sorted([E(a), E(b)])


def reveal(a, b, wall):
    return {"type": "reveal_wall", "cards": pair(a, b), "wall": wall}


def capture(a, b, wall):
    return {"type": "capture_wall", "cards": pair(a, b), "wall": wall}


def knock(a, b):
    return {"type": "knock", "cards": pair(a, b)}


CALL_KNOCK = {"type": "call_knock"}
PASS = {"type": "pass_knock"}


def rite(state):
    return state.stage.rite


def twin_of(wall):
    """Slots 0-3 wall in Wilbur Whateley, 4-7 The Dunwich Horror."""
    return WILBUR if wall < 4 else HORROR


def revealed(seat, a, b, wall, card):
    return ev("wall_revealed", seat=seat, cards=pair(a, b), wall=wall, twin=twin_of(wall), card=E(card))


def captured(seat, a, b, wall, card):
    return ev("wall_captured", seat=seat, cards=pair(a, b), wall=wall, card=E(card))


def claimed(seat, a, b, wall, card, revealer, order):
    """``seat``'s knock (the last of ``order``, the claims as they arrived) captures the wall ``revealer`` revealed."""
    return ev("wall_claimed", seat=seat, cards=pair(a, b), wall=wall, card=E(card), revealer=revealer,
              arrival=len(order), order=list(order))


def drew(seat, *names):
    return ev("cards_drawn", seat=seat, cards=[E(n) for n in names], secret={"cards": [seat]})


def turn(seat):
    return ev("dunwich_turn_began", seat=seat)


def chosen(walls=EXAMPLE_WALLS, handed_over=(None, None)):
    """The Grand Cultist chooses The Dunwich Horror: the twins come out of the deck (any held handed over in view of
    the table), eight face-down walls are built from the pile, and the Coveted Artifact (the Bas-Relief, whose
    first turn goes to the poorest cultist: the Grand Cultist, first in turn order) is excavated."""
    return [ev("rite_chosen", rite=RITE), ev("twins_set_aside", twins=[WILBUR, HORROR], handed_over=list(handed_over)),
            ev("farmhouse_walls_built", count=8, walls=[E(c) for c in walls], secret={"walls": []}),
            ev("artifact_excavated", artifact=6, seat=None), ev("opener_changed", seat=LUCY),
            ev("rite_begun", rite=RITE)]


# --- the play example --------------------------------------------------------------------------------------


def test_play_example_lucy_captures_blake_then_reggie_knocks_first_and_takes_derby():
    # Lucy reveals the first wall card with Nug and Asenath Waite (10 - 3 = 7, Wilbur's elder sign) ...
    move = given_state(GAME, start()).when(LUCY, reveal("Nug", "Asenath Waite", 0)).then(
        revealed(LUCY, "Nug", "Asenath Waite", 0, "Robert Harrison Blake"))
    # ... and captures it with 3 + 1 = 4; able to capture only one wall card a turn, she draws back to 5 and play
    # passes to Mark.
    move = move.when(LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)).then(
        captured(LUCY, "Abdul Reis el Drogman", "Zadok Allen", 0, "Robert Harrison Blake"), drew(LUCY, *LUCY_DRAWS),
        turn(MARK))
    # Mark reveals Edward Pickman Derby (2) around The Dunwich Horror with 1 + 5 = 6 ...
    move = move.when(MARK, reveal("Swami Chandraputra", "Francis Wayland Thurston", 4)).then(
        revealed(MARK, "Swami Chandraputra", "Francis Wayland Thurston", 4, "Edward Pickman Derby"))
    assert offered(GAME, move.after, MARK) == [CALL_KNOCK]  # no pair of 13, 9, 4 makes 2: he must knock
    move = move.when(MARK, CALL_KNOCK).then(ev("knock_called", seat=MARK, wall=4, card=E("Edward Pickman Derby")))
    assert GAME.decider.to_act(move.after) == {LUCY, REGGIE}
    assert knock("Pharaoh Nitocris", "Kamog") in offered(GAME, move.after, LUCY)  # Lucy could claim it too
    # 10 - 8 = 2: Reggie is slightly faster and takes Derby; Mark's turn ends, he draws back, play goes clockwise.
    move = move.when(REGGIE, knock("Nasht", "Lobon")).then(
        claimed(REGGIE, "Nasht", "Lobon", 4, "Edward Pickman Derby", revealer=MARK, order=[REGGIE]),
        drew(MARK, "Pnakotic Fragments", "Robert Olmstead"), turn(REGGIE))
    # Lucy's knock arrives second: refused, whatever her pair (the game no longer waits on her).
    move.when(LUCY, knock("Pharaoh Nitocris", "Kamog")).refused("rules/not_your_turn")


# --- the deal --------------------------------------------------------------------------------------------------


def test_the_twins_are_set_aside_face_up_and_each_walled_in_with_four_face_down_cards():
    deal = position(3, LUCY, EXAMPLE_HANDS, (*EXAMPLE_WALLS, *LUCY_DRAWS))
    given(GAME, *deal).when(LUCY, {"type": "choose_rite", "rite": RITE}).then(*chosen())
    state = start()
    assert all(c not in state.table.pile and all(c not in h for h in state.table.hands) for c in TWINS)
    view = GAME.decider.view(state, MARK)["rite"]
    assert [w["status"] for w in view["walls"]] == ["face_down"] * 8
    assert all("card" not in w for w in view["walls"])
    assert [w["twin"] for w in view["walls"]] == [WILBUR] * 4 + [HORROR] * 4
    assert [t["elder_sign"] for t in view["twins"]] == [7, 6]


def test_a_cultist_holding_a_twin_hands_it_over_and_draws_back_to_five_before_the_first_turn():
    hands = dict(EXAMPLE_HANDS)
    hands[MARK] = ["Wilbur Whateley", "Francis Wayland Thurston", "Dagon", "Dhole", "Klarkash-Ton"]
    handed = given(GAME, *position(3, LUCY, hands, (*EXAMPLE_WALLS, "Swami Chandraputra"))).when(
        LUCY, {"type": "choose_rite", "rite": RITE}).then(*chosen(handed_over=[MARK, None]))
    assert GAME.decider.to_act(handed.after) == {MARK}
    handed.when(MARK, reveal("Dagon", "Dhole", 0)).refused("rules/replacements_pending")
    handed.when(LUCY, reveal("Nug", "Asenath Waite", 0)).refused("rules/not_your_turn")
    replaced = handed.when(MARK, {"type": "draw_card"}).then(
        drew(MARK, "Swami Chandraputra"), ev("twin_replacement_drawn", seat=MARK))
    assert GAME.decider.to_act(replaced.after) == {LUCY}  # the Grand Cultist takes the first turn


def test_a_twin_is_handed_over_in_view_of_the_table_and_its_holder_draws_on_her_own_command():
    """Who hands a twin over is public (at the table everyone sees it, and the game then waits on her draw); her
    replacement is not drawn in the Grand Cultist's choice of the rite, which would write her hand into his command."""
    before = position(3, LUCY, {**EXAMPLE_HANDS, MARK: ["Wilbur Whateley", "Dagon", "Dhole", "Klarkash-Ton", "Yeb"],
                                REGGIE: ["Nasht", "Lobon", "Yog-Sothoth", "Deep One", "Hastur"]}, EXAMPLE_WALLS)
    # twins_set_aside has no secret part, and no cards_drawn follows
    given(GAME, *before).when(LUCY, {"type": "choose_rite", "rite": RITE}).then(*chosen(handed_over=[MARK, None]))


# --- revealing and capturing -----------------------------------------------------------------------------------


def test_a_pair_reveals_a_wall_card_when_its_sum_or_difference_equals_the_twins_elder_sign():
    given_state(GAME, start()).when(LUCY, reveal("Nug", "Asenath Waite", 1)).then(
        revealed(LUCY, "Nug", "Asenath Waite", 1, "Kaman-Thah"))  # 10 - 3
    hands = {**EXAMPLE_HANDS, LUCY: ["Asenath Waite", "Klarkash-Ton", "Nug", "Zadok Allen", "Randolph Carter"]}
    hands[MARK] = ["Swami Chandraputra", "Francis Wayland Thurston", "Dagon", "Dhole", "Shoggoth"]
    state = start(hands)
    given_state(GAME, state).when(LUCY, reveal("Asenath Waite", "Klarkash-Ton", 2)).then(
        revealed(LUCY, "Asenath Waite", "Klarkash-Ton", 2, "Nephren-Ka"))  # 3 + 4
    given_state(GAME, state).when(LUCY, reveal("Asenath Waite", "Zadok Allen", 2)).refused("rules/pair_does_not_match")


def test_a_pair_reveals_only_a_wall_of_the_twin_whose_elder_sign_it_makes():
    state = start()
    # 10 - 3 = 7 is Wilbur's elder sign; slot 5 walls in The Dunwich Horror (6).
    given_state(GAME, state).when(LUCY, reveal("Nug", "Asenath Waite", 5)).refused("rules/pair_does_not_match")


def test_cults_do_not_matter_only_elder_signs():
    # Abdul Reis el Drogman (yellow 3) and Nug (gray 10): different cults, difference 7.
    given_state(GAME, start()).when(LUCY, reveal("Abdul Reis el Drogman", "Nug", 0)).then(
        revealed(LUCY, "Abdul Reis el Drogman", "Nug", 0, "Robert Harrison Blake"))


def test_a_pair_is_two_different_cards_from_the_hand():
    state = start()
    given_state(GAME, state).when(LUCY, {"type": "reveal_wall", "cards": [E("Nug"), E("Nug")], "wall": 0}).refused(
        "rules/pair_needs_two_cards")
    given_state(GAME, state).when(LUCY, reveal("Nug", "Lobon", 0)).refused("rules/cards_not_in_hand")


def test_a_pair_may_be_listed_in_either_order():
    command = {"type": "reveal_wall", "cards": [E("Nug"), E("Asenath Waite")], "wall": 0}  # the higher id first
    given_state(GAME, start()).when(LUCY, command).then(revealed(LUCY, "Nug", "Asenath Waite", 0, "Robert Harrison Blake"))


def test_hands_are_drawn_back_to_five_only_at_the_end_of_a_turn():
    # the reveal draws nothing (Lucy holds 3 cards); the capture ends her turn, and she draws 4 back to 5
    given_state(GAME, start()).when(LUCY, reveal("Nug", "Asenath Waite", 0)).then(
        revealed(LUCY, "Nug", "Asenath Waite", 0, "Robert Harrison Blake")).when(
        LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)).then(
        captured(LUCY, "Abdul Reis el Drogman", "Zadok Allen", 0, "Robert Harrison Blake"), drew(LUCY, *LUCY_DRAWS),
        turn(MARK))


def test_a_wall_card_may_only_be_captured_after_it_has_been_revealed():
    state = start()
    given_state(GAME, state).when(LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)).refused("rules/wall_not_revealed")


def test_capturing_needs_a_second_pair_matching_the_revealed_cards_elder_sign():
    given_state(GAME, start()).played((LUCY, reveal("Nug", "Asenath Waite", 0))).when(  # Blake, 4
        LUCY, capture("Abdul Reis el Drogman", "Randolph Carter", 0)).refused("rules/pair_does_not_match")  # 3, 3: 6 or 0


def test_after_a_reveal_the_revealer_captures_that_card_or_knocks_and_does_nothing_else():
    g = given_state(GAME, start()).played((LUCY, reveal("Nug", "Asenath Waite", 0)))
    # 3 + 1 = 4 twice over (Abdul Reis el Drogman or Randolph Carter with Zadok Allen), or the knock.
    assert offered(GAME, g.state, LUCY) == [capture("Zadok Allen", "Randolph Carter", 0),
                                            capture("Zadok Allen", "Abdul Reis el Drogman", 0), CALL_KNOCK]
    g.when(LUCY, reveal("Abdul Reis el Drogman", "Randolph Carter", 4)).refused("rules/one_reveal_per_turn")
    g.when(LUCY, {"type": "discard_and_draw", "cards": pair("Zadok Allen", "Randolph Carter")}).refused(
        "rules/one_reveal_per_turn")
    g.when(LUCY, {"type": "end_turn"}).refused("rules/must_capture_or_knock")


def test_a_cultist_may_capture_no_more_than_one_wall_card_per_turn():
    # the capture ends the turn: Lucy draws back and Mark's turn begins
    took = given_state(GAME, start()).played((LUCY, reveal("Nug", "Asenath Waite", 0))).when(
        LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)).then(
        captured(LUCY, "Abdul Reis el Drogman", "Zadok Allen", 0, "Robert Harrison Blake"), drew(LUCY, *LUCY_DRAWS),
        turn(MARK))
    assert offered(GAME, took.after, LUCY) == []
    took.when(LUCY, reveal("Nug", "Asenath Waite", 1)).refused("rules/not_your_turn")


# --- the knock ---------------------------------------------------------------------------------------------------


def marks_knock():
    """The play example up to Mark's knock: he revealed Edward Pickman Derby (2) and has no pair to capture it."""
    return given_state(GAME, start()).played(
        (LUCY, reveal("Nug", "Asenath Waite", 0)), (LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)),
        (MARK, reveal("Swami Chandraputra", "Francis Wayland Thurston", 4)), (MARK, CALL_KNOCK))


def test_a_revealer_who_cannot_capture_must_knock_and_every_other_cultist_may_claim():
    state = marks_knock().state
    assert rite(state).phase == Claims(MARK, 4)
    assert GAME.decider.to_act(state) == {LUCY, REGGIE}
    assert offered(GAME, state, REGGIE) == [knock("Nasht", "Lobon"), PASS]
    assert offered(GAME, state, MARK) == []
    marks_knock().when(MARK, knock("Dagon", "Dhole")).refused("rules/not_your_turn")  # the revealer


def test_the_first_valid_claim_applied_wins_and_the_log_records_the_arrival_order():
    passed = marks_knock().when(REGGIE, PASS).then(ev("knock_passed", seat=REGGIE, wall=4, arrival=1))
    passed.when(REGGIE, knock("Nasht", "Lobon")).refused("rules/not_your_turn")  # he passed
    claim = passed.when(LUCY, knock("Pharaoh Nitocris", "Kamog")).then(
        claimed(LUCY, "Pharaoh Nitocris", "Kamog", 4, "Edward Pickman Derby", revealer=MARK, order=[REGGIE, LUCY]),
        drew(MARK, "Pnakotic Fragments", "Robert Olmstead"), turn(REGGIE))
    assert rite(claim.after).captured[LUCY] == (E("Robert Harrison Blake"), E("Edward Pickman Derby"))


def test_an_invalid_knock_is_refused_and_the_window_stays_open():
    marks_knock().when(REGGIE, knock("Yeb", "Deep One")).refused("rules/pair_does_not_match")  # 9 and 9
    assert GAME.decider.to_act(marks_knock().state) == {LUCY, REGGIE}


def test_a_claimant_draws_back_to_five_only_at_the_end_of_her_own_turn():
    # only Mark, whose turn ends, draws back: Reggie keeps three cards into his turn
    marks_knock().when(REGGIE, knock("Nasht", "Lobon")).then(
        claimed(REGGIE, "Nasht", "Lobon", 4, "Edward Pickman Derby", revealer=MARK, order=[REGGIE]),
        drew(MARK, "Pnakotic Fragments", "Robert Olmstead"), turn(REGGIE))


def test_the_claim_window_closes_when_every_other_cultist_has_passed_and_the_card_stays_face_up():
    closed = marks_knock().when(REGGIE, PASS).then(ev("knock_passed", seat=REGGIE, wall=4, arrival=1)).when(
        LUCY, PASS).then(ev("knock_passed", seat=LUCY, wall=4, arrival=2), ev("claims_closed", wall=4, passed=[REGGIE, LUCY]),
                         drew(MARK, "Pnakotic Fragments", "Robert Olmstead"), turn(REGGIE))
    closed.when(LUCY, knock("Pharaoh Nitocris", "Kamog")).refused("rules/not_your_turn")
    closed.when(REGGIE, knock("Nasht", "Lobon")).refused("rules/no_knock_window")
    # Reggie captures the card left face up on his own turn.
    assert capture("Nasht", "Lobon", 4) in offered(GAME, closed.after, REGGIE)
    closed.when(REGGIE, capture("Nasht", "Lobon", 4)).then(
        captured(REGGIE, "Nasht", "Lobon", 4, "Edward Pickman Derby"), drew(REGGIE, "Barnabas Marsh", "Gustaf Johansen"),
        turn(LUCY))


def test_no_knock_is_taken_when_nobody_has_knocked():
    given_state(GAME, start()).when(LUCY, knock("Pharaoh Nitocris", "Kamog")).refused("rules/no_knock_window")
    given_state(GAME, start()).when(LUCY, PASS).refused("rules/no_knock_window")
    given_state(GAME, start()).when(MARK, knock("Dagon", "Dhole")).refused("rules/not_your_turn")


def test_no_turn_move_is_made_while_the_claim_window_is_open():
    marks_knock().when(REGGIE, reveal("Nasht", "Lobon", 1)).refused("rules/claim_window_open")


# --- the other turn, the pile, the end ----------------------------------------------------------------------------


def test_a_cultist_may_forego_the_turn_to_discard_two_cards_and_draw_two():
    given_state(GAME, start()).when(LUCY, {"type": "discard_and_draw", "cards": pair("Zadok Allen", "Randolph Carter")}).then(
        ev("two_cards_discarded", seat=LUCY, cards=pair("Zadok Allen", "Randolph Carter")),
        drew(LUCY, "Pharaoh Nitocris", "Kamog"), turn(MARK))


def test_when_the_pile_runs_out_the_discards_are_reshuffled_into_a_fresh_pile():
    # Only the walls and one card are left in the pile; everything else is out of the rite. The fresh pile's order
    # is seen by nobody.
    state = start(pile=(*EXAMPLE_WALLS, "Pharaoh Nitocris"), fill_pile=False)
    assert len(state.table.pile) == 1
    given_state(GAME, state).when(LUCY, {"type": "discard_and_draw", "cards": pair("Zadok Allen", "Randolph Carter")}).then(
        ev("two_cards_discarded", seat=LUCY, cards=pair("Zadok Allen", "Randolph Carter")),
        drew(LUCY, "Pharaoh Nitocris"),
        ev("dunwich_discards_reshuffled", count=2, order=[E("Zadok Allen"), E("Randolph Carter")], secret={"order": []}),
        drew(LUCY, "Zadok Allen"), turn(MARK))


def test_a_cultist_with_nothing_to_play_ends_the_turn_and_draws_back_to_five():
    state = start()
    r = rite(state)
    table = dataclasses.replace(state.table, hands=(
        (E("Nug"),), *state.table.hands[1:]), set_aside=state.table.set_aside + state.table.hands[0][1:])
    state = dataclasses.replace(state, table=table, stage=dataclasses.replace(state.stage, rite=r))
    assert offered(GAME, state, LUCY) == [{"type": "end_turn"}]
    given_state(GAME, state).when(LUCY, {"type": "end_turn"}).then(drew(LUCY, *LUCY_DRAWS), turn(MARK))
    given_state(GAME, start()).when(LUCY, {"type": "end_turn"}).refused("rules/must_act")


def with_walls_captured(state, captured, left):
    """Every wall but ``left`` already captured: ``captured`` maps a seat to the wall slots it took."""
    r = rite(state)
    walls, taken = list(r.walls), [list(c) for c in r.captured]
    for seat, slots in captured.items():
        for slot in slots:
            taken[seat].append(walls[slot])
            walls[slot] = None
    assert [i for i, c in enumerate(walls) if c is not None] == [left]
    r = dataclasses.replace(r, walls=tuple(walls), captured=tuple(tuple(t) for t in taken), face_up=frozenset({left}))
    return dataclasses.replace(state, stage=dataclasses.replace(state.stage, rite=r))


def test_when_every_wall_card_is_captured_the_twins_are_free_and_the_most_points_wins():
    # Lucy holds Blake (4) + Kaman-Thah (9) ... Reggie the rest; Lucy's capture of the last wall ends the rite at once
    # (she does not draw back). Lucy 4 + 9 = 13; Mark 5 + 1 = 6; Reggie 2 + 1 + 6 + 7 = 16.
    state = with_walls_captured(start(), {LUCY: [1], MARK: [2, 3], REGGIE: [4, 5, 6, 7]}, left=0)
    given_state(GAME, state).when(LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)).then(
        captured(LUCY, "Abdul Reis el Drogman", "Zadok Allen", 0, "Robert Harrison Blake"),
        ev("twins_freed", points=[13, 6, 16]), ev("rite_won", seat=REGGIE, reason="twins_freed"),
        ev("grand_cultist_passed", seat=MARK), *dealt_again(3))


def test_the_twins_are_not_captured_and_a_tie_goes_to_the_first_in_turn_order_from_the_grand_cultist():
    # Mark 5 + 1 + 2 + 1 = 9 (Nephren-Ka, Enoch Bowen, Derby, Brown Jenkin); Reggie 6 + 7 = 13; Lucy 4 + 9 = 13.
    state = with_walls_captured(start(), {LUCY: [1], MARK: [2, 3, 4, 5], REGGIE: [6, 7]}, left=0)
    freeing = given_state(GAME, state).when(LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)).then(
        captured(LUCY, "Abdul Reis el Drogman", "Zadok Allen", 0, "Robert Harrison Blake"),
        ev("twins_freed", points=[13, 9, 13]), ev("rite_won", seat=LUCY, reason="twins_freed"),
        ev("grand_cultist_passed", seat=MARK), *dealt_again(3))
    freed_state = fold(GAME, freeing.events[:2], state)
    assert rite(freed_state).twins == TWINS  # still face up on the table
    assert all(c not in cards for cards in rite(freed_state).captured for c in TWINS)


# --- the turn timer --------------------------------------------------------------------------------------------


def test_a_silent_cultist_in_a_knock_race_passes_and_a_silent_revealer_knocks():
    """Rulings: the timer plays pass_knock for a claimant who said nothing (even one holding a valid pair) and
    call_knock for a revealer who produced no second pair."""
    revealed_derby = given_state(GAME, start()).played(
        (LUCY, reveal("Nug", "Asenath Waite", 0)), (LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)),
        (MARK, reveal("Swami Chandraputra", "Francis Wayland Thurston", 4)))
    assert [timeout_choice(GAME, revealed_derby.state, MARK, random.Random(seed)) for seed in range(20)] == [CALL_KNOCK] * 20
    state = marks_knock().state
    assert knock("Pharaoh Nitocris", "Kamog") in offered(GAME, state, LUCY)
    assert {str(timeout_choice(GAME, state, s, random.Random(seed))) for s in (LUCY, REGGIE) for seed in range(20)} == {str(PASS)}


def test_a_power_plays_replacement_draw_reshuffles_the_discards_when_the_pile_runs_out():
    """Issue 27, item 4: a power-play's cards are replaced ("draw enough cards to replace", rulebook ~318), and "If
    the entities draw pile depletes to 0 cards, re-shuffle it" (~1213): with one card left in the pile the
    replacement draw reshuffles the discards and the cultist holds five cards again, not four."""
    hands = {**EXAMPLE_HANDS, LUCY: ["Nug", "Asenath Waite", "Abdul Reis el Drogman", "Zadok Allen",
                                     "Pnakotic Fragments"]}
    state = start(hands, pile=(*EXAMPLE_WALLS, "Pharaoh Nitocris"), fill_pile=False)
    discards = tuple(c for c, _ in state.table.face_down[:2])  # two cards of the set-aside rest, as if discarded
    table = dataclasses.replace(state.table, face_down=state.table.face_down[2:])
    state = dataclasses.replace(state, table=table, stage=dataclasses.replace(
        state.stage, rite=dataclasses.replace(rite(state), discards=discards)))
    GAME.decider.invariant(state)
    assert len(state.table.pile) == 1
    # the pair of green cards set aside, the last card drawn, the two discards reshuffled and one drawn: 5 in hand
    given_state(GAME, state).when(LUCY, {"type": "excavate_artifact", "cult": "green"}).then(
        ev("power_play_made", seat=LUCY, power="excavate_artifact", cult="green"),
        ev("hand_cards_set_aside", seat=LUCY, cards=[E("Pnakotic Fragments"), E("Zadok Allen")]),
        drew(LUCY, "Pharaoh Nitocris"),
        ev("dunwich_discards_reshuffled", count=2, order=[E("Robert Olmstead"), E("Barnabas Marsh")], secret={"order": []}),
        drew(LUCY, "Robert Olmstead"), ev("artifact_excavated", artifact=12, seat=LUCY))
