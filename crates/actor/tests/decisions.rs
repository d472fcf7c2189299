//! One test per decision C1–C20 (stated in docs/actor.md), the seven load faults
//! and the run-time runaway bounds. Expected values are computed by hand from the
//! procedures and the fixture table in `common/mod.rs`.

mod common;

use common::*;
use retroanim_actor::arbitration::Outcome;
use retroanim_actor::error::{FaultKind, RunError};
use retroanim_actor::load::load_set;
use retroanim_actor::scenario::state_line;
use retroanim_actor::state::{Phase, Task};
use retroanim_actor::timing::Timing;
use retroanim_actor::world::{window_origin, Switches, Why, World};
use retroanim_core::Scenario;
use serde_json::{json, Value};
use std::path::PathBuf;

#[test]
fn c01_countdown_reloads_to_the_playback_start_value() {
    let mut w = one();
    ticks(&mut w, 0);
    assert_eq!(force(&mut w, 0, 9, 3), Outcome::Accepted); // 254 + 3 = 1
    assert_eq!((anim(&w, 0).countdown, anim(&w, 0).reload), (1, 1));
    ticks(&mut w, 1);
    adv(&mut w, 0);
    adv(&mut w, 0); // expired: reload 1 (not the header's 254), minus one
    let a = anim(&w, 0);
    assert_eq!(
        (a.cursor, a.countdown, a.reload, a.frame),
        (1, 0, 1, Some([4, 2]))
    );
}

#[test]
fn c02_a_start_resets_the_per_playback_state() {
    let mut w = one();
    {
        let a = anim_mut(&mut w, 0);
        a.current = None;
        a.pending = Some(9);
        a.pending_countdown = Some(7);
        a.exit = true;
        a.loop_count = 5;
        a.skip = 4;
        a.breakpoint = true;
        a.cursor = 2;
    }
    ticks(&mut w, 0);
    adv(&mut w, 0);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.pending, a.pending_countdown),
        (Some(9), None, None)
    );
    assert_eq!((a.countdown, a.reload, a.cursor, a.skip), (7, 7, 0, 0));
    assert_eq!(
        (a.loop_count, a.breakpoint, a.exit, a.direction),
        (0, false, false, 1)
    );
}

#[test]
fn c03_ticks_reach_a_group_started_in_the_same_advancement() {
    let mut w = one();
    ticks(&mut w, 1);
    req(&mut w, 0, 5, 253); // 3 + 253 = 0: command 0 (break) is never seen
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.cursor, a.countdown, a.reload),
        (Some(5), 1, 255, 0)
    );
    assert_eq!((a.breakpoint, a.frame), (false, Some([4, 0])));
}

#[test]
fn c04_arbitration_compares_the_requested_number_before_fallback() {
    let mut w = one();
    req(&mut w, 0, 5, 0);
    req(&mut w, 0, 9, 0);
    assert_eq!(req(&mut w, 0, 3, 0), Outcome::Refused); // 3 < 9 although 3 falls back to 0
    assert_eq!(anim(&w, 0).pending, Some(9));
    assert_eq!(req(&mut w, 0, 200, 0), Outcome::Accepted); // 9 <= 200, then fallback
    let a = anim(&w, 0);
    assert_eq!((a.pending, a.pending_countdown), (Some(0), Some(2)));
}

#[test]
fn c05_the_default_request_of_an_advancement_does_not_recurse() {
    let mut w = one();
    anim_mut(&mut w, 0).current = None;
    ticks(&mut w, 1);
    adv(&mut w, 0);
    // Started once and ticked once: 2 - 1.
    let a = anim(&w, 0);
    assert_eq!((a.current, a.countdown, a.cursor), (Some(0), 1, 0));
}

#[test]
fn c06_exit_flag_is_set_only_from_outside_and_cleared_by_starts() {
    let mut w = one();
    ticks(&mut w, 0);
    req(&mut w, 0, 7, 0);
    req(&mut w, 0, 9, 0); // pending: the go_to_future exit will be taken
    {
        let a = anim_mut(&mut w, 0);
        a.countdown = 0;
    }
    ticks(&mut w, 1);
    adv(&mut w, 0);
    assert_eq!((anim(&w, 0).cursor, anim(&w, 0).exit), (3, false));
    let mut w = one();
    ticks(&mut w, 1);
    req(&mut w, 0, 1, 0);
    anim_mut(&mut w, 0).exit = true;
    adv(&mut w, 0); // end, default starts: exit cleared
    assert_eq!((anim(&w, 0).current, anim(&w, 0).exit), (Some(0), false));
}

