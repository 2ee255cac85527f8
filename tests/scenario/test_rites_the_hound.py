"""The Hound (rulebook "The Hound", p. 45): graves, peeks, ghouls, digging partners, henchmen, psych-outs, the win."""

from __future__ import annotations

import dataclasses
import random

import pytest

from shared.games.rites_of_cthulhu import GAME
from shared.games.rites_of_cthulhu.cards import entity
from shared.games.rites_of_cthulhu.rites.the_hound.rules import strength
from shared.games.rites_of_cthulhu.rites.the_hound.state import Digging, Placed
from shared.kernel import EVERYONE, ev, fold
from tests.support.rites_positions import dealt_again, position, rite_begin
from tests.support.scenario import given, given_state, offered, timeout_choice

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
    return given(GAME, *position(players, grand_cultist, hands, top, rite=RITE, begin=begin, fill_pile=fill_pile))


def place(card, grave):
    return {"type": "place_ghoul", "card": E(card), "grave": grave}


def henchman(card):
    return {"type": "call_henchman", "card": E(card)}


def dummy(card):
    return {"type": "psych_out", "card": E(card)}


DECLINE = {"type": "decline_peek"}
KEEP = {"type": "keep_ghoul"}
NOTHING = {"type": "no_henchman"}
PASS = {"type": "pass_turn"}


def move(grave):
    return {"type": "move_ghoul", "grave": grave}


def rite(state):
    return state.stage.rite


def drew(seat, name):
    return ev("cards_drawn", seat=seat, cards=[E(name)], secret={"cards": [seat]})


def placed(seat, name, grave, draw=None, peek=None):
    """``seat`` sends ghoul ``name`` to ``grave``, draws its replacement at once (``draw``, none from an empty pile)
    and peeks at the face-down grave (``peek``: the card, seen by her only; none at a face-up grave)."""
    events = [ev("ghoul_placed", seat=seat, card=E(name), grave=grave)]
    if draw:
        events.append(drew(seat, draw))
    if peek:
        events.append(ev("grave_peeked", seat=seat, grave=grave, card=E(peek), privilege=False, secret={"card": [seat]}))
    return events


def turn(seat):
    return ev("hound_turn_began", seat=seat)


def sealed(seat, grave, choice, name=None):
    """``seat``'s face-down henchman choice at ``grave`` ("henchman", "dummy" or "nothing"), seen by her only."""
    return ev("henchman_sealed", seat=seat, grave=grave, choice=choice, card=None if name is None else E(name),
              secret={"choice": [seat], "card": [seat]})


def shown(seat, what, name=None):
    return {"seat": seat, "shown": what, **({} if name is None else {"card": E(name)})}


def looted(seat, grave, name, totals):
    return ev("grave_looted", seat=seat, grave=grave, card=E(name), totals=[list(t) for t in totals])


def cleared(grave, *names):
    """The dig's ghouls and henchmen discarded."""
    return ev("dig_cleared", grave=grave, cards=[E(n) for n in names])


def rite_over(winner, reason, players=4):
    return [ev("rite_won", seat=winner, reason=reason), ev("grand_cultist_passed", seat=1), *dealt_again(players)]


# --- the play example ---------------------------------------------------------------------------------------------


