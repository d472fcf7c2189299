//! Binary writers, the exact inverse of [`super::reader`]: zero padding, maps in
//! the order they are held, pos frames only when `flags & 1`, velocity/omega only when
//! their flag bits are set. An Animation's `num_parts`/`num_frames` are written as
//! held; a record whose lists disagree with them writes bytes the reader rejects
//! ([`Animation::check`](super::types::Animation::check) finds such records).

use super::types::{AnimHook, Animation, MotionData, MotionTable};
use crate::math::{AFrame, Vec3};

struct Out {
    buf: Vec<u8>,
}

impl Out {
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn vec3(&mut self, v: Vec3) {
        self.f32(v.x);
        self.f32(v.y);
        self.f32(v.z);
    }
    /// Origin, then the quaternion w first (Q52).
    fn frame(&mut self, f: &AFrame) {
        self.vec3(f.origin);
        self.f32(f.orientation.w);
        self.f32(f.orientation.x);
        self.f32(f.orientation.y);
        self.f32(f.orientation.z);
    }
    /// Zero bytes up to the next multiple of 4 from the record start (Q51).
    fn align4(&mut self) {
        while self.buf.len() & 3 != 0 {
            self.buf.push(0);
        }
    }
    fn count(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
}

fn motion_data(o: &mut Out, md: &MotionData) {
    // numAnims is a u8 on disk; a longer list cannot be represented and is cut.
    let n = md.anims.len().min(u8::MAX as usize);
    o.u8(n as u8);
    o.u8(md.bitfield);
    o.u8(md.flags);
    o.align4();
    for a in &md.anims[..n] {
        o.u32(a.anim_id);
        o.i32(a.low_frame);
        o.i32(a.high_frame);
        o.f32(a.framerate);
    }
    if md.flags & 1 != 0 {
        o.vec3(md.velocity);
    }
    if md.flags & 2 != 0 {
        o.vec3(md.omega);
    }
}

fn motion_map(o: &mut Out, map: &[(u32, MotionData)]) {
    o.count(map.len());
    for (k, md) in map {
        o.u32(*k);
        motion_data(o, md);
    }
}

/// The bytes of a MotionTable record.
pub fn write_motion_table(t: &MotionTable) -> Vec<u8> {
    let mut o = Out { buf: Vec::new() };
    o.u32(t.id);
    o.u32(t.default_style);
    o.count(t.style_defaults.len());
    for (s, d) in &t.style_defaults {
        o.u32(*s);
        o.u32(*d);
    }
    motion_map(&mut o, &t.cycles);
    motion_map(&mut o, &t.modifiers);
    o.count(t.links.len());
    for (outer, inner) in &t.links {
        o.u32(*outer);
        motion_map(&mut o, inner);
    }
    o.buf
}

fn hook(o: &mut Out, h: &AnimHook) {
    o.u32(h.hook_type);
    o.i32(h.direction);
    o.buf.extend_from_slice(&h.payload);
}

/// The bytes of an Animation record.
pub fn write_animation(a: &Animation) -> Vec<u8> {
    let mut o = Out { buf: Vec::new() };
    o.u32(a.id);
    o.u32(a.flags);
    o.u32(a.num_parts);
    o.u32(a.num_frames);
    if a.flags & 1 != 0 {
        for f in &a.pos_frames {
            o.frame(f);
        }
    }
    for pf in &a.part_frames {
        for f in &pf.parts {
            o.frame(f);
        }
        o.count(pf.hooks.len());
        for h in &pf.hooks {
            hook(&mut o, h);
        }
    }
    o.buf
}
