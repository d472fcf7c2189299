"""run_scenario gives exactly the lines `retroanim run` prints, for every engine."""

import json
import subprocess

import pytest
import retroanim

SCENARIOS = [
    "assets/ac/scenarios/walk_to_run.json",
    "assets/ac/scenarios/network_correction.json",
    "crates/ac/tests/conformance/scenarios/moveto_sticky_handoff.json",
    "crates/ac/tests/conformance/scenarios/server_charge_jump_while_falling.json",
    "assets/herc/scenarios/idle_walk_run_stop.json",
    "assets/herc/scenarios/mech_walk_and_steer.json",
    "assets/actor/scenarios/flag2_two_cycles.json",
]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_trace_equals_retroanim_run(repo, retroanim_bin, scenario):
    path = repo / scenario
    expected = subprocess.run(
        [retroanim_bin, "run", str(path)], check=True, capture_output=True, text=True
    ).stdout.splitlines()
    lines = retroanim.run_scenario(path)
    assert len(lines) == len(expected)
    assert lines == expected
    # Line 0 is the setup line; each step adds one.
    assert len(lines) == len(json.loads(path.read_text())["steps"]) + 1


def test_a_faulty_step_names_its_json_path(tmp_path, retroanim_bin, repo):
    bad = tmp_path / "bad.json"
    doc = json.loads((repo / "assets/ac/scenarios/walk_to_run.json").read_text())
    doc["asset_dir"] = str(repo / "assets/ac/records")
    doc["steps"] = [{"op": "no_such_op"}]
    bad.write_text(json.dumps(doc))
    cli = subprocess.run([retroanim_bin, "run", str(bad)], capture_output=True, text=True)
    assert cli.returncode != 0
    with pytest.raises(retroanim.RetroanimError) as e:
        retroanim.run_scenario(bad)
    assert "steps[0]" in str(e.value)
    assert str(e.value) in cli.stderr


def test_a_missing_file_is_an_error_naming_it(tmp_path):
    with pytest.raises(retroanim.RetroanimError) as e:
        retroanim.run_scenario(tmp_path / "absent.json")
    assert "absent.json" in str(e.value)


def test_the_wheel_carries_the_type_stubs():
    import importlib.util
    import pathlib

    origin = pathlib.Path(importlib.util.find_spec("retroanim").origin)
    assert origin.name == "__init__.py", origin
    assert (origin.parent / "__init__.pyi").is_file()
    assert (origin.parent / "py.typed").is_file()
