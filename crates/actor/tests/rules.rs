//! One test per rule A1–A40 and decision D1–D3 (stated in docs/actor.md). Every expected value was
//! computed by hand from the rule and the fixture table in `common/mod.rs`.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod common;

use common::*;
use retroanim_actor::arbitration::Outcome;
use retroanim_actor::error::FaultKind;
use retroanim_actor::load::load_set;
use retroanim_actor::ragr::Cmd;
use retroanim_actor::resources::ScriptCmd;
use retroanim_actor::state::{Phase, Task, Translation};
use retroanim_actor::timing::Timing;
use retroanim_actor::world::{membership, window_origin, Why};
use retroanim_actor::Actor;
use serde_json::json;

// ---------------------------------------------------------------- frames (A1–A3)

#[test]
fn a01_show_frame_reference_indexes_the_concatenated_raan_table() {
    let doc = json!({"map": {"width": 18, "height": 18},
        "models": [{"name": "x", "raan": [{"model": 40, "frames": 4}, {"model": 41, "frames": 0},
                                          {"model": 7, "frames": 3}],
                    "groups": [{"group": 0, "header": 1, "commands": [
                        {"op": "show_frame", "ref": 0}, {"op": "show_frame", "ref": 3},
                        {"op": "show_frame", "ref": 4}, {"op": "show_frame", "ref": 6},
                        {"op": "end_animation"}]}]}],
        "actors": []});
    let set = load_set(&doc).unwrap();
    // Entry 41 has no frames, so reference 4 is the first frame of model 7.
    assert_eq!(
        set.models[0].cmds(),
        vec![
            Cmd::ShowFrame {
                handle: 40,
                index: 0
            },
            Cmd::ShowFrame {
                handle: 40,
                index: 3
            },
            Cmd::ShowFrame {
                handle: 7,
                index: 0
            },
            Cmd::ShowFrame {
                handle: 7,
                index: 2
            },
            Cmd::EndAnimation
        ]
    );
}

#[test]
fn a02_reference_is_patched_into_a_ten_bit_pair_at_load() {
    let w = one();
    // Group 1 of model m is `show 4, end`: reference 4 = model 4, frame 2.
    let m = &w.models[0];
    let g = m.group(1).unwrap();
    assert_eq!(
        m.commands(g)[0],
        Cmd::ShowFrame {
            handle: 4,
            index: 2
        }
    );
    let doc = json!({"map": {"width": 18, "height": 18},
        "models": [{"name": "big", "raan": [{"model": 1024, "frames": 1}],
                    "groups": [{"group": 3, "header": 1, "commands": [
                        {"op": "show_frame", "ref": 0}, {"op": "end_animation"}]}]}],
        "actors": []});
    let f = load_set(&doc).unwrap_err();
    assert_eq!(f.kind, FaultKind::FieldOverflow);
    assert_eq!(
        (f.model.as_deref(), f.group, f.command),
        (Some("big"), Some(3), Some(0))
    );
}

#[test]
fn a03_selected_pair_is_the_pose_without_interpolation() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    assert_eq!(anim(&w, 0).frame, Some([4, 0]));
    anim_mut(&mut w, 0).countdown = 0;
    ticks(&mut w, 1);
    adv(&mut w, 0);
    // The next frame replaces the pose outright: (model 4, frame index 1).
    assert_eq!(anim(&w, 0).frame, Some([4, 1]));
    assert_eq!(anim(&w, 0).cursor, 2);
}

// ------------------------------------------------- groups, requests, default (A4–A13)

#[test]
fn a04_one_pending_request_no_queue() {
    let mut w = one();
    assert_eq!(req(&mut w, 0, 5, 0), Outcome::Accepted);
    assert_eq!(anim(&w, 0).current, Some(5));
    assert_eq!(req(&mut w, 0, 7, 0), Outcome::Accepted);
    assert_eq!(req(&mut w, 0, 9, 0), Outcome::Accepted);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.pending, a.pending_countdown),
        (Some(5), Some(9), Some(254))
    );
    assert_eq!(a.default, 0);
}

#[test]
fn a05_requesting_the_current_default_returns_without_restart() {
    let mut w = one();
    ticks(&mut w, 1);
    adv(&mut w, 0);
    assert_eq!(anim(&w, 0).countdown, 1);
    assert_eq!(req(&mut w, 0, 0, 9), Outcome::Unchanged);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.cursor, a.countdown, a.reload),
        (Some(0), 0, 1, 2)
    );
    assert_eq!(a.pending, None);
}

#[test]
fn a06_another_group_clears_the_current_default_and_starts_at_once() {
    let mut w = one();
    assert_eq!(req(&mut w, 0, 5, 0), Outcome::Accepted);
    let a = anim(&w, 0);
    assert_eq!((a.current, a.pending), (Some(5), None));
    assert_eq!((a.cursor, a.countdown, a.breakpoint), (1, 3, true));
    assert_eq!(a.frame, Some([4, 0]));
}

