//! The jump and message calls of the C ABI: a creature's `MovementData` written by one
//! creature and applied to another makes the second move as the first, client
//! `MoveToState` and `JumpPack` bytes drive a creature, and bad bytes are refused with
//! the byte offset named.

mod support;
use support::{ac_state as state, ac_world as world, add_creature, creature_desc, last_error};

use retroanim_ffi::ac::*;
use retroanim_ffi::{ra_last_error_code, RaStatus};
use std::ptr;

const WALK_FORWARD: u32 = 0x4500_0005;
const NON_COMBAT: u32 = 0x8000_003D;

fn add(w: RaAcWorld, x: f32) -> u32 {
    let mut d = creature_desc();
    d.frame.origin.x = x;
    add_creature(w, &d)
}

type Writer = unsafe extern "C" fn(RaAcWorld, u32, u8, *mut u8, usize, *mut usize) -> RaStatus;

/// A message sized with a first call of capacity 0, then written.
fn message(write: Writer, w: RaAcWorld, c: u32) -> Vec<u8> {
    let mut n = usize::MAX;
    // SAFETY: `n` is writable; a null buffer with capacity 0.
    let s = unsafe { write(w, c, 0, ptr::null_mut(), 0, &mut n) };
    assert_eq!(s, RaStatus::BufferTooSmall);
    let mut buf = vec![0u8; n];
    let mut m = 0;
    // SAFETY: `buf` has `n` writable bytes and `m` is writable.
    let s = unsafe { write(w, c, 0, buf.as_mut_ptr(), buf.len(), &mut m) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    assert_eq!(m, n);
    buf
}

fn apply(
    f: unsafe extern "C" fn(RaAcWorld, u32, *const u8, usize) -> RaStatus,
    w: RaAcWorld,
    c: u32,
    bytes: &[u8],
) -> RaStatus {
    // SAFETY: `bytes` has `len` readable bytes.
    unsafe { f(w, c, bytes.as_ptr(), bytes.len()) }
}

#[test]
fn movement_data_of_a_walker_makes_its_remote_copy_walk() {
    let w = world();
    let a = add(w, 0.0);
    let b = add(w, 10.0);
    // SAFETY: null params mean the defaults.
    let s = unsafe { ra_ac_do_motion(w, a, WALK_FORWARD, ptr::null()) };
    assert_eq!(s, RaStatus::Ok);
    assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
    let bytes = message(ra_ac_movement_data, w, a);
    assert_eq!(
        apply(ra_ac_apply_movement_data, w, b, &bytes),
        RaStatus::Ok,
        "{}",
        last_error()
    );
    for _ in 0..30 {
        assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
    }
    let (sa, sb) = (state(w, a), state(w, b));
    assert_eq!((sb.style, sb.motion), (NON_COMBAT, WALK_FORWARD));
    assert_eq!((sa.style, sa.motion), (sb.style, sb.motion));
    // Both walk along +y at the same speed from x 0 and x 10.
    assert!(sb.velocity.y > 0.0, "{:?}", sb.velocity);
    assert_eq!(sa.velocity, sb.velocity);
    assert_eq!(sb.position.frame.origin.x, 10.0);
    // B now broadcasts what A does.
    assert_eq!(message(ra_ac_movement_data, w, b), bytes);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn update_motion_carries_the_opcode_the_id_and_a_movement_sequence_moving_on_per_message() {
    let w = world();
    let a = add(w, 0.0);
    let first = message(ra_ac_update_motion, w, a);
    let second = message(ra_ac_update_motion, w, a);
    assert_eq!(&first[0..4], &[0x4c, 0xf7, 0, 0]);
    // Object id 1 (index 0 + 1), instance sequence 0.
    assert_eq!(&first[4..10], &[1, 0, 0, 0, 0, 0]);
    // The size queries did not count: movement sequence 1, then 2.
    assert_eq!(&first[10..12], &[1, 0]);
    assert_eq!(&second[10..12], &[2, 0]);
    let body = message(ra_ac_movement_data, w, a);
    assert_eq!(&first[16..], &body[..]);
    let mut n = 7;
    // SAFETY: `n` is writable; a null buffer with capacity 0.
    let s = unsafe { ra_ac_update_motion(w, a, 2, ptr::null_mut(), 0, &mut n) };
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(last_error(), "autonomous: 2 (expected 0 or 1)");
    assert_eq!(n, 7);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn truncated_or_malformed_bytes_name_the_offset_and_change_nothing() {
    let w = world();
    let a = add(w, 0.0);
    let s = apply(ra_ac_apply_movement_data, w, a, &[0, 0]);
    assert_eq!(s, RaStatus::InvalidArgument);
    assert!(
        last_error().starts_with("MovementData: "),
        "{}",
        last_error()
    );
    assert!(last_error().contains("byte offset"), "{}", last_error());
    let s = apply(ra_ac_apply_jump_pack, w, a, &[0; 10]);
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "JumpPack: truncated at byte offset 8: 4 more byte(s) needed, the input has 10"
    );
    let s = apply(ra_ac_apply_move_to_state, w, a, &[4, 0, 0, 0, 5, 0]);
    assert_eq!(s, RaStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "MoveToState: truncated at byte offset 4: 4 more byte(s) needed, the input has 6"
    );
    let mut nan = [0u8; 24];
    nan[12..16].copy_from_slice(&f32::NAN.to_le_bytes());
    assert_eq!(
        apply(ra_ac_apply_jump_pack, w, a, &nan),
        RaStatus::InvalidArgument
    );
    assert_eq!(
        last_error(),
        "JumpPack: byte offset 12: the velocity is NaN or infinite"
    );
    // SAFETY: a null pointer with a non-zero length is refused before any read.
    let s = unsafe { ra_ac_apply_jump_pack(w, a, ptr::null(), 24) };
    assert_eq!(s, RaStatus::NullArgument);
    let st = state(w, a);
    assert_eq!((st.motion, st.velocity), (0x4100_0003, RaVec3::default()));
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn move_to_state_bytes_make_the_creature_walk() {
    let w = world();
    let a = add(w, 0.0);
    // Raw state with only a forward command (flag 0x4), then cell, origin, orientation
    // (w x y z), four sequences and the contact byte, padded to 4.
    let mut m = Vec::new();
    m.extend(4u32.to_le_bytes());
    m.extend(WALK_FORWARD.to_le_bytes());
    m.extend(0xA9B4_0001u32.to_le_bytes());
    for v in [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0] {
        m.extend(v.to_le_bytes());
    }
    m.extend([0; 8]);
    m.extend([1, 0, 0, 0]);
    assert_eq!(m.len(), 52);
    assert_eq!(
        apply(ra_ac_apply_move_to_state, w, a, &m),
        RaStatus::Ok,
        "{}",
        last_error()
    );
    for _ in 0..30 {
        assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
    }
    let s = state(w, a);
    assert_eq!(s.motion, WALK_FORWARD);
    assert!(s.position.frame.origin.y > 0.0, "{:?}", s.position);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn client_jump_is_refused_and_server_jump_launches_upwards() {
    let w = world();
    let a = add(w, 0.0);
    assert_eq!(ra_ac_charge_jump(w, a), RaStatus::Ok);
    // SAFETY: a null velocity is the client path.
    let s = unsafe { ra_ac_jump(w, a, 0.5, ptr::null()) };
    // The weenie's jump stamina cost is 0: GeneralMovementFailure.
    assert_eq!(s, RaStatus::Refused);
    assert_eq!(ra_last_error_code(), 0x47);
    let v = RaVec3 {
        x: 0.0,
        y: 0.0,
        z: 5.0,
    };
    // SAFETY: `v` is valid.
    assert_eq!(unsafe { ra_ac_jump(w, a, 0.5, &v) }, RaStatus::Ok);
    assert_eq!(ra_ac_world_tick(w, 0.1), RaStatus::Ok);
    let s = state(w, a);
    // 5 - 9.8 * 0.1 = 4.02 up after one tenth of a second.
    assert!(s.velocity.z > 4.0 && s.velocity.z < 5.0, "{:?}", s.velocity);
    assert!(s.position.frame.origin.z > 0.0, "{:?}", s.position);

    // The same launch from a JumpPack: extent, velocity, four sequences.
    let b = add(w, 10.0);
    let mut p = Vec::new();
    for f in [0.5f32, 0.0, 0.0, 5.0] {
        p.extend(f.to_le_bytes());
    }
    p.extend([0; 8]);
    assert_eq!(
        apply(ra_ac_apply_jump_pack, w, b, &p),
        RaStatus::Ok,
        "{}",
        last_error()
    );
    assert_eq!(ra_ac_tick(w, b, 0.1), RaStatus::Ok);
    assert_eq!(state(w, b).velocity, state(w, a).velocity);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn world_calls_hide_scale_leave_and_enter() {
    let w = world();
    let a = add(w, 0.0);
    assert_eq!(ra_ac_set_hidden(w, a, 1), RaStatus::Ok);
    assert_eq!(ra_ac_set_hidden(w, a, 2), RaStatus::InvalidArgument);
    assert_eq!(ra_ac_set_scale(w, a, 0.0), RaStatus::InvalidArgument);
    assert_eq!(ra_ac_set_scale(w, a, 2.0), RaStatus::Ok);
    assert_eq!(ra_ac_exit_world(w, a), RaStatus::Ok);
    assert_eq!(ra_ac_leave_world(w, a), RaStatus::Ok);
    let s = state(w, a);
    assert_eq!((s.position.cell, s.active), (0, 0));
    let mut p = RaAcPosition {
        cell: 0xA9B4_0001,
        ..Default::default()
    };
    p.frame.orientation.w = 1.0;
    p.frame.origin.x = 3.0;
    // SAFETY: `p` is valid.
    assert_eq!(unsafe { ra_ac_enter_world(w, a, &p) }, RaStatus::Ok);
    let s = state(w, a);
    assert_eq!(s.active, 1);
    assert_eq!(s.position.frame.origin.x, 3.0);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}
