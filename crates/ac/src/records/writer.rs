//! Binary writers, the exact inverse of [`super::reader`]: zero padding, maps in
//! the order they are held, pos frames only when `flags & 1`, velocity/omega only when
//! their flag bits are set. An Animation's `num_parts`/`num_frames` are written as
//! held; a record whose lists disagree with them writes bytes the reader rejects
//! ([`Animation::check`](super::types::Animation::check) finds such records).

use super::types::{
    AnimHook, Animation, LocationType, MotionData, MotionTable, SetupRecord, Sphere,
};
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

fn sphere(o: &mut Out, s: &Sphere) {
    o.vec3(s.center);
    o.f32(s.radius);
}

fn locations(o: &mut Out, l: &[LocationType]) {
    o.count(l.len());
    for x in l {
        o.u32(x.key);
        o.u32(x.part_index);
        o.frame(&x.frame);
    }
}

/// The bytes of a Setup record: parent indices only when `flags & 1`, default scales only
/// when `flags & 2`, zero padding to 4 at the end. Placement frames are written as held (a
/// placement whose frame count differs from the part count writes bytes the reader rejects).
pub fn write_setup(s: &SetupRecord) -> Vec<u8> {
    let mut o = Out { buf: Vec::new() };
    o.u32(s.id);
    o.u32(s.flags);
    o.count(s.parts.len());
    for &p in &s.parts {
        o.u32(p);
    }
    if s.flags & 1 != 0 {
        for &p in &s.parent_index {
            o.u32(p);
        }
    }
    if s.flags & 2 != 0 {
        for &v in &s.default_scale {
            o.vec3(v);
        }
    }
    locations(&mut o, &s.holding_locations);
    locations(&mut o, &s.connection_points);
    o.count(s.placement_frames.len());
    for p in &s.placement_frames {
        o.u32(p.key);
        for f in &p.frames {
            o.frame(f);
        }
        o.count(p.hooks.len());
        for h in &p.hooks {
            hook(&mut o, h);
        }
    }
    o.count(s.cylspheres.len());
    for c in &s.cylspheres {
        o.vec3(c.low_point);
        o.f32(c.radius);
        o.f32(c.height);
    }
    o.count(s.spheres.len());
    for x in &s.spheres {
        sphere(&mut o, x);
    }
    o.f32(s.height);
    o.f32(s.radius);
    o.f32(s.step_up_height);
    o.f32(s.step_down_height);
    sphere(&mut o, &s.sorting_sphere);
    sphere(&mut o, &s.selection_sphere);
    o.count(s.lights.len());
    for l in &s.lights {
        o.u32(l.key);
        o.frame(&l.frame);
        o.u32(l.color);
        o.f32(l.intensity);
        o.f32(l.falloff);
        o.f32(l.cone_angle);
    }
    for v in [
        s.default_animation,
        s.default_script,
        s.default_motion_table,
        s.default_sound_table,
        s.default_script_table,
    ] {
        o.u32(v);
    }
    o.align4();
    o.buf
}
