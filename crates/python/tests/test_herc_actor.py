"""HERC shapes and actor stages from Python."""

import numpy as np
import pytest
import retroanim


@pytest.fixture
def biped(repo):
    return retroanim.HercModel.from_json(repo / "assets/herc/biped.json")


def test_the_biped_has_its_named_sequences(biped):
    assert biped.node_count == 15
    assert biped.sequence_count == 8
    assert biped.sequence_names()[:3] == ["idle", "walk", "run"]
    assert biped.sequence_named("walk") == 1
    assert biped.sequence_named("fly") is None


def test_walking_moves_the_machine_along_y(biped):
    h = retroanim.HercShape(biped)
    legs = h.add_thread("idle")
    h.request(legs, "walk")
    for _ in range(25):
        h.step()
    assert h.position.dtype == np.int32
    assert h.position[0] == 0 and h.position[2] == 0
    assert h.position[1] > 0
    rot = h.rotations()
    assert rot.shape == (15, 3, 3) and rot.dtype == np.int16
    # Q14 rotation rows: every entry within ±16384 (±1.0).
    assert np.abs(rot.astype(np.int32)).max() <= 16384
    assert h.translations().shape == (15, 3)


def test_herc_refusals_name_the_limit(biped):
    h = retroanim.HercShape(biped)
    with pytest.raises(retroanim.RetroanimError) as e:
        h.request(5, "walk")
    assert str(e.value) == "thread 5 does not exist (0 registered)"
    with pytest.raises(retroanim.RetroanimError, match=r"step of -1 ms is outside"):
        h.step(-1)
    with pytest.raises(retroanim.RetroanimError, match="no sequence named 'fly'"):
        h.add_thread("fly")


def test_a_forced_wave_plays_on_the_flag(repo):
    s = retroanim.ActorStage(repo / "assets/actor/flag2.json", view=[2660, 2860])
    assert s.force_request("flag_a", 1) == "accepted"
    for _ in range(4):
        s.update()
    assert s.current_group("flag_a") == 1
    model, frame = s.frame("flag_a")
    assert model < 1024 and frame < 1024
    assert [actor for actor, _ in s.frames()][0] == "flag_a"
    with pytest.raises(retroanim.RetroanimError, match="no actor 'nobody'"):
        s.frame("nobody")
