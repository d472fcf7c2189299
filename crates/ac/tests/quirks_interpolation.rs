//! Interpolation and position-correction quirks (ACE's `MoveOrTeleport`, `PositionManager`, `InterpolationManager`, Q48;
//! what the reference traces contain) and the `CorrectionMode` option. Expected values are
//! worked out by hand in the comments; every number used is exact in f32.

use retroanim_ac::interpolation::*;
use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::position_manager::{move_or_teleport, PositionManager, TeleportHost};

const OUTDOOR: u32 = 0x7d64_0013;
const INDOOR: u32 = 0x7d64_0113;

/// A stand-in object: positions are taken exactly; `moves` says whether a tick's
/// offset is applied (false = an object held in place, e.g. by collision).
struct Obj {
    pos: Position,
    contact: bool,
    max_speed: f32,
    moves: bool,
    in_cell: bool,
    player_distance: f32,
    headings: Vec<f32>,
    snaps: Vec<Position>,
    teleports: Vec<Position>,
    pm_created: u32,
}

impl Obj {
    fn at(cell: u32, y: f32) -> Obj {
        Obj {
            pos: Position::new(cell, frame(0.0, y, 0.0)),
            contact: true,
            max_speed: 2.5,
            moves: true,
            in_cell: true,
            player_distance: f32::MAX,
            headings: vec![],
            snaps: vec![],
            teleports: vec![],
            pm_created: 0,
        }
    }

    /// `UpdatePositionInternal` + `UseTime` with no animation: identity offset, the
    /// position manager's adjustment, `Combine(position, offset)`, then `use_time`.
    fn tick(&mut self, pm: &mut PositionManager, q: f64) -> AFrame {
        let mut offset = AFrame::default();
        pm.adjust_offset(&mut offset, q, self);
        if self.moves {
            self.pos.frame = AFrame::combine(&self.pos.frame, &offset);
        }
        pm.use_time(self);
        offset
    }
}

impl InterpHost for Obj {
    fn position(&self) -> Position {
        self.pos
    }
    fn in_contact(&self) -> bool {
        self.contact
    }
    fn adjusted_max_speed(&mut self) -> f32 {
        self.max_speed
    }
    fn set_heading(&mut self, deg: f32) {
        self.headings.push(deg);
    }
    fn set_position_simple(&mut self, p: &Position) -> bool {
        self.snaps.push(*p);
        self.pos = *p;
        true
    }
    fn set_velocity(&mut self, _v: Vec3) {}
    fn autonomy_blip_distance(&self) -> f64 {
        autonomy_blip_distance(self.pos.cell, 0)
    }
}

impl TeleportHost for Obj {
    fn in_cell(&self) -> bool {
        self.in_cell
    }
    fn player_distance(&self) -> f32 {
        self.player_distance
    }
    fn set_position_teleport(&mut self, p: &Position) {
        self.teleports.push(*p);
        self.pos = *p;
        self.in_cell = true;
    }
    fn position_manager_created(&mut self) {
        self.pm_created += 1;
    }
}

fn frame(x: f32, y: f32, z: f32) -> AFrame {
    AFrame {
        origin: Vec3::new(x, y, z),
        orientation: Quat::IDENTITY,
    }
}

fn target(cell: u32, y: f32) -> Position {
    Position::new(cell, frame(0.0, y, 0.0))
}

fn mgr(pm: &PositionManager) -> &InterpolationManager {
    pm.interpolation()
        .expect("manager created by interpolate_to")
}

fn queue_ys(pm: &PositionManager) -> Vec<f32> {
    mgr(pm).queue().map(|n| n.position.frame.origin.y).collect()
}

