"""Out of the Aeons's rules (rulebook "Out of the Aeons", p. 41): sealed bids for the yellow cards.

The 14 Brotherhood of the Kings (yellow) cards are shuffled into a sub-deck; every other card is dealt evenly
(2 players 14 each, 3: 14, 4: 10, 5: 8, 6: 7) and the remainders are set aside unseen. Each round the top
yellow card is turned face up, the Grand Cultist may (once per rite) discard it before the bidding, then every
cultist seals one card from her hand as a bid; once all have bid the bids are revealed together: the highest
elder sign takes the yellow card, a tie for the highest discards it, and every bid is discarded. The rite ends
when the sub-deck is exhausted or no cultist has a card left; captured cards score their elder sign and The
Book of Azathoth doubles one other captured card. Power-plays draw no replacements in this rite.

Rulings (docs/rulings/rites-of-cthulhu.md): the Book doubles the highest other captured card; a cultist whose
hand is empty sits a round out; the Grand Cultist is asked at each reveal until she uses her discard; a tie for
the rite goes to the first tied cultist in turn order from the Grand Cultist.
"""

from __future__ import annotations

import random

from shared.kernel import Command, Decision, Fact, replace, replace_at
from shared.kernel.errors import require

from shared.games.rites_of_cthulhu.cards import cult, rank
from shared.games.rites_of_cthulhu.rites.base import RiteEnd, RiteResult, here
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.cards import BOOK_OF_AZATHOTH, DEAL, YELLOW
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.commands import Bid, DiscardRevealed, KeepRevealed
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.events import (
    AeonsCardsRegathered,
    AeonsEnded,
    BiddingOpened,
    BidPassed,
    BidSealed,
    BidsRevealed,
    RevealedCardDiscarded,
    YellowCardRevealed,
    YellowCardTied,
    YellowCardWon,
)
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.state import AeonsState, Bidding, Dealing, Ended, Privilege
from shared.games.rites_of_cthulhu.rites.table import (
    best,
    draw,
    first_in_order,
    hand_audience,
    opener,
    sealed_from_hand,
    turn_order,
)
from shared.games.rites_of_cthulhu.state import RitesState, Tabletop

EMPTY_HAND = "empty_hand"
"""Why a cultist sits a round out (``bid_passed``)."""


def score(cards: tuple[int, ...]) -> int:
    """Each captured card scores its elder sign; The Book of Azathoth doubles the best other captured card."""
    total = sum(rank(c) for c in cards)
    others = [rank(c) for c in cards if c != BOOK_OF_AZATHOTH]
    if BOOK_OF_AZATHOTH in cards and others:
        total += max(others)
    return total


def points(state: AeonsState) -> list[int]:
    return [score(cards) for cards in state.captured]


# -- setup -------------------------------------------------------------------------------------------------------


def initial(table: Tabletop) -> AeonsState:
    return AeonsState(phase=Dealing(), captured=((),) * table.players)


