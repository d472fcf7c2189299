//! Quirks Q44–Q47, Q49, Q50 (docs/ac.md): the physics tick and
//! initialization. (Q48, interpolation, is in quirks_interpolation.rs.)

mod common;

use common::*;
use retroanim_ac::commands::MovementParameters;
use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::motion_interp::Weenie;
use retroanim_ac::motion_table::MotionState;
use retroanim_ac::physics_obj::PhysicsObj;
use retroanim_ac::sequence::{AnimData, AnimMap, Sequence};
use std::sync::Arc;

fn bare(on_walkable: bool) -> PhysicsObj {
    let mut m = AnimMap::new();
    m.insert(anim(1, 4, None, &[]));
    let w = Weenie {
        is_creature: true,
        run_rate: 1.0,
    };
    let start = AFrame::new(Vec3::new(0.0, 20.0, 0.0), Quat::IDENTITY);
    let mut obj = PhysicsObj::new(Arc::new(m), w, 0x7d64_0013, start);
    let src = obj.anims().clone();
    obj.sequence_mut().append_animation(
        AnimData {
            anim_id: 1,
            low_frame: 0,
            high_frame: -1,
            framerate: 10.0,
        },
        src.as_ref(),
    );
    obj.sequence_mut().set_velocity(Vec3::new(0.0, 2.0, 0.0));
    obj.sequence_mut().set_omega(Vec3::new(0.0, 0.0, -1.5));
    obj.set_active(true);
    obj.set_in_cell(true);
    obj.set_gravity(false);
    obj.apply_contact(true, on_walkable);
    obj
}

#[test]
fn q44_airborne_drops_animation_translation_but_keeps_rotation() {
    let mut obj = bare(false);
    obj.update_object_internal(0.1);
    assert_eq!(obj.frame().origin, Vec3::new(0.0, 20.0, 0.0));
    // One crossing: a -0.15 rad turn about +Z = (w cos 0.075, z -sin 0.075).
    assert!(close(obj.frame().orientation.w, 0.997_188_8));
    assert!(close(obj.frame().orientation.z, -0.074_929_7));
    let mut grounded = bare(true);
    grounded.update_object_internal(0.1);
    assert!(close(grounded.frame().origin.y, 20.2));
}

#[test]
fn q45_the_conformance_world_lets_objects_translate() {
    // Decision (docs/ac.md): the conformance tick takes every tick position as if the
    // collision sweep succeeded, i.e. the object behaves as one with a physics sphere.
    let mut sim = conf_sim();
    sim.obj.do_motion(WALK, &MovementParameters::default());
    sim.obj.update_object_internal(0.1);
    assert!(close(sim.obj.frame().origin.y, 20.312));
}

#[test]
fn q46_update_object_quantum_rules() {
    let mut sim = conf_sim();
    let obj = &mut sim.obj;
    obj.set_update_time(0.0);
    assert_eq!(obj.update_object(0.02), 0); // below TickRate: nothing, time accumulates
    assert_eq!(obj.update_time(), 0.0);
    assert_eq!(obj.update_object(0.25), 3); // 0.1 + 0.1 + 0.05
    assert!((obj.update_time() - 0.25).abs() < 1e-9);
    assert_eq!(obj.update_object(0.37), 1); // 0.12: one 0.1 step, 0.02 carried
    assert!((obj.update_time() - 0.350_000_001_490_116_1).abs() < 1e-9);
    assert_eq!(obj.update_object(3.0), 0); // more than 2 s: the gap is discarded
    assert_eq!(obj.update_time(), 3.0);
}

#[test]
fn q47_a_far_step_within_one_cell_still_runs_the_managers() {
    let mut sim = conf_sim();
    sim.obj.clear_motions_done();
    sim.obj
        .sequence_mut()
        .set_velocity(Vec3::new(0.0, 3000.0, 0.0));
    sim.obj.update_object_internal(0.1);
    assert_eq!(sim.obj.frame().origin.y, 320.0);
    assert!(sim.obj.table_manager().unwrap().pending().is_empty());
    assert_eq!(sim.obj.motions_done(), vec![(NC, true), (READY, true)]);
}

#[test]
fn q49_set_motion_table_with_the_same_id_rebuilds_only_the_interpreter() {
    let mut sim = conf_sim();
    sim.obj.do_motion(WALK, &MovementParameters::default());
    sim.obj.clear_motions_done();
    let table = sim.obj.table_manager().unwrap().table.clone();
    sim.obj.set_motion_table(Some(table));
    // The kept manager's old Walk entry is drained against the new interpreter's Ready.
    assert_eq!(
        &sim.obj.motions_done()[..2],
        &[(WALK, false), (READY, false)]
    );
    assert_eq!(sim.obj.table_manager().unwrap().state.substate, READY);
}

#[test]
fn q50_setup_default_animation_never_advances_and_is_wiped_by_default_state() {
    let m = anim_map();
    let mut s = Sequence::new();
    s.append_animation(
        AnimData {
            anim_id: 0x0300_0101,
            low_frame: 0,
            high_frame: i32::MAX,
            framerate: 0.0,
        },
        &m,
    );
    assert_eq!(s.nodes()[0].high_frame, 3);
    s.update(0.5, None, &mut Vec::new());
    assert_eq!(s.frame_number(), 0.0);
    let mut st = MotionState::default();
    let mut n = 0;
    assert!(table_data().set_default_state(&mut st, &mut s, &mut n, &m));
    assert_eq!(s.nodes().len(), 1);
    assert_eq!(s.nodes()[0].framerate, 10.0);
    // Through the object: PartArray.InitDefaults installs it, ticks leave it at frame 0.
    let mut sim = conf_sim();
    sim.obj.init_default_animation(0x0300_0104);
    sim.obj.update_object_internal(0.5);
    assert_eq!(seq_ids(sim.obj.sequence()), vec![0x0300_0104]);
    assert_eq!(
        (
            sim.obj.sequence().nodes()[0].high_frame,
            sim.obj.sequence().frame_number()
        ),
        (2, 0.0)
    );
}