#[test]
fn q48_ace_correction_never_moves_the_object_and_rewrites_the_node() {
    // max speed 2.5 -> correction speed 5.0; q = 0.1 -> at most 0.5 per tick.
    let mut obj = Obj::at(OUTDOOR, 0.0);
    let mut pm = PositionManager::new(CorrectionMode::Ace);
    pm.interpolate_to(target(OUTDOOR, 4.0), false, &mut obj);
    let offset = obj.tick(&mut pm, 0.1);
    assert_eq!(offset, AFrame::default(), "the tick's offset is unchanged");
    assert_eq!(obj.pos.frame.origin, Vec3::new(0.0, 0.0, 0.0));
    // The node became the correction (4 - 0) scaled by 0.5 / 4 = 0.125.
    assert_eq!(queue_ys(&pm), vec![0.5]);
    let m = mgr(&pm);
    assert_eq!((m.frame_counter, m.node_fail_counter), (1, 0));
    assert_eq!(m.original_distance, 999_999.0);
    assert_eq!(m.progress_quantum, 0.1);
    // Ticks 2-4: node stays (0, 0.5, 0). Tick 5 closes the first window: progress from
    // 999999 passes, the window restarts with original distance 0.5.
    for _ in 2..=5 {
        obj.tick(&mut pm, 0.1);
    }
    let m = mgr(&pm);
    assert_eq!((m.frame_counter, m.original_distance), (0, 0.5));
    // Ticks 6-9 fill the second window; tick 10 has made no progress (delta 0): the node
    // fails, blip_to is the modified node and the same tick's use_time snaps to it.
    for _ in 6..=9 {
        obj.tick(&mut pm, 0.1);
    }
    assert!(obj.snaps.is_empty());
    obj.tick(&mut pm, 0.1);
    assert_eq!(obj.snaps, vec![target(OUTDOOR, 0.5)]);
    assert_eq!(obj.pos.frame.origin, Vec3::new(0.0, 0.5, 0.0));
    let m = mgr(&pm);
    assert!(!m.is_interpolating());
    assert_eq!(m.node_fail_counter, 0);
    assert_eq!(m.blip_to, Some(target(OUTDOOR, 0.5)));
    assert_eq!(m.original_distance, 999_999.0);
}

#[test]
fn q48_retail_correction_replaces_the_offset_and_arrives() {
    // Same target: the object walks 0.5 per tick (4.0 / 0.5 = 8 ticks) and the 9th tick
    // finds it within 0.05 and completes the node.
    let mut obj = Obj::at(OUTDOOR, 0.0);
    let mut pm = PositionManager::new(CorrectionMode::Retail);
    pm.interpolate_to(target(OUTDOOR, 4.0), false, &mut obj);
    let offset = obj.tick(&mut pm, 0.1);
    assert_eq!(
        offset,
        frame(0.0, 0.5, 0.0),
        "translation replaced, rotation kept"
    );
    assert_eq!(queue_ys(&pm), vec![4.0], "retail keeps the node's target");
    let mut ys = vec![obj.pos.frame.origin.y];
    for _ in 2..=8 {
        obj.tick(&mut pm, 0.1);
        ys.push(obj.pos.frame.origin.y);
    }
    assert_eq!(ys, vec![0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0]);
    assert!(pm.is_interpolating());
    obj.tick(&mut pm, 0.1);
    assert!(!pm.is_interpolating());
    assert_eq!(obj.pos.frame.origin, Vec3::new(0.0, 4.0, 0.0));
    assert!(obj.snaps.is_empty(), "no blip was needed");
}

#[test]
fn q48_far_target_is_queued_with_four_fails_and_blipped_next_tick() {
    // 150 > 100 (outdoor blip distance): queued, fail counter 4.
    let mut obj = Obj::at(OUTDOOR, 0.0);
    let mut pm = PositionManager::new(CorrectionMode::Ace);
    pm.interpolate_to(target(OUTDOOR, 150.0), false, &mut obj);
    assert_eq!(mgr(&pm).node_fail_counter, 4);
    assert_eq!(queue_ys(&pm), vec![150.0]);
    // ACE: the tick's adjust_offset first rewrites the node to the 0.5 correction, and
    // use_time snaps to that modified node.
    obj.tick(&mut pm, 0.1);
    assert_eq!(obj.snaps, vec![target(OUTDOOR, 0.5)]);
    assert_eq!(mgr(&pm).node_fail_counter, 0);
    assert!(!pm.is_interpolating());

    // Retail: the offset moves 0.5, then use_time snaps to the untouched target.
    let mut obj = Obj::at(OUTDOOR, 0.0);
    let mut pm = PositionManager::new(CorrectionMode::Retail);
    pm.interpolate_to(target(OUTDOOR, 150.0), false, &mut obj);
    obj.tick(&mut pm, 0.1);
    assert_eq!(obj.snaps, vec![target(OUTDOOR, 150.0)]);
    assert_eq!(obj.pos.frame.origin, Vec3::new(0.0, 150.0, 0.0));
}

