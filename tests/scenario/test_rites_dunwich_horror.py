"""The Dunwich Horror (rulebook "Dunwich Horror", p. 29): twins, walls, pairs, captures, the knock race, the win."""

from __future__ import annotations

import dataclasses
import random

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import entity
from shared.games.rites_of_cthulhu.rites.dunwich_horror.cards import HORROR, TWINS, WILBUR
from shared.games.rites_of_cthulhu.rites.dunwich_horror.state import Claims, Replacing, Revealed, Turn
from shared.kernel import ev, fold, redact
from tests.support.rites_positions import position, rite_begin
from tests.support.scenario import given, given_state, offered, play_moves, timeout_choice

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


def hand(state, seat):
    return state.table.hands[seat]


def types(events):
    return [e.type for e in events]


# --- the play example --------------------------------------------------------------------------------------


def test_play_example_lucy_captures_blake_then_reggie_knocks_first_and_takes_derby():
    # Lucy reveals the first wall card with Nug and Asenath Waite (10 - 3 = 7, Wilbur's elder sign) ...
    revealed = given_state(GAME, start()).when(LUCY, reveal("Nug", "Asenath Waite", 0))
    revealed.then(ev("wall_revealed", seat=LUCY, cards=pair("Nug", "Asenath Waite"), wall=0, twin=E("Wilbur Whateley"),
                     card=E("Robert Harrison Blake")))
    # ... and captures it with 3 + 1 = 4; able to capture only one wall card a turn, she draws back to 5 and play
    # passes to Mark.
    captured = given_state(GAME, revealed.after).when(LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0))
    captured.then(ev("wall_captured", seat=LUCY, cards=pair("Abdul Reis el Drogman", "Zadok Allen"), wall=0,
                     card=E("Robert Harrison Blake")),
                  ev("cards_drawn", seat=LUCY, cards=[E(c) for c in LUCY_DRAWS], secret={"cards": [LUCY]}),
                  ev("dunwich_turn_began", seat=MARK))
    state = captured.after
    assert rite(state).captured[LUCY] == (E("Robert Harrison Blake"),)
    state, events = play_moves(GAME, state, (MARK, reveal("Swami Chandraputra", "Francis Wayland Thurston", 4)))  # 1 + 5 = 6
    assert events[0].data["card"] == E("Edward Pickman Derby")
    assert offered(GAME, state, MARK) == [CALL_KNOCK]  # no pair of 13, 9, 4 makes 2: he must knock
    state, _ = play_moves(GAME, state, (MARK, CALL_KNOCK))
    assert GAME.decider.to_act(state) == {LUCY, REGGIE}
    assert knock("Pharaoh Nitocris", "Kamog") in offered(GAME, state, LUCY)  # Lucy could claim it too
    # 10 - 8 = 2: Reggie is slightly faster and takes Derby; Mark's turn ends, he draws back, play goes clockwise.
    claimed = given_state(GAME, state).when(REGGIE, knock("Nasht", "Lobon"))
    claimed.then(ev("wall_claimed", seat=REGGIE, cards=pair("Nasht", "Lobon"), wall=4, card=E("Edward Pickman Derby"),
                    revealer=MARK, arrival=1, order=[REGGIE]),
                 ev("cards_drawn", seat=MARK, cards=[E("Pnakotic Fragments"), E("Robert Olmstead")],
                    secret={"cards": [MARK]}),
                 ev("dunwich_turn_began", seat=REGGIE))
    after = claimed.after
    assert rite(after).captured[REGGIE] == (E("Edward Pickman Derby"),)
    # Lucy's knock arrives second: refused, whatever her pair (the game no longer waits on her).
    given_state(GAME, after).when(LUCY, knock("Pharaoh Nitocris", "Kamog")).refused("rules/not_your_turn")


# --- the deal --------------------------------------------------------------------------------------------------


def test_the_twins_are_set_aside_face_up_and_each_walled_in_with_four_face_down_cards():
    state = start()
    r = rite(state)
    assert r.twins == TWINS == (WILBUR, HORROR)
    assert r.walls == tuple(E(c) for c in EXAMPLE_WALLS) and not r.face_up
    assert all(c not in state.table.pile and all(c not in h for h in state.table.hands) for c in TWINS)
    view = GAME.decider.view(state, MARK)["rite"]
    assert [w["status"] for w in view["walls"]] == ["face_down"] * 8
    assert all("card" not in w for w in view["walls"])
    assert [w["twin"] for w in view["walls"]] == [WILBUR] * 4 + [HORROR] * 4
    assert [t["elder_sign"] for t in view["twins"]] == [7, 6]


