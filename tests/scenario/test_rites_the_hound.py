"""The Hound (rulebook "The Hound", p. 45): graves, peeks, ghouls, digging partners, henchmen, psych-outs, the win."""

from __future__ import annotations

import dataclasses
import random

import pytest

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import entity
from shared.games.rites_of_cthulhu.rites.the_hound.rules import strength
from shared.games.rites_of_cthulhu.rites.the_hound.state import Digging, Placed, Placing
from shared.kernel import EVERYONE, ev, fold, redact
from tests.support.rites_positions import position, rite_begin
from tests.support.scenario import ENTROPY, decide, given, given_state, offered, play_moves, timeout_choice

E = entity
RITE = "the_hound"
MARY, JARED, SUZY, FELIX = range(4)

# The play example (p. 50): Mary (the Grand Cultist), Jared, Suzy and Felix in clockwise order.
EXAMPLE_HANDS = {
    MARY: ["Robert Olmstead", "Deep One", "Kamog", "Zkauba the Wizard", "Walter Gilman"],
    JARED: ["Lobon", "Mother Hydra", "Asenath Waite", "Harley Warren", "Pharaoh Khafra"],
    SUZY: ["Nightgaunt", "Nyarlathotep", "Klarkash-Ton", "Edward Pickman Derby", "Barnabas Marsh"],
    FELIX: ["Hastur", "Yeb", "Nephren-Ka", "Gustaf Johansen", "Lavinia Whateley"],
}
EXAMPLE_GRAVES = ["Randolph Carter", "Dhole", "Yog-Sothoth", "Shoggoth", "Nug"]


def start(hands=EXAMPLE_HANDS, graves=EXAMPLE_GRAVES, pile=(), players=4, grand_cultist=MARY, fill_pile=True, extra=()):
    """A game whose Hound has just begun: the graveyard laid from exactly these cards."""
    top = [*graves, *pile]
    before = position(players, grand_cultist, hands, top, fill_pile=fill_pile)
    chosen = fold(GAME, before + [ev("rite_chosen", rite=RITE)])
    begin = rite_begin(chosen, RITE) + list(extra)
    return given(GAME, *position(players, grand_cultist, hands, top, rite=RITE, begin=begin, fill_pile=fill_pile)).state


def place(card, grave):
    return {"type": "place_ghoul", "card": E(card), "grave": grave}


def henchman(card):
    return {"type": "call_henchman", "card": E(card)}


def dummy(card):
    return {"type": "psych_out", "card": E(card)}


DECLINE = {"type": "decline_peek"}
KEEP = {"type": "keep_ghoul"}
NOTHING = {"type": "no_henchman"}


def move(grave):
    return {"type": "move_ghoul", "grave": grave}


def rite(state):
    return state.stage.rite


def of(events, kind):
    return next(e for e in events if e.type == kind)


def types(events):
    return [e.type for e in events]


# --- the play example ---------------------------------------------------------------------------------------------