#[test]
fn q48_indoor_blip_distance_is_20() {
    let mut obj = Obj::at(INDOOR, 0.0);
    let mut pm = PositionManager::new(CorrectionMode::Ace);
    pm.interpolate_to(target(INDOOR, 19.0), false, &mut obj);
    assert_eq!(mgr(&pm).node_fail_counter, 0);
    pm.interpolate_to(target(INDOOR, 41.0), false, &mut obj);
    // Measured from the queue's tail (19 -> 41 = 22 > 20): far.
    assert_eq!(mgr(&pm).node_fail_counter, 4);
    assert_eq!(queue_ys(&pm), vec![19.0, 41.0]);
}

#[test]
fn q48_target_within_005_sets_heading_and_stops() {
    let mut obj = Obj::at(OUTDOOR, 0.0);
    let mut pm = PositionManager::new(CorrectionMode::Ace);
    pm.interpolate_to(target(OUTDOOR, 3.0), false, &mut obj);
    // Heading 90 (facing +X) is the rotation of -90 degrees about +Z.
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let near = Position::new(
        OUTDOOR,
        AFrame {
            origin: Vec3::new(0.0, 0.04, 0.0),
            orientation: Quat::new(h, 0.0, 0.0, -h),
        },
    );
    pm.interpolate_to(near, false, &mut obj);
    assert!(!pm.is_interpolating());
    assert_eq!(obj.headings.len(), 1);
    assert!((obj.headings[0] - 90.0).abs() < 1e-3, "{:?}", obj.headings);
    // keep_heading: no heading change.
    pm.interpolate_to(near, true, &mut obj);
    assert_eq!(obj.headings.len(), 1);
}

#[test]
fn q48_queue_holds_at_most_20_nodes_oldest_dropped() {
    let mut obj = Obj::at(OUTDOOR, 0.0);
    let mut pm = PositionManager::new(CorrectionMode::Ace);
    for i in 1..=25 {
        pm.interpolate_to(target(OUTDOOR, i as f32), false, &mut obj);
    }
    let ys = queue_ys(&pm);
    assert_eq!(ys.len(), 20);
    assert_eq!(ys[0], 6.0);
    assert_eq!(ys[19], 25.0);
}

#[test]
fn q48_tail_within_005_of_a_new_target_is_replaced() {
    let mut obj = Obj::at(OUTDOOR, 0.0);
    let mut pm = PositionManager::new(CorrectionMode::Ace);
    pm.interpolate_to(target(OUTDOOR, 2.0), false, &mut obj);
    pm.interpolate_to(target(OUTDOOR, 5.0), false, &mut obj);
    pm.interpolate_to(target(OUTDOOR, 5.03125), false, &mut obj);
    assert_eq!(queue_ys(&pm), vec![2.0, 5.03125]);
}

#[test]
fn q48_no_correction_without_contact() {
    let mut obj = Obj::at(OUTDOOR, 0.0);
    obj.contact = false;
    let mut pm = PositionManager::new(CorrectionMode::Retail);
    pm.interpolate_to(target(OUTDOOR, 4.0), false, &mut obj);
    let offset = obj.tick(&mut pm, 0.1);
    assert_eq!(offset, AFrame::default());
    assert_eq!(mgr(&pm).frame_counter, 0);
    assert_eq!(queue_ys(&pm), vec![4.0]);
}

