//! The ABI's contract seen from a host: handles refused when null, stale or of another
//! kind; out-parameters checked; caller-owned arrays sized; errors carried in the last
//! error; and the typed calls driving each engine.

use retroanim_ffi::ac::*;
use retroanim_ffi::actor::*;
use retroanim_ffi::herc::*;
use retroanim_ffi::session::*;
use retroanim_ffi::{ra_last_error, ra_string_free, RaStatus};
use std::ffi::{c_char, CStr, CString};
use std::ptr;

fn root(rel: &str) -> CString {
    CString::new(format!("{}/../../{rel}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn last_error() -> String {
    // SAFETY: ra_last_error always returns a valid NUL-terminated string owned by the
    // library, alive until the next failing call on this thread.
    unsafe { CStr::from_ptr(ra_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn take(p: *mut c_char) -> String {
    // SAFETY: `p` came from a successful call's `char **` out-parameter.
    let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
    // SAFETY: freed exactly once, by the library that allocated it.
    unsafe { ra_string_free(p) };
    s
}

const WALK_FORWARD: u32 = 0x4500_0005;
const RUN_FORWARD: u32 = 0x4400_0007;
const HUMANOID_TABLE: u32 = 0x0900_0001;

fn ac_world() -> RaAcWorld {
    let mut w = 0;
    // SAFETY: a valid C string and a writable out-parameter.
    let s = unsafe { ra_ac_world_new_dir(root("assets/ac/records").as_ptr(), &mut w) };
    assert_eq!(s, RaStatus::Ok);
    w
}

#[test]
fn handle_zero_is_refused_as_null() {
    assert_eq!(ra_ac_world_tick(0, 1.0 / 30.0), RaStatus::BadHandle);
    assert!(last_error().contains("is 0 (null)"), "{}", last_error());
}

#[test]
fn freed_handle_is_refused_and_a_second_free_too() {
    let w = ac_world();
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
    assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::BadHandle);
    assert_eq!(ra_ac_world_free(w), RaStatus::BadHandle);
    // A new world reusing the slot gets another number; the old one stays dead.
    let w2 = ac_world();
    assert_ne!(w2, w);
    assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::BadHandle);
    assert_eq!(ra_ac_world_free(w2), RaStatus::Ok);
}

#[test]
fn handle_of_another_kind_is_refused() {
    let w = ac_world();
    assert_eq!(ra_herc_step_ms(w, 40), RaStatus::BadHandle);
    assert_eq!(ra_actor_update(w), RaStatus::BadHandle);
    assert_eq!(ra_session_free(w), RaStatus::BadHandle);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn free_of_handle_zero_does_nothing() {
    assert_eq!(ra_session_free(0), RaStatus::Ok);
    assert_eq!(ra_ac_world_free(0), RaStatus::Ok);
    assert_eq!(ra_herc_shape_free(0), RaStatus::Ok);
    assert_eq!(ra_actor_stage_free(0), RaStatus::Ok);
}

#[test]
fn null_out_parameter_is_refused_and_nothing_is_created() {
    // SAFETY: null is what is under test; the path is a valid C string.
    let s = unsafe { ra_ac_world_new_dir(root("assets/ac/records").as_ptr(), ptr::null_mut()) };
    assert_eq!(s, RaStatus::NullArgument);
    assert_eq!(last_error(), "out is null");
}

#[test]
fn ac_walk_then_hold_run_through_the_typed_calls() {
    let w = ac_world();
    let mut c = u32::MAX;
    // SAFETY: null desc means defaults; `c` is writable.
    let s = unsafe { ra_ac_world_add_creature(w, HUMANOID_TABLE, ptr::null(), &mut c) };
    assert_eq!(s, RaStatus::Ok);
    assert_eq!(c, 0);
    // SAFETY: null params means defaults.
    let s = unsafe { ra_ac_do_motion(w, c, WALK_FORWARD, ptr::null()) };
    assert_eq!(s, RaStatus::Ok);
    for _ in 0..30 {
        assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
    }
    let mut st = RaAcState::default();
    // SAFETY: `st` is writable.
    assert_eq!(unsafe { ra_ac_state(w, c, &mut st) }, RaStatus::Ok);
    assert_eq!(st.motion, WALK_FORWARD);
    assert_eq!(st.position.cell, 0x7d64_0013);
    // About 3.1 units a second along +Y.
    assert!(st.position.frame.origin.y > 2.0 && st.position.frame.origin.y < 4.0);
    assert_eq!(ra_ac_set_hold_run(w, c, 1), RaStatus::Ok);
    // SAFETY: `st` is writable.
    assert_eq!(unsafe { ra_ac_state(w, c, &mut st) }, RaStatus::Ok);
    assert_eq!(st.motion, RUN_FORWARD);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn ac_creature_past_the_end_is_an_invalid_argument() {
    let w = ac_world();
    assert_eq!(ra_ac_tick(w, 3, 1.0 / 30.0), RaStatus::InvalidArgument);
    assert_eq!(last_error(), "creature 3 does not exist (the world has 0)");
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn ac_nan_quantum_is_refused() {
    let w = ac_world();
    assert_eq!(ra_ac_world_tick(w, f64::NAN), RaStatus::InvalidArgument);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn positions_array_too_small_reports_the_count_and_writes_nothing() {
    let w = ac_world();
    for _ in 0..2 {
        // SAFETY: null desc and null out are both allowed here.
        let s =
            unsafe { ra_ac_world_add_creature(w, HUMANOID_TABLE, ptr::null(), ptr::null_mut()) };
        assert_eq!(s, RaStatus::Ok);
    }
    let mut one = [RaAcPosition::default(); 1];
    let mut n = 0usize;
    // SAFETY: `one` holds 1 writable entry, `n` is writable.
    let s = unsafe { ra_ac_world_positions(w, one.as_mut_ptr(), 1, &mut n) };
    assert_eq!(s, RaStatus::BufferTooSmall);
    assert_eq!(n, 2);
    assert_eq!(one[0], RaAcPosition::default());
    let mut two = [RaAcPosition::default(); 2];
    // SAFETY: `two` holds 2 writable entries.
    let s = unsafe { ra_ac_world_positions(w, two.as_mut_ptr(), 2, &mut n) };
    assert_eq!(s, RaStatus::Ok);
    assert_eq!(two[1].cell, 0x7d64_0013);
    assert_eq!(two[1].frame.orientation.w, 1.0);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn ac_missing_table_fails_the_add_naming_its_id() {
    let w = ac_world();
    // SAFETY: null desc and null out are allowed.
    let s = unsafe { ra_ac_world_add_creature(w, 0x0900_0777, ptr::null(), ptr::null_mut()) };
    assert_eq!(s, RaStatus::Load);
    assert!(
        last_error().to_lowercase().contains("9000777"),
        "{}",
        last_error()
    );
    let mut n = 9;
    // SAFETY: `n` is writable.
    let s = unsafe { ra_ac_world_creature_count(w, &mut n) };
    assert_eq!(s, RaStatus::Ok);
    assert_eq!(n, 0);
    assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
}

#[test]
fn herc_walk_moves_the_machine_and_poses_every_part() {
    let mut h = 0;
    // SAFETY: valid C string, writable out.
    let s = unsafe { ra_herc_shape_new_json_file(root("assets/herc/biped.json").as_ptr(), &mut h) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    let (mut idle, mut walk, mut t) = (-1i16, -1i16, u32::MAX);
    // SAFETY: valid C strings, writable outs.
    unsafe {
        assert_eq!(
            ra_herc_sequence_named(h, c"idle".as_ptr(), &mut idle),
            RaStatus::Ok
        );
        assert_eq!(
            ra_herc_sequence_named(h, c"walk".as_ptr(), &mut walk),
            RaStatus::Ok
        );
        assert_eq!(ra_herc_add_thread(h, idle, &mut t), RaStatus::Ok);
    }
    assert_eq!(t, 0);
    assert_eq!(ra_herc_request(h, t, walk, -1, 0), RaStatus::Ok);
    for _ in 0..25 {
        assert_eq!(ra_herc_step_ms(h, 40), RaStatus::Ok);
    }
    let mut o = RaHercObject::default();
    // SAFETY: `o` is writable.
    assert_eq!(unsafe { ra_herc_object(h, &mut o) }, RaStatus::Ok);
    assert!(o.position[1] > 0);
    let mut n = 0usize;
    // SAFETY: cap 0 with a null array is the sizing call.
    let s = unsafe { ra_herc_part_matrices(h, ptr::null_mut(), 0, &mut n) };
    assert_eq!(s, RaStatus::BufferTooSmall);
    let mut m = vec![RaHercMatrix::default(); n];
    // SAFETY: `m` holds `n` writable entries.
    let s = unsafe { ra_herc_part_matrices(h, m.as_mut_ptr(), n, &mut n) };
    assert_eq!(s, RaStatus::Ok);
    // Every rotation row of a pose is a Q14 unit vector (16384 = 1.0), give or take
    // rounding: no part is left all zero.
    assert!(m.iter().all(|x| x.m.iter().any(|v| *v != 0)));
    assert_eq!(ra_herc_drop_request(h, t), RaStatus::Ok);
    assert_eq!(ra_herc_drop_request(h, 7), RaStatus::Refused);
    assert_eq!(ra_herc_step_ms(h, -1), RaStatus::Refused);
    assert_eq!(ra_herc_shape_free(h), RaStatus::Ok);
}

#[test]
fn actor_forced_wave_plays_group_one() {
    let mut st = 0;
    let mut opts = RaActorOptions {
        view: [0, 0],
        frame_scale: 0,
        scripts: 0,
    };
    // SAFETY: writable out, valid C string, valid options.
    unsafe {
        assert_eq!(ra_actor_options_default(&mut opts), RaStatus::Ok);
        opts.view = [2660, 2860];
        let s = ra_actor_stage_new_file(root("assets/actor/flag2.json").as_ptr(), &opts, &mut st);
        assert_eq!(s, RaStatus::Ok, "{}", last_error());
        let mut outcome = RaActorOutcome::Kept;
        assert_eq!(
            ra_actor_force_request(st, c"flag_a".as_ptr(), 1, 0, &mut outcome),
            RaStatus::Ok
        );
        assert_eq!(outcome, RaActorOutcome::Accepted);
        assert_eq!(
            ra_actor_request(st, c"nobody".as_ptr(), 1, 0, ptr::null_mut()),
            RaStatus::Refused
        );
        assert_eq!(last_error(), "no actor 'nobody'");
    }
    for _ in 0..4 {
        assert_eq!(ra_actor_update(st), RaStatus::Ok);
    }
    let mut f = RaActorFrame::default();
    // SAFETY: valid C string, writable out.
    let s = unsafe { ra_actor_frame(st, c"flag_a".as_ptr(), &mut f) };
    assert_eq!(s, RaStatus::Ok);
    assert_eq!(f.group, 1);
    assert_eq!(f.has_frame, 1);
    assert_eq!(ra_actor_stage_free(st), RaStatus::Ok);
}

#[test]
fn session_step_errors_name_the_json_path_and_keep_the_session() {
    let mut s = 0;
    // SAFETY: valid C string, writable out.
    let st = unsafe {
        ra_session_open(
            root("assets/ac/scenarios/walk_to_run.json").as_ptr(),
            &mut s,
        )
    };
    assert_eq!(st, RaStatus::Ok, "{}", last_error());
    let mut line = ptr::null_mut();
    let bad = br#"{"op":"fly"}"#;
    // SAFETY: `bad` is readable for its length, `line` writable.
    let st = unsafe { ra_session_apply_json(s, bad.as_ptr(), bad.len(), &mut line) };
    assert_eq!(st, RaStatus::Refused);
    assert!(last_error().contains("steps[0]"), "{}", last_error());
    assert!(line.is_null(), "nothing written on failure");
    let tick = br#"{"op":"tick","dt":0.03333333333333333}"#;
    // SAFETY: as above.
    let st = unsafe { ra_session_apply_json(s, tick.as_ptr(), tick.len(), &mut line) };
    assert_eq!(st, RaStatus::Ok);
    let text = take(line);
    assert!(
        text.starts_with(r#"{"step":1,"op":"tick","result":"None""#),
        "{text}"
    );
    let mut engine = ptr::null_mut();
    // SAFETY: writable out.
    assert_eq!(unsafe { ra_session_engine(s, &mut engine) }, RaStatus::Ok);
    assert_eq!(take(engine), "ac");
    assert_eq!(ra_session_free(s), RaStatus::Ok);
}

#[test]
fn session_from_missing_file_is_a_load_error_naming_it() {
    let mut s = 0;
    // SAFETY: valid C string, writable out.
    let st = unsafe { ra_session_open(c"/nonexistent/x.json".as_ptr(), &mut s) };
    assert_eq!(st, RaStatus::Load);
    assert!(
        last_error().contains("/nonexistent/x.json"),
        "{}",
        last_error()
    );
    assert_eq!(s, 0);
}