def test_a_cultist_holding_a_twin_hands_it_over_and_draws_back_to_five_before_the_first_turn():
    hands = dict(EXAMPLE_HANDS)
    hands[MARK] = ["Wilbur Whateley", "Francis Wayland Thurston", "Dagon", "Dhole", "Klarkash-Ton"]
    state = start(hands, pile=(*EXAMPLE_WALLS, "Swami Chandraputra"))
    assert isinstance(rite(state).phase, Replacing)
    assert len(hand(state, MARK)) == 4 and WILBUR not in hand(state, MARK)
    assert GAME.decider.to_act(state) == {MARK}
    given_state(GAME, state).when(MARK, reveal("Dagon", "Dhole", 0)).refused("rules/replacements_pending")
    given_state(GAME, state).when(LUCY, reveal("Nug", "Asenath Waite", 0)).refused("rules/not_your_turn")
    state, events = play_moves(GAME, state, (MARK, {"type": "draw_card"}))
    assert E("Swami Chandraputra") in hand(state, MARK) and len(hand(state, MARK)) == 5
    assert rite(state).phase == Turn()
    assert GAME.decider.to_act(state) == {LUCY}  # the Grand Cultist takes the first turn


def test_a_twin_is_handed_over_in_view_of_the_table_and_its_holder_draws_on_her_own_command():
    """Who hands a twin over is public (at the table everyone sees it, and the game then waits on her draw); her
    replacement is not drawn in the Grand Cultist's choice of the rite, which would write her hand into his command."""
    before = position(3, LUCY, {**EXAMPLE_HANDS, MARK: ["Wilbur Whateley", "Dagon", "Dhole", "Klarkash-Ton", "Yeb"],
                                REGGIE: ["Nasht", "Lobon", "Yog-Sothoth", "Deep One", "Hastur"]}, EXAMPLE_WALLS)
    events = given(GAME, *before).when(LUCY, {"type": "choose_rite", "rite": RITE}).events
    set_aside = next(e for e in events if e.type == "twins_set_aside")
    assert redact(set_aside, REGGIE)["handed_over"] == [MARK, None] and not set_aside.secret
    assert "cards_drawn" not in [e.type for e in events]


# --- revealing and capturing -----------------------------------------------------------------------------------


def test_a_pair_reveals_a_wall_card_when_its_sum_or_difference_equals_the_twins_elder_sign():
    state = start()
    given_state(GAME, state).when(LUCY, reveal("Nug", "Asenath Waite", 1)).then_types("wall_revealed")  # 10 - 3
    hands = {**EXAMPLE_HANDS, LUCY: ["Asenath Waite", "Klarkash-Ton", "Nug", "Zadok Allen", "Randolph Carter"]}
    hands[MARK] = ["Swami Chandraputra", "Francis Wayland Thurston", "Dagon", "Dhole", "Shoggoth"]
    state = start(hands)
    given_state(GAME, state).when(LUCY, reveal("Asenath Waite", "Klarkash-Ton", 2)).then_types("wall_revealed")  # 3+4
    given_state(GAME, state).when(LUCY, reveal("Asenath Waite", "Zadok Allen", 2)).refused("rules/pair_does_not_match")


def test_a_pair_reveals_only_a_wall_of_the_twin_whose_elder_sign_it_makes():
    state = start()
    # 10 - 3 = 7 is Wilbur's elder sign; slot 5 walls in The Dunwich Horror (6).
    given_state(GAME, state).when(LUCY, reveal("Nug", "Asenath Waite", 5)).refused("rules/pair_does_not_match")


def test_cults_do_not_matter_only_elder_signs():
    state = start()
    # Abdul Reis el Drogman (yellow 3) and Nug (gray 10): different cults, difference 7.
    given_state(GAME, state).when(LUCY, reveal("Abdul Reis el Drogman", "Nug", 0)).then_types("wall_revealed")


def test_a_pair_is_two_different_cards_from_the_hand():
    state = start()
    given_state(GAME, state).when(LUCY, {"type": "reveal_wall", "cards": [E("Nug"), E("Nug")], "wall": 0}).refused(
        "rules/pair_needs_two_cards")
    given_state(GAME, state).when(LUCY, reveal("Nug", "Lobon", 0)).refused("rules/cards_not_in_hand")


def test_a_pair_may_be_listed_in_either_order():
    state = start()
    command = {"type": "reveal_wall", "cards": [E("Asenath Waite"), E("Nug")][::-1], "wall": 0}
    assert given_state(GAME, state).when(LUCY, command).then_types("wall_revealed")[0].data["cards"] == pair("Nug", "Asenath Waite")


