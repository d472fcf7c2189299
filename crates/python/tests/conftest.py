"""Where the tests find the repository's sample assets and the `retroanim` program.

crates/cli/tests/python_wheel.rs builds the wheel, installs it in a fresh venv and runs
pytest here with RETROANIM_BIN set to the `retroanim` binary it was built with.
"""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture
def repo():
    return REPO


@pytest.fixture
def retroanim_bin():
    path = os.environ.get("RETROANIM_BIN")
    if not path:
        pytest.fail("RETROANIM_BIN is not set: run these tests through `cargo test -p retroanim-cli --test python_wheel`")
    return path
