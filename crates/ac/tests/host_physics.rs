//! Quirks Q113–Q119 (docs/ac.md): the two-phase tick (the host's transition) and ACE's
//! outdoor landblock rule, plus the contract of docs/embedding.md "Host physics": a host
//! that answers nothing gets the plain tick bit for bit.

mod common;

use common::*;
use retroanim_ac::commands::{MovementParameters, WeenieError};
use retroanim_ac::host_physics::{Correction, HostPhysicsError, Proposal};
use retroanim_ac::interpolation::Position;
use retroanim_ac::landblock::adjust_to_outside;
use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::motion_interp::Weenie;
use retroanim_ac::physics_obj::PhysicsObj;
use retroanim_ac::sequence::{AnimData, AnimMap};
use retroanim_ac::{Creature, Loader, World};
use std::sync::Arc;

const CELL: u32 = 0x7D64_0013;

/// A mover whose animation carries it at `velocity` (units/s) and turns it at `omega`
/// (rad/s about +Z), standing on walkable ground in `CELL` at `origin`.
fn mover(id: u32, origin: Vec3, velocity: Vec3, omega: f32) -> PhysicsObj {
    let mut m = AnimMap::new();
    m.insert(anim(1, 4, None, &[]));
    let w = Weenie {
        is_creature: true,
        run_rate: 1.0,
    };
    let start = AFrame::new(origin, Quat::IDENTITY);
    let mut obj = PhysicsObj::new(Arc::new(m), w, CELL, start);
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
    obj.sequence_mut().set_velocity(velocity);
    obj.sequence_mut().set_omega(Vec3::new(0.0, 0.0, omega));
    obj.set_active(true);
    obj.set_in_cell(true);
    obj.set_gravity(false);
    obj.apply_contact(true, true);
    obj.set_id(id);
    obj
}

fn world_with(objs: Vec<PhysicsObj>) -> World {
    let mut w = World::new(100.0);
    for o in objs {
        assert!(w.add(o));
    }
    w
}

fn origin_of(w: &World, id: u32) -> Vec3 {
    w.get(id).unwrap().frame().origin
}

#[test]
fn q113_only_a_moved_origin_is_proposed() {
    // 1 walks +y at 2 units/s; 2 turns in place; 3 stands still.
    let mut w = world_with(vec![
        mover(1, Vec3::new(0.0, 20.0, 0.0), Vec3::new(0.0, 2.0, 0.0), 0.0),
        mover(2, Vec3::new(5.0, 5.0, 0.0), Vec3::ZERO, -1.5),
        mover(3, Vec3::new(9.0, 9.0, 0.0), Vec3::ZERO, 0.0),
    ]);
    let ps: Vec<Proposal> = w.propose(0.1).unwrap().to_vec();
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].id, 1);
    assert_eq!(ps[0].from.cell, CELL);
    assert_eq!(ps[0].from.frame.origin, Vec3::new(0.0, 20.0, 0.0));
    // One tenth of a second at 2 units/s, in the object's cell.
    assert_eq!(ps[0].to.cell, CELL);
    assert!(close(ps[0].to.frame.origin.y, 20.2));
    assert!(w.commit().unwrap(), "one batch: the tick is complete");
    assert!(!w.tick_open());
    // The turner turned (-0.15 rad: w = cos 0.075) without being asked about it.
    let q = w.get(2).unwrap().frame().orientation;
    assert!(close(q.w, 0.997_188_8));
    assert_eq!(origin_of(&w, 2), Vec3::new(5.0, 5.0, 0.0));
}

