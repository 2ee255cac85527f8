"""Non-interference for Rites of Cthulhu's sealed choices with artifacts in play (issue 15).

The generic suites (``test_non_interference.py``) draw their twins with the game's own ``resample``, so a game
that both shows a card and keeps it in place when resampling passes them: that is how a sealed Out of the Aeons bid
or Hound henchman became visible when The Glass from Leng opened the hands mid-round. Here the twins are built by
hand: the same position, the Glass revealed after one seat sealed a card, and a twin in which that sealed card is
swapped with a card nobody at the table has seen. Every other seat (and a spectator) must get the same bytes from
both, in the kernel and over HTTP, and must not be able to tell them apart by its moves or by the other seats'.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from shared.games import GAMES
from shared.games.rites_of_cthulhu.cards import DECK_SIZE, GLASS_FROM_LENG, cult, entity
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.cards import YELLOW
from shared.kernel import entropy_for, ev, fold
from tests.support.properties import canonical
from tests.support.rites_positions import position, rite_begin
from tests.support.scenario import decide, offered, play_moves, timeout_choice
from tests.trust.helpers import sse_json
from tests.trust.test_non_interference import Twins, api_events, probes, verdict

GAME = GAMES["rites-of-cthulhu"]
E = entity
ONLY_THE_GLASS = {"artifact_deck": (GLASS_FROM_LENG,),
                  "thrown_out": tuple(a for a in range(13) if a != GLASS_FROM_LENG)}


def glass_after_a_sealed_bid() -> tuple[Any, Any, int, list[tuple[int, dict[str, Any]]]]:
    """Out of the Aeons, 4 cultists (10 cards each, 2 remainders): Mark (1) bids Lobon face down, then Jane (2)
    excavates The Glass from Leng with a power-play. The twin's sealed bid is Umr At-Tawil (a remainder nobody saw).
    Observer: Brian (0). Then Lucy and Jane bid from open hands (moves that reveal nothing of the sealed bid)."""
    fixed = {1: [E("Lobon")], 2: [E("Pnakotic Fragments"), E("Zadok Allen")]}
    remainders = [E("Umr At-Tawil"), E("The Necronomicon")]
    rest = [c for c in range(DECK_SIZE) if cult(c) != YELLOW and c not in remainders and c not in fixed[1] + fixed[2]]
    hands: dict[int, list[int]] = {}
    for s in range(4):
        hands[s] = fixed.get(s, []) + [rest.pop(0) for _ in range(10 - len(fixed.get(s, [])))]
    yellows = [c for c in range(DECK_SIZE) if cult(c) == YELLOW]
    begin = [ev("aeons_cards_regathered", hand_size=10, remainder_count=2, sub_deck=yellows,
                deck=[c for s in range(4) for c in hands[s]], remainders=remainders,
                secret={"sub_deck": [], "deck": [], "remainders": []})]
    begin += [ev("cards_drawn", seat=s, cards=hands[s], secret={"cards": [s]}) for s in range(4)]
    begin.append(ev("yellow_card_revealed", card=yellows[0], privilege=True, bidders=[]))
    state = fold(GAME, position(4, 0, {}, rite="out_of_the_aeons", begin=begin))
    state = dataclasses.replace(state, **ONLY_THE_GLASS)
    state, _ = play_moves(GAME, state, (0, {"type": "keep_revealed"}), (1, {"type": "bid", "card": E("Lobon")}),
                          (2, {"type": "excavate_artifact", "cult": "green"}))
    assert state.table.mods.open_hands
    rite = state.stage.rite
    twin_rite = dataclasses.replace(rite, bids=((1, E("Umr At-Tawil")),), remainders=(E("Lobon"), E("The Necronomicon")))
    twin = dataclasses.replace(state, stage=dataclasses.replace(state.stage, rite=twin_rite))
    later = [(3, {"type": "bid", "card": hands[3][0]}), (2, {"type": "bid", "card": hands[2][-1]})]
    return state, twin, 0, later


def glass_after_a_sealed_henchman() -> tuple[Any, Any, int, list[tuple[int, dict[str, Any]]]]:
    """The Hound, 4 cultists: Mary (0) and Jared (1) dig grave 1; Jared seals Mother Hydra, then Suzy (2) excavates
    The Glass from Leng. The twin's henchman is another green card from deep in the pile. Observer: Mary."""
    hands = {0: ["Robert Olmstead", "Deep One", "Kamog", "Zkauba the Wizard", "Walter Gilman"],
             1: ["Lobon", "Mother Hydra", "Asenath Waite", "Harley Warren", "Pharaoh Khafra"],
             2: ["Nightgaunt", "Nyarlathotep", "Liber Ivonis", "Swami Chandraputra", "Barnabas Marsh"],
             3: ["Hastur", "Yeb", "Nephren-Ka", "Gustaf Johansen", "Lavinia Whateley"]}
    graves = ["Randolph Carter", "Dhole", "Yog-Sothoth", "Shoggoth", "Nug"]
    chosen = fold(GAME, position(4, 0, hands, graves) + [ev("rite_chosen", rite="the_hound")])
    state = fold(GAME, position(4, 0, hands, graves, rite="the_hound", begin=rite_begin(chosen, "the_hound")))
    state = dataclasses.replace(state, **ONLY_THE_GLASS)
    state, _ = play_moves(GAME, state, (0, {"type": "decline_peek"}),
                          (0, {"type": "place_ghoul", "card": E("Robert Olmstead"), "grave": 0}),
                          (0, {"type": "move_ghoul", "grave": 1}), (1, {"type": "place_ghoul", "card": E("Lobon"), "grave": 1}),
                          (1, {"type": "keep_ghoul"}), (1, {"type": "call_henchman", "card": E("Mother Hydra")}),
                          (2, {"type": "excavate_artifact", "cult": "blue"}))
    assert state.table.mods.open_hands
    swap = next(c for c in reversed(state.table.pile) if cult(c) == cult(E("Mother Hydra")))  # the deepest
    pile = tuple(E("Mother Hydra") if c == swap else c for c in state.table.pile)
    dig = state.stage.rite.phase
    sealed = tuple((s, k, swap if s == 1 else c) for s, k, c in dig.sealed)
    twin_rite = dataclasses.replace(state.stage.rite, phase=dataclasses.replace(dig, sealed=sealed))
    twin = dataclasses.replace(state, table=dataclasses.replace(state.table, pile=pile),
                               stage=dataclasses.replace(state.stage, rite=twin_rite))
    return state, twin, 0, []


