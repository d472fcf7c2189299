//! F3 drawing data: the geometry a `TSGroup` chunk carries after its 12 base bytes (kept
//! verbatim as the chunk's `tail`, so files still round-trip byte for byte). This module
//! decodes that tail without changing it, for viewers (docs/herc-formats.md, "TSGroup
//! geometry"):
//!
//! i16 index count, i16 point count, i16 surface-list size (4 × the number of 16-byte
//! surface entries), i16 item count; the index list (i16 each); the points (3 × i16 each);
//! the surface entries (8 × i16: front colour and flag, front line colour and flag, back
//! colour and flag, back line colour and flag); then the items, each a chunk (tag, length,
//! payload): the polygons.

use retroanim_core::ScenarioError;

use super::ByteReader;

/// `TSPoly`.
pub const TAG_POLY: u32 = 0x0014_0001;
/// `TSSolidPoly`: a TSPoly and a colour index.
pub const TAG_SOLID_POLY: u32 = 0x0014_0002;
/// `TSShadedPoly` (a TSSolidPoly and more).
pub const TAG_SHADED_POLY: u32 = 0x0014_0003;
/// `TSGouraudPoly` (a TSSolidPoly and a normal list).
pub const TAG_GOURAUD_POLY: u32 = 0x0014_0009;
/// `TSTexture4Poly` (a TSSolidPoly and texture data).
pub const TAG_TEXTURE4_POLY: u32 = 0x0014_000f;

/// One surface entry of a group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurfaceEntry {
    pub front_color: i16,
    pub front_flag: i16,
    pub front_line_color: i16,
    pub front_line_flag: i16,
    pub back_color: i16,
    pub back_flag: i16,
    pub back_line_color: i16,
    pub back_line_flag: i16,
}

/// One polygon item. The TSPoly fields are common to every polygon class; `color` is the
/// TSSolidPoly colour index (absent for a plain TSPoly); `extra` holds the class's further
/// bytes (shading, normals, texture coordinates), undecoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupPoly {
    pub tag: u32,
    /// Index of the polygon's normal (its table is not part of the group).
    pub normal: i16,
    /// Index of the polygon's centre point.
    pub center: i16,
    pub vertex_count: i16,
    /// First entry of this polygon's vertices in the group's index list.
    pub vertex_list: i16,
    pub color: Option<i16>,
    pub extra: Vec<u8>,
}

/// The decoded drawing data of a TSGroup.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupGeometry {
    /// Point indices; a polygon's vertices are `indexes[vertex_list .. vertex_list + count]`.
    pub indexes: Vec<i16>,
    pub points: Vec<[i16; 3]>,
    pub surfaces: Vec<SurfaceEntry>,
    /// Polygons in file order; items of other kinds are kept with `vertex_count` 0 and
    /// their whole payload in `extra`.
    pub polys: Vec<GroupPoly>,
}

impl GroupGeometry {
    /// Decode a TSGroup's tail. `file` and `at` (the tail's offset in the file) place errors.
    pub fn read(tail: &[u8], file: &str, at: usize) -> Result<GroupGeometry, ScenarioError> {
        // A reader placed at the tail's own offset, so errors count from the file start.
        let mut r = ByteReader {
            bytes: tail,
            pos: 0,
            base: at,
            file,
            record: "TSGroup geometry".into(),
        };
        let ni = r.count("index count", 2)?;
        let np = r.count("point count", 6)?;
        let ns_bytes = r.count("surface-list size", 0)?;
        let ns = ns_bytes / 4;
        let nitems = r.count("item count", 8)?;
        let indexes = r.i16_vec(ni, "indexes")?;
        let flat = r.i16_vec(np.saturating_mul(3), "points")?;
        let points = flat.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
        let sf = r.i16_vec(ns.saturating_mul(8), "surface entries")?;
        let surfaces = sf
            .chunks_exact(8)
            .map(|c| SurfaceEntry {
                front_color: c[0],
                front_flag: c[1],
                front_line_color: c[2],
                front_line_flag: c[3],
                back_color: c[4],
                back_flag: c[5],
                back_line_color: c[6],
                back_line_flag: c[7],
            })
            .collect();
        let mut polys = Vec::with_capacity(nitems);
        for _ in 0..nitems {
            let tag = r.u32("item tag")?;
            let len = r.u32("item length")? as usize;
            let mut p = r.sub(len, "item")?;
            let poly = match tag {
                TAG_POLY | TAG_SOLID_POLY | TAG_SHADED_POLY | TAG_GOURAUD_POLY
                | TAG_TEXTURE4_POLY => {
                    let mut h = |what: &str| p.i16(what);
                    let normal = h("normal")?;
                    let center = h("centre")?;
                    let vertex_count = h("vertex count")?;
                    let vertex_list = h("vertex list")?;
                    let color = if tag == TAG_POLY {
                        None
                    } else {
                        Some(h("colour index")?)
                    };
                    let in_range = usize::try_from(vertex_list)
                        .ok()
                        .zip(usize::try_from(vertex_count).ok())
                        .is_some_and(|(s, n)| s + n <= ni);
                    if !in_range {
                        return Err(p.error(format!(
                            "polygon vertices {vertex_list}..+{vertex_count} outside the {ni} indexes"
                        )));
                    }
                    GroupPoly {
                        tag,
                        normal,
                        center,
                        vertex_count,
                        vertex_list,
                        color,
                        extra: p.rest().to_vec(),
                    }
                }
                _ => GroupPoly {
                    tag,
                    normal: 0,
                    center: 0,
                    vertex_count: 0,
                    vertex_list: 0,
                    color: None,
                    extra: p.rest().to_vec(),
                },
            };
            polys.push(poly);
        }
        Ok(GroupGeometry {
            indexes,
            points,
            surfaces,
            polys,
        })
    }

    /// The point indices of polygon `i`'s vertices.
    pub fn poly_points(&self, i: usize) -> &[i16] {
        self.polys
            .get(i)
            .and_then(|p| {
                let s = usize::try_from(p.vertex_list).ok()?;
                let n = usize::try_from(p.vertex_count).ok()?;
                self.indexes.get(s..s + n)
            })
            .unwrap_or(&[])
    }
}