def begin(d: Decision[RitesState]) -> None:
    """The Deal: the yellow sub-deck, every other card dealt evenly, the remainders set aside unseen."""
    table = d.state.table
    pool = [c for hand in table.hands for c in hand] + list(table.pile)
    yellows = sorted(c for c in pool if cult(c) == YELLOW)
    others = sorted(c for c in pool if cult(c) != YELLOW)
    d.rng.shuffle(yellows)
    d.rng.shuffle(others)
    each = min(DEAL[table.players], len(others) // table.players)
    dealt = others[: each * table.players]
    d.emit(AeonsCardsRegathered(hand_size=each, remainder_count=len(others) - len(dealt), sub_deck=yellows,
                                deck=dealt, remainders=others[len(dealt):]),
           {"sub_deck": [], "deck": [], "remainders": []})
    for seat in turn_order(d.state.table, table.grand_cultist):
        draw(d, seat, each)


# -- who acts and what they may do ---------------------------------------------------------------------------------


def to_act(table: Tabletop, state: AeonsState) -> frozenset[int]:
    phase = state.phase
    if isinstance(phase, Privilege):
        return frozenset({opener(table)})
    if isinstance(phase, Bidding):
        return phase.waiting
    return frozenset()


def legal_commands(table: Tabletop, state: AeonsState, seat: int) -> list[Command]:
    if seat not in to_act(table, state):
        return []
    if isinstance(state.phase, Privilege):
        return [DiscardRevealed(), KeepRevealed()]
    return [Bid(card=c) for c in sorted(table.hands[seat])]


def timeout_command(table: Tabletop, state: AeonsState, seat: int, rng: random.Random) -> Command:
    """A silent Grand Cultist keeps the revealed card (the discard is her right, not a duty); a silent bidder seals
    a card of her hand at random."""
    if isinstance(state.phase, Privilege):
        return KeepRevealed()
    return rng.choice(legal_commands(table, state, seat))


# -- decide --------------------------------------------------------------------------------------------------------


def decide(d: Decision[RitesState], command: Command, seat: int) -> None:
    table, state = here(d)
    phase = state.phase
    if not isinstance(command, Bid):
        require(isinstance(phase, Privilege), "rules/no_discard_privilege",
                "Only the Grand Cultist decides, once a card is revealed and before the bidding, whether to discard it.")
        if isinstance(command, DiscardRevealed):
            d.emit(RevealedCardDiscarded(seat=seat, card=state.revealed))
            _next_round(d)
        else:
            d.emit(BiddingOpened(card=state.revealed, bidders=_bidders(table)))
        return
    require(isinstance(phase, Bidding), "rules/not_bidding", "Nobody is bidding right now.")
    card = command.card
    require(card in table.hands[seat], "rules/card_not_in_hand", "Bid with a card from your own hand.")
    audience = hand_audience(table, seat)
    d.emit(BidSealed(seat=seat, card=card), None if audience is None else {"card": audience})
    if not here(d)[1].phase.waiting:
        _resolve(d)


def settle(d: Decision[RitesState]) -> None:
    """The first yellow card is turned over once the rite is performed (after the Coveted Artifact is revealed and
    invoked: Game Turn Order 3-5); a cultist whose hand a power-play emptied before she bid sits the round out (the
    reveal may follow), and a bidding nobody can join (power-plays emptied every hand before it opened) is resolved
    at once: nobody takes the card, and the rite ends as the hands are depleted."""
    table, state = here(d)
    if isinstance(state.phase, Dealing):
        _next_round(d)
        return
    if not isinstance(state.phase, Bidding):
        return
    for seat in sorted(s for s in state.phase.waiting if not table.hands[s]):
        d.emit(BidPassed(seat=seat, reason=EMPTY_HAND))
    if not here(d)[1].phase.waiting:
        _resolve(d)


def _bidders(table: Tabletop) -> list[int]:
    return [s for s in range(table.players) if table.hands[s]]


def _resolve(d: Decision[RitesState]) -> None:
    """All have bid: one public reveal; the highest elder sign takes the card, a tie for the highest discards it."""
    table, state = here(d)
    bids = sorted(state.bids)
    d.emit(BidsRevealed(card=state.revealed, bids=[list(b) for b in bids]))
    leaders: list[int] = []
    if bids:
        top = best(table, (rank(c) for _, c in bids))
        leaders = [s for s, c in bids if rank(c) == top]
    if len(leaders) == 1:
        d.emit(YellowCardWon(seat=leaders[0], card=state.revealed, bid=dict(bids)[leaders[0]]))
    else:
        d.emit(YellowCardTied(card=state.revealed, seats=leaders))
    _next_round(d)


def _next_round(d: Decision[RitesState]) -> None:
    """Turn over the next yellow card, or end the rite when the sub-deck or every hand is empty."""
    table, state = here(d)
    bidders = _bidders(table)
    if not state.sub_deck or not bidders:
        d.emit(AeonsEnded(unrevealed=len(state.sub_deck), points=points(state)))
        return
    privilege = not state.privilege_used
    d.emit(YellowCardRevealed(card=state.sub_deck[0], privilege=privilege, bidders=[] if privilege else bidders))


# -- a playout's move ---------------------------------------------------------------------------------------------


def simulate(table: Tabletop, state: AeonsState, command: Command, seat: int) -> tuple[Tabletop, AeonsState, int] | None:
    """``decide`` and ``settle`` for a playout (``Rite.simulate``): a bid that leaves others to bid, each with a card
    to bid (``settle`` then has nothing to do), or the bidding opened, folded without checking or building the facts;
    ``None`` (to ``decide``) for the reveal of the bids, the discard and the rounds after them."""
    if isinstance(command, Bid):  # BidSealed
        table, state = _sealed(table, state, seat, command.card)
        assert isinstance(state.phase, Bidding)
        waiting = state.phase.waiting
        return (table, state, 1) if waiting and all(table.hands[s] for s in waiting) else None
    if isinstance(command, KeepRevealed):  # BiddingOpened
        bidders = _bidders(table)
        return (table, replace(state, phase=Bidding(frozenset(bidders))), 1) if bidders else None
    return None


# -- evolve --------------------------------------------------------------------------------------------------------


def evolve(table: Tabletop, state: AeonsState, fact: Fact) -> tuple[Tabletop, AeonsState]:
    match fact:
        case AeonsCardsRegathered(sub_deck=sub_deck, deck=deck, remainders=remainders):
            table = replace(table, hands=((),) * table.players, pile=tuple(deck), known=())
            return table, replace(state, sub_deck=tuple(sub_deck), remainders=tuple(remainders))
        case YellowCardRevealed(card=card, privilege=privilege, bidders=bidders):
            phase = Privilege() if privilege else Bidding(frozenset(bidders))
            return table, replace(state, revealed=card, sub_deck=state.sub_deck[1:], phase=phase)
        case RevealedCardDiscarded(card=card):
            return table, replace(state, discards=state.discards + (card,), revealed=None, privilege_used=True)
        case BiddingOpened(bidders=bidders):
            return table, replace(state, phase=Bidding(frozenset(bidders)))
        case BidSealed(seat=seat, card=card):
            return _sealed(table, state, seat, card)
        case BidPassed(seat=seat):
            assert isinstance(state.phase, Bidding)
            return table, replace(state, phase=Bidding(state.phase.waiting - {seat}))
        case BidsRevealed(bids=bids):
            return table, replace(state, bids=(), open_bids=frozenset(), discards=state.discards + tuple(c for _, c in bids))
        case YellowCardWon(seat=seat, card=card):
            return table, replace(state, captured=replace_at(state.captured, seat, state.captured[seat] + (card,)),
                                  revealed=None)
        case YellowCardTied(card=card):
            return table, replace(state, discards=state.discards + (card,), revealed=None)
        case AeonsEnded():
            return table, replace(state, phase=Ended())
    raise TypeError(f"Out of the Aeons has no fact {fact!r}")


def _sealed(table: Tabletop, state: AeonsState, seat: int, card: int) -> tuple[Tabletop, AeonsState]:
    """The fold of ``BidSealed`` (``simulate`` folds its move without building the fact)."""
    assert isinstance(state.phase, Bidding)
    bids = tuple(sorted(state.bids + ((seat, card),)))
    shown = state.open_bids | {seat} if table.mods.open_hands else state.open_bids
    return sealed_from_hand(table, seat, [card]), replace(state, bids=bids, open_bids=shown,
                                                          phase=Bidding(state.phase.waiting - {seat}))


# -- end -----------------------------------------------------------------------------------------------------------


def result(table: Tabletop, state: AeonsState) -> RiteResult | None:
    """The Win: the most points (ties: the first of them in turn order from the Grand Cultist)."""
    if not isinstance(state.phase, Ended):
        return None
    scores = points(state)
    top = max(scores)
    return RiteResult(first_in_order(table, [s for s, p in enumerate(scores) if p == top]), RiteEnd.YELLOW_CARDS_TAKEN)