def test_play_example_jared_loots_dhole_and_felix_wins_the_tie_for_yog_sothoth_on_his_ghoul():
    state, _ = play_moves(GAME, start(), (MARY, DECLINE))
    # Mary places Robert Olmstead on the first grave: she draws at once, then peeks at Randolph Carter.
    placed = given_state(GAME, state).when(MARY, place("Robert Olmstead", 0))
    placed.then(ev("ghoul_placed", seat=MARY, card=E("Robert Olmstead"), grave=0),
                ev("cards_drawn", seat=MARY, cards=[E("Pnakotic Fragments")], secret={"cards": [MARY]}),
                ev("grave_peeked", seat=MARY, grave=0, card=E("Randolph Carter"), privilege=False, secret={"card": [MARY]}))
    # A low card: she moves her ghoul, without peeking, and Jared's turn begins.
    moved = given_state(GAME, placed.after).when(MARY, move(1))
    moved.then(ev("ghoul_moved", seat=MARY, card=E("Robert Olmstead"), source=0, grave=1), ev("hound_turn_began", seat=JARED))
    # Jared joins her on that grave, peeks at Dhole and keeps his ghoul there: the grave is dug up.
    joined = given_state(GAME, moved.after).when(JARED, place("Lobon", 1))
    joined.then(ev("ghoul_placed", seat=JARED, card=E("Lobon"), grave=1),
                ev("cards_drawn", seat=JARED, cards=[E("Zadok Allen")], secret={"cards": [JARED]}),
                ev("grave_peeked", seat=JARED, grave=1, card=E("Dhole"), privilege=False, secret={"card": [JARED]}))
    kept = given_state(GAME, joined.after).when(JARED, KEEP)
    kept.then(ev("ghoul_kept", seat=JARED, grave=1),
              ev("grave_dug_up", grave=1, card=E("Dhole"), partners=[MARY, JARED], turn=JARED))
    state = kept.after
    # Both send a henchman: 2 + 9 against 8 + 12, Jared loots Dhole; the dig is cleared, both draw, Suzy's turn.
    looted = given_state(GAME, state).played((JARED, henchman("Mother Hydra"))).when(MARY, henchman("Deep One"))
    looted.then(ev("henchman_sealed", seat=MARY, grave=1, choice="henchman", card=E("Deep One"),
                   secret={"choice": [MARY], "card": [MARY]}),
                ev("henchmen_revealed", grave=1, shown=[{"seat": MARY, "shown": "henchman", "card": E("Deep One")},
                                                        {"seat": JARED, "shown": "henchman", "card": E("Mother Hydra")}]),
                ev("grave_looted", seat=JARED, grave=1, card=E("Dhole"), totals=[[MARY, 11], [JARED, 20]]),
                ev("dig_cleared", grave=1, cards=[E(c) for c in ("Robert Olmstead", "Lobon", "Deep One", "Mother Hydra")]),
                ev("cards_drawn", seat=MARY, cards=[E("Francis Wayland Thurston")], secret={"cards": [MARY]}),
                ev("cards_drawn", seat=JARED, cards=[E("George Gammell Angell")], secret={"cards": [JARED]}),
                ev("hound_turn_began", seat=SUZY))
    state = looted.after
    assert rite(state).graves[1].looted_by == JARED
    assert rite(state).phase == Placing(SUZY)
    state, events = play_moves(GAME, state, (SUZY, place("Nightgaunt", 2)))
    assert of(events, "grave_peeked").data["card"] == E("Yog-Sothoth")
    state, _ = play_moves(GAME, state, (SUZY, KEEP))
    assert rite(state).phase == Placing(FELIX)
    state, _ = play_moves(GAME, state, (FELIX, place("Hastur", 2)), (FELIX, KEEP))
    state, events = play_moves(GAME, state, (FELIX, henchman("Yeb")), (SUZY, henchman("Nyarlathotep")))
    # 12 + 9 = 21 against 8 + 13 = 21: the higher ghoul, Hastur (12), loots.
    assert of(events, "grave_looted").data == {"seat": FELIX, "grave": 2, "card": E("Yog-Sothoth"),
                                               "totals": [[SUZY, 21], [FELIX, 21]]}
    assert [g.looted_by for g in rite(state).graves] == [None, JARED, FELIX, None, None]  # 3 graves left


# --- the deal and the peeks --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_the_graveyard_is_one_face_down_grave_more_than_there_are_cultists(players):
    state = given(GAME, *position(players, 0, {}, rite=None)).state
    state = decide(GAME, state, {"type": "choose_rite", "rite": RITE}, 0, ENTROPY).state
    view = GAME.decider.view(state, 1)["rite"]
    assert len(view["graves"]) == players + 1
    assert all(g["status"] == "face_down" and "card" not in g for g in view["graves"])
    assert len(state.table.pile) == 56 - (players + 1)  # (nobody was dealt a hand in this position)


def test_the_grand_cultist_may_peek_at_any_one_grave_before_her_first_turn():
    state = start()
    assert offered(GAME, state, MARY)[:5] == [{"type": "peek_grave", "grave": g} for g in range(5)]
    state, events = play_moves(GAME, state, (MARY, {"type": "peek_grave", "grave": 3}))
    assert types(events) == ["grave_peeked", "hound_turn_began"]
    assert redact(events[0], MARY)["card"] == E("Shoggoth") and "card" not in redact(events[0], JARED)
    assert rite(state).phase == Placing(MARY)  # then she takes the first turn
    assert GAME.decider.view(state, MARY)["rite"]["graves"][3] == {"grave": 3, "ghouls": [], "status": "face_down",
                                                           "card": E("Shoggoth"), "peeked": True}
    given_state(GAME, state).when(MARY, {"type": "peek_grave", "grave": 4}).refused("rules/no_peek_privilege")


