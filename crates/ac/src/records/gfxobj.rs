//! The GfxObj record (`0x01……`, `GfxObj.Unpack`): surfaces, the vertex array, physics
//! polygons and BSP, the sort centre, drawing polygons and BSP, the degrade id (layout in
//! docs/ac-formats.md section 1). Vertices and polygons are decoded; each BSP tree is
//! walked to find its extent and kept verbatim, so records round-trip byte for byte.

use super::error::RecordError;
use super::reader::Cursor;
use crate::math::Vec3;
use serde::{Deserialize, Serialize};

/// Flag bit 0: physics polygons and a physics BSP.
pub const HAS_PHYSICS: u32 = 1;
/// Flag bit 1: drawing polygons and a drawing BSP.
pub const HAS_DRAWING: u32 = 2;
/// Flag bit 3: a degrade id at the end.
pub const HAS_DEGRADE: u32 = 8;

/// BSP node tags, compared as little-endian u32 (so the characters read reversed on disk).
pub const TAG_LEAF: u32 = 0x4C45_4146;
pub const TAG_PORTAL: u32 = 0x504F_5254;
const TAG_BPNN: u32 = 0x4250_6E6E;
const TAG_BPIN_POS: u32 = 0x4250_496E;
const TAG_BPIN_NEG: u32 = 0x4270_494E;
const TAG_BPNN_NEG: u32 = 0x4270_6E4E;
const TAG_BPIN_BOTH: u32 = 0x4250_494E;
const TAG_BPNN_BOTH: u32 = 0x4250_6E4E;
/// `BPOL`: a terminal drawing node holding only polygons (no children).
pub const TAG_BPOL: u32 = 0x4250_4F4C;

/// BSP trees deeper than this are refused (shipped trees are far shallower).
const MAX_BSP_DEPTH: usize = 256;

/// One software vertex (`SWVertex`): its id, position, normal and UV pairs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vertex {
    pub id: u16,
    pub origin: Vec3,
    pub normal: Vec3,
    pub uvs: Vec<[f32; 2]>,
}

/// One polygon: id, texture mode bits (0x4: no front UVs, 0x8: no back UVs), sides type
/// (0 single, 1 double, 2 two-surface), surface indices, vertex ids and UV index arrays.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Polygon {
    pub id: u16,
    pub texture_mode: u8,
    pub sides_type: i32,
    pub pos_surface: i16,
    pub neg_surface: i16,
    pub vertex_ids: Vec<i16>,
    /// Present unless `texture_mode & 4`.
    pub pos_uv: Vec<u8>,
    /// Present only when `sides_type == 2` and not `texture_mode & 8`.
    pub neg_uv: Vec<u8>,
}

impl Polygon {
    fn has_pos_uv(&self) -> bool {
        self.texture_mode & 4 == 0
    }
    fn has_neg_uv(&self) -> bool {
        self.sides_type == 2 && self.texture_mode & 8 == 0
    }
}

/// DAT `GfxObj` (`0x01……`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GfxObj {
    pub id: u32,
    pub flags: u32,
    /// Surface ids; polygons index into this list.
    pub surfaces: Vec<u32>,
    /// 1 = the software vertex (the only type a reader can decode).
    pub vertex_type: u32,
    pub vertices: Vec<Vertex>,
    pub physics_polygons: Vec<Polygon>,
    /// The physics BSP's bytes, verbatim (empty without `HAS_PHYSICS`).
    pub physics_bsp: Vec<u8>,
    pub sort_center: Vec3,
    pub polygons: Vec<Polygon>,
    /// The drawing BSP's bytes, verbatim (empty without `HAS_DRAWING`).
    pub drawing_bsp: Vec<u8>,
    /// Present when `HAS_DEGRADE`.
    pub degrade_id: Option<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum BspKind {
    Physics,
    Drawing,
}

/// The packed count of the format: 1, 2 or 4 bytes by the top bits of the first byte.
fn compressed_u32(c: &mut Cursor, what: &str) -> Result<u32, RecordError> {
    let b0 = c.u8(what)? as u32;
    if b0 & 0x80 == 0 {
        return Ok(b0);
    }
    let b1 = c.u8(what)? as u32;
    if b0 & 0x40 == 0 {
        return Ok(((b0 & 0x3F) << 8) | b1);
    }
    let lo = c.take(2, what)?;
    Ok(((b0 & 0x3F) << 24) | (b1 << 16) | u32::from(u16::from_le_bytes([lo[0], lo[1]])))
}

/// The shortest encoding of `v` (at most 0x3FFFFFFF; larger values are clamped).
pub fn write_compressed_u32(out: &mut Vec<u8>, v: u32) {
    let v = v.min(0x3FFF_FFFF);
    if v < 0x80 {
        out.push(v as u8);
    } else if v < 0x4000 {
        out.push(0x80 | (v >> 8) as u8);
        out.push(v as u8);
    } else {
        out.push(0xC0 | (v >> 24) as u8);
        out.push((v >> 16) as u8);
        out.extend_from_slice(&(v as u16).to_le_bytes());
    }
}