#[test]
fn a07_request_replaces_pending_in_the_listed_cases() {
    // no pending group
    let mut w = one();
    req(&mut w, 0, 5, 0);
    assert_eq!(req(&mut w, 0, 1, 0), Outcome::Accepted);
    assert_eq!(anim(&w, 0).pending, Some(1));
    // pending number <= requested number (equal, then greater)
    assert_eq!(req(&mut w, 0, 1, 0), Outcome::Accepted);
    assert_eq!(req(&mut w, 0, 7, 0), Outcome::Accepted);
    assert_eq!(anim(&w, 0).pending, Some(7));
    // pending group == current group
    let mut w = one();
    req(&mut w, 0, 5, 0);
    assert_eq!(req(&mut w, 0, 5, 0), Outcome::Accepted);
    assert_eq!(anim(&w, 0).pending, Some(5));
    assert_eq!(req(&mut w, 0, 1, 0), Outcome::Accepted);
    assert_eq!(anim(&w, 0).pending, Some(1));
    // no current group: model nodef never started anything (no group 0)
    let mut w = world(
        json!([{"id": "b", "pos": [0, 0], "activation": 1, "model": "nodef"}]),
        json!([]),
    );
    assert_eq!(anim(&w, 0).current, None);
    assert_eq!(req(&mut w, 0, 5, 0), Outcome::Accepted);
    assert_eq!(anim(&w, 0).current, Some(5));
}

#[test]
fn a08_lower_number_cannot_replace_higher_pending() {
    let mut w = one();
    req(&mut w, 0, 5, 0);
    req(&mut w, 0, 9, 0);
    assert_eq!(req(&mut w, 0, 7, 0), Outcome::Refused);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.pending, a.pending_countdown),
        (Some(5), Some(9), Some(254))
    );
}

#[test]
fn a09_missing_group_falls_back_to_default_or_clears_pending() {
    let mut w = one();
    req(&mut w, 0, 5, 0);
    assert_eq!(req(&mut w, 0, 3, 0), Outcome::Accepted);
    let a = anim(&w, 0);
    assert_eq!((a.pending, a.pending_countdown), (Some(0), Some(2)));
    // Model nodef has neither group 3 nor its default group 0.
    let mut w = world(
        json!([{"id": "b", "pos": [0, 0], "activation": 1, "model": "nodef"}]),
        json!([]),
    );
    req(&mut w, 0, 5, 0);
    req(&mut w, 0, 5, 0);
    assert_eq!(anim(&w, 0).pending, Some(5));
    assert_eq!(req(&mut w, 0, 3, 0), Outcome::Cleared);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.pending, a.pending_countdown),
        (Some(5), None, None)
    );
}

#[test]
fn a10_countdown_is_header_low_byte_plus_modifier_wrapping() {
    let mut w = one();
    req(&mut w, 0, 5, 0);
    req(&mut w, 0, 9, 3); // 254 + 3 = 257 -> 1
    assert_eq!(anim(&w, 0).pending_countdown, Some(1));
    req(&mut w, 0, 9, 1); // 254 + 1 = 255
    assert_eq!(anim(&w, 0).pending_countdown, Some(255));
    req(&mut w, 0, 9, 2); // 256 -> 0
    assert_eq!(anim(&w, 0).pending_countdown, Some(0));
}

#[test]
fn a11_request_without_current_advances_with_the_existing_ticks() {
    let mut w = one();
    ticks(&mut w, 1);
    req(&mut w, 0, 5, 0);
    let a = anim(&w, 0);
    // Started with 3, the existing tick takes one: 2. No new tick was made.
    assert_eq!(
        (a.current, a.countdown, a.cursor, a.breakpoint),
        (Some(5), 2, 1, true)
    );
    assert_eq!((w.timing.acc, w.timing.ticks, w.timing.warmup), (0, 1, 12));
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    assert_eq!(anim(&w, 0).countdown, 3);
}

#[test]
fn a12_advancement_without_current_or_pending_requests_the_default() {
    let mut w = one();
    {
        let a = anim_mut(&mut w, 0);
        a.current = None;
        a.frame = None;
        a.cursor = 3;
        a.countdown = 77;
    }
    ticks(&mut w, 0);
    adv(&mut w, 0);
    let a = anim(&w, 0);
    assert_eq!((a.current, a.pending, a.cursor), (Some(0), None, 0));
    assert_eq!((a.countdown, a.reload, a.frame), (2, 2, Some([3, 0])));
}

