//! Shared test helpers: in-memory records for the quirk tests and the record set of
//! tests/conformance/assets (written with the crate's own writer).
#![allow(dead_code)]

use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::records::{AnimHook, AnimRef, Animation, MotionData, MotionTable, PartFrame};

pub const NC: u32 = 0x8000_003D;
pub const SWORD: u32 = 0x8000_003E;
pub const READY: u32 = 0x4100_0003;
pub const WALK: u32 = 0x4500_0005;
pub const WALK_BACK: u32 = 0x4500_0006;
pub const RUN: u32 = 0x4400_0007;
pub const TURN_R: u32 = 0x6500_000D;
pub const TURN_L: u32 = 0x6500_000E;
pub const SIDE_R: u32 = 0x6500_000F;
pub const SIDE_L: u32 = 0x6500_0010;
pub const DEAD: u32 = 0x4000_0011;
pub const SITTING: u32 = 0x4100_0013;
pub const SLEEPING: u32 = 0x4100_0014;
pub const FALLING: u32 = 0x4000_0015;
pub const WAVE: u32 = 0x1300_0087;
pub const POWER_UP: u32 = 0x1000_0070;

pub fn key(style: u32, motion: u32) -> u32 {
    (style << 16) | (motion & 0x00FF_FFFF)
}

pub fn anim_ref(id: u32, fps: f32) -> AnimRef {
    AnimRef {
        anim_id: id,
        low_frame: 0,
        high_frame: -1,
        framerate: fps,
    }
}

pub fn md(
    anims: &[AnimRef],
    velocity: Option<Vec3>,
    omega: Option<Vec3>,
    bitfield: u8,
) -> MotionData {
    MotionData {
        bitfield,
        flags: u8::from(velocity.is_some()) | (u8::from(omega.is_some()) << 1),
        anims: anims.to_vec(),
        velocity: velocity.unwrap_or(Vec3::ZERO),
        omega: omega.unwrap_or(Vec3::ZERO),
    }
}

pub fn hook(hook_type: u32, direction: i32) -> AnimHook {
    let payload = match hook_type {
        1 | 2 | 6 | 14 | 15 | 16 | 18 | 25 => vec![0x42, 0, 0, 0x0a],
        _ => Vec::new(),
    };
    AnimHook {
        hook_type,
        direction,
        payload,
    }
}

/// An animation of one part: `frames` frames, optional per-frame root displacement
/// `pos` (applied to every frame), and `hooks` as (frame, hook).
pub fn anim(id: u32, frames: u32, pos: Option<AFrame>, hooks: &[(usize, AnimHook)]) -> Animation {
    let part_frames = (0..frames as usize)
        .map(|i| PartFrame {
            parts: vec![AFrame::IDENTITY],
            hooks: hooks
                .iter()
                .filter(|(f, _)| *f == i)
                .map(|(_, h)| h.clone())
                .collect(),
        })
        .collect();
    Animation {
        id,
        flags: u32::from(pos.is_some()),
        num_parts: 1,
        num_frames: frames,
        pos_frames: pos.map_or(Vec::new(), |p| vec![p; frames as usize]),
        part_frames,
    }
}

/// A quarter-degree-ish yaw per frame, as a unit quaternion about +Z.
pub fn yaw_frame(dy: f32, radians: f32) -> AFrame {
    let h = radians * 0.5;
    AFrame::new(
        Vec3::new(0.0, dy, 0.0),
        Quat::new(h.cos(), 0.0, 0.0, h.sin()),
    )
}

/// The animations of the conformance table.
pub fn conformance_anims() -> Vec<Animation> {
    vec![
        anim(0x0300_0101, 4, None, &[]),
        anim(
            0x0300_0102,
            6,
            Some(AFrame::new(Vec3::new(0.0, 0.05, 0.0), Quat::IDENTITY)),
            &[(2, hook(1, 1)), (4, hook(2, 0))],
        ),
        anim(0x0300_0103, 5, None, &[(3, hook(1, -1)), (1, hook(16, 0))]),
        anim(0x0300_0104, 3, None, &[]),
        anim(0x0300_0105, 2, None, &[]),
        anim(0x0300_0106, 2, None, &[]),
        anim(0x0300_0107, 3, None, &[]),
        anim(0x0300_0108, 4, Some(yaw_frame(0.0, -0.05)), &[]),
        anim(0x0300_0109, 2, None, &[]),
        anim(0x0300_010A, 4, None, &[]),
        anim(0x0300_010B, 5, None, &[(1, hook(1, 0))]),
        anim(0x0300_010C, 4, None, &[(2, hook(4, 0))]),
        anim(0x0300_010D, 3, None, &[]),
        anim(0x0300_010E, 4, None, &[]),
        anim(0x0300_010F, 2, None, &[]),
        anim(0x0300_0110, 2, None, &[]),
    ]
}

