"""The Hound's rules (rulebook "The Hound", p. 45): loot a graveyard of face-down cards with ghouls.

The graveyard is players + 1 face-down graves. Before the first turn the Grand Cultist may peek at one grave.
On her turn a cultist places a ghoul (a card from her hand, replaced at once from the pile) next to a grave
where she has no ghoul yet and peeks at it privately (a face-up grave needs no peek); then she either leaves the
ghoul or moves it once to another grave without peeking. Two ghouls at a grave are digging partners: the grave
is turned face up and each partner seals a henchman of her ghoul's cult, a dummy (kept face down, psyching the
partner out) or nothing; the sealed cards are revealed together. Ghoul plus henchman totals decide who loots
the grave (a forbidden book doubles the other card); equal totals go to the higher ghoul, and a double tie
leaves the grave face up for later. A psyched-out henchman is discarded, a dummy goes back to its owner's hand
(two dummies are both discarded). Hands are refilled to 5 at once. When every grave is looted the most looted
elder sign points wins.

Rulings (docs/rulings/rites-of-cthulhu.md): peeks are knowledge of one seat only; a cultist with no grave to place
at passes; when nobody can place a ghoul the rite ends with the graves left unlooted; the comparison of totals
and ghouls honours the rank-inverting artifact.
"""

from __future__ import annotations

import random
from typing import Any

from shared.kernel import Command, Decision, Fact, RuleViolation, replace, replace_at
from shared.kernel.errors import require

from shared.games.rites_of_cthulhu.cards import FORBIDDEN_BOOK, HAND_SIZE, cult, rank
from shared.games.rites_of_cthulhu.rites.base import RiteEnd, RiteResult, here
from shared.games.rites_of_cthulhu.rites.table import (
    beats,
    draw,
    drawn,
    first_in_order,
    hand_audience,
    next_seat,
    opener,
    sealed_from_hand,
    without,
)
from shared.games.rites_of_cthulhu.rites.the_hound.cards import SHOWN, Choice
from shared.games.rites_of_cthulhu.rites.the_hound.commands import (
    CallHenchman, DeclinePeek, KeepGhoul, MoveGhoul, NoHenchman, PassTurn, PeekGrave, PlaceGhoul, PsychOut,
)
from shared.games.rites_of_cthulhu.rites.the_hound.events import (
    DigCleared,
    DigTied,
    DummiesDiscarded,
    DummyReturned,
    GhoulKept,
    GhoulMoved,
    GhoulPlaced,
    GraveDugUp,
    GraveLooted,
    GravePeeked,
    GraveyardEmptied,
    GraveyardLaid,
    HenchmanPsychedOut,
    HenchmanSealed,
    HenchmenRevealed,
    HoundTurnBegan,
    PeekDeclined,
    TurnPassedWithoutGhoul,
)
from shared.games.rites_of_cthulhu.rites.the_hound.state import (
    Digging,
    Emptied,
    Grave,
    HoundState,
    Laying,
    PeekPrivilege,
    Placed,
    Placing,
)
from shared.games.rites_of_cthulhu.state import RitesState, Tabletop

CHOICES = {CallHenchman: Choice.HENCHMAN, PsychOut: Choice.DUMMY, NoHenchman: Choice.NOTHING}


def strength(ghoul: int, henchman: int | None) -> int:
    """Ghoul plus henchman; a forbidden book (elder sign 0) doubles the other card instead of adding."""
    g = rank(ghoul)
    if henchman is None:
        return g
    h = rank(henchman)
    if FORBIDDEN_BOOK in (g, h):
        return 2 * (g + h)
    return g + h


def points(state: HoundState, players: int) -> list[int]:
    out = [0] * players
    for g in state.graves:
        if g.looted_by is not None:
            out[g.looted_by] += rank(g.card)
    return out


def open_graves(state: HoundState, seat: int) -> list[int]:
    """Graves where ``seat`` may send a ghoul: not looted, and without a ghoul of hers."""
    return [i for i, g in enumerate(state.graves) if g.looted_by is None and not g.has_ghoul_of(seat)]


def ghoul_of(state: HoundState, grave: int, seat: int) -> int:
    return next(c for s, c in state.graves[grave].ghouls if s == seat)


def stuck(table: Tabletop, state: HoundState) -> bool:
    """Nobody can send a ghoul any more (empty hands, or only her own ghouls on the graves left)."""
    return isinstance(state.phase, Placing) and not any(
        table.hands[s] and open_graves(state, s) for s in range(table.players)
    )


# -- setup -------------------------------------------------------------------------------------------------------