#[test]
fn q114_a_corrected_frame_is_committed_with_its_own_velocity_and_the_next_tick_starts_there() {
    let mut w = world_with(vec![mover(
        1,
        Vec3::new(10.0, 10.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
        0.0,
    )]);
    w.propose(0.1).unwrap();
    // A wall: the host pushes the walker half a unit back.
    let back = Position::new(CELL, AFrame::new(Vec3::new(10.0, 9.5, 0.0), Quat::IDENTITY));
    w.correct(1, Correction::MoveTo(back)).unwrap();
    assert!(w.commit().unwrap());
    let o = w.get(1).unwrap();
    assert_eq!(o.frame().origin, Vec3::new(10.0, 9.5, 0.0));
    // (9.5 - 10) / 0.1 = -5 units/s.
    assert_eq!(o.cached_velocity(), Vec3::new(0.0, -5.0, 0.0));
    // An object without a motion table rests after a tick on walkable ground (ACE's
    // `UpdatePhysicsInternal`); wake it for the next one.
    w.get_mut(1).unwrap().set_active(true);
    let next = w.propose(0.1).unwrap()[0];
    assert_eq!(next.from.frame.origin, Vec3::new(10.0, 9.5, 0.0));
    assert!(close(next.to.frame.origin.y, 9.7));
    w.commit().unwrap();
}

#[test]
fn q114_the_velocity_across_a_landblock_adds_the_landblock_step() {
    // From y 191.5 in landblock 0x7D64 to y 0.5 in 0x7D65: (0, 192 + 0.5 - 191.5, 0) = one
    // unit in 0.1 s.
    let mut w = world_with(vec![mover(
        1,
        Vec3::new(60.0, 191.5, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
        0.0,
    )]);
    w.propose(0.1).unwrap();
    let over = Position::new(
        0x7D65_0011,
        AFrame::new(Vec3::new(60.0, 0.5, 0.0), Quat::IDENTITY),
    );
    w.correct(1, Correction::MoveTo(over)).unwrap();
    w.commit().unwrap();
    let o = w.get(1).unwrap();
    assert_eq!(o.cell(), 0x7D65_0011);
    assert_eq!(o.cached_velocity(), Vec3::new(0.0, 10.0, 0.0));
}

#[test]
fn q115_a_refused_move_keeps_its_turn_and_stops_the_velocity() {
    let mut w = world_with(vec![mover(
        1,
        Vec3::new(0.0, 20.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
        -1.5,
    )]);
    let p = w.propose(0.1).unwrap()[0];
    w.correct(1, Correction::Stay).unwrap();
    w.commit().unwrap();
    let o = w.get(1).unwrap();
    assert_eq!(o.frame().origin, Vec3::new(0.0, 20.0, 0.0));
    assert_eq!(o.frame().orientation, p.to.frame.orientation);
    assert!(close(o.frame().orientation.w, 0.997_188_8));
    assert!(close(o.frame().orientation.z, -0.074_929_7));
    assert_eq!(o.cached_velocity(), Vec3::ZERO);
}

#[test]
fn q116_the_outdoor_rule_names_landblock_and_cell_from_the_origin() {
    // Column 7, row 2 of landblock 0x7D64 (index 7 * 8 + 2 + 1 = 59 = 0x3B), x 191.5 + 1:
    // column floor(192.5 / 24) = 8 of the map row 125 * 8 = 1000 -> 1008 = landblock
    // 1008 / 8 = 126 = 0x7E, column 0; row 800 + floor(60 / 24) = 802 -> landblock 100 =
    // 0x64, row 2; index 0 * 8 + 2 + 1 = 3. The origin loses one landblock: 0.5.
    assert_eq!(
        adjust_to_outside(0x7D64_003B, Vec3::new(192.5, 60.0, 3.0)),
        Some((0x7E64_0003, Vec3::new(0.5, 60.0, 3.0)))
    );
    // Inside the landblock the cell id is recomputed, whatever it was: (30, 50) is column
    // 1, row 2: index 1 * 8 + 2 + 1 = 11.
    assert_eq!(
        adjust_to_outside(0x7D64_0013, Vec3::new(30.0, 50.0, 0.0)),
        Some((0x7D64_000B, Vec3::new(30.0, 50.0, 0.0)))
    );
    // The far corner: column 7, row 7 = index 64.
    assert_eq!(
        adjust_to_outside(0x7D64_0001, Vec3::new(191.0, 191.0, 0.0)),
        Some((0x7D64_0040, Vec3::new(191.0, 191.0, 0.0)))
    );
}

#[test]
fn q117_a_coordinate_within_epsilon_of_zero_counts_as_zero() {
    // -0.0001 is within 0.0002 of 0: the origin stays in column 0 of its landblock.
    assert_eq!(
        adjust_to_outside(0x7D64_0001, Vec3::new(-0.0001, 10.0, 0.0)),
        Some((0x7D64_0001, Vec3::new(0.0, 10.0, 0.0)))
    );
    // -0.5 is not: column 999 = landblock 124 (0x7C), column 7; index 7 * 8 + 0 + 1 = 57.
    assert_eq!(
        adjust_to_outside(0x7D64_0001, Vec3::new(-0.5, 10.0, 0.0)),
        Some((0x7C64_0039, Vec3::new(191.5, 10.0, 0.0)))
    );
}

#[test]
fn q118_past_the_map_edge_there_is_no_cell() {
    // West of landblock x 0.
    assert_eq!(
        adjust_to_outside(0x0000_0001, Vec3::new(-0.5, 10.0, 0.0)),
        None
    );
    // East of landblock x 0xFE: column 254 * 8 + 8 = 2040, the map's width.
    assert_eq!(
        adjust_to_outside(0xFE64_0039, Vec3::new(192.5, 10.0, 0.0)),
        None
    );
    // Landblock byte 0xFF is past the edge already.
    assert_eq!(
        adjust_to_outside(0xFF00_0001, Vec3::new(10.0, 10.0, 0.0)),
        None
    );
    // Through the world's helper the move is refused, as ACE's transition collides.
    let mut w = World::new(100.0);
    let mut o = mover(
        1,
        Vec3::new(0.25, 20.0, 0.0),
        Vec3::new(-5.0, 0.0, 0.0),
        0.0,
    );
    o.set_cell(0x0000_0001);
    w.add(o);
    w.propose(0.1).unwrap();
    w.apply_outdoor_rule().unwrap();
    w.commit().unwrap();
    let o = w.get(1).unwrap();
    assert_eq!(o.cell(), 0x0000_0001);
    assert_eq!(o.frame().origin, Vec3::new(0.25, 20.0, 0.0));
    assert_eq!(o.cached_velocity(), Vec3::ZERO);
}

#[test]
fn q119_any_in_range_cell_is_recomputed_and_others_have_none() {
    // An indoor cell (0x100) is turned into the outdoor cell under its origin: (30, 30)
    // is column 1, row 1, index 10.
    assert_eq!(
        adjust_to_outside(0x7D64_0100, Vec3::new(30.0, 30.0, 5.0)),
        Some((0x7D64_000A, Vec3::new(30.0, 30.0, 5.0)))
    );
    // The landblock's own id 0xFFFF is in range too.
    assert_eq!(
        adjust_to_outside(0x7D64_FFFF, Vec3::new(0.0, 0.0, 0.0)),
        Some((0x7D64_0001, Vec3::ZERO))
    );
    // 65 (0x41) and 0xFFFE are neither outdoor nor indoor.
    assert_eq!(
        adjust_to_outside(0x7D64_0041, Vec3::new(1.0, 1.0, 0.0)),
        None
    );
    assert_eq!(
        adjust_to_outside(0x7D64_FFFE, Vec3::new(1.0, 1.0, 0.0)),
        None
    );
    // The world's helper leaves an indoor proposal as it is (ACE's transition applies
    // the rule to outdoor cells only).
    let mut w = World::new(100.0);
    let mut o = mover(1, Vec3::new(30.0, 30.0, 0.0), Vec3::new(0.0, 2.0, 0.0), 0.0);
    o.set_cell(0x7D64_0100);
    w.add(o);
    w.propose(0.1).unwrap();
    w.apply_outdoor_rule().unwrap();
    w.commit().unwrap();
    assert_eq!(w.get(1).unwrap().cell(), 0x7D64_0100);
}

#[test]
fn a_walker_crossing_a_landblock_gets_the_next_cell_with_the_outdoor_rule() {
    // Column 2, row 7 (index 2 * 8 + 7 + 1 = 24 = 0x18); walking +y at 10 units/s from
    // y 191.5, it crosses y 192 during the first tick.
    let mut o = mover(
        1,
        Vec3::new(60.0, 191.5, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
        0.0,
    );
    o.set_cell(0x7D64_0018);
    let mut w = world_with(vec![o]);
    let p = w.propose(0.1).unwrap()[0];
    assert!(p.to.frame.origin.y > 192.0);
    w.apply_outdoor_rule().unwrap();
    w.commit().unwrap();
    let o = w.get(1).unwrap();
    // Row 800 + 8 = 808: landblock y 101 (0x65), row 0; column 1000 + 2: index 2 * 8 + 1.
    assert_eq!(o.cell(), 0x7D65_0011);
    assert_eq!(o.frame().origin.y, p.to.frame.origin.y - 192.0);
    assert_eq!(o.frame().origin.x, 60.0);
    // Without the rule (a host that does nothing) the cell stays and y runs past 192.
    let mut o = mover(
        1,
        Vec3::new(60.0, 191.5, 0.0),
        Vec3::new(0.0, 10.0, 0.0),
        0.0,
    );
    o.set_cell(0x7D64_0018);
    let mut plain = world_with(vec![o]);
    plain.tick(0.1);
    assert_eq!(plain.get(1).unwrap().cell(), 0x7D64_0018);
    assert_eq!(origin_of(&plain, 1).y, p.to.frame.origin.y);
}

#[test]
fn corrections_are_checked_and_located() {
    let mut w = world_with(vec![mover(
        7,
        Vec3::new(0.0, 20.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
        0.0,
    )]);
    assert_eq!(
        w.correct(7, Correction::Stay),
        Err(HostPhysicsError::NotOpen)
    );
    assert_eq!(w.commit(), Err(HostPhysicsError::NotOpen));
    w.propose(0.1).unwrap();
    assert_eq!(w.propose(0.1).err(), Some(HostPhysicsError::AlreadyOpen));
    let at = |x: f32, q: Quat, cell: u32| {
        Correction::MoveTo(Position::new(cell, AFrame::new(Vec3::new(x, 0.0, 0.0), q)))
    };
    let e = w
        .correct(7, at(f32::NAN, Quat::IDENTITY, CELL))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "correction of object 0x7: frame.origin.x is NaN or infinite"
    );
    let e = w
        .correct(7, at(1.0, Quat::new(0.0, 0.0, 0.0, 0.0), CELL))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "correction of object 0x7: frame.orientation: [0, 0, 0, 0] is too close to zero length to be an orientation (its squared length must be at least 1e-12)"
    );
    let e = w.correct(7, at(1.0, Quat::IDENTITY, 0)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "correction of object 0x7: cell 0 names no cell"
    );
    assert_eq!(
        w.correct(8, Correction::Stay),
        Err(HostPhysicsError::NotProposed(8))
    );
    // The refused corrections changed nothing: the proposal is committed as made.
    let to = w.proposals()[0].to;
    w.commit().unwrap();
    assert_eq!(w.get(7).unwrap().position(), to);
}

#[test]
fn a_world_changed_between_propose_and_commit_abandons_the_tick() {
    let mut w = world_with(vec![
        mover(1, Vec3::new(0.0, 20.0, 0.0), Vec3::new(0.0, 2.0, 0.0), 0.0),
        mover(2, Vec3::new(0.0, 30.0, 0.0), Vec3::new(0.0, 2.0, 0.0), 0.0),
    ]);
    w.propose(0.1).unwrap();
    assert!(w.take(1).is_some());
    assert_eq!(w.commit(), Err(HostPhysicsError::WorldChanged));
    assert!(!w.tick_open());
    // The next tick works again (2 is woken: it rested, having no motion table).
    w.get_mut(2).unwrap().set_active(true);
    assert_eq!(w.propose(0.1).unwrap().len(), 1);
    assert!(w.commit().unwrap());
}

// ---- a host that does nothing gets the plain tick ----

fn records() -> retroanim_ac::MotionSet {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
    Loader::from_dir(dir).load(0x0900_0001).unwrap()
}

/// Everything a trace shows of each object, as bits.
fn bits(w: &World) -> Vec<Vec<u64>> {
    w.objects
        .iter()
        .map(|o| {
            let f = o.frame();
            let q = f.orientation;
            let v = o.cached_velocity();
            let mut out: Vec<u64> = [
                f.origin.x, f.origin.y, f.origin.z, q.w, q.x, q.y, q.z, v.x, v.y, v.z,
            ]
            .iter()
            .map(|x| u64::from(x.to_bits()))
            .collect();
            out.push(u64::from(o.id()));
            out.push(u64::from(o.cell()));
            out.push(u64::from(o.sequence().frame_number().to_bits()));
            out.push(u64::from(o.minterp().interpreted.forward_command));
            out.push(u64::from(o.is_active()));
            out.extend(o.hook_log().iter().map(|&h| u64::from(h)));
            out.extend(
                o.motions_done()
                    .iter()
                    .map(|&(m, ok)| u64::from(m) << 1 | u64::from(ok)),
            );
            out.extend(o.move_completions().iter().map(|&e| e as u64));
            out.push(o.last_move_completion().map_or(u64::MAX, |e| e as u64));
            out.push(u64::from(o.moveto().is_moving_to()));
            out
        })
        .collect()
}

/// A world where creatures chase, turn to, stick to and wander around each other, in an
/// order where some targets come before their movers and some after, plus independent
/// walkers.
fn busy_world() -> World {
    let m = records();
    let mut w = World::new(100.0);
    for id in 1..=16u32 {
        let x = (id % 4) as f32 * 3.0;
        let y = (id / 4) as f32 * 3.0;
        let c = Creature::builder(&m).origin(Vec3::new(x, y, 0.0)).build();
        assert!(w.add_creature(id, 0.5, 1.8, c));
    }
    w
}

fn orders(w: &mut World, t: usize) {
    let walk = MovementParameters::default();
    match t % 40 {
        0 => {
            // Movers both before and after their targets in the update order.
            w.move_to_object(2, 9, MovementParameters::default());
            w.move_to_object(12, 3, MovementParameters::default());
            w.move_to_object(5, 6, MovementParameters::default());
        }
        5 => {
            w.turn_to_object(7, 14, MovementParameters::default());
            w.stick_to(10, 11);
        }
        10 => {
            let f = AFrame::new(Vec3::new(20.0, -4.0, 0.0), Quat::IDENTITY);
            w.move_to_position(14, f, MovementParameters::default());
            w.get_mut(1).unwrap().do_motion(WALK, &walk);
            w.get_mut(16).unwrap().do_motion(TURN_R, &walk);
        }
        20 => {
            w.get_mut(9).unwrap().do_motion(RUN, &walk);
            w.get_mut(4).unwrap().do_motion(WALK, &walk);
        }
        30 => {
            w.cancel_moveto(12, WeenieError::ActionCancelled);
            w.get_mut(1).unwrap().stop_completely();
            w.get_mut(9).unwrap().stop_completely();
            w.unstick(10);
        }
        _ => {}
    }
}

#[test]
fn a_host_that_answers_nothing_ticks_bit_for_bit_like_the_plain_tick() {
    let mut plain = busy_world();
    let mut hosted = busy_world();
    let mut batches = 0usize;
    for t in 0..400 {
        orders(&mut plain, t);
        orders(&mut hosted, t);
        let dt = if t % 3 == 0 { 0.05 } else { 1.0 / 30.0 };
        plain.tick(dt);
        hosted.propose(dt).unwrap();
        batches += 1;
        while !hosted.commit().unwrap() {
            batches += 1;
        }
        assert_eq!(bits(&plain), bits(&hosted), "tick {t}");
    }
    // Linked creatures were proposed alone: more than one batch per tick on average.
    assert!(batches > 400, "{batches} batches");
    // Something happened: moves completed and creatures walked.
    assert!(plain
        .objects
        .iter()
        .any(|o| o.last_move_completion().is_some()));
    assert!(origin_of(&plain, 1).y > 10.0);
}

#[test]
fn a_host_answering_accept_through_tick_hosted_equals_the_plain_tick() {
    let mut plain = busy_world();
    let mut hosted = busy_world();
    let mut asked = 0usize;
    for t in 0..200 {
        orders(&mut plain, t);
        orders(&mut hosted, t);
        plain.tick(0.05);
        hosted
            .tick_hosted(0.05, |_| {
                asked += 1;
                Correction::Accept
            })
            .unwrap();
        assert_eq!(bits(&plain), bits(&hosted), "tick {t}");
    }
    assert!(asked > 100, "{asked} proposals");
}

#[test]
fn independent_walkers_are_one_batch() {
    let m = records();
    let mut w = World::new(100.0);
    let walk = MovementParameters::default();
    for id in 1..=50u32 {
        let c = Creature::builder(&m)
            .origin(Vec3::new(id as f32 * 2.0, 0.0, 0.0))
            .build();
        w.add_creature(id, 0.5, 1.8, c);
        w.get_mut(id).unwrap().do_motion(WALK, &walk);
    }
    for _ in 0..5 {
        w.tick(0.05);
    }
    assert_eq!(w.propose(0.05).unwrap().len(), 50);
    assert!(w.commit().unwrap());
}