#[test]
fn c07_forced_reset_leaves_countdown_reload_and_skip_to_the_start() {
    let mut w = world(
        json!([{"id": "b", "pos": [0, 0], "activation": 1, "model": "nodef"}]),
        json!([]),
    );
    ticks(&mut w, 0);
    req(&mut w, 0, 5, 0);
    {
        let a = anim_mut(&mut w, 0);
        a.skip = 3;
        a.loop_count = 4;
        a.breakpoint = true;
        a.exit = true;
        a.cursor = 1;
    }
    assert_eq!(force(&mut w, 0, 3, 0), Outcome::Cleared);
    let a = anim(&w, 0);
    assert_eq!(
        (a.current, a.pending, a.cursor, a.loop_count),
        (None, None, 0, 0)
    );
    assert_eq!((a.breakpoint, a.exit), (false, false));
    assert_eq!(
        (a.countdown, a.reload, a.skip, a.frame),
        (1, 1, 3, Some([8, 0]))
    );
}

#[test]
fn c08_default_selection_uses_state_default_else_attr44() {
    let mut w = world(
        json!([{"id": "a", "pos": [0, 0], "activation": 1, "model": "m", "attr44": 7}]),
        json!([]),
    );
    update(&mut w);
    assert_eq!((anim(&w, 0).default, anim(&w, 0).current), (7, Some(7)));
    w.actors_mut()[0].state_default = Some(9);
    update(&mut w);
    assert_eq!((anim(&w, 0).default, anim(&w, 0).current), (9, Some(9)));
    w.actors_mut()[0].state_default = None;
    update(&mut w);
    assert_eq!((anim(&w, 0).default, anim(&w, 0).current), (7, Some(7)));
}

#[test]
fn c09_not_started_task_requests_again_on_every_invocation() {
    let mut w = world(
        json!([{"id": "a", "pos": [0, 0], "activation": 1, "model": "m", "script": "s"}]),
        json!([{"name": "s", "commands": [{"op": "push_animation", "group": 5, "count": 1},
                                          {"op": "end", "target": 0}]}]),
    );
    force(&mut w, 0, 9, 0); // a long non-default group
    update(&mut w); // task created only
    assert_eq!(
        w.actors()[0].task,
        Some(Task {
            group: 5,
            count: 1,
            phase: Phase::NotStarted
        })
    );
    assert_eq!(anim(&w, 0).pending, Some(0));
    update(&mut w); // first invocation: 5 replaces the pending 0
    assert_eq!(anim(&w, 0).pending, Some(5));
    assert_eq!(force(&mut w, 0, 9, 0), Outcome::Kept); // clears the pending 5
    update(&mut w); // the default request makes 0 pending, the task requests 5 again
    assert_eq!(anim(&w, 0).pending, Some(5));
    assert_eq!(w.actors()[0].task.unwrap().phase, Phase::NotStarted);
}

#[test]
fn c10_end_sets_the_program_counter_to_its_target() {
    let mut w = world(
        json!([{"id": "a", "pos": [0, 0], "activation": 1, "model": "m", "script": "s"}]),
        json!([{"name": "s", "commands": [{"op": "push_animation", "group": 5, "count": 1},
                                          {"op": "push_animation", "group": 7, "count": 1},
                                          {"op": "end", "target": 1}]}]),
    );
    for _ in 0..11 {
        update(&mut w);
    }
    assert_eq!(w.actors()[0].task.map(|t| t.group), Some(7));
    for _ in 0..7 {
        update(&mut w);
    }
    assert_eq!((w.actors()[0].pc, w.actors()[0].task), (1, None));
    update(&mut w);
    assert_eq!(w.actors()[0].pc, 2);
    assert_eq!(w.actors()[0].task.map(|t| (t.group, t.count)), Some((7, 1)));
}

#[test]
fn c11_window_keeps_its_shape_at_every_edge() {
    assert_eq!(window_origin([0, 0], 18, 18), [0, 0]);
    assert_eq!(window_origin([100_000, 100_000], 18, 18), [0, 0]);
    assert_eq!(window_origin([9300, 4000], 20, 18), [2, 0]);
    assert_eq!(window_origin([63 * 512, 0], 64, 64), [46, 0]);
}