def test_hands_are_drawn_back_to_five_only_at_the_end_of_a_turn():
    state, _ = play_moves(GAME, start(), (LUCY, reveal("Nug", "Asenath Waite", 0)))
    assert len(hand(state, LUCY)) == 3
    state, events = play_moves(GAME, state, (LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)))
    assert len(hand(state, LUCY)) == 5
    assert types(events)[:3] == ["wall_captured", "cards_drawn", "dunwich_turn_began"]


def test_a_wall_card_may_only_be_captured_after_it_has_been_revealed():
    state = start()
    given_state(GAME, state).when(LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)).refused("rules/wall_not_revealed")


def test_capturing_needs_a_second_pair_matching_the_revealed_cards_elder_sign():
    state, _ = play_moves(GAME, start(), (LUCY, reveal("Nug", "Asenath Waite", 0)))  # Blake, 4
    given_state(GAME, state).when(LUCY, capture("Abdul Reis el Drogman", "Randolph Carter", 0)).refused(
        "rules/pair_does_not_match")  # 3 and 3: sum 6, difference 0


def test_after_a_reveal_the_revealer_captures_that_card_or_knocks_and_does_nothing_else():
    state, _ = play_moves(GAME, start(), (LUCY, reveal("Nug", "Asenath Waite", 0)))
    assert isinstance(rite(state).phase, Revealed)
    legal = offered(GAME, state, LUCY)
    # 3 + 1 = 4 twice over (Abdul Reis el Drogman or Randolph Carter with Zadok Allen), or the knock.
    assert legal == [capture("Zadok Allen", "Randolph Carter", 0), capture("Zadok Allen", "Abdul Reis el Drogman", 0),
                     CALL_KNOCK]
    given_state(GAME, state).when(LUCY, reveal("Abdul Reis el Drogman", "Randolph Carter", 4)).refused(
        "rules/one_reveal_per_turn")
    given_state(GAME, state).when(LUCY, {"type": "discard_and_draw", "cards": pair("Zadok Allen", "Randolph Carter")}).refused(
        "rules/one_reveal_per_turn")
    given_state(GAME, state).when(LUCY, {"type": "end_turn"}).refused("rules/must_capture_or_knock")


def test_a_cultist_may_capture_no_more_than_one_wall_card_per_turn():
    state, events = play_moves(GAME, start(), (LUCY, reveal("Nug", "Asenath Waite", 0)),
                         (LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)))
    assert rite(state).phase == Turn(MARK)
    assert offered(GAME, state, LUCY) == []
    given_state(GAME, state).when(LUCY, reveal("Nug", "Asenath Waite", 1)).refused("rules/not_your_turn")


# --- the knock ---------------------------------------------------------------------------------------------------


def marks_knock():
    state, _ = play_moves(GAME, start(), (LUCY, reveal("Nug", "Asenath Waite", 0)),
                    (LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)),
                    (MARK, reveal("Swami Chandraputra", "Francis Wayland Thurston", 4)), (MARK, CALL_KNOCK))
    return state


def test_a_revealer_who_cannot_capture_must_knock_and_every_other_cultist_may_claim():
    state = marks_knock()
    assert rite(state).phase == Claims(MARK, 4)
    assert GAME.decider.to_act(state) == {LUCY, REGGIE}
    assert offered(GAME, state, REGGIE) == [knock("Nasht", "Lobon"), PASS]
    assert offered(GAME, state, MARK) == []
    given_state(GAME, state).when(MARK, knock("Dagon", "Dhole")).refused("rules/not_your_turn")  # the revealer


def test_the_first_valid_claim_applied_wins_and_the_log_records_the_arrival_order():
    state = marks_knock()
    state, events = play_moves(GAME, state, (REGGIE, PASS))
    assert events[0].data == {"seat": REGGIE, "wall": 4, "arrival": 1}
    assert rite(state).phase == Claims(MARK, 4, (REGGIE,))
    given_state(GAME, state).when(REGGIE, knock("Nasht", "Lobon")).refused("rules/not_your_turn")  # he passed
    state, events = play_moves(GAME, state, (LUCY, knock("Pharaoh Nitocris", "Kamog")))
    claimed = events[0]
    assert claimed.type == "wall_claimed" and claimed.data["arrival"] == 2 and claimed.data["order"] == [REGGIE, LUCY]
    assert rite(state).captured[LUCY] == (E("Robert Harrison Blake"), E("Edward Pickman Derby"))


