//! Binary readers for MotionTable (`0x09……`) and Animation (`0x03……`) records
//! (layouts in docs/ac-formats.md).
//!
//! The input is the whole record (offset 0 = its id). Counts are checked against the
//! bytes left before anything is allocated; every error names the file, the record id
//! and the byte offset where the fault was found.

use super::error::RecordError;
use super::hooks::{self, HookReading, PayloadError};
use super::types::{
    AnimHook, AnimRef, Animation, CylSphere, LocationType, MotionData, MotionTable, PartFrame,
    Placement, SetupLight, SetupRecord, Sphere,
};
use crate::math::{AFrame, Quat, Vec3};

/// Smallest encodings, used to bound counts by the bytes left.
const FRAME_SIZE: usize = 28;
const ANIM_REF_SIZE: usize = 16;
const HOOK_MIN_SIZE: usize = 8;
const MOTION_DATA_MIN_SIZE: usize = 4;

/// A bounds-checked little-endian reader over one record.
pub(crate) struct Cursor<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
    file: &'a str,
    id: Option<u32>,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8], file: &'a str) -> Self {
        Cursor {
            bytes,
            pos: 0,
            file,
            id: None,
        }
    }

    pub(crate) fn error_at(&self, offset: usize, message: impl Into<String>) -> RecordError {
        RecordError::Malformed {
            file: self.file.to_string(),
            id: self.id,
            offset,
            message: message.into(),
        }
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], RecordError> {
        if self.remaining() < n {
            return Err(self.error_at(
                self.pos,
                format!(
                    "truncated: {what} needs {n} bytes, {} left",
                    self.remaining()
                ),
            ));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    pub(crate) fn u8(&mut self, what: &str) -> Result<u8, RecordError> {
        Ok(self.take(1, what)?[0])
    }

    pub(crate) fn u32(&mut self, what: &str) -> Result<u32, RecordError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn i32(&mut self, what: &str) -> Result<i32, RecordError> {
        Ok(self.u32(what)? as i32)
    }

    pub(crate) fn f32(&mut self, what: &str) -> Result<f32, RecordError> {
        Ok(f32::from_bits(self.u32(what)?))
    }

    pub(crate) fn vec3(&mut self, what: &str) -> Result<Vec3, RecordError> {
        let b = self.take(12, what)?;
        let f = |i: usize| f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Ok(Vec3::new(f(0), f(4), f(8)))
    }

    /// A `Frame`: origin, then the quaternion stored w first (Q52).
    pub(crate) fn frame(&mut self, what: &str) -> Result<AFrame, RecordError> {
        let b = self.take(FRAME_SIZE, what)?;
        let f = |i: usize| f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        Ok(AFrame {
            origin: Vec3::new(f(0), f(4), f(8)),
            orientation: Quat::new(f(12), f(16), f(20), f(24)),
        })
    }

    /// `BinaryReaderExtensions.AlignBoundary`: skip to the next multiple of 4 counted from
    /// the record start (Q51). The pad bytes' values are ignored, as ACE ignores them.
    pub(crate) fn align4(&mut self, what: &str) -> Result<(), RecordError> {
        let pad = (4 - self.pos % 4) % 4;
        self.take(pad, what).map(|_| ())
    }

    /// A `u32` count whose items take at least `min_item` bytes each: rejected when the
    /// bytes left cannot hold that many, so no allocation is ever sized by bad input.
    pub(crate) fn count(&mut self, what: &str, min_item: usize) -> Result<usize, RecordError> {
        let at = self.pos;
        let n = self.u32(what)? as u64;
        let fits = if min_item == 0 {
            true
        } else {
            n.checked_mul(min_item as u64)
                .is_some_and(|need| need <= self.remaining() as u64)
        };
        if !fits {
            return Err(self.error_at(
                at,
                format!(
                    "{what} {n} exceeds the bytes left ({} bytes, at least {min_item} per item)",
                    self.remaining()
                ),
            ));
        }
        Ok(n as usize)
    }

    pub(crate) fn read_id(&mut self) -> Result<u32, RecordError> {
        let id = self.u32("record id")?;
        self.id = Some(id);
        Ok(id)
    }

    /// Name the record in errors when its bytes do not carry its id (Surface records).
    pub(crate) fn set_id(&mut self, id: u32) {
        self.id = Some(id);
    }

    pub(crate) fn finish(&self) -> Result<(), RecordError> {
        if self.remaining() != 0 {
            return Err(self.error_at(
                self.pos,
                format!(
                    "{} trailing bytes after the end of the record",
                    self.remaining()
                ),
            ));
        }
        Ok(())
    }
}

/// `MotionData.Unpack`: 3 header bytes, alignment, clips, optional velocity and omega.
fn read_motion_data(c: &mut Cursor) -> Result<MotionData, RecordError> {
    let num_anims = c.u8("MotionData numAnims")? as usize;
    let bitfield = c.u8("MotionData bitfield")?;
    let flags = c.u8("MotionData flags")?;
    c.align4("MotionData padding")?;
    if num_anims * ANIM_REF_SIZE > c.remaining() {
        return Err(c.error_at(
            c.pos,
            format!(
                "truncated: {num_anims} AnimData need {} bytes, {} left",
                num_anims * ANIM_REF_SIZE,
                c.remaining()
            ),
        ));
    }
    let mut anims = Vec::with_capacity(num_anims);
    for _ in 0..num_anims {
        anims.push(AnimRef {
            anim_id: c.u32("AnimData anim id")?,
            low_frame: c.i32("AnimData low frame")?,
            high_frame: c.i32("AnimData high frame")?,
            framerate: c.f32("AnimData framerate")?,
        });
    }
    let velocity = if flags & 1 != 0 {
        c.vec3("MotionData velocity")?
    } else {
        Vec3::ZERO
    };
    let omega = if flags & 2 != 0 {
        c.vec3("MotionData omega")?
    } else {
        Vec3::ZERO
    };
    Ok(MotionData {
        bitfield,
        flags,
        anims,
        velocity,
        omega,
    })
}

/// `Dictionary<uint, MotionData>.Unpack`; a repeated key is an error (ACE's loader throws).
fn read_motion_map(c: &mut Cursor, what: &str) -> Result<Vec<(u32, MotionData)>, RecordError> {
    let n = c.count(what, 4 + MOTION_DATA_MIN_SIZE)?;
    let mut out: Vec<(u32, MotionData)> = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.pos;
        let key = c.u32("map key")?;
        if out.iter().any(|(k, _)| *k == key) {
            return Err(c.error_at(at, format!("duplicate key 0x{key:08x} in {what}")));
        }
        out.push((key, read_motion_data(c)?));
    }
    Ok(out)
}