#[test]
fn a13_end_animation_lets_pending_start_in_the_same_advancement() {
    let mut w = one();
    ticks(&mut w, 1);
    req(&mut w, 0, 1, 0); // group 1: start 1, minus the tick = 0
    assert_eq!((anim(&w, 0).current, anim(&w, 0).countdown), (Some(1), 0));
    assert_eq!(anim(&w, 0).frame, Some([4, 2]));
    assert_eq!(req(&mut w, 0, 5, 0), Outcome::Accepted);
    assert_eq!(anim(&w, 0).pending, Some(5));
    adv(&mut w, 0);
    let a = anim(&w, 0);
    assert_eq!((a.current, a.pending), (Some(5), None));
    assert_eq!(
        (a.cursor, a.countdown, a.reload, a.breakpoint),
        (1, 2, 3, true)
    );
    assert_eq!(a.frame, Some([4, 0]));
    // End is not a stop: with nothing pending the default starts.
    let mut w = one();
    ticks(&mut w, 1);
    req(&mut w, 0, 1, 0);
    adv(&mut w, 0);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.cursor, a.countdown, a.frame),
        (Some(0), 0, 1, Some([3, 0]))
    );
}

// ------------------------------------------------------------ forced (A14–A16)

#[test]
fn a14_forced_current_before_exit_only_clears_pending() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    req(&mut w, 0, 9, 0);
    anim_mut(&mut w, 0).loop_count = 3;
    assert_eq!(force(&mut w, 0, 5, 7), Outcome::Kept);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.pending, a.pending_countdown),
        (Some(5), None, None)
    );
    assert_eq!(
        (a.cursor, a.countdown, a.loop_count, a.breakpoint),
        (1, 3, 3, true)
    );
}

#[test]
fn a15_forced_otherwise_restarts_without_pending_priority() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    req(&mut w, 0, 9, 0);
    // 1 < pending 9, yet the forced request replaces it and starts at once.
    assert_eq!(force(&mut w, 0, 1, 0), Outcome::Accepted);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.pending, a.cursor, a.countdown),
        (Some(1), None, 0, 1)
    );
    assert_eq!(a.frame, Some([4, 2]));
    // Same group after its exit marker: restart with the modifier.
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    {
        let a = anim_mut(&mut w, 0);
        a.exit = true;
        a.loop_count = 6;
        a.cursor = 4;
    }
    assert_eq!(force(&mut w, 0, 5, 1), Outcome::Accepted);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.cursor, a.countdown, a.reload),
        (Some(5), 1, 4, 4)
    );
    assert_eq!((a.loop_count, a.exit, a.breakpoint), (0, false, true));
    // A missing group falls back to the default with the same modifier addition.
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    assert_eq!(force(&mut w, 0, 3, 5), Outcome::Accepted);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.countdown, a.reload, a.frame),
        (Some(0), 7, 7, Some([3, 0]))
    );
}

#[test]
fn a16_ineligible_actors_reject_requests_and_advancement() {
    let mut w = world(
        json!([
            {"id": "a", "pos": [1000, 1000], "activation": 1, "model": "m"},
            {"id": "s", "pos": [1000, 1000], "activation": 1, "model": "m", "static_model": true},
            {"id": "n", "pos": [1000, 1000], "activation": 1}
        ]),
        json!([]),
    );
    let fresh = retroanim_actor::Anim::new();
    assert_eq!(w.actors()[1].anim, Some(fresh)); // placement was rejected too
    assert_eq!(req(&mut w, 1, 5, 0), Outcome::Rejected);
    assert_eq!(force(&mut w, 1, 5, 0), Outcome::Rejected);
    adv(&mut w, 1);
    assert_eq!(w.actors()[1].anim, Some(fresh));
    assert_eq!(w.actors()[2].anim, None);
    assert_eq!(req(&mut w, 2, 5, 0), Outcome::Rejected);
    w.switches.animation = false;
    assert_eq!(req(&mut w, 0, 5, 0), Outcome::Rejected);
    assert_eq!(force(&mut w, 0, 5, 0), Outcome::Rejected);
    update(&mut w);
    let a = anim(&w, 0);
    assert_eq!((a.current, a.countdown, w.timing.ticks), (Some(0), 2, 1));
}

// ------------------------------------------------------ forward playback (A17–A24)

#[test]
fn a17_new_group_starts_at_cursor_zero_with_low_byte_plus_modifier() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 9, 1);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.cursor, a.countdown, a.reload),
        (Some(9), 0, 255, 255)
    );
    assert_eq!(a.frame, Some([4, 1]));
}

#[test]
fn a18_zero_ticks_move_nothing_but_control_commands_still_run() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    for _ in 0..3 {
        adv(&mut w, 0);
    }
    let a = anim(&w, 0);
    assert_eq!((a.cursor, a.countdown, a.breakpoint), (1, 3, true));
    {
        let a = anim_mut(&mut w, 0);
        a.cursor = 3; // go_to_previous 1
        a.frame = None;
    }
    adv(&mut w, 0);
    let a = anim(&w, 0);
    assert_eq!((a.cursor, a.countdown, a.frame), (1, 3, Some([4, 0])));
}