def initial(table: Tabletop) -> HoundState:
    return HoundState(phase=Laying())


def begin(d: Decision[RitesState]) -> None:
    """The Deal: players + 1 graves face down from the pile; the Grand Cultist's privilege comes first."""
    graves = list(d.state.table.pile[: d.state.players + 1])
    d.emit(GraveyardLaid(count=len(graves), graves=graves), {"graves": []})


# -- who acts and what they may do ---------------------------------------------------------------------------------


def to_act(table: Tabletop, state: HoundState) -> frozenset[int]:
    phase = state.phase
    if stuck(table, state):
        return frozenset()
    if isinstance(phase, PeekPrivilege):
        return frozenset({opener(table)})
    if isinstance(phase, (Placing, Placed)):
        return frozenset({phase.seat})
    if isinstance(phase, Digging):
        sealed = {s for s, _, _ in phase.sealed}
        return frozenset(s for s, _ in state.graves[phase.grave].ghouls if s not in sealed)
    return frozenset()


def legal_commands(table: Tabletop, state: HoundState, seat: int) -> list[Command]:
    if seat not in to_act(table, state):
        return []
    phase = state.phase
    hand = sorted(table.hands[seat])
    out: list[Command]
    if isinstance(phase, PeekPrivilege):
        graves = [i for i, g in enumerate(state.graves) if not g.face_up and g.looted_by is None]
        return [*(PeekGrave(grave=i) for i in graves), DeclinePeek()]
    if isinstance(phase, Placing):
        out = [PlaceGhoul(card=c, grave=g) for c in hand for g in open_graves(state, seat)]
        return out or [PassTurn()]
    if isinstance(phase, Placed):
        return [KeepGhoul(), *(MoveGhoul(grave=g) for g in open_graves(state, seat))]
    assert isinstance(phase, Digging)
    ghoul = ghoul_of(state, phase.grave, seat)
    out = [CallHenchman(card=c) for c in hand if cult(c) == cult(ghoul)]
    out += [PsychOut(card=c) for c in hand]
    return out + [NoHenchman()]


def timeout_command(table: Tabletop, state: HoundState, seat: int, rng: random.Random) -> Command:
    """A silent cultist does not take the privileged peek and leaves her ghoul where it is (both options); placing a
    ghoul and the sealed henchman choice are compulsory: a legal one at random."""
    if isinstance(state.phase, PeekPrivilege):
        return DeclinePeek()
    if isinstance(state.phase, Placed):
        return KeepGhoul()
    return rng.choice(legal_commands(table, state, seat))


# -- decide --------------------------------------------------------------------------------------------------------


def decide(d: Decision[RitesState], command: Command, seat: int) -> None:
    table, state = here(d)
    phase = state.phase
    if isinstance(command, (PeekGrave, DeclinePeek)):
        require(isinstance(phase, PeekPrivilege), "rules/no_peek_privilege",
                "The privileged peek comes before the first turn.")
        if isinstance(command, PeekGrave):
            grave = _grave(state, command.grave)
            require(not grave.face_up, "rules/grave_face_up", "That grave is already face up.")
            _peek(d, seat, command.grave, grave.card, privilege=True)
        else:
            d.emit(PeekDeclined(seat=seat))
        d.emit(HoundTurnBegan(seat=seat))
    elif isinstance(command, PassTurn):
        require(isinstance(phase, Placing), "rules/not_placing", "Place a ghoul at the start of your turn.")
        require(not table.hands[seat] or not open_graves(state, seat), "rules/must_place_ghoul",
                "You can place a ghoul: you may not pass.")
        d.emit(TurnPassedWithoutGhoul(seat=seat))
        d.emit(HoundTurnBegan(seat=next_seat(table, seat)))
    elif isinstance(command, PlaceGhoul):
        require(isinstance(phase, Placing), "rules/not_placing", "Place a ghoul at the start of your turn.")
        card, index = command.card, command.grave
        require(card in table.hands[seat], "rules/card_not_in_hand", "Place a ghoul from your own hand.")
        grave = _grave(state, index)
        require(not grave.has_ghoul_of(seat), "rules/one_ghoul_per_grave", "You already have a ghoul at that grave.")
        d.emit(GhoulPlaced(seat=seat, card=card, grave=index))
        _refill(d, seat)
        if not grave.face_up:
            _peek(d, seat, index, grave.card, privilege=False)
    elif isinstance(command, (KeepGhoul, MoveGhoul)):
        if not isinstance(phase, Placed):
            raise RuleViolation("rules/nothing_to_move", "Place a ghoul first.")
        target = phase.grave
        if isinstance(command, MoveGhoul):
            target = command.grave
            grave = _grave(state, target)
            require(target != phase.grave, "rules/move_to_another_grave", "Move your ghoul to a different grave.")
            require(not grave.has_ghoul_of(seat), "rules/one_ghoul_per_grave", "You already have a ghoul at that grave.")
            d.emit(GhoulMoved(seat=seat, card=ghoul_of(state, phase.grave, seat), source=phase.grave, grave=target))
        else:
            d.emit(GhoulKept(seat=seat, grave=target))
        grave = here(d)[1].graves[target]
        if len(grave.ghouls) == 2:
            d.emit(GraveDugUp(grave=target, card=grave.card, partners=[s for s, _ in grave.ghouls], turn=seat))
        else:
            d.emit(HoundTurnBegan(seat=next_seat(table, seat)))
    elif isinstance(command, (CallHenchman, PsychOut, NoHenchman)):
        _seal(d, command, seat)
    else:
        raise TypeError(f"the hound: no rule for {command!r}")


