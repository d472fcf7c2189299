//! Quirks Q33–Q43 (docs/ac.md): the command interpreter.

mod common;

use common::*;
use retroanim_ac::commands::{HoldKey, MovementParameters, WeenieError};
use retroanim_ac::motion_interp::{adjust_motion, ActionNode, InterpretedMotionState, Weenie};
use retroanim_ac::scenario::{RawArgs, Step};
use retroanim_core::Simulation;

/// Run skill 300: the f32 nearest 2.65 (2.6500001 when printed in full).
const RATE: f32 = 2.65;

fn adj(creature: bool, motion: u32, speed: f32, key: HoldKey) -> (u32, f32) {
    let w = Weenie {
        is_creature: creature,
        run_rate: RATE,
    };
    let (mut m, mut s) = (motion, speed);
    adjust_motion(&w, HoldKey::None, &mut m, &mut s, key);
    (m, s)
}

fn p() -> MovementParameters {
    MovementParameters::default()
}

#[test]
fn q33_adjust_motion_order() {
    assert_eq!(adj(true, WALK, 1.0, HoldKey::Run), (RUN, 2.65));
    let (m, s) = adj(true, WALK_BACK, 1.0, HoldKey::Run);
    assert_eq!(m, WALK);
    assert!(close(s, -1.7225), "{s}");
    assert_eq!(adj(true, SIDE_L, 1.0, HoldKey::Run), (SIDE_R, -3.0));
    assert_eq!(adj(true, TURN_L, 1.0, HoldKey::Run), (TURN_R, -1.5));
    assert_eq!(adj(true, RUN, 1.0, HoldKey::Run), (RUN, 1.0));
    assert_eq!(adj(true, WALK, 1.0, HoldKey::None), (WALK, 1.0));
    let (m, s) = adj(true, SIDE_R, 1.0, HoldKey::None);
    assert_eq!(m, SIDE_R);
    assert!(close(s, 1.247_999_9));
    // Invalid falls back to the raw state's current key (None here).
    assert_eq!(adj(true, WALK, 1.0, HoldKey::Invalid), (WALK, 1.0));
    assert_eq!(adj(false, WALK_BACK, 1.0, HoldKey::Run), (WALK_BACK, 1.0));
}

#[test]
fn q34_set_hold_key_only_handles_none() {
    let mut sim = conf_sim();
    let obj = &mut sim.obj;
    assert_eq!(obj.minterp().raw.current_hold_key, HoldKey::None);
    obj.mi_set_hold_key(HoldKey::Run, true);
    assert_eq!(obj.minterp().raw.current_hold_key, HoldKey::None);
    obj.mi_set_hold_run(1, true);
    assert_eq!(obj.minterp().raw.current_hold_key, HoldKey::Run);
    obj.mi_set_hold_key(HoldKey::None, true);
    assert_eq!(obj.minterp().raw.current_hold_key, HoldKey::None);
}

#[test]
fn q35_copy_some_drops_context_stamp_autonomy_and_jump_flag() {
    let src = MovementParameters {
        context_id: 5,
        action_stamp: 9,
        autonomous: true,
        disable_jump_during_link: true,
        speed: 2.0,
        hold_key_to_apply: HoldKey::Run,
        ..p()
    };
    let c = MovementParameters::copy_some(&src);
    assert_eq!((c.context_id, c.action_stamp), (0, 0));
    assert!(!c.autonomous && !c.disable_jump_during_link);
    assert_eq!((c.speed, c.hold_key_to_apply), (2.0, HoldKey::Run));
    let mut sim = conf_sim();
    sim.obj.do_motion(
        WALK,
        &MovementParameters {
            context_id: 7,
            ..p()
        },
    );
    assert_eq!(
        sim.obj.minterp().pending_motions.back().unwrap().context_id,
        0
    );
}

#[test]
fn q36_combat_checks_run_after_hold_key_side_effects() {
    let mut sim = conf_sim();
    sim.obj.do_motion(SWORD, &p());
    assert_eq!(sim.obj.minterp().interpreted.current_style, SWORD);
    sim.obj.mi_set_hold_run(1, true);
    let r = sim.obj.do_motion(
        0x4100_0012,
        &MovementParameters {
            hold_key_to_apply: HoldKey::None,
            ..p()
        },
    );
    assert_eq!(r, WeenieError::CantCrouchInCombat);
    assert_eq!(sim.obj.minterp().raw.current_hold_key, HoldKey::None);
    assert_eq!(
        sim.obj.do_motion(WAVE, &p()),
        WeenieError::CantChatEmoteInCombat
    );
}

#[test]
fn q37_jump_code_uses_the_previous_forward_command() {
    let mut sim = conf_sim();
    sim.obj.do_motion(SITTING, &p());
    sim.obj.do_motion(WALK, &p());
    let last = sim.obj.minterp().pending_motions.back().unwrap();
    assert_eq!(last.motion, WALK);
    assert_eq!(
        last.jump_error_code,
        WeenieError::YouCantJumpFromThisPosition
    );
}