/// `MotionTable.Unpack`.
pub fn read_motion_table(bytes: &[u8], file: &str) -> Result<MotionTable, RecordError> {
    let mut c = Cursor::new(bytes, file);
    let id = c.read_id()?;
    let default_style = c.u32("DefaultStyle")?;
    let n = c.count("StyleDefaults count", 8)?;
    let mut style_defaults: Vec<(u32, u32)> = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.pos;
        let style = c.u32("style")?;
        let substate = c.u32("default substate")?;
        if style_defaults.iter().any(|(s, _)| *s == style) {
            return Err(c.error_at(at, format!("duplicate key 0x{style:08x} in StyleDefaults")));
        }
        style_defaults.push((style, substate));
    }
    let cycles = read_motion_map(&mut c, "Cycles count")?;
    let modifiers = read_motion_map(&mut c, "Modifiers count")?;
    let n = c.count("Links count", 8)?;
    let mut links: Vec<(u32, Vec<(u32, MotionData)>)> = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.pos;
        let outer = c.u32("link outer key")?;
        if links.iter().any(|(k, _)| *k == outer) {
            return Err(c.error_at(at, format!("duplicate key 0x{outer:08x} in Links")));
        }
        let inner = read_motion_map(&mut c, "link inner count")?;
        links.push((outer, inner));
    }
    c.finish()?;
    Ok(MotionTable {
        id,
        default_style,
        style_defaults,
        cycles,
        modifiers,
        links,
    })
}