def _seal(d: Decision[RitesState], command: CallHenchman | PsychOut | NoHenchman, seat: int) -> None:
    """A digging partner seals her henchman, a dummy, or nothing; the second seal reveals both."""
    table, state = here(d)
    phase = state.phase
    if not isinstance(phase, Digging):
        raise RuleViolation("rules/not_digging", "Henchmen are called only when a grave is dug up.")
    card = None if isinstance(command, NoHenchman) else command.card
    if card is not None:
        require(card in table.hands[seat], "rules/card_not_in_hand", "Choose a card from your own hand.")
    if isinstance(command, CallHenchman):
        require(cult(command.card) == cult(ghoul_of(state, phase.grave, seat)), "rules/henchman_must_match_ghoul",
                "A henchman must be of the same cult as your ghoul.")
    audience = hand_audience(table, seat)
    secret: dict[str, list[int]] = {"choice": [seat]}
    if audience is not None:
        secret["card"] = audience
    d.emit(HenchmanSealed(seat=seat, grave=phase.grave, choice=CHOICES[type(command)], card=card), secret)
    if len(here(d)[1].phase.sealed) == 2:
        _resolve(d)


def _peek(d: Decision[RitesState], seat: int, grave: int, card: int, privilege: bool) -> None:
    d.emit(GravePeeked(seat=seat, grave=grave, card=card, privilege=privilege), {"card": [seat]})


def _grave(state: HoundState, index: int) -> Grave:
    require(0 <= index < len(state.graves), "rules/no_such_grave", "There is no such grave.", grave=index)
    grave = state.graves[index]
    require(grave.looted_by is None, "rules/grave_looted", "That grave has already been looted.", grave=index)
    return grave


def _resolve(d: Decision[RitesState]) -> None:
    """Reveal the henchmen together, psych-outs first; the higher total loots, then the higher ghoul."""
    table, state = here(d)
    phase = state.phase
    assert isinstance(phase, Digging)
    grave = state.graves[phase.grave]
    sealed: dict[int, tuple[str, Any]] = {s: (choice, card) for s, choice, card in phase.sealed}
    partners = [s for s, _ in grave.ghouls]
    shown = [{"seat": s, "shown": SHOWN[Choice(sealed[s][0])],
              **({"card": sealed[s][1]} if sealed[s][0] == Choice.HENCHMAN else {})} for s in partners]
    d.emit(HenchmenRevealed(grave=phase.grave, shown=shown))
    dummies = [s for s in partners if sealed[s][0] == Choice.DUMMY]
    counted = {s: sealed[s][1] for s in partners if sealed[s][0] == Choice.HENCHMAN}
    if len(dummies) == 2:
        d.emit(DummiesDiscarded(grave=phase.grave, cards=[sealed[s][1] for s in partners]))
    elif dummies:
        for s in partners:
            if s in counted:
                d.emit(HenchmanPsychedOut(seat=s, card=counted.pop(s)))
        audience = hand_audience(table, dummies[0])
        d.emit(DummyReturned(seat=dummies[0], card=sealed[dummies[0]][1]), None if audience is None else {"card": audience})
    ghouls = dict(grave.ghouls)
    totals = {s: strength(ghouls[s], counted.get(s)) for s in partners}
    a, b = partners
    if totals[a] != totals[b]:
        winner: int | None = a if beats(table, totals[a], totals[b]) else b
    elif rank(ghouls[a]) != rank(ghouls[b]):
        winner = a if beats(table, rank(ghouls[a]), rank(ghouls[b])) else b
    else:
        winner = None
    tally = [[s, totals[s]] for s in partners]
    if winner is None:
        d.emit(DigTied(grave=phase.grave, card=grave.card, totals=tally))
    else:
        d.emit(GraveLooted(seat=winner, grave=phase.grave, card=grave.card, totals=tally))
    cleared = [ghouls[s] for s in partners] + [counted[s] for s in partners if s in counted]
    d.emit(DigCleared(grave=phase.grave, cards=cleared))
    for s in partners:
        _refill(d, s)
    if all(g.looted_by is not None for g in here(d)[1].graves):
        d.emit(GraveyardEmptied(points=points(here(d)[1], table.players)))
    else:
        d.emit(HoundTurnBegan(seat=next_seat(table, phase.seat)))