#[test]
fn a19_expired_countdown_advances_cursor_reloads_and_turns_ticks_into_skips() {
    let mut w = one();
    anim_mut(&mut w, 0).countdown = 0;
    ticks(&mut w, 3);
    adv(&mut w, 0);
    // cursor 0->1, reload 2, skip 2, decrement to 1; show 1 skipped, gtp 0 jumps,
    // show 0 skipped, show 1 selected.
    let a = anim(&w, 0);
    assert_eq!(
        (a.cursor, a.countdown, a.skip, a.frame),
        (1, 1, 0, Some([3, 1]))
    );
}

#[test]
fn a20_nonzero_countdown_decrements_once_whatever_the_ticks() {
    let mut w = one();
    ticks(&mut w, 5);
    adv(&mut w, 0);
    let a = anim(&w, 0);
    assert_eq!(
        (a.cursor, a.countdown, a.skip, a.frame),
        (0, 1, 0, Some([3, 0]))
    );
}

#[test]
fn a21_control_commands_do_not_consume_skips() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    anim_mut(&mut w, 0).countdown = 0;
    ticks(&mut w, 3);
    adv(&mut w, 0);
    // cursor 2 (show 3) skipped, gtp 1 jumps for free, show 2 skipped, show 3 selected.
    let a = anim(&w, 0);
    assert_eq!(
        (a.cursor, a.skip, a.countdown, a.frame),
        (2, 0, 2, Some([4, 1]))
    );
}

#[test]
fn a22_go_to_previous_counts_the_finite_loop_down() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    ticks(&mut w, 1);
    let at_show3 = |w: &mut retroanim_actor::World, loop_count: u8| {
        let a = anim_mut(w, 0);
        a.cursor = 2;
        a.countdown = 0;
        a.loop_count = loop_count;
    };
    at_show3(&mut w, 2);
    adv(&mut w, 0); // 2 -> 1, nonzero: jump
    let a = anim(&w, 0);
    assert_eq!((a.cursor, a.loop_count, a.frame), (1, 1, Some([4, 0])));
    at_show3(&mut w, 1);
    adv(&mut w, 0); // 1 -> 0: continue after the command
    let a = anim(&w, 0);
    assert_eq!((a.cursor, a.loop_count, a.frame), (4, 0, Some([4, 2])));
    at_show3(&mut w, 0);
    adv(&mut w, 0); // zero: jump without decrementing
    let a = anim(&w, 0);
    assert_eq!((a.cursor, a.loop_count, a.frame), (1, 0, Some([4, 0])));
}

#[test]
fn a23_go_to_future_jumps_on_pending_or_exit_only_without_loop_count() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 7, 0);
    ticks(&mut w, 1);
    let at_show0 = |w: &mut retroanim_actor::World, loop_count: u8| {
        let a = anim_mut(w, 0);
        a.cursor = 0;
        a.countdown = 0;
        a.loop_count = loop_count;
    };
    at_show0(&mut w, 0);
    adv(&mut w, 0); // nothing pending, no exit: continue
    assert_eq!((anim(&w, 0).cursor, anim(&w, 0).frame), (2, Some([3, 1])));
    req(&mut w, 0, 9, 0);
    at_show0(&mut w, 0);
    adv(&mut w, 0); // pending transition: take the target
    assert_eq!((anim(&w, 0).cursor, anim(&w, 0).frame), (3, Some([4, 0])));
    at_show0(&mut w, 1);
    adv(&mut w, 0); // finite loop count: continue past itself
    assert_eq!((anim(&w, 0).cursor, anim(&w, 0).frame), (2, Some([3, 1])));
    assert_eq!(force(&mut w, 0, 7, 0), Outcome::Kept); // clears the pending 9
    anim_mut(&mut w, 0).exit = true;
    at_show0(&mut w, 0);
    adv(&mut w, 0); // exit flag: take the target
    assert_eq!((anim(&w, 0).cursor, anim(&w, 0).frame), (3, Some([4, 0])));
}

#[test]
fn a24_header_low_byte_is_the_frame_countdown_not_an_id_nor_the_loop() {
    let mut w = one();
    // Group 0's header is 0x0102: the countdown is 2, the high byte plays no part.
    assert_eq!(anim(&w, 0).countdown, 2);
    anim_mut(&mut w, 0).loop_count = 9;
    ticks(&mut w, 1);
    adv(&mut w, 0);
    assert_eq!((anim(&w, 0).countdown, anim(&w, 0).loop_count), (1, 9));
    ticks(&mut w, 0);
    req(&mut w, 0, 9, 0); // header 0x01FE
    assert_eq!((anim(&w, 0).countdown, anim(&w, 0).current), (254, Some(9)));
}

// ------------------------------------------------ breakpoints and walking (A25–A27)

#[test]
fn a25_break_point_sets_the_marker_and_keeps_interpreting() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    let a = anim(&w, 0);
    assert_eq!((a.breakpoint, a.cursor, a.frame), (true, 1, Some([4, 0])));
}

