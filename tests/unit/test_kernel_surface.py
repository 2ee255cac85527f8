"""The kernel's public surface is what its docstring says: the names it lists are ``__all__``, and ``__all__`` is
every public name the package holds (issue 28)."""

from __future__ import annotations

import re
import types

import shared.kernel as kernel


def listed_in_docstring() -> set[str]:
    """The names the docstring's "Public surface" list gives, each bullet's ``name`` before its colon."""
    doc = kernel.__doc__ or ""
    section = doc.split("Public surface", 1)[1].split("\n\n", 2)[1]
    names: set[str] = set()
    for bullet in re.split(r"\n- ", "\n" + section):
        head = bullet.split(":", 1)[0]
        names |= set(re.findall(r"``(\w+)``", head))
    return names


def test_the_docstring_lists_exactly_the_names_of_all():
    assert listed_in_docstring() == set(kernel.__all__)


def test_every_name_of_all_is_defined_and_nothing_else_public_is_exported():
    assert all(hasattr(kernel, name) for name in kernel.__all__)
    held = {name for name, value in vars(kernel).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    assert held == set(kernel.__all__)