#[test]
fn q38_turn_stop_in_apply_interpreted_movement_is_the_physics_call() {
    let mut sim = conf_sim();
    sim.obj.do_motion(WALK, &p());
    sim.obj.do_motion(TURN_R, &p());
    assert_eq!(
        sim.obj
            .table_manager()
            .as_ref()
            .unwrap()
            .state
            .modifiers
            .len(),
        1
    );
    sim.obj.minterp_mut().interpreted.turn_command = 0;
    sim.obj.mi_apply_interpreted_movement(false, true);
    assert!(sim
        .obj
        .table_manager()
        .as_ref()
        .unwrap()
        .state
        .modifiers
        .is_empty());
    let last = sim.obj.minterp().pending_motions.back().unwrap();
    assert_eq!(
        (last.motion, last.context_id, last.jump_error_code),
        (READY, 0, WeenieError::None)
    );
}

#[test]
fn q39_airborne_commands_only_update_state() {
    let mut sim = conf_sim();
    sim.obj.apply_contact(false, false);
    let tm = |s: &retroanim_ac::AcSim| {
        let t = s.obj.table_manager().unwrap();
        (t.state.substate, t.pending().len())
    };
    let before = tm(&sim);
    assert_eq!(before.0, FALLING);
    assert_eq!(sim.obj.do_motion(WALK, &p()), WeenieError::None);
    assert_eq!(sim.obj.minterp().interpreted.forward_command, WALK);
    assert_eq!(sim.obj.do_motion(SIDE_R, &p()), WeenieError::None);
    assert_eq!(sim.obj.minterp().interpreted.sidestep_command, SIDE_R);
    // Nothing was queued: the command's CheckForCompletedMotions only drained the
    // zero-count Falling entry left by LeaveGround.
    assert_eq!(tm(&sim), (FALLING, 0));
    assert_eq!(
        sim.obj.do_motion(WAVE, &p()),
        WeenieError::YouCantJumpWhileInTheAir
    );
    // Turns pass the contact gate and reach the table.
    assert_eq!(sim.obj.do_motion(TURN_R, &p()), WeenieError::None);
    assert_eq!(
        sim.obj
            .table_manager()
            .as_ref()
            .unwrap()
            .state
            .modifiers
            .len(),
        1
    );
}

#[test]
fn q40_apply_raw_movement_reissues_everything() {
    let mut sim = conf_sim();
    assert_eq!(sim.obj.minterp().pending_motions.len(), 2);
    let step = Step::MoveToState {
        raw: RawArgs::default(),
        standing_long_jump: false,
        object: None,
    };
    sim.apply(1, &step, "steps[0]").unwrap();
    // Same style and same idle substate still queue a zero-count pair each.
    let t: Vec<(u32, u32)> = sim
        .obj
        .table_manager()
        .as_ref()
        .unwrap()
        .pending()
        .iter()
        .map(|n| (n.motion, n.num_anims))
        .collect();
    assert_eq!(t, vec![(NC, 0), (READY, 0), (NC, 0), (READY, 0)]);
    assert_eq!(sim.obj.minterp().pending_motions.len(), 4);
}

#[test]
fn q41_server_stamp_is_masked_to_19_bits() {
    let mut sim = conf_sim();
    sim.obj.minterp_mut().server_action_stamp = 0x8010;
    let mut state = InterpretedMotionState::default();
    state.actions.push_back(ActionNode {
        action: WAVE,
        speed: 1.0,
        stamp: 5,
        autonomous: false,
    });
    assert!(sim.obj.mi_move_to_interpreted_state(&state));
    // |5 - 0x8010| > 0x3FFF, so "newer" is 5 < 0x8010: the action is applied.
    assert_eq!(sim.obj.minterp().server_action_stamp, 5);
    let acts = &sim.obj.table_manager().unwrap().state.actions;
    assert_eq!(acts.iter().map(|a| a.id).collect::<Vec<_>>(), vec![WAVE]);
}

#[test]
fn q42_jump_is_never_allowed_with_aces_weenie_stub() {
    let mut sim = conf_sim();
    assert_eq!(
        sim.obj.mi_jump_is_allowed(),
        WeenieError::GeneralMovementFailure
    );
    sim.obj.apply_contact(false, false);
    assert_eq!(
        sim.obj.mi_jump_is_allowed(),
        WeenieError::YouCantJumpWhileInTheAir
    );
}

#[test]
fn q43_unadjusted_left_commands_land_in_forward() {
    let mut i = InterpretedMotionState::default();
    i.apply_motion(TURN_L, &MovementParameters { speed: 0.5, ..p() });
    assert_eq!(
        (i.forward_command, i.forward_speed, i.turn_command),
        (TURN_L, 0.5, 0)
    );
}
