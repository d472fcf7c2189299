//! The server loop through the front door ([`Creature`]): the same steps as four of the
//! worked examples ACE's own code produced (`server_d02`, `server_d05`, `server_d06`,
//! `server_d11` under tests/conformance), with the positions and message bytes of
//! ACE's traces as the expected values.

use retroanim_ac::interpolation::Position;
use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::wire::{from_hex, to_hex};
use retroanim_ac::{Creature, Loader, MotionSet};

fn motions() -> MotionSet {
    Loader::from_dir(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/conformance/humanoid"
    ))
    .load(0x0900_0001)
    .unwrap()
}

fn player(x: f32, y: f32) -> Creature {
    Creature::builder(&motions())
        .id(0x5000_0001)
        .clock(100.0)
        .origin(Vec3::new(x, y, 0.0))
        .build()
}

fn close(got: Vec3, want: [f32; 3]) -> bool {
    let w = Vec3::new(want[0], want[1], want[2]);
    (got.x - w.x).abs() <= 1e-4 && (got.y - w.y).abs() <= 1e-4 && (got.z - w.z).abs() <= 1e-4
}

fn at(x: f32, y: f32) -> Position {
    Position::new(
        0x7d64_0013,
        AFrame::new(Vec3::new(x, y, 0.0), Quat::IDENTITY),
    )
}

/// Run held with WalkForward, at (60, 60) in 0x7d640013.
const RUN: &str = "0500000002000000050000451300647d0000704200007042000000000000803f000000000000000000000000000000000000000001000000";

#[test]
fn a_client_runs_and_jumps_as_in_ace() {
    let mut c = player(60.0, 60.0);
    let sent = c
        .apply_move_to_state(&from_hex(RUN).unwrap(), 100.0)
        .unwrap();
    assert_eq!(
        to_hex(&sent.unwrap()),
        "4cf70000010000500000010000000100000000000200000007000000"
    );
    for k in 1..=10 {
        assert!(c.update_object(100.0 + 0.05 * f64::from(k)));
    }
    assert!(close(c.origin(), [60.0, 61.73334, 0.0]));
    let [motion, vector] = c.jump_server(Vec3::new(0.0, 4.0, 5.0), 100.5);
    assert_eq!(
        to_hex(&motion),
        "4cf700000100005000000200000001000000000000000000"
    );
    assert_eq!(
        to_hex(&vector),
        "4ef700000100005000000000000080400000a04000000000000000000000000000000100"
    );
    assert!(c.update_object(100.55));
    assert!(close(c.origin(), [60.0, 61.933342, 0.23775]));
    assert!(close(c.physics_velocity(), [0.0, 4.0, 4.51]));
}

#[test]
fn a_jump_pack_launches_as_in_ace() {
    let mut c = player(60.0, 60.0);
    assert!(c.update_object(100.05));
    assert!(c.update_object(100.1));
    let [motion, vector] = c
        .apply_jump_pack(
            &from_hex("0000403f00000000000000400000b04000000100000000000100005000000000").unwrap(),
            100.1,
        )
        .unwrap();
    assert_eq!(
        to_hex(&motion),
        "4cf700000100005000000100000001000000000000000000"
    );
    assert_eq!(
        to_hex(&vector),
        "4ef700000100005000000000000000400000b04000000000000000000000000000000100"
    );
    assert!(c.update_object(100.15));
    assert!(close(c.origin(), [60.0, 60.1, 0.26275]));
    assert!(c.apply_jump_pack(&[0, 0, 64], 100.2).is_err());
}

#[test]
fn server_updates_follow_the_client_as_in_ace() {
    let mut c = player(60.0, 60.0);
    let sent = "0500000002000000050000451300647d0000704200007042000000000000803f000000000000000000000000000001000000000001000000";
    c.apply_move_to_state(&from_hex(sent).unwrap(), 100.0)
        .unwrap();
    assert!(c.update_object(100.1));
    assert!(c.update_object(100.2));
    assert!(close(c.origin(), [60.0, 60.533337, 0.0]));
    // The MoveToState's own position (60, 60) is the request.
    assert!(c.update_object_server(100.3, None, true));
    assert!(close(c.origin(), [60.0, 60.0, 0.0]));
    assert!(c.update_object_server(100.5, Some(at(60.0, 61.5)), true));
    assert!(close(c.origin(), [60.0, 61.5, 0.0]));
    assert!(c.update_object_server_new(100.7, Some(at(60.0, 62.4)), true));
    assert!(close(c.origin(), [60.0, 62.4, 0.0]));
    assert!(c.update_object_server_new(101.0, Some(at(60.5, 63.0)), false));
    assert!(close(c.origin(), [60.0, 63.600006, 0.0]));
    assert!(c.update_object(101.1));
    assert!(c.update_object(101.2));
    assert!(close(c.origin(), [60.0, 64.40001, 0.0]));
    assert_eq!(
        to_hex(&c.update_motion(true)),
        "4cf7000001000050000002000000010000003d00030000003d000700"
    );
}

#[test]
fn leaving_and_entering_the_world_as_in_ace() {
    let mut c = player(10.0, 20.0);
    c.do_motion(retroanim_ac::commands::WALK_FORWARD).unwrap();
    c.tick(0.1);
    c.tick(0.1);
    c.exit_world();
    c.tick(0.1);
    c.tick(0.1);
    // exit_world keeps it ticking (Q100).
    assert!(close(c.origin(), [10.0, 20.978, 0.0]));
    assert!(c.enter_world(c.position()));
    // (10, 20.978) lies in the first outdoor cell of the landblock.
    assert_eq!(c.position().cell, 0x7d64_0001);
    c.leave_world();
    assert!(!c.is_active());
    assert_eq!(c.position().cell, 0);
    c.tick(0.1);
    assert!(close(c.origin(), [10.0, 20.978, 0.0]));
    assert!(c.enter_world(at(30.0, 40.0)));
    assert_eq!(c.position().cell, 0x7d64_000a);
    assert!(c.is_active());
}