POSITIONS = {"out_of_the_aeons": glass_after_a_sealed_bid, "the_hound": glass_after_a_sealed_henchman}


def same_to(observer: int, here: Any, there: Any, actor: int, command: dict[str, Any], entropy: bytes) -> None:
    for viewer in (observer, None):
        assert api_events(GAME, here, command, actor, entropy, viewer) == api_events(GAME, there, command, actor, entropy, viewer), (
            f"viewer {viewer} tells the twins apart by seat {actor}'s {command}")


@pytest.mark.parametrize("rite", sorted(POSITIONS))
def test_kernel_twins_differing_in_a_card_sealed_before_the_glass_look_the_same_to_every_other_seat(rite):
    """At each position: the observer's and a spectator's views, the observer's legal commands, refusals and timer
    choice, who the game waits on, and what the others' out-of-turn plays and the next lockstep move send them."""
    here, there, observer, later = POSITIONS[rite]()
    GAME.decider.invariant(there)
    assert here != there
    rand = random.Random(7)
    entropy = entropy_for(b"rites-non-interference", 1)
    for step in range(len(later) + 1):
        for viewer in (observer, None):
            assert canonical(GAME.decider.view(here, viewer)) == canonical(GAME.decider.view(there, viewer)), f"{rite}: viewer {viewer}"
        assert offered(GAME, here, observer) == offered(GAME, there, observer)
        assert GAME.decider.to_act(here) == GAME.decider.to_act(there)
        if observer in GAME.decider.to_act(here):
            assert timeout_choice(GAME, here, observer, random.Random(1)) == timeout_choice(GAME, there, observer, random.Random(1))
        for command in probes(GAME, here, observer, rand):
            assert verdict(GAME, here, command, observer, entropy) == verdict(GAME, there, command, observer, entropy)
        for actor in range(here.players):
            for command in offered(GAME, here, actor) if actor != observer else ():
                if command["type"] in GAME.decider.out_of_turn:
                    same_to(observer, here, there, actor, command, entropy)
        if step == len(later):
            break
        actor, command = later[step]
        same_to(observer, here, there, actor, command, entropy)
        here = decide(GAME, here, command, actor, entropy).state
        there = decide(GAME, there, command, actor, entropy).state


@pytest.mark.e2e
@pytest.mark.parametrize("rite", sorted(POSITIONS))
def test_http_twins_differing_in_a_card_sealed_before_the_glass_look_the_same_to_every_other_seat(api, stack, trust_redis, rite):
    here, there, observer, later = POSITIONS[rite]()
    source = api.create(GAME.id, [{"name": f"Seat {i}"} for i in range(here.players)])
    pair = Twins(api, trust_redis, stack.key_prefix, GAME, source, [here, there])
    token = pair.tokens[observer]
    a, b = pair.ids

    def compare() -> None:
        pair.same_json("the game resource", (api.get(f"/v1/games/{a}"), api.get(f"/v1/games/{b}")))
        pair.same_bytes("the observer's state", (api.state(a, token), api.state(b, token)))
        pair.same_bytes("the spectator's state", (api.state(a, None), api.state(b, None)))
        events = pair.same_json("the observer's events since the fork", [
            api.get(f"/v1/games/{gid}/events", token, after=pair.base_version) for gid in (a, b)])
        for viewer in (token, None):
            streams = [[sse_json(m) for m in api.sse(gid, viewer, pair.stream_from(), events["version"])] for gid in (a, b)]
            assert streams[0] == streams[1], f"{rite}: the SSE stream differs between the twins"

    compare()
    for command in probes(GAME, here, observer, random.Random(3), limit=8):
        if verdict(GAME, here, command, observer, entropy_for(b"probe", 0))[0] != "accepted":
            pair.same_bytes(f"the refusal of {command}", (api.command(a, token, command), api.command(b, token, command)))
    for step, (actor, command) in enumerate(later):
        replies = [api.command(gid, pair.tokens[actor], command, key=f"lockstep-{step}") for gid in (a, b)]
        assert [r.status_code for r in replies] == [200, 200], [r.text for r in replies]
        compare()