#[test]
fn q48_zero_max_speed_falls_back_to_7_5() {
    // 7.5 x 0.1 = 0.75 per tick: the node (0,3,0) becomes 3 x (0.75 / 3) = 0.75.
    let mut obj = Obj::at(OUTDOOR, 0.0);
    obj.max_speed = 0.0;
    let mut pm = PositionManager::new(CorrectionMode::Ace);
    pm.interpolate_to(target(OUTDOOR, 3.0), false, &mut obj);
    obj.tick(&mut pm, 0.1);
    assert_eq!(queue_ys(&pm), vec![0.75]);
}

#[test]
fn q48_progress_window_30_percent_rule() {
    // Retail, object held in place (offsets not applied), target 10 away, correction
    // speed 5. Tick 5 closes the first window (original distance becomes 10).
    let run = |moved: f32| {
        let mut obj = Obj::at(OUTDOOR, 0.0);
        obj.moves = false;
        let mut pm = PositionManager::new(CorrectionMode::Retail);
        pm.interpolate_to(target(OUTDOOR, 10.0), false, &mut obj);
        for _ in 1..=5 {
            obj.tick(&mut pm, 0.1);
        }
        assert_eq!(mgr(&pm).original_distance, 10.0);
        obj.pos = target(OUTDOOR, moved);
        let mut offset = AFrame::default();
        for _ in 6..=9 {
            pm.adjust_offset(&mut offset, 0.1, &mut obj);
        }
        // Progress quantum after 4 ticks: 0.1f32 summed = 0.4 (f32 0x3ECCCCCD).
        assert_eq!(mgr(&pm).progress_quantum, 0.4);
        pm.adjust_offset(&mut offset, 0.1, &mut obj);
        (obj, pm)
    };
    // 0.75 covered in 0.5 s at speed 5: 0.75 / 0.5 / 5 = 0.3, not below 0.3: passes.
    let (_, pm) = run(0.75);
    let m = mgr(&pm);
    assert_eq!((m.node_fail_counter, m.frame_counter), (0, 0));
    assert_eq!(m.original_distance, 9.25);
    // 0.625 covered: 0.25 < 0.3: fails, the node is dropped and becomes the blip target.
    let (mut obj, mut pm) = run(0.625);
    let m = mgr(&pm);
    assert_eq!(m.node_fail_counter, 1);
    assert!(!m.is_interpolating());
    assert_eq!(m.blip_to, Some(target(OUTDOOR, 10.0)));
    // Repair 2: an empty queue with a positive fail counter snaps to blip_to.
    pm.use_time(&mut obj);
    assert_eq!(obj.pos, target(OUTDOOR, 10.0));
    assert_eq!(mgr(&pm).node_fail_counter, 0);
}

#[test]
fn q48_failed_node_with_a_following_node_moves_on() {
    // Two queued nodes; the first fails: no blip target, the second becomes the head and
    // the original distance is measured to it.
    let mut obj = Obj::at(OUTDOOR, 0.0);
    obj.moves = false;
    let mut pm = PositionManager::new(CorrectionMode::Retail);
    pm.interpolate_to(target(OUTDOOR, 10.0), false, &mut obj);
    pm.interpolate_to(target(OUTDOOR, 12.0), false, &mut obj);
    for _ in 1..=10 {
        obj.tick(&mut pm, 0.1);
    }
    let m = mgr(&pm);
    assert_eq!(m.node_fail_counter, 1);
    assert_eq!(m.blip_to, None);
    assert_eq!(m.original_distance, 12.0);
    assert_eq!(queue_ys(&pm), vec![12.0]);
}

#[test]
fn autonomy_blip_distance_by_cell_and_player_id() {
    assert_eq!(autonomy_blip_distance(0x7d64_0013, 0), 100.0);
    assert_eq!(autonomy_blip_distance(0x7d64_00ff, 0), 100.0);
    assert_eq!(autonomy_blip_distance(0x7d64_0100, 0), 20.0);
    assert_eq!(autonomy_blip_distance(0x7d64_0113, 0x5000_0001), 25.0);
    assert_eq!(autonomy_blip_distance(0x7d64_0113, 0x6000_0000), 20.0);
}