#[test]
fn c12_list_uses_positions_at_the_start_of_the_update() {
    let mut w = world(
        json!([{"id": "b", "pos": [8714, 2570], "model": "m", "walk": [600, 0]}]),
        json!([]),
    );
    update(&mut w);
    assert_eq!(
        (w.members[0], w.actors()[0].pos),
        (Why::Border, [9314, 2570])
    );
    update(&mut w);
    assert_eq!(
        (w.members[0], w.actors()[0].pos),
        (Why::Outside, [9314, 2570])
    );
}

#[test]
fn c13_start_in_reset_state_and_reset_keeps_scale_and_ticks() {
    let mut w = one();
    assert_eq!((w.timing.ticks, w.timing.acc, w.timing.warmup), (0, 0, 12));
    w.timing.scale = 512;
    for _ in 0..13 {
        update(&mut w);
    }
    assert_eq!((w.timing.ticks, w.timing.acc), (2, 6656));
    w.timing.reset();
    assert_eq!(
        (
            w.timing.ticks,
            w.timing.acc,
            w.timing.warmup,
            w.timing.scale
        ),
        (2, 0, 12, 512)
    );
}

#[test]
fn c14_walking_translates_by_walk_times_ticks() {
    let mut w = world(
        json!([{"id": "w", "pos": [5000, 5000], "activation": 1, "model": "m", "walk": [2, -1]}]),
        json!([]),
    );
    w.timing.scale = 768;
    for _ in 0..13 {
        update(&mut w);
    }
    assert_eq!(w.timing.ticks, 3);
    assert_eq!(w.actors()[0].pos, [5030, 4985]);
}

#[test]
fn c15_placement_in_asset_order_with_zero_ticks() {
    let w = world(
        json!([
            {"id": "a", "pos": [0, 0], "model": "m", "attr44": 9},
            {"id": "n", "pos": [0, 0]},
            {"id": "b", "pos": [0, 0], "model": "m"}
        ]),
        json!([]),
    );
    // Placement asks for group 0 whatever attr44 says; no countdown moved.
    assert_eq!(
        (
            anim(&w, 0).current,
            anim(&w, 0).countdown,
            anim(&w, 0).default
        ),
        (Some(0), 2, 0)
    );
    assert_eq!(w.actors()[1].anim, None);
    assert_eq!((anim(&w, 2).current, anim(&w, 2).countdown), (Some(0), 2));
}

#[test]
fn c16_excluded_member_is_listed_but_not_updated() {
    let mut w = world(
        json!([{"id": "x", "pos": [2660, 2860], "model": "m", "flags": {"excluded": true}}]),
        json!([]),
    );
    update(&mut w);
    let line = serde_json::to_value(state_line(&w, 1, "update", None, true)).unwrap();
    assert_eq!(
        line["members"],
        json!([{"actor": "x", "why": "inner", "updated": false}])
    );
    assert_eq!(anim(&w, 0).countdown, 2);
}

/// The world takes an actor's update gates from its settings once (its plan); settings
/// written through `actors_mut` between updates count from the next update on.
#[test]
fn settings_written_between_updates_take_effect_at_the_next_update() {
    let mut w = one();
    w.actors_mut()[0].flags.excluded = true;
    update(&mut w);
    assert_eq!(w.members, vec![Why::Persistent]);
    assert_eq!(anim(&w, 0).countdown, 2); // listed, not updated: as placed
    w.actors_mut()[0].flags.excluded = false;
    update(&mut w);
    assert_eq!(anim(&w, 0).countdown, 1); // updated by one tick
    w.actors_mut()[0].static_model = true;
    update(&mut w);
    assert_eq!(anim(&w, 0).countdown, 1); // A16: the static shortcut stops advancement
    {
        let a = &mut w.actors_mut()[0];
        a.static_model = false;
        a.activation = 0;
        a.pos = [20_000, 20_000];
    }
    update(&mut w);
    assert_eq!(w.members, vec![Why::Outside]);
    assert_eq!(anim(&w, 0).countdown, 1); // not listed
    w.actors_mut()[0].pos = [1000, 1000];
    update(&mut w);
    assert_eq!(w.members, vec![Why::Inner]);
    assert_eq!(anim(&w, 0).countdown, 0);
}

fn group_doc(commands: Value) -> Value {
    json!({"map": {"width": 18, "height": 18},
           "models": [{"name": "g", "raan": [{"model": 5, "frames": 2000}],
                       "groups": [{"group": 0, "header": 1, "commands": [
                            {"op": "show_frame", "ref": 0}, {"op": "end_animation"}]},
                                  {"group": 6, "header": 1, "commands": commands}]}],
           "actors": []})
}