def _refill(d: Decision[RitesState], seat: int) -> None:
    """Additional Rules: hands are kept at 5 at all times (while the pile lasts; the Hound never reshuffles)."""
    draw(d, seat, HAND_SIZE - len(d.state.table.hands[seat]))


# -- a playout's move ---------------------------------------------------------------------------------------------


def simulate(table: Tabletop, state: HoundState, command: Command, seat: int) -> tuple[Tabletop, HoundState, int] | None:
    """``decide`` for a playout (``Rite.simulate``): the folds of the facts the listed move emits, without checking it
    or building them (those that fold to nothing are only counted); ``None`` (to ``decide``) for the second seal,
    whose reveal and loot are ``_resolve``'s."""
    phase = state.phase
    match command:
        case PlaceGhoul(card=card, grave=grave):  # GhoulPlaced, the refill, a peek at a face-down grave
            face_up = state.graves[grave].face_up
            table, state = _placed(table, state, seat, card, grave)
            table = drawn(table, seat, HAND_SIZE - len(table.hands[seat]))
            if face_up:
                return table, state, 1
            return table, replace(state, peeks=state.peeks | {(seat, grave)}), 2
        case KeepGhoul():  # GhoulKept, then the dig or the next turn
            assert isinstance(phase, Placed)
            return _dug_or_passed(table, state, seat, phase.grave)
        case MoveGhoul(grave=grave):  # GhoulMoved, then the dig or the next turn
            assert isinstance(phase, Placed)
            return _dug_or_passed(table, _moved(state, seat, ghoul_of(state, phase.grave, seat), phase.grave, grave),
                                  seat, grave)
        case CallHenchman() | PsychOut() | NoHenchman():  # HenchmanSealed, the first of two
            assert isinstance(phase, Digging)
            if phase.sealed:
                return None
            seal = None if isinstance(command, NoHenchman) else command.card
            return (*_sealed(table, state, seat, CHOICES[type(command)], seal), 1)
        case PassTurn():  # TurnPassedWithoutGhoul, HoundTurnBegan
            return table, replace(state, phase=Placing(next_seat(table, seat))), 2
        case PeekGrave(grave=grave):  # GravePeeked, HoundTurnBegan
            return table, replace(state, peeks=state.peeks | {(seat, grave)}, phase=Placing(seat)), 2
        case DeclinePeek():  # PeekDeclined, HoundTurnBegan
            return table, replace(state, phase=Placing(seat)), 2
    return None


def _dug_or_passed(table: Tabletop, state: HoundState, seat: int, grave: int) -> tuple[Tabletop, HoundState, int]:
    """After the ghoul was kept or moved to ``grave``: GraveDugUp where two ghouls are there, else HoundTurnBegan."""
    if len(state.graves[grave].ghouls) == 2:
        return table, _dug_up(state, grave, seat), 2
    return table, replace(state, phase=Placing(next_seat(table, seat))), 2


# -- evolve --------------------------------------------------------------------------------------------------------