#[test]
fn position_distance_crosses_landblocks() {
    let a = Position::new(0x7d64_0013, frame(10.0, 0.0, 0.0));
    let b = Position::new(0x7e64_0013, frame(2.0, 0.0, 0.0));
    // One landblock east: 192 + 2 - 10.
    assert_eq!(a.get_offset(&b), Vec3::new(184.0, 0.0, 0.0));
    assert_eq!(a.distance(&b), 184.0);
}

#[test]
fn move_or_teleport_stamps_contact_and_the_96_unit_rule() {
    let run = |t: i32, contact: bool, dist: f32, in_cell: bool| {
        let mut obj = Obj::at(OUTDOOR, 0.0);
        obj.player_distance = dist;
        obj.in_cell = in_cell;
        let mut pm = None;
        let r = move_or_teleport(
            &mut pm,
            CorrectionMode::Ace,
            &mut obj,
            target(OUTDOOR, 5.0),
            t,
            contact,
        );
        (r, obj, pm)
    };
    // Older updates are refused: -5, and 40000 (wrapped).
    for t in [-5, 40000] {
        let (r, obj, pm) = run(t, true, 10.0, true);
        assert!(!r);
        assert!(obj.teleports.is_empty() && obj.snaps.is_empty() && pm.is_none());
    }
    // A newer stamp (1 ..= 32767), or no cell, teleports.
    for (t, in_cell) in [(1, true), (32767, true), (0, false)] {
        let (r, obj, _) = run(t, true, 10.0, in_cell);
        assert!(r);
        assert_eq!(obj.teleports, vec![target(OUTDOOR, 5.0)]);
    }
    // Stamp 0 without contact: refused.
    let (r, obj, pm) = run(0, false, 10.0, true);
    assert!(!r && obj.teleports.is_empty() && pm.is_none());
    // Near (< 96): interpolate (creates the position manager).
    let (r, obj, pm) = run(0, true, 95.5, true);
    assert!(r);
    assert_eq!(obj.pm_created, 1);
    let pm = pm.unwrap();
    assert_eq!(queue_ys(&pm), vec![5.0]);
    // Far (>= 96): snap, no manager.
    let (r, obj, pm) = run(0, true, 96.0, true);
    assert!(r);
    assert_eq!(obj.snaps, vec![target(OUTDOOR, 5.0)]);
    assert!(pm.is_none());
}

#[test]
fn correction_mode_serde_names() {
    assert_eq!(
        serde_json::to_string(&CorrectionMode::Ace).unwrap(),
        "\"ace\""
    );
    let m: CorrectionMode = serde_json::from_str("\"retail\"").unwrap();
    assert_eq!(m, CorrectionMode::Retail);
    assert_eq!(CorrectionMode::default(), CorrectionMode::Ace);
}

#[test]
fn snapshot_views_match_the_trace_fields() {
    let mut obj = Obj::at(OUTDOOR, 0.0);
    let mut pm = PositionManager::new(CorrectionMode::Ace);
    assert_eq!(pm.manager_view(), None);
    pm.interpolate_to(target(OUTDOOR, 4.0), false, &mut obj);
    obj.tick(&mut pm, 0.1);
    let q = serde_json::to_string(&pm.queue_view()).unwrap();
    assert_eq!(
        q,
        r#"[{"type":"position","origin":[0.0,0.5,0.0],"orientation":[1.0,0.0,0.0,0.0]}]"#
    );
    let m = serde_json::to_string(&pm.manager_view()).unwrap();
    assert_eq!(
        m,
        r#"{"frame_counter":1,"node_fail_counter":0,"original_distance":999999.0,"progress_quantum":0.1,"keep_heading":false,"blip_to":null}"#
    );
}

