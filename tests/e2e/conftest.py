"""End-to-end tests run against the real stack (the ``stack`` fixture of tests/conftest.py, one per test process,
shared with the trust suites; tests/support/real_stack.py); the browser tests' fixtures come from here."""

from __future__ import annotations

from tests.support.web_tables import axe, browser  # noqa: F401  (the browser tests' fixtures: one Chromium a module)