def test_play_example_jared_loots_dhole_and_felix_wins_the_tie_for_yog_sothoth_on_his_ghoul():
    move_ = start().when(MARY, DECLINE).then(ev("peek_declined", seat=MARY), turn(MARY))
    # Mary places Robert Olmstead on the first grave: she draws at once, then peeks at Randolph Carter.
    move_ = move_.when(MARY, place("Robert Olmstead", 0)).then(
        *placed(MARY, "Robert Olmstead", 0, draw="Pnakotic Fragments", peek="Randolph Carter"))
    # A low card: she moves her ghoul, without peeking, and Jared's turn begins.
    move_ = move_.when(MARY, move(1)).then(
        ev("ghoul_moved", seat=MARY, card=E("Robert Olmstead"), source=0, grave=1), turn(JARED))
    # Jared joins her on that grave, peeks at Dhole and keeps his ghoul there: the grave is dug up, face up for all.
    move_ = move_.when(JARED, place("Lobon", 1)).then(*placed(JARED, "Lobon", 1, draw="Zadok Allen", peek="Dhole"))
    move_ = move_.when(JARED, KEEP).then(
        ev("ghoul_kept", seat=JARED, grave=1), ev("grave_dug_up", grave=1, card=E("Dhole"), partners=[MARY, JARED], turn=JARED))
    # Both send a henchman, sealed, then revealed together: 2 + 9 against 8 + 12, Jared loots Dhole; the dig is
    # cleared, both draw, Suzy's turn.
    move_ = move_.when(JARED, henchman("Mother Hydra")).then(sealed(JARED, 1, "henchman", "Mother Hydra"))
    move_ = move_.when(MARY, henchman("Deep One")).then(
        sealed(MARY, 1, "henchman", "Deep One"),
        ev("henchmen_revealed", grave=1, shown=[shown(MARY, "henchman", "Deep One"), shown(JARED, "henchman", "Mother Hydra")]),
        looted(JARED, 1, "Dhole", [(MARY, 11), (JARED, 20)]),
        cleared(1, "Robert Olmstead", "Lobon", "Deep One", "Mother Hydra"),
        drew(MARY, "Francis Wayland Thurston"), drew(JARED, "George Gammell Angell"), turn(SUZY))
    # Suzy places Nightgaunt, peeks at Yog-Sothoth, a high card, and keeps her ghoul there.
    move_ = move_.when(SUZY, place("Nightgaunt", 2)).then(
        *placed(SUZY, "Nightgaunt", 2, draw="Henry Anthony Wilcox", peek="Yog-Sothoth"))
    move_ = move_.when(SUZY, KEEP).then(ev("ghoul_kept", seat=SUZY, grave=2), turn(FELIX))
    # Felix joins her with Hastur and digs.
    move_ = move_.when(FELIX, place("Hastur", 2)).then(*placed(FELIX, "Hastur", 2, draw="Bukrog", peek="Yog-Sothoth"))
    move_ = move_.when(FELIX, KEEP).then(
        ev("ghoul_kept", seat=FELIX, grave=2),
        ev("grave_dug_up", grave=2, card=E("Yog-Sothoth"), partners=[SUZY, FELIX], turn=FELIX))
    # 12 + 9 = 21 against 8 + 13 = 21: the higher ghoul, Hastur (12), loots.
    move_ = move_.when(FELIX, henchman("Yeb")).then(sealed(FELIX, 2, "henchman", "Yeb"))
    move_ = move_.when(SUZY, henchman("Nyarlathotep")).then(
        sealed(SUZY, 2, "henchman", "Nyarlathotep"),
        ev("henchmen_revealed", grave=2, shown=[shown(SUZY, "henchman", "Nyarlathotep"), shown(FELIX, "henchman", "Yeb")]),
        looted(FELIX, 2, "Yog-Sothoth", [(SUZY, 21), (FELIX, 21)]),
        cleared(2, "Nightgaunt", "Hastur", "Nyarlathotep", "Yeb"),
        drew(SUZY, "Cthulhu"), drew(FELIX, "Dagon"), turn(MARY))
    assert [g.looted_by for g in rite(move_.after).graves] == [None, JARED, FELIX, None, None]  # 3 graves left


# --- the deal and the peeks --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_the_graveyard_is_one_face_down_grave_more_than_there_are_cultists(players):
    state = given(GAME, *position(players, 0, {}, rite=None)).when(0, {"type": "choose_rite", "rite": RITE}).after
    view = GAME.decider.view(state, 1)["rite"]
    assert len(view["graves"]) == players + 1
    assert all(g["status"] == "face_down" and "card" not in g for g in view["graves"])
    assert len(state.table.pile) == 56 - (players + 1)  # (nobody was dealt a hand in this position)