fn fault(commands: Value) -> (FaultKind, Option<u8>, Option<usize>) {
    let f = load_set(&group_doc(commands)).unwrap_err();
    assert_eq!(f.model.as_deref(), Some("g"));
    (f.kind, f.group, f.command)
}

#[test]
fn c17_each_load_fault_names_group_and_command() {
    let s = |r: Value| json!({"op": "show_frame", "ref": r});
    let end = json!({"op": "end_animation"});
    let brk = json!({"op": "break_point"});
    use FaultKind::*;
    assert_eq!(
        fault(json!([s(json!(0)), {"op": "jump"}, end])),
        (UnknownOp, Some(6), Some(1))
    );
    assert_eq!(
        fault(json!([s(json!(1 << 20)), end])),
        (RefNot20Bit, Some(6), Some(0))
    );
    assert_eq!(
        fault(json!([s(json!(-1)), end])),
        (RefNot20Bit, Some(6), Some(0))
    );
    assert_eq!(
        fault(json!([s(json!(1.5)), end])),
        (RefNot20Bit, Some(6), Some(0))
    );
    assert_eq!(
        fault(json!([s(json!(2000)), end])),
        (RefPastTable, Some(6), Some(0))
    );
    assert_eq!(
        fault(json!([s(json!(1500)), end])),
        (FieldOverflow, Some(6), Some(0))
    );
    let gtp = |t: i64| json!({"op": "go_to_previous", "target": t});
    let gtf = |t: i64| json!({"op": "go_to_future", "target": t});
    assert_eq!(
        fault(json!([s(json!(0)), gtp(1), end])),
        (BadTarget, Some(6), Some(1))
    );
    assert_eq!(
        fault(json!([s(json!(0)), gtf(1), end])),
        (BadTarget, Some(6), Some(1))
    );
    assert_eq!(
        fault(json!([s(json!(0)), gtf(3), end])),
        (BadTarget, Some(6), Some(1))
    );
    assert_eq!(
        fault(json!([s(json!(0)), gtp(-1), end])),
        (BadTarget, Some(6), Some(1))
    );
    assert_eq!(fault(json!([s(json!(0)), brk])), (NoEnd, Some(6), Some(1)));
    assert_eq!(
        fault(json!([s(json!(0)), brk, gtp(1), end])),
        (ControlLoop, Some(6), Some(2))
    );
}

#[test]
fn c17_load_faults_are_reported_in_the_fixed_order() {
    let s = |r: u64| json!({"op": "show_frame", "ref": r});
    let end = json!({"op": "end_animation"});
    let brk = json!({"op": "break_point"});
    let gtp = |t: i64| json!({"op": "go_to_previous", "target": t});
    use FaultKind::*;
    // Command order: command 1's bad target before command 2's unknown op.
    assert_eq!(
        fault(json!([s(0), gtp(5), {"op": "nope"}, end])),
        (BadTarget, Some(6), Some(1))
    );
    // Per-command faults before whole-group faults.
    assert_eq!(
        fault(json!([s(0), brk, gtp(1), {"op": "nope"}, end])),
        (UnknownOp, Some(6), Some(3))
    );
    // no_end before control_loop.
    assert_eq!(
        fault(json!([s(0), brk, gtp(1), brk])),
        (NoEnd, Some(6), Some(3))
    );
}

#[test]
fn c17_rejected_set_is_a_single_error_line_and_changes_nothing() {
    let doc = json!({"engine": "actor",
        "assets": {"map": {"width": 18, "height": 18},
                   "models": [{"name": "m2", "raan": [{"model": 3, "frames": 2}],
                               "groups": [{"group": 4, "header": 1, "commands": [
                                   {"op": "show_frame", "ref": 0}, {"op": "show_frame", "ref": 2},
                                   {"op": "end_animation"}]}]}],
                   "actors": []},
        "steps": [{"op": "update"}, {"op": "update"}]});
    let s = Scenario::from_value(doc, "e.json", PathBuf::from(".")).unwrap();
    let lines = retroanim_actor::run_scenario(&s).unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0].to_string(),
        r#"{"step":0,"op":"setup","error":{"kind":"ref_past_table","model":"m2","group":4,"command":1}}"#
    );
}

#[test]
fn c18_clearing_current_keeps_frame_cursor_and_counters() {
    let mut w = world(
        json!([{"id": "b", "pos": [0, 0], "activation": 1, "model": "nodef"}]),
        json!([]),
    );
    ticks(&mut w, 1);
    req(&mut w, 0, 5, 0);
    adv(&mut w, 0);
    assert_eq!(anim(&w, 0).frame, Some([8, 1]));
    adv(&mut w, 0); // end_animation; no default group 0 to start
    let a = anim(&w, 0);
    assert_eq!((a.current, a.pending, a.frame), (None, None, Some([8, 1])));
    assert_eq!((a.cursor, a.countdown, a.reload), (2, 0, 1));
}