#[test]
fn a26_marker_cleared_when_the_expired_countdown_moves_the_cursor() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    ticks(&mut w, 1);
    for want in [2u8, 1, 0] {
        adv(&mut w, 0); // a decrement that keeps the cursor keeps the marker
        assert_eq!(
            (anim(&w, 0).countdown, anim(&w, 0).breakpoint),
            (want, true)
        );
    }
    adv(&mut w, 0);
    assert_eq!((anim(&w, 0).cursor, anim(&w, 0).breakpoint), (2, false));
}

#[test]
fn a26_marker_survives_zero_tick_updates() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    adv(&mut w, 0);
    adv(&mut w, 0);
    assert!(anim(&w, 0).breakpoint);
}

#[test]
fn a26_skipped_show_frame_clears_and_a_later_break_point_sets_again() {
    // Group 13: show 0, break, show 1, show 2, end (low byte 1).
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 13, 0);
    anim_mut(&mut w, 0).countdown = 0;
    ticks(&mut w, 1);
    adv(&mut w, 0); // expiry clears, break sets again, show 1 selected
    assert_eq!(
        (anim(&w, 0).breakpoint, anim(&w, 0).frame),
        (true, Some([3, 1]))
    );
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 13, 0);
    anim_mut(&mut w, 0).countdown = 0;
    ticks(&mut w, 2);
    adv(&mut w, 0); // break sets, skipping show 1 clears, show 2 selected
    let a = anim(&w, 0);
    assert_eq!((a.breakpoint, a.cursor, a.frame), (false, 3, Some([4, 0])));
}

#[test]
fn a26_taken_jumps_clear_the_marker() {
    // Group 15: show 0, break, gtp 0, end — the backward jump clears.
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 15, 0);
    anim_mut(&mut w, 0).countdown = 0;
    ticks(&mut w, 1);
    adv(&mut w, 0);
    assert_eq!((anim(&w, 0).breakpoint, anim(&w, 0).cursor), (false, 0));
    // Group 16: show 0, break, gtf 3, show 1, end — same frame either way; only the
    // taken exit jump clears.
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 16, 0);
    anim_mut(&mut w, 0).countdown = 0;
    ticks(&mut w, 1);
    adv(&mut w, 0);
    assert_eq!(
        (anim(&w, 0).breakpoint, anim(&w, 0).frame),
        (true, Some([3, 1]))
    );
    req(&mut w, 0, 20, 0); // pending (falls back to group 0)
    {
        let a = anim_mut(&mut w, 0);
        a.cursor = 0;
        a.countdown = 0;
    }
    adv(&mut w, 0);
    assert_eq!(
        (anim(&w, 0).breakpoint, anim(&w, 0).frame),
        (false, Some([3, 1]))
    );
}

#[test]
fn a26_selecting_a_new_group_clears_the_marker() {
    let mut w = one();
    {
        let a = anim_mut(&mut w, 0);
        a.current = None;
        a.pending = Some(9);
        a.pending_countdown = Some(254);
        a.breakpoint = true;
    }
    ticks(&mut w, 0);
    adv(&mut w, 0);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.breakpoint, a.frame),
        (Some(9), false, Some([4, 1]))
    );
}

#[test]
fn a27_set_marker_suppresses_walking_translation() {
    let mut w = world(
        json!([{"id": "w", "pos": [1000, 1000], "activation": 1, "model": "m", "walk": [3, 0]}]),
        json!([]),
    );
    req(&mut w, 0, 5, 0); // break_point: marker set
    let mut seen = Vec::new();
    for _ in 0..4 {
        update(&mut w);
        seen.push(w.actors()[0].translation);
    }
    let s = Some(Translation::Suppressed);
    assert_eq!(seen, vec![s, s, s, Some(Translation::Applied)]);
    assert_eq!(w.actors()[0].pos, [1003, 1000]);
}

// ----------------------------------------------------------- tasks (A28–A32)

fn scripted(script: serde_json::Value) -> retroanim_actor::World {
    world(
        json!([{"id": "a", "pos": [1000, 1000], "activation": 1, "model": "m", "script": "s"}]),
        json!([{"name": "s", "commands": script}]),
    )
}

fn task(w: &retroanim_actor::World) -> Option<Task> {
    w.actors()[0].task
}

#[test]
fn a28_first_invocation_requests_and_does_not_set_the_count() {
    let mut w = scripted(
        json!([{"op": "push_animation", "group": 5, "count": 4}, {"op": "end", "target": 0}]),
    );
    update(&mut w);
    assert_eq!(
        task(&w),
        Some(Task {
            group: 5,
            count: 4,
            phase: Phase::NotStarted
        })
    );
    assert_eq!(anim(&w, 0).current, Some(0)); // created, not invoked yet
    update(&mut w);
    let a = anim(&w, 0);
    // Group 5 started in this invocation (3 minus the shared tick), count not set.
    assert_eq!((a.current, a.countdown, a.loop_count), (Some(5), 2, 0));
    assert_eq!(task(&w).unwrap().phase, Phase::NotStarted);
}

