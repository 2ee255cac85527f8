"""The Hound's state: the graveyard, the phase of the turn, who peeked at which grave, and the discards."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Grave:
    card: int
    face_up: bool = False
    looted_by: int | None = None
    ghouls: tuple[tuple[int, int], ...] = ()  # (seat, ghoul card)

    def has_ghoul_of(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.ghouls)


@dataclass(frozen=True, slots=True)
class Laying:
    """The rite was picked; the graveyard is not laid out yet."""


@dataclass(frozen=True, slots=True)
class PeekPrivilege:
    """Before the first turn the rite's opener may peek at any one grave (read when needed: an artifact may
    give the Grand Cultist's first turn and privilege away)."""


@dataclass(frozen=True, slots=True)
class Placing:
    """``seat`` places a ghoul."""

    seat: int


@dataclass(frozen=True, slots=True)
class Placed:
    """``seat`` placed (and peeked at) her ghoul at ``grave``: she leaves it or moves it once."""

    seat: int
    grave: int


@dataclass(frozen=True, slots=True)
class Digging:
    """Two ghouls dig ``grave`` (``seat`` made the dig on her turn); ``sealed`` holds (seat, choice, card);
    ``open_seals`` the seats that sealed a card from a hand played face up (The Glass from Leng: everyone saw it)."""

    seat: int
    grave: int
    sealed: tuple[tuple[int, str, int | None], ...] = ()
    open_seals: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Emptied:
    """Every grave is looted, or nobody can place a ghoul any more."""


@dataclass(frozen=True, slots=True)
class HoundState:
    phase: Laying | PeekPrivilege | Placing | Placed | Digging | Emptied
    graves: tuple[Grave, ...] = ()
    peeks: frozenset[tuple[int, int]] = frozenset()  # (seat, grave): that seat knows that face-down grave
    discards: tuple[int, ...] = ()


STATE_TYPES = (HoundState, Grave, Laying, PeekPrivilege, Placing, Placed, Digging, Emptied)
