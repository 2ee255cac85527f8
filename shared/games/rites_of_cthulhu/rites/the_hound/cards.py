"""The Hound's sealed choices (rulebook "The Hound", p. 45: "Digging a grave", "Psyching Out Your Digging Partner")."""

from __future__ import annotations

from enum import StrEnum


class Choice(StrEnum):
    """What a digging partner seals: a henchman of her ghoul's cult, a dummy kept face down, or nothing."""

    HENCHMAN = "henchman"
    DUMMY = "dummy"
    NOTHING = "nothing"


class Shown(StrEnum):
    """What the table sees of a sealed choice at the reveal (a dummy stays face down)."""

    HENCHMAN = "henchman"
    FACE_DOWN = "face_down"
    NOTHING = "nothing"


SHOWN = {Choice.HENCHMAN: Shown.HENCHMAN, Choice.DUMMY: Shown.FACE_DOWN, Choice.NOTHING: Shown.NOTHING}