fn u16_at(c: &mut Cursor, what: &str) -> Result<u16, RecordError> {
    let b = c.take(2, what)?;
    Ok(u16::from_le_bytes([b[0], b[1]]))
}

fn read_polygons(c: &mut Cursor, what: &str) -> Result<Vec<Polygon>, RecordError> {
    let at = c.pos;
    let n = compressed_u32(c, what)? as usize;
    // A polygon takes at least 12 bytes.
    if n.saturating_mul(12) > c.remaining() {
        return Err(c.error_at(
            at,
            format!("{what} {n} exceeds the bytes left ({})", c.remaining()),
        ));
    }
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let id = u16_at(c, "polygon id")?;
        let points = c.u8("polygon point count")? as usize;
        let texture_mode = c.u8("polygon texture mode")?;
        let sides_type = c.i32("polygon sides type")?;
        let pos_surface = u16_at(c, "polygon front surface")? as i16;
        let neg_surface = u16_at(c, "polygon back surface")? as i16;
        let mut p = Polygon {
            id,
            texture_mode,
            sides_type,
            pos_surface,
            neg_surface,
            ..Polygon::default()
        };
        for _ in 0..points {
            p.vertex_ids.push(u16_at(c, "polygon vertex id")? as i16);
        }
        if p.has_pos_uv() {
            p.pos_uv = c.take(points, "polygon front UV indices")?.to_vec();
        }
        if p.has_neg_uv() {
            p.neg_uv = c.take(points, "polygon back UV indices")?.to_vec();
        }
        out.push(p);
    }
    Ok(out)
}

/// Walk one BSP node and its children, returning nothing but moving the cursor past it.
fn skip_bsp(c: &mut Cursor, kind: BspKind, depth: usize) -> Result<(), RecordError> {
    if depth > MAX_BSP_DEPTH {
        return Err(c.error_at(c.pos, format!("BSP tree deeper than {MAX_BSP_DEPTH} nodes")));
    }
    let at = c.pos;
    let tag = c.u32("BSP node tag")?;
    let polys = |c: &mut Cursor| -> Result<usize, RecordError> {
        let n = c.count("BSP polygon count", 2)?;
        c.take(n * 2, "BSP polygon indices")?;
        Ok(n)
    };
    match (tag, kind) {
        (TAG_LEAF, BspKind::Drawing) => {
            c.take(4, "BSP leaf index")?;
        }
        (TAG_LEAF, BspKind::Physics) => {
            c.take(4 + 4 + 16, "BSP leaf index, solid, sphere")?;
            polys(c)?;
        }
        (TAG_PORTAL, BspKind::Physics) => {
            return Err(c.error_at(at, "a portal node in a physics BSP"));
        }
        (TAG_PORTAL, BspKind::Drawing) => {
            c.take(16, "BSP plane")?;
            skip_bsp(c, kind, depth + 1)?;
            skip_bsp(c, kind, depth + 1)?;
            c.take(16, "BSP sphere")?;
            let np = c.u32("portal node polygon count")? as usize;
            let nr = c.u32("portal node portal count")? as usize;
            c.take(np.saturating_mul(2), "portal node polygon indices")?;
            c.take(nr.saturating_mul(4), "portal node portals")?;
        }
        (t, _) => {
            c.take(16, "BSP plane")?;
            let (pos, neg) = match t {
                TAG_BPNN | TAG_BPIN_POS => (true, false),
                TAG_BPIN_NEG | TAG_BPNN_NEG => (false, true),
                TAG_BPIN_BOTH | TAG_BPNN_BOTH => (true, true),
                // BPOL, BPFL and unknown tags: childless, as both the client and other
                // readers treat them.
                _ => (false, false),
            };
            if pos {
                skip_bsp(c, kind, depth + 1)?;
            }
            if neg {
                skip_bsp(c, kind, depth + 1)?;
            }
            c.take(16, "BSP sphere")?;
            if kind == BspKind::Drawing {
                polys(c)?;
            }
        }
    }
    Ok(())
}

fn read_bsp(c: &mut Cursor, kind: BspKind) -> Result<Vec<u8>, RecordError> {
    let start = c.pos;
    skip_bsp(c, kind, 0)?;
    Ok(c.bytes[start..c.pos].to_vec())
}