def test_the_grand_cultist_may_peek_at_any_one_grave_before_her_first_turn():
    assert offered(GAME, start().state, MARY)[:5] == [{"type": "peek_grave", "grave": g} for g in range(5)]
    # she alone sees Shoggoth, then takes the first turn
    peeked = start().when(MARY, {"type": "peek_grave", "grave": 3}).then(
        ev("grave_peeked", seat=MARY, grave=3, card=E("Shoggoth"), privilege=True, secret={"card": [MARY]}), turn(MARY))
    assert GAME.decider.view(peeked.after, MARY)["rite"]["graves"][3] == {"grave": 3, "ghouls": [], "status": "face_down",
                                                                         "card": E("Shoggoth"), "peeked": True}
    peeked.when(MARY, {"type": "peek_grave", "grave": 4}).refused("rules/no_peek_privilege")


def test_a_peek_is_knowledge_of_the_peeking_seat_only():
    peek = start().played((MARY, DECLINE)).when(MARY, place("Robert Olmstead", 0)).then(
        *placed(MARY, "Robert Olmstead", 0, draw="Pnakotic Fragments", peek="Randolph Carter"))
    state = peek.after
    assert GAME.decider.view(state, MARY)["rite"]["graves"][0]["card"] == E("Randolph Carter")
    for viewer in (JARED, SUZY, None):
        assert "card" not in GAME.decider.view(state, viewer)["rite"]["graves"][0]
    assert GAME.decider.view(state, EVERYONE)["rite"]["graves"][0]["card"] == E("Randolph Carter")


def test_a_placed_ghoul_is_replaced_from_the_pile_at_once():
    start(pile=["Dagon"]).played((MARY, DECLINE)).when(MARY, place("Robert Olmstead", 0)).then(
        *placed(MARY, "Robert Olmstead", 0, draw="Dagon", peek="Randolph Carter"))


# --- placing and moving ghouls --------------------------------------------------------------------------------------


def test_after_peeking_a_cultist_leaves_her_ghoul_or_moves_it_once_without_a_peek():
    peeked = start().played((MARY, DECLINE), (MARY, place("Robert Olmstead", 0)))
    assert rite(peeked.state).phase == Placed(MARY, 0)
    assert offered(GAME, peeked.state, MARY) == [KEEP] + [move(g) for g in (1, 2, 3, 4)]
    moved = peeked.when(MARY, move(3)).then(  # no grave_peeked
        ev("ghoul_moved", seat=MARY, card=E("Robert Olmstead"), source=0, grave=3), turn(JARED))
    moved.when(MARY, move(4)).refused("rules/not_your_turn")
    assert "card" not in GAME.decider.view(moved.after, MARY)["rite"]["graves"][3]  # she never saw the second grave


def test_leaving_a_ghoul_alone_at_a_grave_ends_the_turn():
    start().played((MARY, DECLINE), (MARY, place("Robert Olmstead", 0))).when(MARY, KEEP).then(
        ev("ghoul_kept", seat=MARY, grave=0), turn(JARED))


def test_a_cultist_sends_only_one_ghoul_to_a_grave():
    round_one = start().played((MARY, DECLINE), (MARY, place("Robert Olmstead", 0)), (MARY, KEEP),
                               (JARED, place("Lobon", 1)), (JARED, KEEP), (SUZY, place("Nightgaunt", 2)), (SUZY, KEEP),
                               (FELIX, place("Hastur", 3)), (FELIX, KEEP))
    round_one.when(MARY, place("Deep One", 0)).refused("rules/one_ghoul_per_grave")
    assert place("Deep One", 0) not in offered(GAME, round_one.state, MARY)
    round_one.played((MARY, place("Deep One", 4))).when(MARY, move(0)).refused("rules/one_ghoul_per_grave")


def test_moving_a_ghoul_to_a_grave_with_another_ghoul_makes_digging_partners():
    # Jared's moved ghoul does not peek: the grave is dug up at once, face up for all
    dug = start().played((MARY, DECLINE), (MARY, place("Robert Olmstead", 0)), (MARY, KEEP),
                         (JARED, place("Lobon", 1))).when(JARED, move(0)).then(
        ev("ghoul_moved", seat=JARED, card=E("Lobon"), source=1, grave=0),
        ev("grave_dug_up", grave=0, card=E("Randolph Carter"), partners=[MARY, JARED], turn=JARED))
    assert GAME.decider.view(dug.after, SUZY)["rite"]["graves"][0]["card"] == E("Randolph Carter")