def test_an_invalid_knock_is_refused_and_the_window_stays_open():
    state = marks_knock()
    given_state(GAME, state).when(REGGIE, knock("Yeb", "Deep One")).refused("rules/pair_does_not_match")  # 9 and 9
    assert GAME.decider.to_act(state) == {LUCY, REGGIE}


def test_a_claimant_draws_back_to_five_only_at_the_end_of_her_own_turn():
    state, events = play_moves(GAME, marks_knock(), (REGGIE, knock("Nasht", "Lobon")))
    assert len(hand(state, REGGIE)) == 3 and len(hand(state, MARK)) == 5
    assert [e.data["seat"] for e in events if e.type == "cards_drawn"] == [MARK]


def test_the_claim_window_closes_when_every_other_cultist_has_passed_and_the_card_stays_face_up():
    state, events = play_moves(GAME, marks_knock(), (REGGIE, PASS), (LUCY, PASS))
    assert types(events)[-3:] == ["claims_closed", "cards_drawn", "dunwich_turn_began"]
    assert next(e for e in events if e.type == "claims_closed").data == {"wall": 4, "passed": [REGGIE, LUCY]}
    assert 4 in rite(state).face_up and rite(state).phase == Turn(REGGIE)
    given_state(GAME, state).when(LUCY, knock("Pharaoh Nitocris", "Kamog")).refused("rules/not_your_turn")
    given_state(GAME, state).when(REGGIE, knock("Nasht", "Lobon")).refused("rules/no_knock_window")
    # Reggie captures the card left face up on his own turn.
    assert capture("Nasht", "Lobon", 4) in offered(GAME, state, REGGIE)
    state, events = play_moves(GAME, state, (REGGIE, capture("Nasht", "Lobon", 4)))
    assert rite(state).captured[REGGIE] == (E("Edward Pickman Derby"),)


def test_no_knock_is_taken_when_nobody_has_knocked():
    given_state(GAME, start()).when(LUCY, knock("Pharaoh Nitocris", "Kamog")).refused("rules/no_knock_window")
    given_state(GAME, start()).when(LUCY, PASS).refused("rules/no_knock_window")
    given_state(GAME, start()).when(MARK, knock("Dagon", "Dhole")).refused("rules/not_your_turn")


def test_no_turn_move_is_made_while_the_claim_window_is_open():
    given_state(GAME, marks_knock()).when(REGGIE, reveal("Nasht", "Lobon", 1)).refused("rules/claim_window_open")


# --- the other turn, the pile, the end ----------------------------------------------------------------------------


def test_a_cultist_may_forego_the_turn_to_discard_two_cards_and_draw_two():
    state = start()
    state, events = play_moves(GAME, state, (LUCY, {"type": "discard_and_draw", "cards": pair("Zadok Allen", "Randolph Carter")}))
    assert types(events)[:3] == ["two_cards_discarded", "cards_drawn", "dunwich_turn_began"]
    assert sorted(hand(state, LUCY)) == sorted(E(c) for c in ["Nug", "Asenath Waite", "Abdul Reis el Drogman",
                                                              "Pharaoh Nitocris", "Kamog"])
    assert rite(state).discards == tuple(pair("Zadok Allen", "Randolph Carter"))
    assert rite(state).phase == Turn(MARK)


def test_when_the_pile_runs_out_the_discards_are_reshuffled_into_a_fresh_pile():
    # Only the walls and one card are left in the pile; everything else is out of the rite.
    state = start(pile=(*EXAMPLE_WALLS, "Pharaoh Nitocris"), fill_pile=False)
    assert len(state.table.pile) == 1
    state, events = play_moves(GAME, state, (LUCY, {"type": "discard_and_draw", "cards": pair("Zadok Allen", "Randolph Carter")}))
    assert types(events)[:4] == ["two_cards_discarded", "cards_drawn", "dunwich_discards_reshuffled", "cards_drawn"]
    reshuffle = events[2]
    assert sorted(reshuffle.data["order"]) == pair("Zadok Allen", "Randolph Carter")
    assert "order" not in redact(reshuffle, MARK)
    assert len(hand(state, LUCY)) == 5 and rite(state).discards == ()