def test_a_peek_is_knowledge_of_the_peeking_seat_only():
    state, events = play_moves(GAME, start(), (MARY, DECLINE), (MARY, place("Robert Olmstead", 0)))
    peek = of(events, "grave_peeked")
    assert peek.secret == {"card": (MARY,)}
    assert GAME.decider.view(state, MARY)["rite"]["graves"][0]["card"] == E("Randolph Carter")
    for viewer in (JARED, SUZY, None):
        assert "card" not in GAME.decider.view(state, viewer)["rite"]["graves"][0]
    assert GAME.decider.view(state, EVERYONE)["rite"]["graves"][0]["card"] == E("Randolph Carter")


def test_a_placed_ghoul_is_replaced_from_the_pile_at_once():
    state, _ = play_moves(GAME, start(pile=["Dagon"]), (MARY, DECLINE), (MARY, place("Robert Olmstead", 0)))
    assert E("Dagon") in state.table.hands[MARY] and len(state.table.hands[MARY]) == 5


# --- placing and moving ghouls --------------------------------------------------------------------------------------


def test_after_peeking_a_cultist_leaves_her_ghoul_or_moves_it_once_without_a_peek():
    state, _ = play_moves(GAME, start(), (MARY, DECLINE), (MARY, place("Robert Olmstead", 0)))
    assert rite(state).phase == Placed(MARY, 0)
    assert offered(GAME, state, MARY) == [KEEP] + [move(g) for g in (1, 2, 3, 4)]
    state, events = play_moves(GAME, state, (MARY, move(3)))
    assert types(events) == ["ghoul_moved", "hound_turn_began"]
    assert rite(state).graves[3].ghouls == ((MARY, E("Robert Olmstead")),) and not rite(state).graves[0].ghouls
    given_state(GAME, state).when(MARY, move(4)).refused("rules/not_your_turn")
    assert "card" not in GAME.decider.view(state, MARY)["rite"]["graves"][3]  # she never saw the second grave


def test_leaving_a_ghoul_alone_at_a_grave_ends_the_turn():
    state, events = play_moves(GAME, start(), (MARY, DECLINE), (MARY, place("Robert Olmstead", 0)), (MARY, KEEP))
    assert types(events)[-2:] == ["ghoul_kept", "hound_turn_began"] and rite(state).phase == Placing(JARED)


def test_a_cultist_sends_only_one_ghoul_to_a_grave():
    state, _ = play_moves(GAME, start(), (MARY, DECLINE), (MARY, place("Robert Olmstead", 0)), (MARY, KEEP),
                    (JARED, place("Lobon", 1)), (JARED, KEEP), (SUZY, place("Nightgaunt", 2)), (SUZY, KEEP),
                    (FELIX, place("Hastur", 3)), (FELIX, KEEP))
    given_state(GAME, state).when(MARY, place("Deep One", 0)).refused("rules/one_ghoul_per_grave")
    assert place("Deep One", 0) not in offered(GAME, state, MARY)
    state, _ = play_moves(GAME, state, (MARY, place("Deep One", 4)))
    given_state(GAME, state).when(MARY, move(0)).refused("rules/one_ghoul_per_grave")


def test_moving_a_ghoul_to_a_grave_with_another_ghoul_makes_digging_partners():
    state, events = play_moves(GAME, start(), (MARY, DECLINE), (MARY, place("Robert Olmstead", 0)), (MARY, KEEP),
                         (JARED, place("Lobon", 1)), (JARED, move(0)))
    assert of(events, "grave_dug_up").data == {"grave": 0, "card": E("Randolph Carter"), "partners": [MARY, JARED],
                                               "turn": JARED}
    assert "grave_peeked" not in types(events[types(events).index("ghoul_moved"):])
    assert GAME.decider.view(state, SUZY)["rite"]["graves"][0]["card"] == E("Randolph Carter")  # face up for all


# --- digging: henchmen, psych-outs, ties ------------------------------------------------------------------------------


def dig_at_one(hands=EXAMPLE_HANDS, **kw):
    """Mary's ghoul waits at grave 1 (moved there); Jared joins her and digs."""
    state, _ = play_moves(GAME, start(hands, **kw), (MARY, DECLINE), (MARY, place(hands[MARY][0], 0)), (MARY, move(1)),
                    (JARED, place(hands[JARED][0], 1)), (JARED, KEEP))
    assert isinstance(rite(state).phase, Digging)
    return state