#[test]
fn correction_mode_retail_moves_a_turned_object_toward_the_target_keeping_the_animation_rotation() {
    // The object faces +X (heading 90: -90 degrees about +Z); the target is 4 ahead on
    // +Y. The correction is expressed in the object's axes, so Combine() moves it 0.5
    // along world +Y; the tick's animation rotation (a small turn) is kept.
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let facing_x = Quat::new(h, 0.0, 0.0, -h);
    let mut obj = Obj::at(OUTDOOR, 0.0);
    obj.pos.frame.orientation = facing_x;
    let mut pm = PositionManager::new(CorrectionMode::Retail);
    pm.interpolate_to(target(OUTDOOR, 4.0), false, &mut obj);
    let turn = Quat::new(0.999_999_9, 0.0, 0.0, 0.000_5);
    let mut offset = AFrame {
        origin: Vec3::new(0.0, 0.1, 0.0),
        orientation: turn,
    };
    pm.adjust_offset(&mut offset, 0.1, &mut obj);
    assert_eq!(offset.orientation, turn);
    let moved = AFrame::combine(&obj.pos.frame, &offset);
    assert!((moved.origin.x - 0.0).abs() < 1e-6, "{:?}", moved.origin);
    assert!((moved.origin.y - 0.5).abs() < 1e-6, "{:?}", moved.origin);
    // Ace leaves the same offset untouched.
    let mut obj = Obj::at(OUTDOOR, 0.0);
    obj.pos.frame.orientation = facing_x;
    let mut pm = PositionManager::new(CorrectionMode::Ace);
    pm.interpolate_to(target(OUTDOOR, 4.0), false, &mut obj);
    let before = AFrame {
        origin: Vec3::new(0.0, 0.1, 0.0),
        orientation: turn,
    };
    let mut offset = before;
    pm.adjust_offset(&mut offset, 0.1, &mut obj);
    assert_eq!(offset, before);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Op {
        Target(f32, f32, bool),
        Tick(f64),
        Contact(bool),
        Speed(f32),
        Teleport(i32, bool, f32),
        Stop,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (-150.0f32..150.0, -150.0f32..150.0, any::<bool>())
                .prop_map(|(x, y, k)| Op::Target(x, y, k)),
            (0.0f64..2.0).prop_map(Op::Tick),
            any::<bool>().prop_map(Op::Contact),
            prop_oneof![Just(0.0f32), 0.0f32..12.0].prop_map(Op::Speed),
            (-40000i32..40000, any::<bool>(), 0.0f32..200.0)
                .prop_map(|(t, c, d)| Op::Teleport(t, c, d)),
            Just(Op::Stop),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn any_op_sequence_keeps_the_queue_bounded(
            retail in any::<bool>(),
            indoor in any::<bool>(),
            ops in prop::collection::vec(op(), 1..80),
        ) {
            let mode = if retail { CorrectionMode::Retail } else { CorrectionMode::Ace };
            let mut obj = Obj::at(if indoor { INDOOR } else { OUTDOOR }, 0.0);
            let mut pm: Option<PositionManager> = None;
            let cell = obj.pos.cell;
            for op in ops {
                match op {
                    Op::Target(x, y, keep) => retroanim_ac::position_manager::interpolate_to(
                        &mut pm,
                        mode,
                        &mut obj,
                        Position::new(cell, frame(x, y, 0.0)),
                        keep,
                    ),
                    Op::Tick(dt) => {
                        if let Some(p) = &mut pm {
                            obj.tick(p, dt);
                        }
                    }
                    Op::Contact(c) => obj.contact = c,
                    Op::Speed(s) => obj.max_speed = s,
                    Op::Teleport(t, contact, dist) => {
                        obj.player_distance = dist;
                        let p = Position::new(cell, frame(dist, 0.0, 0.0));
                        move_or_teleport(&mut pm, mode, &mut obj, p, t, contact);
                    }
                    Op::Stop => {
                        if let Some(p) = &mut pm {
                            p.stop_interpolating();
                        }
                    }
                }
                if let Some(p) = &pm {
                    let m = p.interpolation();
                    if let Some(m) = m {
                        prop_assert!(m.queue().count() <= 20);
                        prop_assert!((0..=5).contains(&m.node_fail_counter), "{}", m.node_fail_counter);
                        prop_assert!((0..5).contains(&m.frame_counter));
                    }
                }
            }
        }
    }
}