def test_a_cultist_with_nothing_to_play_ends_the_turn_and_draws_back_to_five():
    state = start()
    r = rite(state)
    table = dataclasses.replace(state.table, hands=(
        (E("Nug"),), *state.table.hands[1:]), set_aside=state.table.set_aside + state.table.hands[0][1:])
    state = dataclasses.replace(state, table=table, stage=dataclasses.replace(state.stage, rite=r))
    assert offered(GAME, state, LUCY) == [{"type": "end_turn"}]
    state, _ = play_moves(GAME, state, (LUCY, {"type": "end_turn"}))
    assert len(hand(state, LUCY)) == 5
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
    # Lucy holds Blake (4) + Kaman-Thah (9) ... Reggie the rest; Lucy's capture of the last wall ends the rite.
    state = with_walls_captured(start(), {LUCY: [1], MARK: [2, 3], REGGIE: [4, 5, 6, 7]}, left=0)
    state, events = play_moves(GAME, state, (LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)))
    freed = next(e for e in events if e.type == "twins_freed")
    # Lucy 4 + 9 = 13; Mark 5 + 1 = 6; Reggie 2 + 1 + 6 + 7 = 16.
    assert freed.data["points"] == [13, 6, 16]
    won = next(e for e in events if e.type == "rite_won")
    assert won.data == {"seat": REGGIE, "reason": "twins_freed"}
    assert "cards_drawn" not in types(events)[: types(events).index("twins_freed")]


def test_the_twins_are_not_captured_and_a_tie_goes_to_the_first_in_turn_order_from_the_grand_cultist():
    # Mark 5 + 1 + 2 + 1 = 9 (Nephren-Ka, Enoch Bowen, Derby, Brown Jenkin); Reggie 6 + 7 = 13; Lucy 4 + 9 = 13.
    state = with_walls_captured(start(), {LUCY: [1], MARK: [2, 3, 4, 5], REGGIE: [6, 7]}, left=0)
    events = given_state(GAME, state).when(LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)).events
    freed = [e.type for e in events].index("twins_freed")
    assert events[freed].data["points"] == [13, 9, 13]
    assert next(e for e in events if e.type == "rite_won").data["seat"] == LUCY
    freed_state = fold(GAME, events[: freed + 1], state)
    assert rite(freed_state).twins == TWINS  # still face up on the table
    assert all(c not in cards for cards in rite(freed_state).captured for c in TWINS)


# --- the turn timer --------------------------------------------------------------------------------------------


def test_a_silent_cultist_in_a_knock_race_passes_and_a_silent_revealer_knocks():
    """Rulings: the timer plays pass_knock for a claimant who said nothing (even one holding a valid pair) and
    call_knock for a revealer who produced no second pair."""
    state = start()
    state, _ = play_moves(GAME, state, (LUCY, reveal("Nug", "Asenath Waite", 0)), (LUCY, capture("Abdul Reis el Drogman", "Zadok Allen", 0)),
                    (MARK, reveal("Swami Chandraputra", "Francis Wayland Thurston", 4)))
    assert [timeout_choice(GAME, state, MARK, random.Random(seed)) for seed in range(20)] == [CALL_KNOCK] * 20
    state, _ = play_moves(GAME, state, (MARK, CALL_KNOCK))
    assert knock("Pharaoh Nitocris", "Kamog") in offered(GAME, state, LUCY)
    assert {str(timeout_choice(GAME, state, s, random.Random(seed))) for s in (LUCY, REGGIE) for seed in range(20)} == {str(PASS)}


def test_a_power_plays_replacement_draw_reshuffles_the_discards_when_the_pile_runs_out():
    """Issue 27, item 4: a power-play's cards are replaced ("draw enough cards to replace", rulebook ~318), and "If
    the entities draw pile depletes to 0 cards, re-shuffle it" (~1213): with one card left in the pile the
    replacement draw reshuffles the discards and the cultist holds five cards again, not four."""
    hands = {**EXAMPLE_HANDS, LUCY: ["Nug", "Asenath Waite", "Abdul Reis el Drogman", "Zadok Allen",
                                     "Pnakotic Fragments"]}
    state = start(hands, pile=(*EXAMPLE_WALLS, "Pharaoh Nitocris"), fill_pile=False)
    discards = tuple(c for c, _ in state.table.face_down[:30])
    table = dataclasses.replace(state.table, face_down=state.table.face_down[30:])
    state = dataclasses.replace(state, table=table, stage=dataclasses.replace(
        state.stage, rite=dataclasses.replace(rite(state), discards=discards)))
    GAME.decider.invariant(state)
    assert len(state.table.pile) == 1
    state, events = play_moves(GAME, state, (LUCY, {"type": "excavate_artifact", "cult": "green"}))
    assert "dunwich_discards_reshuffled" in types(events)
    assert len(hand(state, LUCY)) == 5 and state.table.pile