/// `GfxObj.Unpack`.
pub fn read_gfxobj(bytes: &[u8], file: &str) -> Result<GfxObj, RecordError> {
    let mut c = Cursor::new(bytes, file);
    let id = c.read_id()?;
    let flags = c.u32("GfxObj flags")?;
    let at = c.pos;
    let ns = compressed_u32(&mut c, "surface count")? as usize;
    if ns.saturating_mul(4) > c.remaining() {
        return Err(c.error_at(at, format!("surface count {ns} exceeds the bytes left")));
    }
    let mut surfaces = Vec::with_capacity(ns);
    for _ in 0..ns {
        surfaces.push(c.u32("surface id")?);
    }
    let at = c.pos;
    let vertex_type = c.u32("vertex type")?;
    if vertex_type != 1 {
        return Err(c.error_at(
            at,
            format!("vertex type {vertex_type}: only type 1 (software vertices) says what the vertices are"),
        ));
    }
    let nv = c.count("vertex count", 2 + 2 + 24)?;
    let mut vertices = Vec::with_capacity(nv);
    for _ in 0..nv {
        let vid = u16_at(&mut c, "vertex id")?;
        let nuv = u16_at(&mut c, "vertex UV count")? as usize;
        let origin = c.vec3("vertex origin")?;
        let normal = c.vec3("vertex normal")?;
        if nuv.saturating_mul(8) > c.remaining() {
            return Err(c.error_at(c.pos, format!("{nuv} UV pairs exceed the bytes left")));
        }
        let mut uvs = Vec::with_capacity(nuv);
        for _ in 0..nuv {
            uvs.push([c.f32("u")?, c.f32("v")?]);
        }
        vertices.push(Vertex {
            id: vid,
            origin,
            normal,
            uvs,
        });
    }
    let (mut physics_polygons, mut physics_bsp) = (Vec::new(), Vec::new());
    if flags & HAS_PHYSICS != 0 {
        physics_polygons = read_polygons(&mut c, "physics polygon count")?;
        physics_bsp = read_bsp(&mut c, BspKind::Physics)?;
    }
    let sort_center = c.vec3("sort centre")?;
    let (mut polygons, mut drawing_bsp) = (Vec::new(), Vec::new());
    if flags & HAS_DRAWING != 0 {
        polygons = read_polygons(&mut c, "polygon count")?;
        drawing_bsp = read_bsp(&mut c, BspKind::Drawing)?;
    }
    let degrade_id = if flags & HAS_DEGRADE != 0 {
        Some(c.u32("degrade id")?)
    } else {
        None
    };
    c.finish()?;
    Ok(GfxObj {
        id,
        flags,
        surfaces,
        vertex_type,
        vertices,
        physics_polygons,
        physics_bsp,
        sort_center,
        polygons,
        drawing_bsp,
        degrade_id,
    })
}

fn put_f32(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_vec3(out: &mut Vec<u8>, v: Vec3) {
    put_f32(out, v.x);
    put_f32(out, v.y);
    put_f32(out, v.z);
}

fn write_polygons(out: &mut Vec<u8>, polys: &[Polygon]) {
    write_compressed_u32(out, polys.len() as u32);
    for p in polys {
        out.extend_from_slice(&p.id.to_le_bytes());
        out.push(p.vertex_ids.len().min(255) as u8);
        out.push(p.texture_mode);
        out.extend_from_slice(&p.sides_type.to_le_bytes());
        out.extend_from_slice(&p.pos_surface.to_le_bytes());
        out.extend_from_slice(&p.neg_surface.to_le_bytes());
        for v in p.vertex_ids.iter().take(255) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if p.has_pos_uv() {
            out.extend_from_slice(&p.pos_uv);
        }
        if p.has_neg_uv() {
            out.extend_from_slice(&p.neg_uv);
        }
    }
}

/// The bytes of a GfxObj record (the exact inverse of [`read_gfxobj`]).
pub fn write_gfxobj(g: &GfxObj) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&g.id.to_le_bytes());
    out.extend_from_slice(&g.flags.to_le_bytes());
    write_compressed_u32(&mut out, g.surfaces.len() as u32);
    for s in &g.surfaces {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out.extend_from_slice(&g.vertex_type.to_le_bytes());
    out.extend_from_slice(&(g.vertices.len() as u32).to_le_bytes());
    for v in &g.vertices {
        out.extend_from_slice(&v.id.to_le_bytes());
        out.extend_from_slice(&(v.uvs.len() as u16).to_le_bytes());
        put_vec3(&mut out, v.origin);
        put_vec3(&mut out, v.normal);
        for uv in &v.uvs {
            put_f32(&mut out, uv[0]);
            put_f32(&mut out, uv[1]);
        }
    }
    if g.flags & HAS_PHYSICS != 0 {
        write_polygons(&mut out, &g.physics_polygons);
        out.extend_from_slice(&g.physics_bsp);
    }
    put_vec3(&mut out, g.sort_center);
    if g.flags & HAS_DRAWING != 0 {
        write_polygons(&mut out, &g.polygons);
        out.extend_from_slice(&g.drawing_bsp);
    }
    if g.flags & HAS_DEGRADE != 0 {
        out.extend_from_slice(&g.degrade_id.unwrap_or(0).to_le_bytes());
    }
    out
}

/// A drawing BSP of one terminal `BPOL` node holding `polygons` inside `sphere` (centre,
/// radius); its plane is zero (never read for a childless node).
pub fn terminal_drawing_bsp(polygons: &[u16], center: Vec3, radius: f32) -> Vec<u8> {
    let mut out = TAG_BPOL.to_le_bytes().to_vec();
    out.extend_from_slice(&[0u8; 16]);
    put_vec3(&mut out, center);
    put_f32(&mut out, radius);
    out.extend_from_slice(&(polygons.len() as u32).to_le_bytes());
    for p in polygons {
        out.extend_from_slice(&p.to_le_bytes());
    }
    out
}
