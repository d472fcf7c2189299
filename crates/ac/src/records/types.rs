//! Record types exactly as the binary layout holds them. Maps keep file order
//! (ACE reads them into dictionaries, whose enumeration order is insertion order).

use crate::math::{AFrame, Vec3};
use serde::{Deserialize, Serialize};

/// DAT `AnimData`: one clip reference inside a MotionData.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnimRef {
    pub anim_id: u32,
    pub low_frame: i32,
    /// -1 means "last frame".
    pub high_frame: i32,
    /// Frames per second; negative plays backwards.
    pub framerate: f32,
}

/// DAT `MotionData`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MotionData {
    /// bit 0: exclusive cycle; bit 1: restricted (see `is_allowed`).
    pub bitfield: u8,
    /// bit 0: velocity present; bit 1: omega present.
    pub flags: u8,
    pub anims: Vec<AnimRef>,
    /// Zero when `flags & 1 == 0`.
    pub velocity: Vec3,
    /// Zero when `flags & 2 == 0`.
    pub omega: Vec3,
}

/// DAT `MotionTable` (`0x09……`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MotionTable {
    pub id: u32,
    pub default_style: u32,
    /// style -> default substate, in file order.
    pub style_defaults: Vec<(u32, u32)>,
    /// cycle key -> MotionData, in file order.
    pub cycles: Vec<(u32, MotionData)>,
    /// modifier key -> MotionData, in file order.
    pub modifiers: Vec<(u32, MotionData)>,
    /// outer key (style << 16 | from substate) -> [(to motion, MotionData)], in file order.
    pub links: Vec<(u32, Vec<(u32, MotionData)>)>,
}

/// `AnimationHookDir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HookDir {
    Backward = -1,
    Both = 0,
    Forward = 1,
}

/// One animation hook: its type number, direction and the raw payload bytes that
/// follow the 8-byte header (kept verbatim so a record round-trips byte-exactly).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnimHook {
    pub hook_type: u32,
    pub direction: i32,
    pub payload: Vec<u8>,
}

/// DAT `AnimationFrame`: one placement per part, then the frame's hooks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PartFrame {
    pub parts: Vec<AFrame>,
    pub hooks: Vec<AnimHook>,
}

/// DAT `Animation` (`0x03……`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Animation {
    pub id: u32,
    /// bit 0: pos frames present.
    pub flags: u32,
    pub num_parts: u32,
    pub num_frames: u32,
    /// Root displacement per frame; empty when `flags & 1 == 0`.
    pub pos_frames: Vec<AFrame>,
    pub part_frames: Vec<PartFrame>,
}

impl Animation {
    /// Whether the lists agree with the counts the writer puts on disk: `num_frames`
    /// part frames of `num_parts` placements each, and `num_frames` pos frames when
    /// `flags & 1` (none otherwise).
    pub fn check(&self) -> Result<(), String> {
        let frames = self.num_frames as usize;
        if self.part_frames.len() != frames {
            return Err(format!(
                "{} part frames, num_frames says {frames}",
                self.part_frames.len()
            ));
        }
        let want_pos = if self.flags & 1 != 0 { frames } else { 0 };
        if self.pos_frames.len() != want_pos {
            return Err(format!(
                "{} pos frames, expected {want_pos}",
                self.pos_frames.len()
            ));
        }
        for (i, f) in self.part_frames.iter().enumerate() {
            if f.parts.len() != self.num_parts as usize {
                return Err(format!(
                    "frame {i} has {} part placements, num_parts says {}",
                    f.parts.len(),
                    self.num_parts
                ));
            }
            for h in &f.hooks {
                if super::hooks::payload_len(h.hook_type, &h.payload) != Ok(h.payload.len()) {
                    return Err(format!(
                        "frame {i}: hook type {} has a {}-byte payload that does not match its layout",
                        h.hook_type,
                        h.payload.len()
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A Setup holding location or connection point: slot key, part index, placement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocationType {
    pub key: u32,
    pub part_index: u32,
    pub frame: AFrame,
}

/// One Setup placement: a frame per part, then hooks (none in shipped setups).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    pub key: u32,
    pub frames: Vec<AFrame>,
    pub hooks: Vec<AnimHook>,
}

/// A collision cylinder: low point, radius, height (that order on disk).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CylSphere {
    pub low_point: Vec3,
    pub radius: f32,
    pub height: f32,
}

/// A sphere: centre, radius.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sphere {
    pub center: Vec3,
    pub radius: f32,
}

/// A Setup light (48 bytes on disk; `cone_angle` is uninitialised memory in shipped files).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetupLight {
    pub key: u32,
    pub frame: AFrame,
    pub color: u32,
    pub intensity: f32,
    pub falloff: f32,
    pub cone_angle: f32,
}

/// DAT `Setup` (`0x02……`), field by field in file order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SetupRecord {
    pub id: u32,
    /// bit 0: parent indices present; bit 1: default scales present; bits 2, 3 advisory.
    pub flags: u32,
    /// GfxObj ids, one per part.
    pub parts: Vec<u32>,
    /// One per part when `flags & 1`, else empty.
    pub parent_index: Vec<u32>,
    /// One per part when `flags & 2`, else empty.
    pub default_scale: Vec<Vec3>,
    pub holding_locations: Vec<LocationType>,
    pub connection_points: Vec<LocationType>,
    pub placement_frames: Vec<Placement>,
    pub cylspheres: Vec<CylSphere>,
    pub spheres: Vec<Sphere>,
    pub height: f32,
    pub radius: f32,
    pub step_up_height: f32,
    pub step_down_height: f32,
    pub sorting_sphere: Sphere,
    pub selection_sphere: Sphere,
    pub lights: Vec<SetupLight>,
    pub default_animation: u32,
    pub default_script: u32,
    pub default_motion_table: u32,
    pub default_sound_table: u32,
    pub default_script_table: u32,
}

impl Default for Sphere {
    fn default() -> Self {
        Sphere {
            center: Vec3::ZERO,
            radius: 0.0,
        }
    }
}
