"""The liveness suite (tests/property/test_liveness.py) at the soak scale: MYTHOS_LIVENESS_SCALE, set in conftest.py."""

from tests.property.test_liveness import (  # noqa: F401 - collected here at the soak scale
    test_every_artifact_in_every_rite_leaves_no_position_frozen,
    test_no_position_of_a_random_or_a_biased_playout_freezes,
)