def evolve(table: Tabletop, state: HoundState, fact: Fact) -> tuple[Tabletop, HoundState]:
    match fact:
        case GraveyardLaid(graves=graves):
            return (replace(table, pile=table.pile[len(graves):]),
                    replace(state, graves=tuple(Grave(c) for c in graves), phase=PeekPrivilege()))
        case GravePeeked(seat=seat, grave=grave):
            return table, replace(state, peeks=state.peeks | {(seat, grave)})
        case PeekDeclined() | TurnPassedWithoutGhoul() | GhoulKept() | HenchmenRevealed() | DigTied():
            return table, state
        case HoundTurnBegan(seat=seat):
            return table, replace(state, phase=Placing(seat))
        case GhoulPlaced(seat=seat, card=card, grave=grave):
            return _placed(table, state, seat, card, grave)
        case GhoulMoved(seat=seat, card=card, source=source, grave=grave):
            return table, _moved(state, seat, card, source, grave)
        case GraveDugUp(grave=grave, turn=turn):
            return table, _dug_up(state, grave, turn)
        case HenchmanSealed(seat=seat, choice=choice, card=card):
            return _sealed(table, state, seat, choice, card)
        case HenchmanPsychedOut(seat=seat):
            return table, _unseal(state, [seat], discard=True)
        case DummiesDiscarded():
            assert isinstance(state.phase, Digging)
            return table, _unseal(state, [s for s, _, _ in state.phase.sealed], discard=True)
        case DummyReturned(seat=seat, card=card):
            table = replace(table, hands=replace_at(table.hands, seat, table.hands[seat] + (card,)))
            return table, _unseal(state, [seat], discard=False)
        case GraveLooted(seat=seat, grave=grave):
            return table, _at_grave(state, grave, lambda g: replace(g, looted_by=seat))
        case DigCleared(grave=grave, cards=cards):
            digging = state.phase
            assert isinstance(digging, Digging)
            state = _at_grave(state, grave, lambda g: replace(g, ghouls=()))
            return table, replace(state, discards=state.discards + tuple(cards),
                                  phase=replace(digging, sealed=(), open_seals=frozenset()))
        case GraveyardEmptied():
            return table, replace(state, phase=Emptied())
    raise TypeError(f"The Hound has no fact {fact!r}")


def _placed(table: Tabletop, state: HoundState, seat: int, card: int, grave: int) -> tuple[Tabletop, HoundState]:
    """The fold of ``GhoulPlaced`` (``simulate`` folds its move without building the fact)."""
    state = _at_grave(state, grave, lambda g: replace(g, ghouls=g.ghouls + ((seat, card),)))
    return without(table, seat, [card]), replace(state, phase=Placed(seat, grave))


def _moved(state: HoundState, seat: int, card: int, source: int, grave: int) -> HoundState:
    """The fold of ``GhoulMoved``."""
    state = _at_grave(state, source, lambda g: replace(g, ghouls=tuple(x for x in g.ghouls if x[0] != seat)))
    return _at_grave(state, grave, lambda g: replace(g, ghouls=g.ghouls + ((seat, card),)))


def _dug_up(state: HoundState, grave: int, turn: int) -> HoundState:
    """The fold of ``GraveDugUp``."""
    state = _at_grave(state, grave, lambda g: replace(g, face_up=True))
    return replace(state, phase=Digging(turn, grave))


def _sealed(table: Tabletop, state: HoundState, seat: int, choice: str, card: int | None
            ) -> tuple[Tabletop, HoundState]:
    """The fold of ``HenchmanSealed``."""
    digging = state.phase
    assert isinstance(digging, Digging)
    if card is not None:
        table = sealed_from_hand(table, seat, [card])
    shown = digging.open_seals | {seat} if table.mods.open_hands and card is not None else digging.open_seals
    return table, replace(state, phase=replace(digging, sealed=digging.sealed + ((seat, choice, card),),
                                               open_seals=shown))


def _at_grave(state: HoundState, index: int, change: Any) -> HoundState:
    return replace(state, graves=replace_at(state.graves, index, change(state.graves[index])))


def _unseal(state: HoundState, seats: list[int], discard: bool) -> HoundState:
    """Take ``seats``' sealed cards off the table: to the discards, or (a dummy) back to the hand."""
    phase = state.phase
    assert isinstance(phase, Digging)
    gone = [(s, k, c) for s, k, c in phase.sealed if s in seats]
    keep = tuple(x for x in phase.sealed if x[0] not in seats)
    cards = tuple(c for _, _, c in gone if c is not None) if discard else ()
    return replace(state, phase=replace(phase, sealed=keep), discards=state.discards + cards)


# -- end -----------------------------------------------------------------------------------------------------------


def result(table: Tabletop, state: HoundState) -> RiteResult | None:
    """The Win: the most looted points (ties: the first of them in turn order from the Grand Cultist)."""
    if isinstance(state.phase, Emptied):
        reason = RiteEnd.GRAVEYARD_LOOTED
    elif stuck(table, state):
        reason = RiteEnd.NO_GHOULS_LEFT
    else:
        return None
    scores = points(state, table.players)
    top = max(scores)
    return RiteResult(first_in_order(table, [s for s, p in enumerate(scores) if p == top]), reason)