# --- digging: henchmen, psych-outs, ties ------------------------------------------------------------------------------


def dig_at_one(hands=EXAMPLE_HANDS, **kw):
    """Mary's ghoul waits at grave 1 (moved there); Jared joins her and digs."""
    dig = start(hands, **kw).played((MARY, DECLINE), (MARY, place(hands[MARY][0], 0)), (MARY, move(1)),
                                    (JARED, place(hands[JARED][0], 1)), (JARED, KEEP))
    assert isinstance(rite(dig.state).phase, Digging)
    return dig


def test_a_henchman_must_be_of_the_same_cult_as_the_ghoul():
    dig_at_one().when(JARED, henchman("Asenath Waite")).refused("rules/henchman_must_match_ghoul")
    state = dig_at_one().state
    legal = offered(GAME, state, JARED)
    greens = sorted(c for c in state.table.hands[JARED] if c // 14 == 0)  # Lobon is green
    assert E("Mother Hydra") in greens and E("Asenath Waite") not in greens
    assert [c for c in legal if c["type"] == "call_henchman"] == [{"type": "call_henchman", "card": c} for c in greens]
    assert NOTHING in legal and dummy("Asenath Waite") in legal


def test_henchmen_are_sealed_then_revealed_together():
    jared = dig_at_one().when(JARED, henchman("Mother Hydra")).then(sealed(JARED, 1, "henchman", "Mother Hydra"))
    state = jared.after
    assert GAME.decider.to_act(state) == {MARY}
    assert GAME.decider.view(state, MARY)["rite"]["dig"] == {"grave": 1, "sealed": [JARED]}
    assert GAME.decider.view(state, JARED)["rite"]["dig"]["choices"] == {str(JARED): {"choice": "henchman", "card": E("Mother Hydra")}}
    jared.when(MARY, henchman("Deep One")).then(
        sealed(MARY, 1, "henchman", "Deep One"),
        ev("henchmen_revealed", grave=1, shown=[shown(MARY, "henchman", "Deep One"), shown(JARED, "henchman", "Mother Hydra")]),
        looted(JARED, 1, "Dhole", [(MARY, 11), (JARED, 20)]),
        cleared(1, "Robert Olmstead", "Lobon", "Deep One", "Mother Hydra"),
        drew(MARY, "Francis Wayland Thurston"), drew(JARED, "George Gammell Angell"), turn(SUZY))


def test_a_henchman_sealed_before_the_glass_from_leng_opens_the_hands_stays_sealed():
    """The Glass opens hands; a sealed henchman is not in the hand: Jared's stays hidden from Mary until the reveal."""
    hands = {**EXAMPLE_HANDS, SUZY: ["Nightgaunt", "Nyarlathotep", "Liber Ivonis", "Swami Chandraputra", "Barnabas Marsh"]}
    state = dig_at_one(hands).state
    state = dataclasses.replace(state, artifact_deck=(1,), thrown_out=tuple(a for a in range(13) if a != 1))
    state = given_state(GAME, state).played((JARED, henchman("Mother Hydra")),
                                            (SUZY, {"type": "excavate_artifact", "cult": "blue"})).state
    assert state.table.mods.open_hands
    for seat in (MARY, SUZY, None):
        assert "cards" not in GAME.decider.view(state, seat)["rite"]["dig"]
    assert GAME.decider.view(state, JARED)["rite"]["dig"]["choices"] == {str(JARED): {"choice": "henchman", "card": E("Mother Hydra")}}


def test_a_psych_out_discards_the_partners_henchman_and_the_dummy_goes_back_to_hand():
    # Mary (ghoul 2) presents Kamog face down; Jared (ghoul 8) reveals Mother Hydra, which is discarded (he draws a
    # replacement); Kamog goes back to Mary's hand unseen by the others; the ghouls alone decide.
    dig_at_one().played((MARY, dummy("Kamog"))).when(JARED, henchman("Mother Hydra")).then(
        sealed(JARED, 1, "henchman", "Mother Hydra"),
        ev("henchmen_revealed", grave=1, shown=[shown(MARY, "face_down"), shown(JARED, "henchman", "Mother Hydra")]),
        ev("henchman_psyched_out", seat=JARED, card=E("Mother Hydra")),
        ev("dummy_returned", seat=MARY, card=E("Kamog"), secret={"card": [MARY]}),
        looted(JARED, 1, "Dhole", [(MARY, 2), (JARED, 8)]), cleared(1, "Robert Olmstead", "Lobon"),
        drew(JARED, "Francis Wayland Thurston"), turn(SUZY))


def test_when_both_partners_psych_out_both_dummies_are_discarded():
    dig_at_one().played((MARY, dummy("Kamog"))).when(JARED, dummy("Asenath Waite")).then(
        sealed(JARED, 1, "dummy", "Asenath Waite"),
        ev("henchmen_revealed", grave=1, shown=[shown(MARY, "face_down"), shown(JARED, "face_down")]),
        ev("dummies_discarded", grave=1, cards=[E("Kamog"), E("Asenath Waite")]),
        looted(JARED, 1, "Dhole", [(MARY, 2), (JARED, 8)]), cleared(1, "Robert Olmstead", "Lobon"),
        drew(MARY, "Francis Wayland Thurston"), drew(JARED, "George Gammell Angell"), turn(SUZY))


def test_a_dummy_against_no_henchman_just_goes_back_to_hand():
    # nothing is psyched out, nothing discarded but the ghouls, and nobody draws
    dig_at_one().played((MARY, dummy("Kamog"))).when(JARED, NOTHING).then(
        sealed(JARED, 1, "nothing"),
        ev("henchmen_revealed", grave=1, shown=[shown(MARY, "face_down"), shown(JARED, "nothing")]),
        ev("dummy_returned", seat=MARY, card=E("Kamog"), secret={"card": [MARY]}),
        looted(JARED, 1, "Dhole", [(MARY, 2), (JARED, 8)]), cleared(1, "Robert Olmstead", "Lobon"), turn(SUZY))


def test_a_forbidden_book_doubles_the_other_card():
    assert strength(E("The Book of Azathoth"), E("Nyarlathotep")) == 26  # the rulebook's example
    assert strength(E("Nightgaunt"), E("Liber Ivonis")) == 16
    assert strength(E("The Book of Azathoth"), None) == 0
    assert strength(E("The Book of Azathoth"), E("The Necronomicon")) == 0
    hands = {**EXAMPLE_HANDS, MARY: ["The Book of Azathoth", "Nyarlathotep", "Kamog", "Zkauba the Wizard", "Deep One"],
             SUZY: ["Nightgaunt", "Robert Olmstead", "Klarkash-Ton", "Edward Pickman Derby", "Barnabas Marsh"]}
    dig_at_one(hands).played((MARY, henchman("Nyarlathotep"))).when(JARED, henchman("Mother Hydra")).then(
        sealed(JARED, 1, "henchman", "Mother Hydra"),
        ev("henchmen_revealed", grave=1, shown=[shown(MARY, "henchman", "Nyarlathotep"), shown(JARED, "henchman", "Mother Hydra")]),
        looted(MARY, 1, "Dhole", [(MARY, 26), (JARED, 20)]),
        cleared(1, "The Book of Azathoth", "Lobon", "Nyarlathotep", "Mother Hydra"),
        drew(MARY, "Francis Wayland Thurston"), drew(JARED, "George Gammell Angell"), turn(SUZY))


def test_a_tie_in_totals_and_ghouls_discards_everything_and_leaves_the_grave_face_up_for_later():
    hands = {**EXAMPLE_HANDS, MARY: ["Nightgaunt", "Walter Gilman", "Kamog", "Zkauba the Wizard", "Deep One"],
             SUZY: ["Robert Olmstead", "Nyarlathotep", "Klarkash-Ton", "Edward Pickman Derby", "Barnabas Marsh"]}
    # Nightgaunt (8) against Lobon (8)
    tied = dig_at_one(hands).played((MARY, NOTHING)).when(JARED, NOTHING).then(
        sealed(JARED, 1, "nothing"),
        ev("henchmen_revealed", grave=1, shown=[shown(MARY, "nothing"), shown(JARED, "nothing")]),
        ev("dig_tied", grave=1, card=E("Dhole"), totals=[[MARY, 8], [JARED, 8]]), cleared(1, "Nightgaunt", "Lobon"),
        turn(SUZY))
    grave = rite(tied.after).graves[1]
    assert grave.face_up and grave.looted_by is None and not grave.ghouls
    # A face-up grave needs no peek, and still needs digging partners.
    alone = tied.when(SUZY, place("Robert Olmstead", 1)).then(
        *placed(SUZY, "Robert Olmstead", 1, draw="Francis Wayland Thurston"))
    alone.when(SUZY, KEEP).then(ev("ghoul_kept", seat=SUZY, grave=1), turn(FELIX))


def test_partners_draw_back_to_five_after_the_dig():
    looted_dhole = dig_at_one().played((MARY, henchman("Deep One")), (JARED, henchman("Mother Hydra")))
    assert len(looted_dhole.state.table.hands[MARY]) == 5 and len(looted_dhole.state.table.hands[JARED]) == 5


def test_under_the_rank_inverting_artifact_the_lower_total_loots():
    dig_at_one(extra=[ev("ranks_inverted")]).played((MARY, henchman("Deep One"))).when(JARED, henchman("Mother Hydra")).then(
        sealed(JARED, 1, "henchman", "Mother Hydra"),
        ev("henchmen_revealed", grave=1, shown=[shown(MARY, "henchman", "Deep One"), shown(JARED, "henchman", "Mother Hydra")]),
        looted(MARY, 1, "Dhole", [(MARY, 11), (JARED, 20)]),  # 11 under 20
        cleared(1, "Robert Olmstead", "Lobon", "Deep One", "Mother Hydra"),
        drew(MARY, "Francis Wayland Thurston"), drew(JARED, "George Gammell Angell"), turn(SUZY))


# --- the end ---------------------------------------------------------------------------------------------------------


def with_looted(state, looted):
    r = rite(state)
    graves = list(r.graves)
    for index, seat in looted.items():
        graves[index] = dataclasses.replace(graves[index], face_up=True, looted_by=seat)
    return dataclasses.replace(state, stage=dataclasses.replace(state.stage, rite=dataclasses.replace(r, graves=tuple(graves))))


def test_when_the_last_grave_is_looted_the_most_looted_points_wins():
    # Suzy holds Randolph Carter (3) and Shoggoth (8), Felix Yog-Sothoth (13) and Nug (10): Jared's Dhole decides.
    state = with_looted(start().state, {0: SUZY, 3: SUZY, 2: FELIX, 4: FELIX})
    given_state(GAME, state).played(
        (MARY, DECLINE), (MARY, place("Robert Olmstead", 1)), (MARY, KEEP), (JARED, place("Lobon", 1)), (JARED, KEEP),
        (JARED, henchman("Mother Hydra"))).when(MARY, henchman("Deep One")).then(
        sealed(MARY, 1, "henchman", "Deep One"),
        ev("henchmen_revealed", grave=1, shown=[shown(MARY, "henchman", "Deep One"), shown(JARED, "henchman", "Mother Hydra")]),
        looted(JARED, 1, "Dhole", [(MARY, 11), (JARED, 20)]),
        cleared(1, "Robert Olmstead", "Lobon", "Deep One", "Mother Hydra"),
        drew(MARY, "Francis Wayland Thurston"), drew(JARED, "George Gammell Angell"),
        ev("graveyard_emptied", points=[0, 9, 11, 23]), *rite_over(FELIX, "graveyard_looted"))


def test_a_cultist_whose_ghouls_wait_at_every_grave_left_passes_her_turn():
    hands = {0: ["Robert Olmstead", "Deep One", "Kamog"], 1: ["Lobon", "Nug", "Yeb"]}
    state = start(hands, graves=["Dhole", "Shoggoth", "Hastur"], players=2, grand_cultist=0).played((0, DECLINE)).state
    r = rite(state)
    graves = (dataclasses.replace(r.graves[0], face_up=True, looted_by=1),
              dataclasses.replace(r.graves[1], ghouls=((0, E("Robert Olmstead")),)),
              dataclasses.replace(r.graves[2], ghouls=((0, E("Deep One")),)))
    table = dataclasses.replace(state.table, hands=((E("Kamog"),), state.table.hands[1]),
                                set_aside=state.table.set_aside + tuple(state.table.hands[0][3:]))
    state = dataclasses.replace(state, table=table, stage=dataclasses.replace(
        state.stage, rite=dataclasses.replace(r, graves=graves)))
    assert offered(GAME, state, 0) == [PASS]
    given_state(GAME, state).when(0, place("Kamog", 1)).refused("rules/one_ghoul_per_grave")
    given_state(GAME, state).when(0, PASS).then(ev("turn_passed_without_ghoul", seat=0), turn(1))
    start().played((MARY, DECLINE)).when(MARY, PASS).refused("rules/must_place_ghoul")


def test_when_nobody_can_send_a_ghoul_any_more_the_rite_ends_with_the_graves_left_unlooted():
    # Only the graves are in the pile; seats 1 and 2 have no cards; seat 0's two ghouls end up on the last graves.
    hands = {0: ["Robert Olmstead", "Deep One"], 1: [], 2: []}
    state = start(hands, graves=["Dhole", "Nug", "Yeb", "Shoggoth"], players=3, grand_cultist=0, fill_pile=False).state
    state = with_looted(state, {0: 2, 1: 1})  # seat 2 holds Dhole (9), seat 1 Nug (10)
    waiting = given_state(GAME, state).played((0, DECLINE), (0, place("Robert Olmstead", 2)), (0, KEEP))
    assert offered(GAME, waiting.state, 1) == [PASS]
    move_ = waiting.when(1, PASS).then(ev("turn_passed_without_ghoul", seat=1), turn(2))
    move_ = move_.when(2, PASS).then(ev("turn_passed_without_ghoul", seat=2), turn(0))
    move_ = move_.when(0, place("Deep One", 3)).then(*placed(0, "Deep One", 3, peek="Shoggoth"))  # the pile is empty
    assert offered(GAME, move_.after, 0) == [KEEP]  # no other grave for her ghoul
    move_.when(0, KEEP).then(ev("ghoul_kept", seat=0, grave=3), turn(1), *rite_over(1, "no_ghouls_left", players=3))


def test_a_silent_cultist_declines_the_peek_leaves_her_ghoul_and_seals_a_henchman_choice_at_random():
    """Rulings: the privileged peek and moving a ghoul are options the timer does not take; placing a ghoul and the
    sealed henchman choice are compulsory, and the timer picks among the legal ones at random."""
    state = start().state
    assert [timeout_choice(GAME, state, MARY, random.Random(seed)) for seed in range(20)] == [DECLINE] * 20
    state = start().played((MARY, DECLINE)).state
    placements = {str(timeout_choice(GAME, state, MARY, random.Random(seed))) for seed in range(30)}
    assert len(placements) > 1 and all("place_ghoul" in p for p in placements)
    state = start().played((MARY, DECLINE), (MARY, place("Robert Olmstead", 0))).state
    assert len(offered(GAME, state, MARY)) > 1
    assert [timeout_choice(GAME, state, MARY, random.Random(seed)) for seed in range(20)] == [KEEP] * 20
    state = dig_at_one().state
    choices = [timeout_choice(GAME, state, JARED, random.Random(seed)) for seed in range(40)]
    assert all(c in offered(GAME, state, JARED) for c in choices)
    assert {c["type"] for c in choices} == {"call_henchman", "psych_out", "no_henchman"}