#[test]
fn c19_static_model_state_is_frozen_and_no_model_has_none() {
    let mut w = world(
        json!([
            {"id": "s", "pos": [0, 0], "activation": 1, "model": "m", "static_model": true},
            {"id": "n", "pos": [0, 0], "activation": 1}
        ]),
        json!([]),
    );
    req(&mut w, 0, 5, 0);
    update(&mut w);
    update(&mut w);
    let line = serde_json::to_value(state_line(&w, 2, "update", None, true)).unwrap();
    assert_eq!(
        line["actors"][0]["anim"],
        json!({"current": null, "pending": null, "pending_countdown": null, "default": 0,
               "cursor": 0, "direction": 1, "countdown": 0, "reload": 0, "skip": 0, "loop": 0,
               "breakpoint": false, "exit": false, "frame": null})
    );
    assert_eq!(line["actors"][1]["anim"], Value::Null);
}

#[test]
fn c20_bytes_wrap_but_the_skip_count_does_not() {
    let mut w = one();
    anim_mut(&mut w, 0).countdown = 0;
    ticks(&mut w, 255);
    adv(&mut w, 0);
    // 254 skips alternate show 1 / show 0 through the backward jump; the 254th is
    // show 0, so show 1 is selected.
    let a = anim(&w, 0);
    assert_eq!(
        (a.cursor, a.skip, a.countdown, a.frame),
        (1, 0, 1, Some([3, 1]))
    );
    let mut t = Timing::new(65535);
    for _ in 0..12 {
        t.step();
    }
    assert_eq!(t.step(), 256);
}

// ------------------------------------------------------------ run-time bounds

fn runaway_world(groups: Value) -> Result<World, retroanim_actor::world::ActorRunError> {
    let doc = json!({"map": {"width": 18, "height": 18},
        "models": [{"name": "r", "raan": [{"model": 1, "frames": 2}], "groups": groups}],
        "actors": [{"id": "a", "pos": [0, 0], "activation": 1, "model": "r"}]});
    World::new(load_set(&doc).unwrap(), [0, 0], 256, Switches::default())
}

#[test]
fn runaway_end_chain_is_an_error_not_a_hang() {
    let e = runaway_world(json!([{"group": 0, "header": 1,
                                  "commands": [{"op": "end_animation"}]}]))
    .unwrap_err();
    assert_eq!(e.error, RunError::EndChain { group: 0 });
}

#[test]
fn runaway_cursor_past_the_last_command_is_an_error() {
    let mut w = runaway_world(json!([
        {"group": 0, "header": 1, "commands": [{"op": "show_frame", "ref": 0}, {"op": "end_animation"}]},
        {"group": 4, "header": 0, "commands": [{"op": "end_animation"}]}]))
    .unwrap();
    ticks(&mut w, 1);
    let env = w.env();
    let e = {
        let (actors, models) = w.parts_mut();
        retroanim_actor::boundary::actor_request(&mut actors[0], models, env, 4, 0)
    };
    assert_eq!(e, Err(RunError::CursorPastEnd { group: 4 }));
}

#[test]
fn runaway_go_to_future_cycle_is_an_error_not_a_hang() {
    let mut w = runaway_world(json!([
        {"group": 0, "header": 1, "commands": [{"op": "show_frame", "ref": 0}, {"op": "end_animation"}]},
        {"group": 3, "header": 1, "commands": [{"op": "go_to_future", "target": 2},
            {"op": "show_frame", "ref": 1}, {"op": "go_to_previous", "target": 0},
            {"op": "end_animation"}]}]))
    .unwrap();
    ticks(&mut w, 0);
    assert_eq!(req(&mut w, 0, 3, 0), Outcome::Accepted);
    assert_eq!(anim(&w, 0).frame, Some([1, 1]));
    {
        let a = anim_mut(&mut w, 0);
        a.exit = true;
        a.countdown = 0;
    }
    ticks(&mut w, 1);
    let env = w.env();
    let e = {
        let (actors, models) = w.parts_mut();
        retroanim_actor::boundary::actor_advance(&mut actors[0], models, env)
    };
    assert_eq!(e, Err(RunError::ControlLoop { group: 3 }));
}