/// `AnimationHook.ReadHook`, except that an unknown type is an error instead of a
/// silent desynchronisation (Q53) unless `reading` asks for the retail client's behaviour.
fn read_hook(c: &mut Cursor, reading: HookReading) -> Result<AnimHook, RecordError> {
    let at = c.pos;
    let hook_type = c.u32("hook type")?;
    let direction = c.i32("hook direction")?;
    let rest = &c.bytes[c.pos..];
    let len = match hooks::payload_len_with(hook_type, rest, reading) {
        Ok(len) => len,
        Err(PayloadError::UnknownType) => {
            return Err(c.error_at(
                at,
                format!("unknown hook type {hook_type}: its payload length is unknown, the record cannot be parsed further"),
            ))
        }
        Err(PayloadError::Truncated { needed }) => {
            return Err(c.error_at(
                c.pos,
                format!(
                    "truncated: {} hook payload needs {needed} bytes, {} left",
                    hooks::hook_name(hook_type).unwrap_or("?"),
                    rest.len()
                ),
            ))
        }
    };
    let payload = c.take(len, "hook payload")?.to_vec();
    Ok(AnimHook {
        hook_type,
        direction,
        payload,
    })
}

/// `Animation.Unpack` with ACE's hook reading (ReplaceObject's u16 form, unknown hook
/// types refused).
pub fn read_animation(bytes: &[u8], file: &str) -> Result<Animation, RecordError> {
    read_animation_with(bytes, file, HookReading::default())
}

/// `Animation.Unpack` with a chosen [`HookReading`] (ReplaceObject form, unknown hooks).
pub fn read_animation_with(
    bytes: &[u8],
    file: &str,
    reading: HookReading,
) -> Result<Animation, RecordError> {
    let mut c = Cursor::new(bytes, file);
    let id = c.read_id()?;
    let flags = c.u32("Flags")?;
    let num_parts = c.u32("NumParts")?;
    let at = c.pos;
    let num_frames = c.u32("NumFrames")?;
    // Each frame needs its part frames and a hook count, plus a pos frame if present.
    let per_frame = (num_parts as u64) * FRAME_SIZE as u64
        + 4
        + if flags & 1 != 0 { FRAME_SIZE as u64 } else { 0 };
    if (num_frames as u64).saturating_mul(per_frame) > c.remaining() as u64 {
        return Err(c.error_at(
            at,
            format!(
                "NumFrames {num_frames} with NumParts {num_parts} exceeds the bytes left ({})",
                c.remaining()
            ),
        ));
    }
    let frames = num_frames as usize;
    let parts = num_parts as usize;
    let mut pos_frames = Vec::new();
    if flags & 1 != 0 {
        pos_frames.reserve_exact(frames);
        for _ in 0..frames {
            pos_frames.push(c.frame("pos frame")?);
        }
    }
    let mut part_frames = Vec::with_capacity(frames);
    for _ in 0..frames {
        let mut placements = Vec::with_capacity(parts);
        for _ in 0..parts {
            placements.push(c.frame("part frame")?);
        }
        let n = c.count("hook count", HOOK_MIN_SIZE)?;
        let mut hooks = Vec::with_capacity(n);
        for _ in 0..n {
            hooks.push(read_hook(&mut c, reading)?);
        }
        part_frames.push(PartFrame {
            parts: placements,
            hooks,
        });
    }
    c.finish()?;
    Ok(Animation {
        id,
        flags,
        num_parts,
        num_frames,
        pos_frames,
        part_frames,
    })
}

fn read_sphere(c: &mut Cursor, what: &str) -> Result<Sphere, RecordError> {
    Ok(Sphere {
        center: c.vec3(what)?,
        radius: c.f32(what)?,
    })
}

fn read_locations(c: &mut Cursor, what: &str) -> Result<Vec<LocationType>, RecordError> {
    let n = c.count(what, 36)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(LocationType {
            key: c.u32("location key")?,
            part_index: c.u32("location part index")?,
            frame: c.frame("location frame")?,
        });
    }
    Ok(out)
}

