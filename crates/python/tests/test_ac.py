"""AC creatures from Python: commands, ticks, part frames, and the door's refusals."""

import numpy as np
import pytest
import retroanim

WALK_FORWARD = 0x45000005
RUN_FORWARD = 0x44000007
READY = 0x41000003


@pytest.fixture
def motions(repo):
    return retroanim.AcMotionSet.from_dir(repo / "assets/ac/records", 0x09000001)


def test_command_names_and_ids():
    assert retroanim.command_id("WalkForward") == WALK_FORWARD
    assert retroanim.command_id("runforward") == RUN_FORWARD
    assert retroanim.command_name(READY) == "Ready"
    assert retroanim.command_name(0x12345678) is None
    with pytest.raises(retroanim.RetroanimError, match="no AC motion command"):
        retroanim.command_id("Fly")


def test_the_sample_table_loads(motions):
    assert motions.table_id == 0x09000001
    assert motions.animation_count == 19


def test_a_new_creature_stands_ready_at_the_origin(motions):
    c = retroanim.AcCreature(motions)
    assert c.motion == READY
    assert c.origin.dtype == np.float32
    assert c.origin.tolist() == [0.0, 0.0, 0.0]
    assert c.orientation.tolist() == [1.0, 0.0, 0.0, 0.0]


def test_walking_then_holding_run(motions):
    c = retroanim.AcCreature(motions)
    c.do_motion("WalkForward")
    c.run(30, 1 / 30)
    assert c.motion == WALK_FORWARD
    # One second: the Ready→WalkForward link, then the cycle at 3.12 units/s along +y.
    assert 2.5 < c.origin[1] < 3.2
    assert c.origin[0] == 0.0
    c.set_hold_run(True)
    assert c.motion == RUN_FORWARD


def test_part_frames_are_one_row_per_part(motions):
    c = retroanim.AcCreature(motions)
    c.do_motion(WALK_FORWARD)
    c.tick(1 / 30)
    frames = c.part_frames()
    assert frames.shape == (8, 7)
    assert frames.dtype == np.float32
    # Each row's orientation is a unit quaternion.
    assert np.allclose(np.linalg.norm(frames[:, 3:], axis=1), 1.0, atol=1e-5)


def test_the_door_refuses_what_the_c_abi_refuses(motions):
    with pytest.raises(retroanim.RetroanimError) as e:
        retroanim.AcCreature(motions, orientation=[0, 0, 0, 0])
    assert str(e.value) == (
        "orientation: [0, 0, 0, 0] is too close to zero length to be an orientation "
        "(its squared length must be at least 1e-12)"
    )
    c = retroanim.AcCreature(motions)
    with pytest.raises(retroanim.RetroanimError) as e:
        c.tick(1e30)
    assert str(e.value) == (
        "quantum: 1e30 is out of range: a tick's dt lies within \u00b12 s (ACE's HugeQuantum)"
    )
    with pytest.raises(retroanim.RetroanimError, match="quantum: -2.5 is out of range"):
        c.tick(-2.5)
    with pytest.raises(retroanim.RetroanimError, match="NaN or infinite"):
        retroanim.AcCreature(motions, origin=[float("nan"), 0, 0])
    # Flags are booleans: 7 is not a flag.
    with pytest.raises(TypeError):
        c.set_hold_run(7)
    # A refused call changed nothing.
    assert c.origin.tolist() == [0.0, 0.0, 0.0]