#[test]
fn a29_later_invocation_finding_the_group_sets_count_and_starts() {
    let mut w = scripted(
        json!([{"op": "push_animation", "group": 5, "count": 4}, {"op": "end", "target": 0}]),
    );
    for _ in 0..3 {
        update(&mut w);
    }
    let a = anim(&w, 0);
    assert_eq!((a.current, a.loop_count, a.pending), (Some(5), 4, Some(0)));
    assert_eq!(task(&w).unwrap().phase, Phase::Started);
    assert_eq!(w.actors()[0].pc, 1);
}

#[test]
fn a30_first_invocation_finding_its_group_current_sets_count_at_once() {
    let mut w = scripted(
        json!([{"op": "push_animation", "group": 0, "count": 2}, {"op": "end", "target": 0}]),
    );
    update(&mut w);
    update(&mut w);
    assert_eq!(anim(&w, 0).loop_count, 2);
    assert_eq!(
        task(&w),
        Some(Task {
            group: 0,
            count: 2,
            phase: Phase::Started
        })
    );
}

#[test]
fn a31_started_task_completes_only_when_the_group_changes_and_never_rerequests() {
    let mut w = scripted(
        json!([{"op": "push_animation", "group": 9, "count": 3}, {"op": "end", "target": 0}]),
    );
    for _ in 0..4 {
        update(&mut w);
    }
    assert_eq!(task(&w).unwrap().phase, Phase::Started);
    assert_eq!(anim(&w, 0).current, Some(9));
    assert_eq!(force(&mut w, 0, 1, 0), Outcome::Accepted);
    assert_eq!(anim(&w, 0).current, Some(1));
    update(&mut w);
    // Group 1 ended, the default started; the task completed and the body ran end(0).
    let a = anim(&w, 0);
    assert_eq!((a.current, a.pending), (Some(0), None));
    assert_eq!((task(&w), w.actors()[0].pc), (None, 0));
}

#[test]
fn a32_count_is_a_finite_loop_input_not_a_speed() {
    let mut w = scripted(
        json!([{"op": "push_animation", "group": 5, "count": 2}, {"op": "end", "target": 0}]),
    );
    for _ in 0..8 {
        update(&mut w);
    }
    let a = anim(&w, 0);
    assert_eq!(
        (a.cursor, a.loop_count, a.countdown, a.reload),
        (1, 1, 2, 3)
    );
    assert_eq!(a.frame, Some([4, 0]));
    for _ in 0..6 {
        update(&mut w);
    }
    let a = anim(&w, 0);
    assert_eq!(
        (a.cursor, a.loop_count, a.countdown, a.reload),
        (4, 0, 2, 3)
    );
    assert_eq!(a.frame, Some([4, 2]));
}

// ------------------------------------------ placement, list, update order (A33–A37)

#[test]
fn a33_placement_requests_group_zero_twice_with_the_existing_ticks() {
    let w = world(
        json!([
            {"id": "a", "pos": [1000, 1000], "activation": 1, "model": "m"},
            {"id": "b", "pos": [1000, 1000], "activation": 1, "model": "nodef"}
        ]),
        json!([]),
    );
    let a = anim(&w, 0);
    assert_eq!((a.current, a.pending, a.default), (Some(0), None, 0));
    assert_eq!(
        (a.cursor, a.countdown, a.reload, a.frame),
        (0, 2, 2, Some([3, 0]))
    );
    assert_eq!((w.timing.ticks, w.timing.acc), (0, 0));
    let b = anim(&w, 1);
    assert_eq!(
        (b.current, b.pending, b.default, b.frame),
        (None, None, 0, None)
    );
}

#[test]
fn a34_activation_byte_selects_storage_and_zero_still_animates() {
    let mut w = world(
        json!([
            {"id": "p", "pos": [20580, 18020], "activation": 2, "model": "m"},
            {"id": "c", "pos": [2660, 2860], "activation": 0, "model": "m"},
            {"id": "o", "pos": [15460, 15460], "activation": 0, "model": "m"}
        ]),
        json!([]),
    );
    update(&mut w);
    assert_eq!(w.members, vec![Why::Persistent, Why::Inner, Why::Outside]);
    let cd: Vec<u8> = (0..3).map(|i| anim(&w, i).countdown).collect();
    assert_eq!(cd, vec![1, 1, 2]);
}

#[test]
fn a35_window_starts_nine_cells_before_the_view_centre_clamped() {
    assert_eq!(window_origin([3000, 3000], 48, 40), [0, 0]);
    assert_eq!(window_origin([10 * 512 + 5, 20 * 512], 48, 40), [1, 11]);
    assert_eq!(
        window_origin([47 * 512 + 511, 39 * 512 + 511], 48, 40),
        [30, 22]
    );
    assert_eq!(window_origin([-5000, 100_000], 48, 40), [0, 22]);
}