/// The conformance motion table `0x09000100`.
pub fn conformance_table() -> MotionTable {
    let v = |x, y, z| Some(Vec3::new(x, y, z));
    MotionTable {
        id: 0x0900_0100,
        default_style: NC,
        style_defaults: vec![(NC, READY), (SWORD, READY)],
        cycles: vec![
            (
                key(NC, READY),
                md(&[anim_ref(0x0300_0101, 10.0)], None, None, 0),
            ),
            (
                key(NC, WALK),
                md(&[anim_ref(0x0300_0102, 12.0)], v(0.0, 3.12, 0.0), None, 0),
            ),
            (
                key(NC, RUN),
                md(&[anim_ref(0x0300_0103, 15.0)], v(0.0, 4.0, 0.0), None, 0),
            ),
            (
                key(NC, TURN_R),
                md(&[anim_ref(0x0300_0108, 10.0)], None, v(0.0, 0.0, -1.5), 2),
            ),
            (
                key(NC, SIDE_R),
                md(&[anim_ref(0x0300_010A, 10.0)], v(1.25, 0.0, 0.0), None, 2),
            ),
            (
                key(NC, DEAD),
                md(&[anim_ref(0x0300_010F, 5.0)], None, None, 1),
            ),
            (
                key(NC, FALLING),
                md(&[anim_ref(0x0300_0110, 10.0)], None, None, 0),
            ),
            (key(NC, SITTING), md(&[], None, None, 0)),
            (
                key(NC, SLEEPING),
                md(
                    &[anim_ref(0x0300_0104, 10.0), anim_ref(0x0300_0101, 10.0)],
                    None,
                    None,
                    0,
                ),
            ),
            (
                key(SWORD, READY),
                md(&[anim_ref(0x0300_010E, 10.0)], None, None, 0),
            ),
            (
                key(SWORD, WALK),
                md(&[anim_ref(0x0300_0102, 12.0)], v(0.0, 3.12, 0.0), None, 0),
            ),
        ],
        modifiers: vec![
            (key(NC, TURN_R), md(&[], None, v(0.0, 0.0, -1.5), 0)),
            (SIDE_R & 0x00FF_FFFF, md(&[], v(1.25, 0.0, 0.0), None, 0)),
        ],
        links: vec![
            (
                key(NC, READY),
                vec![
                    (
                        WALK,
                        md(&[anim_ref(0x0300_0104, 20.0)], v(0.0, 1.0, 0.0), None, 0),
                    ),
                    (RUN, md(&[anim_ref(0x0300_0104, 30.0)], None, None, 0)),
                    (TURN_R, md(&[anim_ref(0x0300_0109, 10.0)], None, None, 0)),
                    (WAVE, md(&[anim_ref(0x0300_010B, 10.0)], None, None, 0)),
                    (SWORD, md(&[anim_ref(0x0300_010D, 10.0)], None, None, 0)),
                    (SITTING, md(&[], None, None, 0)),
                ],
            ),
            (
                key(NC, WALK),
                vec![
                    (READY, md(&[anim_ref(0x0300_0105, 15.0)], None, None, 0)),
                    (RUN, md(&[anim_ref(0x0300_0106, 20.0)], None, None, 0)),
                    (WAVE, md(&[anim_ref(0x0300_010C, 10.0)], None, None, 0)),
                ],
            ),
            (
                key(NC, RUN),
                vec![(READY, md(&[anim_ref(0x0300_0107, 20.0)], None, None, 0))],
            ),
            (
                NC << 16,
                vec![(POWER_UP, md(&[anim_ref(0x0300_010B, 20.0)], None, None, 0))],
            ),
            (
                key(SWORD, READY),
                vec![(NC, md(&[anim_ref(0x0300_010D, 10.0)], None, None, 0))],
            ),
        ],
    }
}

/// A second table `0x09000200` with no Falling cycle and a link-less style default, for
/// the setup path where `Falling` is refused.
pub fn small_table() -> MotionTable {
    MotionTable {
        id: 0x0900_0200,
        default_style: NC,
        style_defaults: vec![(NC, READY)],
        cycles: vec![
            (
                key(NC, READY),
                md(&[anim_ref(0x0300_0101, 10.0)], None, None, 0),
            ),
            (
                key(NC, WALK),
                md(
                    &[anim_ref(0x0300_0102, -12.0)],
                    Some(Vec3::new(0.0, -2.0, 0.0)),
                    None,
                    0,
                ),
            ),
        ],
        modifiers: vec![],
        links: vec![],
    }
}

use retroanim_ac::motion_table::MotionTableData;
use retroanim_ac::scenario::{AcSim, Setup};
use retroanim_ac::sequence::AnimMap;
use std::sync::Arc;

/// An object built exactly as the runner's setup does, from in-memory records.
/// `setup` holds the setup fields other than `motion_table`.
pub fn sim_with(table: &MotionTable, anims: Vec<Animation>, setup: serde_json::Value) -> AcSim {
    let data = Arc::new(MotionTableData::from(table));
    let mut map = AnimMap::new();
    for a in anims {
        map.insert(a);
    }
    let mut v = setup;
    v["motion_table"] = serde_json::json!(format!("0x{:08x}", table.id));
    let setup: Setup = serde_json::from_value(v).unwrap();
    AcSim::from_parts(data, map, &setup)
}

/// The conformance table on flat ground at (10, 20, 0).
pub fn conf_sim() -> AcSim {
    sim_with(
        &conformance_table(),
        conformance_anims(),
        serde_json::json!({"origin": [10.0, 20.0, 0.0]}),
    )
}

pub fn table_data() -> MotionTableData {
    MotionTableData::from(&conformance_table())
}

pub fn anim_map() -> AnimMap {
    let mut m = AnimMap::new();
    for a in conformance_anims() {
        m.insert(a);
    }
    m
}

/// Anim ids of a sequence, in order.
pub fn seq_ids(seq: &retroanim_ac::sequence::Sequence) -> Vec<u32> {
    seq.nodes().iter().map(|n| n.anim.id).collect()
}

pub fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-5 * (1.0 + b.abs())
}
