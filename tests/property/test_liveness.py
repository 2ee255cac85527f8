"""No game can freeze: the liveness properties (tests/support/liveness.py) at every position of random playouts and
of playouts biased towards rare positions, for every registered game and the toy game; and for Rites of Cthulhu,
every artifact as the Coveted Artifact of every rite (each seat owning another one for its second invocation),
some rites begun with a short or empty pile.

``MYTHOS_LIVENESS_SCALE`` multiplies the number of playouts (``make soak`` raises it; tests/soak/conftest.py). Each
test checks that its playouts reached the rare positions they aim at, and records its figures (positions and
commands checked, the rare positions reached) in the file named by ``MYTHOS_FIGURES`` when set.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import replace

import pytest

from shared.games import GAMES
from shared.games.rites_of_cthulhu import GAME as RITES_GAME
from shared.games.rites_of_cthulhu import artifacts, power_plays
from shared.games.rites_of_cthulhu.cards import ARTIFACT_COUNT, CTHULHU, cult
from shared.games.rites_of_cthulhu.commands import ChooseRite
from shared.games.rites_of_cthulhu.rites import RITES
from shared.games.rites_of_cthulhu.rites.table import NOBODY, next_seat, opener
from shared.games.rites_of_cthulhu.state import Choosing, Finished, Performing, RitesState, Tabletop
from shared.games.toy import GAME as TOY
from shared.kernel import entropy_for
from tests.support.liveness import RANDOM, TOWARDS_RARE, Coverage, liveness_playout, started
from tests.trust.helpers import record_figures

SCALE = float(os.environ.get("MYTHOS_LIVENESS_SCALE", "1"))
EVERY_GAME = {**GAMES, TOY.id: TOY}
SEEDS = max(1, round(2 * SCALE))
"""Playouts per game, player count and bias."""


def recorded(test: str, game_id: str, coverage: Coverage) -> None:
    """Every playout checked something; the figures go to MYTHOS_FIGURES."""
    assert coverage.positions > 0 and coverage.decided >= coverage.positions
    record_figures("liveness", test=test, game=game_id, playouts=coverage.playouts, positions=coverage.positions,
                   commands_decided=coverage.decided, tight_positions=coverage.tight,
                   out_of_turn_plays=coverage.out_of_turn, features=dict(coverage.features))


# -- every game ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(EVERY_GAME))
def test_no_position_of_a_random_or_a_biased_playout_freezes(game_id):
    game = EVERY_GAME[game_id]
    probe = rites_probe if game is RITES_GAME else None
    coverage = Coverage()
    for players in range(game.catalogue.min_players, game.catalogue.max_players + 1):
        for seed in range(SEEDS):
            for name, bias in (("random", RANDOM), ("biased", TOWARDS_RARE)):
                start = started(game, players, 27_000 + 97 * seed + players)
                liveness_playout(game, start, 27_000 + 97 * seed + players, bias, coverage, probe,
                                 label=f"{name}, {players} players")
    assert coverage.tight > 0, "no playout reached a position with a single ordinary command"
    recorded("whole games", game_id, coverage)


# -- Rites of Cthulhu: every artifact in every rite --------------------------------------------------------------


PILE_LEFT = (None, 0, 2, 6)
"""How many pile cards a rite keeps once begun (None: all): short piles reach the empty pile and the last cards."""


def rite_with_artifact(rite: str, artifact: int, players: int, seed: int, pile_left: int | None,
                       last_cards: bool) -> RitesState:
    """A game whose ``rite`` has just begun with ``artifact`` as its Coveted Artifact (its power applied), every
    seat owning another artifact from an earlier rite, the pile cut to ``pile_left`` cards, and with
    ``last_cards`` every hand cut to two (a power-play's pair where it can be had)."""
    state = started(RITES_GAME, players, seed)
    others = [a for a in range(ARTIFACT_COUNT) if a != artifact]
    owned = [others[(artifact + seat) % len(others)] for seat in range(players)]
    rest = tuple(a for a in others if a not in owned)
    state = replace(state, artifact_deck=(artifact,), captured=tuple((a,) for a in owned), thrown_out=rest)
    state = RITES_GAME.checked_decide(state, ChooseRite(rite=rite), state.grand_cultist,
                                      entropy_for(seed.to_bytes(8, "big"), 1)).state
    state = replace(state, artifact_deck=tuple(sorted(state.artifact_deck + state.thrown_out)), thrown_out=())
    if pile_left is not None:
        state = cut_pile(state, pile_left)
    if last_cards:
        state = two_cards_each(state)
    elif rite == "cthulhu_rises":
        state = green_lead_against_cthulhu(state)
    RITES_GAME.decider.invariant(state)
    return state


def cut_pile(state: RitesState, left: int) -> RitesState:
    """The pile cut to its top ``left`` cards, the rest put ``out_of_play``."""
    pile = state.table.pile
    return out_of_play(replace(state, table=replace(state.table, pile=pile[:left])), pile[left:])


def two_cards_each(state: RitesState) -> RitesState:
    """Every hand cut to two cards, as at the end of a rite: the first four seats hold the forbidden book and the 1
    of a cult each (an Excavate power-play with their last two cards) where the hands, the pile and the unseen
    set-aside cards have them; the other cards are put ``out_of_play``."""
    table = state.table
    loose = {c for hand in table.hands for c in hand} | set(table.pile) | {c for c, k in table.face_down if k == NOBODY}
    hands: list[tuple[int, ...]] = []
    for seat, hand in enumerate(table.hands):
        pair = tuple(power_plays.cards_for(power_plays.PowerPlay.EXCAVATE_ARTIFACT, seat)) if seat < 4 else ()
        kept = pair if pair and set(pair) <= loose else tuple(c for c in hand if c in loose)[:2]
        loose -= set(kept)
        hands.append(kept)
    taken = {c for hand in hands for c in hand}
    table = replace(table, hands=tuple(hands), pile=tuple(c for c in table.pile if c not in taken),
                    face_down=tuple((c, k) for c, k in table.face_down if c not in taken))
    return out_of_play(replace(state, table=table), [c for hand in state.table.hands for c in hand if c not in taken])


def green_lead_against_cthulhu(state: RitesState) -> RitesState:
    """Cthulhu Rises' first gate at its rarest: the opener holds only green cards (so may lead green), and the next
    cultist holds Cthulhu as her only green card (each card swapped with one from elsewhere)."""
    table = state.table
    first = opener(table)
    second = next_seat(table, first)
    loose = [c for hand in table.hands for c in hand] + list(table.pile) + [c for c, k in table.face_down if k == NOBODY]
    greens = [c for c in loose if cult(c) == 0 and c != CTHULHU and c not in table.hands[second]]
    others = [c for c in loose if cult(c) != 0 and c not in table.hands[first]]
    wanted = {first: greens[:len(table.hands[first])],
              second: [CTHULHU] + [c for c in others if c not in table.hands[second]][:len(table.hands[second]) - 1]}
    for seat, cards in wanted.items():
        for card in cards:
            hand = state.table.hands[seat]
            if card not in hand:
                state = replace(state, table=swapped(state.table, card, next(c for c in hand if c not in cards)))
    return state


def swapped(table: Tabletop, a: int, b: int) -> Tabletop:
    """``table`` with cards ``a`` and ``b`` in each other's places (hands, pile, cards set aside unseen)."""
    def other(c: int) -> int:
        return b if c == a else a if c == b else c

    return replace(table, hands=tuple(tuple(other(c) for c in hand) for hand in table.hands),
                   pile=tuple(other(c) for c in table.pile), face_down=tuple((other(c), k) for c, k in table.face_down))


def out_of_play(state: RitesState, cards: Iterable[int]) -> RitesState:
    """``cards`` set aside unseen; in The Dunwich Horror (whose pile is refilled from its discards) put on the
    discards instead, so they still circulate as they would late in the rite."""
    assert isinstance(state.stage, Performing)
    cards = tuple(cards)
    if state.stage.rite_id == "dunwich_horror":
        rite = state.stage.rite
        return replace(state, stage=replace(state.stage, rite=replace(rite, discards=rite.discards + cards)))
    return replace(state, table=replace(state.table, face_down=state.table.face_down + tuple((c, NOBODY) for c in cards)))


def rite_starts() -> Iterator[tuple[str, RitesState, int]]:
    for r, rite in enumerate(RITES):
        for artifact in range(ARTIFACT_COUNT):
            for copy in range(SEEDS // 2 or 1):
                index = r * ARTIFACT_COUNT + artifact + copy
                players = 2 + index % 5
                pile_left = PILE_LEFT[(artifact + r + copy) % len(PILE_LEFT)]
                last_cards = (artifact + copy) % 2 == 1
                seed = 31_000 + 13 * index + copy
                label = f"{rite} with artifact {artifact}, {players} players, pile {pile_left}, last cards {last_cards}"
                yield label, rite_with_artifact(rite, artifact, players, seed, pile_left, last_cards), seed


def rite_over(state: RitesState) -> bool:
    return isinstance(state.stage, (Choosing, Finished))


@pytest.mark.parametrize("rite", sorted(RITES))
def test_every_artifact_in_every_rite_leaves_no_position_frozen(rite):
    coverage = Coverage()
    begun = set()
    for label, start, seed in rite_starts():
        if label.startswith(rite + " "):
            begun |= set(start.coveted)
            liveness_playout(RITES_GAME, start, seed, TOWARDS_RARE, coverage, rites_probe, stop=rite_over, label=label)
    assert begun == set(range(ARTIFACT_COUNT)), "every artifact is the Coveted Artifact of this rite once"
    for feature in RARE + RARE_IN.get(rite, ()):
        assert coverage.features[feature] > 0, (feature, coverage.features)
    recorded(f"every artifact in {rite}", RITES_GAME.id, coverage)


RARE = ("the pile empty", "a forced trade unanswered", "a forced trade unanswered, its receiver holding 2 cards or "
        "fewer", "a waited seat holding its last card or none", "an owner's second invocation on offer")
"""The rare positions every rite's playouts must reach."""
RARE_IN = {"cthulhu_rises": ("Cthulhu Rises gate 1, green led, Cthulhu the waited seat's only green card",),
           "out_of_the_aeons": ("a forced trade unanswered, its receiver holding a power-play",)}
"""And those of one rite (the two freezes of issue 27)."""


def rites_probe(state: RitesState) -> Iterator[str]:
    """The rare positions of Rites of Cthulhu the playouts count (where the issue 27 freezes hid, and their kin)."""
    stage = state.stage
    if not isinstance(stage, Performing) or not stage.begun:
        return
    table = state.table
    yield f"positions in {stage.rite_id}"
    if not table.pile:
        yield "the pile empty"
    if table.trade is not None:
        yield "a forced trade unanswered"
        receiver = table.trade.receiver
        if len(table.hands[receiver]) <= 2:
            yield "a forced trade unanswered, its receiver holding 2 cards or fewer"
        if any(set(power_plays.cards_for(power_plays.PowerPlay.EXCAVATE_ARTIFACT, c)) <= set(table.hands[receiver])
               for c in range(4)):
            yield "a forced trade unanswered, its receiver holding a power-play"
    waited = RITES_GAME.decider.to_act(state)
    if any(len(table.hands[s]) <= 1 for s in waited):
        yield "a waited seat holding its last card or none"
    if any(not table.hands[s] for s in range(state.players)):
        yield "an empty hand"
    if any(c.type == artifacts.INVOKE for s in range(state.players) for c in artifacts.legal(state, s)
           if c.artifact in state.captured[s]):
        yield "an owner's second invocation on offer"
    if stage.rite_id == "cthulhu_rises":
        rite = stage.rite
        if rite.gate_number == 1 and rite.gate and cult(rite.gate[0][1]) == 0:
            for s in waited:
                if CTHULHU in table.hands[s] and not any(cult(c) == 0 for c in table.hands[s] if c != CTHULHU):
                    yield "Cthulhu Rises gate 1, green led, Cthulhu the waited seat's only green card"