#[test]
fn a35_window_omits_corners_and_border_actors_with_attribute_113() {
    let at = |cx: i64, cy: i64, attr113: u8, activation: u8| {
        let mut a = Actor::from_spec(&retroanim_actor::resources::ActorSpec {
            id: "x".into(),
            pos: [cx * 512 + 7, cy * 512 + 500],
            activation,
            attr113,
            attr44: 0,
            state_default: None,
            model: None,
            script: None,
            static_model: false,
            walk: None,
            flags: Default::default(),
        });
        a.translation = None;
        membership(&a, [10, 10])
    };
    assert_eq!(at(10, 10, 0, 0), Why::Corner);
    assert_eq!(at(27, 27, 0, 0), Why::Corner);
    assert_eq!(at(10, 27, 0, 0), Why::Corner);
    assert_eq!(at(10, 15, 0, 0), Why::Border);
    assert_eq!(at(10, 15, 1, 0), Why::BorderAttr113);
    assert_eq!(at(15, 27, 5, 0), Why::BorderAttr113);
    assert_eq!(at(27, 11, 0, 0), Why::Border);
    assert_eq!(at(11, 11, 9, 0), Why::Inner);
    assert_eq!(at(26, 26, 0, 0), Why::Inner);
    assert_eq!(at(28, 15, 0, 0), Why::Outside);
    assert_eq!(at(9, 15, 0, 0), Why::Outside);
    assert_eq!(at(0, 0, 1, 3), Why::Persistent);
}

#[test]
fn a35_window_follows_the_view_not_the_actor() {
    let mut w = world(
        json!([{"id": "c", "pos": [15460, 15460], "model": "m"}]),
        json!([]),
    );
    update(&mut w);
    assert_eq!(w.members, vec![Why::Outside]);
    w.view = [30 * 512, 30 * 512];
    assert_eq!(w.window(), [21, 21]);
    update(&mut w);
    assert_eq!(w.members, vec![Why::Inner]);
    assert_eq!(anim(&w, 0).countdown, 1);
}

#[test]
fn a36_update_order_advance_request_movement_then_script() {
    let mut w = world(
        json!([{"id": "p", "pos": [1000, 1000], "activation": 1, "model": "m", "walk": [2, 0],
                "script": "s"}]),
        json!([{"name": "s", "commands": [{"op": "push_animation", "group": 5, "count": 1},
                                          {"op": "end", "target": 0}]}]),
    );
    update(&mut w);
    update(&mut w);
    // The script's request started group 5 after the advancement, reusing the tick
    // (3 - 1); movement ran before the marker was set.
    let a = anim(&w, 0);
    assert_eq!((a.current, a.countdown, a.breakpoint), (Some(5), 2, true));
    assert_eq!(w.actors()[0].translation, Some(Translation::Applied));
    assert_eq!(w.actors()[0].pos, [1004, 1000]);
}

#[test]
fn a36_flags_suppress_stages_independently() {
    let script = json!([{"name": "s", "commands": [{"op": "push_animation", "group": 5, "count": 1},
                                                   {"op": "end", "target": 0}]}]);
    let mut w = world(
        json!([
            {"id": "x", "pos": [0, 0], "activation": 1, "model": "m", "script": "s",
             "flags": {"anim_update_excluded": true}},
            {"id": "y", "pos": [0, 0], "activation": 1, "model": "m", "script": "s",
             "flags": {"script_suppressed": true}},
            {"id": "z", "pos": [0, 0], "activation": 1, "model": "m", "script": "s",
             "flags": {"excluded": true}}
        ]),
        script,
    );
    update(&mut w);
    assert_eq!((anim(&w, 0).countdown, w.actors()[0].pc), (2, 1));
    assert_eq!((anim(&w, 1).countdown, w.actors()[1].pc), (1, 0));
    assert_eq!((anim(&w, 2).countdown, w.actors()[2].pc), (2, 0));
}

#[test]
fn a37_default_change_forces_replacement_of_the_current_old_default() {
    let mut w = one();
    w.actors_mut()[0].state_default = Some(9);
    update(&mut w);
    // Forced start 254 - 1, then the update's own advancement - 1.
    let a = anim(&w, 0);
    assert_eq!((a.current, a.default, a.pending), (Some(9), 9, None));
    assert_eq!((a.countdown, a.cursor, a.frame), (252, 0, Some([4, 1])));
}

#[test]
fn a37_no_forced_replacement_once_the_old_default_reached_an_exit() {
    let mut w = one();
    anim_mut(&mut w, 0).exit = true;
    w.actors_mut()[0].state_default = Some(9);
    update(&mut w);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.default, a.pending, a.pending_countdown),
        (Some(0), 9, Some(9), Some(254))
    );
    assert_eq!(a.countdown, 1);
}

// ------------------------------------------------------------ timing (A38, A39)