/// `Setup.Unpack` (`0x02……`): parts, parent indices and default scales (by flag bits 0
/// and 1), holding locations, connection points, placement frames (one frame per part and
/// hooks), cylinders, spheres, height, radius, step up, step down, the sorting and
/// selection spheres, lights, the five default ids, then padding to 4 from the record start.
pub fn read_setup(bytes: &[u8], file: &str) -> Result<SetupRecord, RecordError> {
    let mut c = Cursor::new(bytes, file);
    let id = c.read_id()?;
    let flags = c.u32("Setup flags")?;
    let n = c.count("NumParts", 4)?;
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        parts.push(c.u32("part id")?);
    }
    let mut parent_index = Vec::new();
    if flags & 1 != 0 {
        if n.saturating_mul(4) > c.remaining() {
            return Err(c.error_at(c.pos, format!("truncated: {n} parent indices")));
        }
        for _ in 0..n {
            parent_index.push(c.u32("parent index")?);
        }
    }
    let mut default_scale = Vec::new();
    if flags & 2 != 0 {
        if n.saturating_mul(12) > c.remaining() {
            return Err(c.error_at(c.pos, format!("truncated: {n} default scales")));
        }
        for _ in 0..n {
            default_scale.push(c.vec3("default scale")?);
        }
    }
    let holding_locations = read_locations(&mut c, "HoldingLocations count")?;
    let connection_points = read_locations(&mut c, "ConnectionPoints count")?;
    let np = c.count("PlacementFrames count", 8 + n.saturating_mul(FRAME_SIZE))?;
    let mut placement_frames = Vec::with_capacity(np);
    for _ in 0..np {
        let key = c.u32("placement key")?;
        let mut frames = Vec::with_capacity(n);
        for _ in 0..n {
            frames.push(c.frame("placement frame")?);
        }
        let nh = c.count("placement hook count", HOOK_MIN_SIZE)?;
        let mut hooks = Vec::with_capacity(nh);
        for _ in 0..nh {
            hooks.push(read_hook(&mut c, HookReading::default())?);
        }
        placement_frames.push(Placement { key, frames, hooks });
    }
    let nc = c.count("CylSpheres count", 20)?;
    let mut cylspheres = Vec::with_capacity(nc);
    for _ in 0..nc {
        cylspheres.push(CylSphere {
            low_point: c.vec3("cylsphere low point")?,
            radius: c.f32("cylsphere radius")?,
            height: c.f32("cylsphere height")?,
        });
    }
    let ns = c.count("Spheres count", 16)?;
    let mut spheres = Vec::with_capacity(ns);
    for _ in 0..ns {
        spheres.push(read_sphere(&mut c, "sphere")?);
    }
    let height = c.f32("Height")?;
    let radius = c.f32("Radius")?;
    let step_up_height = c.f32("StepUpHeight")?;
    let step_down_height = c.f32("StepDownHeight")?;
    let sorting_sphere = read_sphere(&mut c, "SortingSphere")?;
    let selection_sphere = read_sphere(&mut c, "SelectionSphere")?;
    let nl = c.count("Lights count", 48)?;
    let mut lights = Vec::with_capacity(nl);
    for _ in 0..nl {
        lights.push(SetupLight {
            key: c.u32("light key")?,
            frame: c.frame("light frame")?,
            color: c.u32("light color")?,
            intensity: c.f32("light intensity")?,
            falloff: c.f32("light falloff")?,
            cone_angle: c.f32("light cone angle")?,
        });
    }
    let default_animation = c.u32("DefaultAnimation")?;
    let default_script = c.u32("DefaultScript")?;
    let default_motion_table = c.u32("DefaultMotionTable")?;
    let default_sound_table = c.u32("DefaultSoundTable")?;
    let default_script_table = c.u32("DefaultScriptTable")?;
    c.align4("Setup end padding")?;
    c.finish()?;
    Ok(SetupRecord {
        id,
        flags,
        parts,
        parent_index,
        default_scale,
        holding_locations,
        connection_points,
        placement_frames,
        cylspheres,
        spheres,
        height,
        radius,
        step_up_height,
        step_down_height,
        sorting_sphere,
        selection_sphere,
        lights,
        default_animation,
        default_script,
        default_motion_table,
        default_sound_table,
        default_script_table,
    })
}
