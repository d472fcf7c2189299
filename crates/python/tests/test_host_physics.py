"""Host physics from Python (docs/embedding.md "Host physics"): a walker moved back is
committed there and the next tick starts there; a walker crossing a landblock gets the
next cell with the outdoor rule; a host that answers nothing gets the plain tick bit for
bit; bad answers are refused with the C door's messages."""

import numpy as np
import pytest
import retroanim

TABLE = 0x09000001
WALK_FORWARD = 0x45000005


@pytest.fixture
def motions(repo):
    return retroanim.AcMotionSet.from_dir(repo / "assets/ac/records", TABLE)


def walker(motions, cell, x, y):
    w = retroanim.AcWorld()
    w.add(motions, 1, origin=[x, y, 0.0], cell=cell, radius=0.5, height=1.8)
    w.do_motion(1, WALK_FORWARD)
    for _ in range(10):
        w.tick(0.05)
    return w


def test_a_walker_moved_back_is_committed_there_and_the_next_tick_starts_there(motions):
    w = walker(motions, 0x7D640013, 10.0, 10.0)
    [p] = w.propose(0.05)
    assert p["id"] == 1
    assert p["to_origin"][1] > p["from_origin"][1]
    back = p["from_origin"].copy()
    back[1] -= np.float32(0.5)
    w.correct(1, p["from_cell"], back.tolist(), p["to_orientation"].tolist())
    assert w.commit() is True
    cell, origin, _ = w.position(1)
    assert cell == 0x7D640013
    assert origin.tolist() == back.tolist()
    assert abs(w.velocity(1)[1] + 10.0) < 1e-3
    [nxt] = w.propose(0.05)
    assert nxt["from_origin"].tolist() == back.tolist()
    w.refuse(1)
    assert w.commit()
    assert w.position(1)[1].tolist() == back.tolist()
    assert w.velocity(1).tolist() == [0.0, 0.0, 0.0]


def test_a_walker_crossing_a_landblock_gets_the_next_cell_with_the_outdoor_rule(motions):
    # Column 2, row 7 of landblock 0x7D64 (index 24 = 0x18), walking +y.
    w = walker(motions, 0x7D640018, 60.0, 191.0)
    for _ in range(200):
        if w.propose(0.05):
            w.apply_outdoor_rule()
        assert w.commit()
        if w.position(1)[0] != 0x7D640018:
            break
    cell, origin, _ = w.position(1)
    # Row 800 + 8 = 808: landblock y 0x65, row 0; column 1000 + 2: index 2 * 8 + 1.
    assert cell == 0x7D650011
    assert origin[1] < 1.0
    assert origin[0] == 60.0


def test_the_outdoor_rule_alone():
    cell, origin = retroanim.adjust_to_outside(0x7D64003B, [192.5, 60.0, 3.0])
    assert cell == 0x7E640003
    assert origin.tolist() == [0.5, 60.0, 3.0]
    assert retroanim.adjust_to_outside(0x00000001, [-0.5, 10.0, 0.0]) is None


def bits(w, ids):
    out = []
    for i in ids:
        cell, origin, q = w.position(i)
        out.append((cell, origin.tobytes(), q.tobytes(), w.velocity(i).tobytes()))
    return out


def chase_world(motions):
    w = retroanim.AcWorld()
    for i in range(1, 10):
        w.add(motions, i, origin=[(i % 3) * 3.0, (i // 3) * 3.0, 0.0], radius=0.5, height=1.8)
    # Chasers before and after their targets in the update order, and a walker.
    w.move_to_object(2, 9)
    w.move_to_object(8, 4)
    w.do_motion(5, WALK_FORWARD)
    return w


def test_a_host_that_answers_nothing_ticks_bit_for_bit_like_the_plain_tick(motions):
    plain = chase_world(motions)
    hosted = chase_world(motions)
    batches = 0
    for t in range(200):
        dt = 0.05 if t % 2 == 0 else 1.0 / 30.0
        plain.tick(dt)
        hosted.propose(dt)
        batches += 1
        while not hosted.commit():
            batches += 1
        assert bits(plain, range(1, 10)) == bits(hosted, range(1, 10)), t
    assert batches > 200


def test_bad_answers_are_refused_with_the_c_doors_messages(motions):
    w = walker(motions, 0x7D640013, 10.0, 10.0)
    with pytest.raises(retroanim.RetroanimError, match="^no two-phase tick is open: call propose first$"):
        w.commit()
    [p] = w.propose(0.05)
    to = p["to_origin"].tolist()
    with pytest.raises(retroanim.RetroanimError, match=r"^to\.frame: NaN or infinite component$"):
        w.correct(1, p["to_cell"], [float("nan"), 0.0, 0.0])
    with pytest.raises(
        retroanim.RetroanimError,
        match=r"^to\.frame\.orientation: \[0, 0, 0, 0\] is too close to zero length to be an orientation",
    ):
        w.correct(1, p["to_cell"], to, [0.0, 0.0, 0.0, 0.0])
    with pytest.raises(retroanim.RetroanimError, match="^to.cell: cell 0 names no cell$"):
        w.correct(1, 0, to)
    with pytest.raises(retroanim.RetroanimError, match="^a two-phase tick is open"):
        w.tick(0.05)
    with pytest.raises(retroanim.RetroanimError, match="^object 0x2 has no proposal in the current batch$"):
        w.refuse(2)
    assert w.commit()
    assert w.position(1)[1].tolist() == to
    with pytest.raises(retroanim.RetroanimError, match="^target: 0x1 is the creature itself$"):
        w.move_to_object(1, 1)