def test_a_henchman_must_be_of_the_same_cult_as_the_ghoul():
    state = dig_at_one()
    given_state(GAME, state).when(JARED, henchman("Asenath Waite")).refused("rules/henchman_must_match_ghoul")
    legal = offered(GAME, state, JARED)
    greens = sorted(c for c in state.table.hands[JARED] if c // 14 == 0)  # Lobon is green
    assert E("Mother Hydra") in greens and E("Asenath Waite") not in greens
    assert [c for c in legal if c["type"] == "call_henchman"] == [{"type": "call_henchman", "card": c} for c in greens]
    assert NOTHING in legal and dummy("Asenath Waite") in legal


def test_henchmen_are_sealed_then_revealed_together():
    state, events = play_moves(GAME, dig_at_one(), (JARED, henchman("Mother Hydra")))
    sealed = events[0]
    assert redact(sealed, MARY) == {"seat": JARED, "grave": 1}
    assert GAME.decider.to_act(state) == {MARY}
    assert GAME.decider.view(state, MARY)["rite"]["dig"] == {"grave": 1, "sealed": [JARED]}
    assert GAME.decider.view(state, JARED)["rite"]["dig"]["choices"] == {str(JARED): {"choice": "henchman", "card": E("Mother Hydra")}}
    state, events = play_moves(GAME, state, (MARY, henchman("Deep One")))
    assert of(events, "henchmen_revealed").data["shown"] == [
        {"seat": MARY, "shown": "henchman", "card": E("Deep One")},
        {"seat": JARED, "shown": "henchman", "card": E("Mother Hydra")}]


def test_a_henchman_sealed_before_the_glass_from_leng_opens_the_hands_stays_sealed():
    """The Glass opens hands; a sealed henchman is not in the hand: Jared's stays hidden from Mary until the reveal."""
    hands = {**EXAMPLE_HANDS, SUZY: ["Nightgaunt", "Nyarlathotep", "Liber Ivonis", "Swami Chandraputra", "Barnabas Marsh"]}
    state = dig_at_one(hands)
    state = dataclasses.replace(state, artifact_deck=(1,), thrown_out=tuple(a for a in range(13) if a != 1))
    state, _ = play_moves(GAME, state, (JARED, henchman("Mother Hydra")), (SUZY, {"type": "excavate_artifact", "cult": "blue"}))
    assert state.table.mods.open_hands
    for seat in (MARY, SUZY, None):
        assert "cards" not in GAME.decider.view(state, seat)["rite"]["dig"]
    assert GAME.decider.view(state, JARED)["rite"]["dig"]["choices"] == {str(JARED): {"choice": "henchman", "card": E("Mother Hydra")}}


def test_a_psych_out_discards_the_partners_henchman_and_the_dummy_goes_back_to_hand():
    state = dig_at_one()
    # Mary (ghoul 2) presents Kamog face down; Jared (ghoul 8) reveals Mother Hydra, which is discarded.
    state, events = play_moves(GAME, state, (MARY, dummy("Kamog")), (JARED, henchman("Mother Hydra")))
    assert of(events, "henchmen_revealed").data["shown"] == [
        {"seat": MARY, "shown": "face_down"}, {"seat": JARED, "shown": "henchman", "card": E("Mother Hydra")}]
    assert of(events, "henchman_psyched_out").data == {"seat": JARED, "card": E("Mother Hydra")}
    returned = of(events, "dummy_returned")
    assert returned.data["card"] == E("Kamog") and "card" not in redact(returned, SUZY)
    assert E("Kamog") in state.table.hands[MARY] and E("Mother Hydra") in rite(state).discards
    assert of(events, "grave_looted").data["totals"] == [[MARY, 2], [JARED, 8]]  # ghouls alone


def test_when_both_partners_psych_out_both_dummies_are_discarded():
    state = dig_at_one()
    state, events = play_moves(GAME, state, (MARY, dummy("Kamog")), (JARED, dummy("Asenath Waite")))
    assert of(events, "dummies_discarded").data["cards"] == [E("Kamog"), E("Asenath Waite")]
    assert E("Kamog") in rite(state).discards and E("Asenath Waite") in rite(state).discards
    assert of(events, "grave_looted").data["seat"] == JARED


def test_a_dummy_against_no_henchman_just_goes_back_to_hand():
    state, events = play_moves(GAME, dig_at_one(), (MARY, dummy("Kamog")), (JARED, NOTHING))
    assert "henchman_psyched_out" not in types(events) and E("Kamog") in state.table.hands[MARY]


def test_a_forbidden_book_doubles_the_other_card():
    assert strength(E("The Book of Azathoth"), E("Nyarlathotep")) == 26  # the rulebook's example
    assert strength(E("Nightgaunt"), E("Liber Ivonis")) == 16
    assert strength(E("The Book of Azathoth"), None) == 0
    assert strength(E("The Book of Azathoth"), E("The Necronomicon")) == 0
    hands = {**EXAMPLE_HANDS, MARY: ["The Book of Azathoth", "Nyarlathotep", "Kamog", "Zkauba the Wizard", "Deep One"],
             SUZY: ["Nightgaunt", "Robert Olmstead", "Klarkash-Ton", "Edward Pickman Derby", "Barnabas Marsh"]}
    state, events = play_moves(GAME, dig_at_one(hands), (MARY, henchman("Nyarlathotep")), (JARED, henchman("Mother Hydra")))
    assert of(events, "grave_looted").data == {"seat": MARY, "grave": 1, "card": E("Dhole"),
                                               "totals": [[MARY, 26], [JARED, 20]]}


def test_a_tie_in_totals_and_ghouls_discards_everything_and_leaves_the_grave_face_up_for_later():
    hands = {**EXAMPLE_HANDS, MARY: ["Nightgaunt", "Walter Gilman", "Kamog", "Zkauba the Wizard", "Deep One"],
             SUZY: ["Robert Olmstead", "Nyarlathotep", "Klarkash-Ton", "Edward Pickman Derby", "Barnabas Marsh"]}
    state = dig_at_one(hands)  # Nightgaunt (8) against Lobon (8)
    state, events = play_moves(GAME, state, (MARY, NOTHING), (JARED, NOTHING))
    assert of(events, "dig_tied").data == {"grave": 1, "card": E("Dhole"), "totals": [[MARY, 8], [JARED, 8]]}
    grave = rite(state).graves[1]
    assert grave.face_up and grave.looted_by is None and not grave.ghouls
    assert E("Nightgaunt") in rite(state).discards and E("Lobon") in rite(state).discards
    # A face-up grave needs no peek, and still needs digging partners.
    state, events = play_moves(GAME, state, (SUZY, place("Robert Olmstead", 1)))
    assert types(events) == ["ghoul_placed", "cards_drawn"]
    state, events = play_moves(GAME, state, (SUZY, KEEP))
    assert rite(state).phase == Placing(FELIX)


def test_partners_draw_back_to_five_after_the_dig():
    state, _ = play_moves(GAME, dig_at_one(), (MARY, henchman("Deep One")), (JARED, henchman("Mother Hydra")))
    assert len(state.table.hands[MARY]) == 5 and len(state.table.hands[JARED]) == 5


def test_under_the_rank_inverting_artifact_the_lower_total_loots():
    state = dig_at_one(extra=[ev("ranks_inverted")])
    state, events = play_moves(GAME, state, (MARY, henchman("Deep One")), (JARED, henchman("Mother Hydra")))
    assert of(events, "grave_looted").data["seat"] == MARY  # 11 under 20


# --- the end ---------------------------------------------------------------------------------------------------------


def with_looted(state, looted):
    r = rite(state)
    graves = list(r.graves)
    for index, seat in looted.items():
        graves[index] = dataclasses.replace(graves[index], face_up=True, looted_by=seat)
    return dataclasses.replace(state, stage=dataclasses.replace(state.stage, rite=dataclasses.replace(r, graves=tuple(graves))))


def test_when_the_last_grave_is_looted_the_most_looted_points_wins():
    # Suzy holds Randolph Carter (3) and Shoggoth (8), Felix Yog-Sothoth (13) and Nug (10): Jared's Dhole decides.
    state = with_looted(start(), {0: SUZY, 3: SUZY, 2: FELIX, 4: FELIX})
    state, events = play_moves(GAME, state, (MARY, DECLINE), (MARY, place("Robert Olmstead", 1)), (MARY, KEEP),
                         (JARED, place("Lobon", 1)), (JARED, KEEP), (JARED, henchman("Mother Hydra")),
                         (MARY, henchman("Deep One")))
    assert of(events, "graveyard_emptied").data["points"] == [0, 9, 11, 23]
    assert of(events, "rite_won").data == {"seat": FELIX, "reason": "graveyard_looted"}


def test_a_cultist_whose_ghouls_wait_at_every_grave_left_passes_her_turn():
    hands = {0: ["Robert Olmstead", "Deep One", "Kamog"], 1: ["Lobon", "Nug", "Yeb"]}
    state = start(hands, graves=["Dhole", "Shoggoth", "Hastur"], players=2, grand_cultist=0)
    state, _ = play_moves(GAME, state, (0, DECLINE))
    r = rite(state)
    graves = (dataclasses.replace(r.graves[0], face_up=True, looted_by=1),
              dataclasses.replace(r.graves[1], ghouls=((0, E("Robert Olmstead")),)),
              dataclasses.replace(r.graves[2], ghouls=((0, E("Deep One")),)))
    table = dataclasses.replace(state.table, hands=((E("Kamog"),), state.table.hands[1]),
                                set_aside=state.table.set_aside + tuple(state.table.hands[0][3:]))
    state = dataclasses.replace(state, table=table, stage=dataclasses.replace(
        state.stage, rite=dataclasses.replace(r, graves=graves)))
    assert offered(GAME, state, 0) == [{"type": "pass_turn"}]
    given_state(GAME, state).when(0, place("Kamog", 1)).refused("rules/one_ghoul_per_grave")
    state, events = play_moves(GAME, state, (0, {"type": "pass_turn"}))
    assert types(events) == ["turn_passed_without_ghoul", "hound_turn_began"] and rite(state).phase == Placing(1)
    given_state(GAME, start()).when(MARY, DECLINE).then_types("peek_declined", "hound_turn_began")
    state, _ = play_moves(GAME, start(), (MARY, DECLINE))
    given_state(GAME, state).when(MARY, {"type": "pass_turn"}).refused("rules/must_place_ghoul")


def test_when_nobody_can_send_a_ghoul_any_more_the_rite_ends_with_the_graves_left_unlooted():
    # Only the graves are in the pile; seats 1 and 2 have no cards; seat 0's two ghouls end up on the last graves.
    hands = {0: ["Robert Olmstead", "Deep One"], 1: [], 2: []}
    state = start(hands, graves=["Dhole", "Nug", "Yeb", "Shoggoth"], players=3, grand_cultist=0, fill_pile=False)
    state = with_looted(state, {0: 2, 1: 1})  # seat 2 holds Dhole (9), seat 1 Nug (10)
    state, _ = play_moves(GAME, state, (0, DECLINE), (0, place("Robert Olmstead", 2)), (0, KEEP))
    assert offered(GAME, state, 1) == [{"type": "pass_turn"}]
    state, _ = play_moves(GAME, state, (1, {"type": "pass_turn"}), (2, {"type": "pass_turn"}), (0, place("Deep One", 3)))
    assert offered(GAME, state, 0) == [KEEP]  # no other grave for her ghoul
    state, events = play_moves(GAME, state, (0, KEEP))
    assert of(events, "rite_won").data == {"seat": 1, "reason": "no_ghouls_left"}


def test_a_silent_cultist_declines_the_peek_leaves_her_ghoul_and_seals_a_henchman_choice_at_random():
    """Rulings: the privileged peek and moving a ghoul are options the timer does not take; placing a ghoul and the
    sealed henchman choice are compulsory, and the timer picks among the legal ones at random."""
    state = start()
    assert [timeout_choice(GAME, state, MARY, random.Random(seed)) for seed in range(20)] == [DECLINE] * 20
    state, _ = play_moves(GAME, state, (MARY, DECLINE))
    placements = {str(timeout_choice(GAME, state, MARY, random.Random(seed))) for seed in range(30)}
    assert len(placements) > 1 and all("place_ghoul" in p for p in placements)
    state, _ = play_moves(GAME, state, (MARY, place("Robert Olmstead", 0)))
    assert len(offered(GAME, state, MARY)) > 1
    assert [timeout_choice(GAME, state, MARY, random.Random(seed)) for seed in range(20)] == [KEEP] * 20
    state = dig_at_one()
    choices = [timeout_choice(GAME, state, JARED, random.Random(seed)) for seed in range(40)]
    assert all(c in offered(GAME, state, JARED) for c in choices)
    assert {c["type"] for c in choices} == {"call_henchman", "psych_out", "no_henchman"}