#[test]
fn a38_ticks_are_differences_of_whole_accumulated_q8_scales() {
    let mut t = Timing::new(384);
    for _ in 0..12 {
        assert_eq!(t.step(), 1);
    }
    assert_eq!(t.acc, 4608);
    let got: Vec<u32> = (0..4).map(|_| t.step()).collect();
    assert_eq!(got, vec![1, 2, 1, 2]);
    t.scale = 1024;
    assert_eq!(t.step(), 4);
    t.scale = 0;
    assert_eq!(t.step(), 0);
}

#[test]
fn a39_first_twelve_updates_after_a_reset_use_one_tick() {
    let mut t = Timing::new(1024);
    assert_eq!(t.ticks, 0);
    for _ in 0..12 {
        assert_eq!(t.step(), 1);
    }
    assert_eq!((t.acc, t.warmup), (12288, 0));
    assert_eq!(t.step(), 4);
    t.reset();
    assert_eq!((t.acc, t.warmup, t.ticks, t.scale), (0, 12, 4, 1024));
    assert_eq!(t.step(), 1);
    let mut t = Timing::new(0);
    for _ in 0..12 {
        assert_eq!(t.step(), 1);
    }
    assert_eq!((t.step(), t.acc), (0, 0));
}

// --------------------------------------------------------------- FLAG2 (A40)

#[test]
fn a40_flag2_sample_plays_two_full_program_cycles() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/actor/flag2.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let set = load_set(&doc).unwrap();
    let mut w = retroanim_actor::World::new(
        set,
        [3000, 3000],
        256,
        retroanim_actor::world::Switches::default(),
    )
    .unwrap();
    let mut created = Vec::new();
    let mut prev = None;
    let mut cycle_ends = Vec::new();
    for step in 1..=154u32 {
        update(&mut w);
        let a = &w.actors()[0];
        if a.task != prev {
            if let Some(t) = a.task.filter(|t| t.phase == Phase::NotStarted) {
                created.push((step, t.group, t.count));
            }
            prev = a.task;
        }
        if a.pc == 0 && a.task.is_none() {
            cycle_ends.push(step);
        }
    }
    assert_eq!(
        created,
        vec![
            (1, 1, 25),
            (52, 10, 1),
            (59, 1, 3),
            (66, 10, 2),
            (78, 1, 25),
            (129, 10, 1),
            (136, 1, 3),
            (143, 10, 2)
        ]
    );
    assert_eq!(cycle_ends, vec![77, 154]);
}

// ------------------------------------------------------------ decisions D1–D3

#[test]
fn d1_frame_scale_is_a_q8_input() {
    let mut w = one();
    w.timing.scale = 128;
    for _ in 0..12 {
        update(&mut w);
    }
    assert_eq!(w.timing.acc, 1536);
    let mut got = Vec::new();
    for _ in 0..4 {
        update(&mut w);
        got.push(w.timing.ticks);
    }
    assert_eq!(got, vec![0, 1, 0, 1]);
}

#[test]
fn d2_groups_and_scripts_are_json_resources() {
    let doc = |cmds: serde_json::Value| {
        json!({"map": {"width": 18, "height": 18}, "scripts": [{"name": "s", "commands": cmds}],
               "actors": []})
    };
    let set = load_set(&doc(
        json!([{"op": "push_animation", "group": 1, "count": 25},
                                   {"op": "end", "target": 0}]),
    ))
    .unwrap();
    assert_eq!(
        set.scripts[0].cmds,
        vec![
            ScriptCmd::PushAnimation {
                group: 1,
                count: 25
            },
            ScriptCmd::End { target: 0 }
        ]
    );
    let f = load_set(&doc(json!([{"op": "wait"}, {"op": "end", "target": 0}]))).unwrap_err();
    assert_eq!(
        (f.kind, f.at.as_str()),
        (FaultKind::BadScript, "scripts[0].commands[0].op")
    );
    let f = load_set(&doc(
        json!([{"op": "push_animation", "group": 1, "count": 2}]),
    ))
    .unwrap_err();
    assert_eq!((f.kind, f.command), (FaultKind::BadScript, Some(0)));
}

#[test]
fn d3_unresolvable_reference_is_a_load_error_naming_group_and_command() {
    let doc = json!({"map": {"width": 18, "height": 18},
        "models": [{"name": "m2", "raan": [{"model": 3, "frames": 2}],
                    "groups": [{"group": 4, "header": 1, "commands": [
                        {"op": "show_frame", "ref": 0}, {"op": "show_frame", "ref": 2},
                        {"op": "end_animation"}]}]}],
        "actors": []});
    let f = load_set(&doc).unwrap_err();
    assert_eq!(f.kind, FaultKind::RefPastTable);
    assert_eq!(
        (f.model.as_deref(), f.group, f.command),
        (Some("m2"), Some(4), Some(1))
    );
    assert_eq!(f.at, "models[0].groups[0].commands[1].ref");
}
