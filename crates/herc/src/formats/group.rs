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
//!
//! [`GroupGeometry::write`] produces that tail again, and [`shape_meshes`] collects the groups
//! a shape draws, each with the transform id whose node places it (the groups are in their
//! node's own space).

use retroanim_core::ScenarioError;

use super::dts::{DtsChunk, DtsFile, TAG_CELL_ANIM_PART, TAG_GROUP};
use super::{ByteReader, ByteWriter};

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
    /// Bytes after the last item, kept so that [`GroupGeometry::write`] gives the tail back.
    pub trailing: Vec<u8>,
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
                t if is_poly(t) => {
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
            trailing: r.rest().to_vec(),
        })
    }

    /// The tail bytes [`GroupGeometry::read`] decodes. The surface-list size is written as
    /// 4 × the number of entries. Refused: a list longer than an i16 count, a polygon whose
    /// vertices run past the index list.
    pub fn write(&self) -> Result<Vec<u8>, String> {
        let mut w = ByteWriter::default();
        w.count(self.indexes.len(), "index count")?;
        w.count(self.points.len(), "point count")?;
        w.count(self.surfaces.len().saturating_mul(4), "surface-list size")?;
        w.count(self.polys.len(), "item count")?;
        for &i in &self.indexes {
            w.i16(i);
        }
        for p in &self.points {
            for &c in p {
                w.i16(c);
            }
        }
        for s in &self.surfaces {
            for v in [
                s.front_color,
                s.front_flag,
                s.front_line_color,
                s.front_line_flag,
                s.back_color,
                s.back_flag,
                s.back_line_color,
                s.back_line_flag,
            ] {
                w.i16(v);
            }
        }
        for (i, p) in self.polys.iter().enumerate() {
            w.u32(p.tag);
            let at = w.out.len();
            w.u32(0);
            if is_poly(p.tag) {
                let in_range = usize::try_from(p.vertex_list)
                    .ok()
                    .zip(usize::try_from(p.vertex_count).ok())
                    .is_some_and(|(s, n)| s + n <= self.indexes.len());
                if !in_range {
                    return Err(format!(
                        "polygon {i}: vertices {}..+{} outside the {} indexes",
                        p.vertex_list,
                        p.vertex_count,
                        self.indexes.len()
                    ));
                }
                w.i16(p.normal);
                w.i16(p.center);
                w.i16(p.vertex_count);
                w.i16(p.vertex_list);
                match (p.tag, p.color) {
                    (TAG_POLY, None) => {}
                    (TAG_POLY, Some(_)) => {
                        return Err(format!("polygon {i}: a TSPoly has no colour index"))
                    }
                    (_, Some(c)) => w.i16(c),
                    (_, None) => return Err(format!("polygon {i}: colour index missing")),
                }
            }
            w.bytes(&p.extra);
            let len = (w.out.len() - at - 4) as u32;
            w.out[at..at + 4].copy_from_slice(&len.to_le_bytes());
        }
        w.bytes(&self.trailing);
        Ok(w.out)
    }

    /// A box from corner `lo` to corner `hi` (node space): 8 corner points then the 6 face
    /// centres, one surface entry whose front and back colour are `color`, and six
    /// four-sided TSSolidPolys (faces −x, +x, −y, +y, −z, +z, vertices counter-clockwise seen
    /// from outside; normal index = face number, centre = that face's centre point, colour
    /// index 0 = the surface entry). The sample biped's parts are such boxes.
    pub fn boxed(lo: [i16; 3], hi: [i16; 3], color: i16) -> GroupGeometry {
        let corner = |i: usize| {
            [
                if i & 1 == 0 { lo[0] } else { hi[0] },
                if i & 2 == 0 { lo[1] } else { hi[1] },
                if i & 4 == 0 { lo[2] } else { hi[2] },
            ]
        };
        let faces: [[i16; 4]; 6] = [
            [0, 4, 6, 2],
            [1, 3, 7, 5],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 2, 3, 1],
            [4, 5, 7, 6],
        ];
        let mut points: Vec<[i16; 3]> = (0..8).map(corner).collect();
        for f in &faces {
            let sum = |k: usize| {
                f.iter()
                    .map(|&v| i32::from(points[v as usize][k]))
                    .sum::<i32>()
            };
            // The mean of four i16s fits an i16.
            points.push([0, 1, 2].map(|k| (sum(k) / 4) as i16));
        }
        GroupGeometry {
            indexes: faces.iter().flatten().copied().collect(),
            points,
            surfaces: vec![SurfaceEntry {
                front_color: color,
                back_color: color,
                ..SurfaceEntry::default()
            }],
            polys: (0..6)
                .map(|f| GroupPoly {
                    tag: TAG_SOLID_POLY,
                    normal: f as i16,
                    center: 8 + f as i16,
                    vertex_count: 4,
                    vertex_list: 4 * f as i16,
                    color: Some(0),
                    extra: Vec::new(),
                })
                .collect(),
            trailing: Vec::new(),
        }
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

fn is_poly(tag: u32) -> bool {
    matches!(
        tag,
        TAG_POLY | TAG_SOLID_POLY | TAG_SHADED_POLY | TAG_GOURAUD_POLY | TAG_TEXTURE4_POLY
    )
}

/// One TSGroup a shape draws: the transform id whose node places it (negative: the shape's
/// own space), its part id and its decoded geometry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeMesh {
    pub transform_id: i16,
    pub part_id: i16,
    pub geometry: GroupGeometry,
}

/// The groups root 0 of `dts` draws, in pre-order: through the shape's children and part
/// lists; of a `TSCellAnimPart` only cell 0 (the intact cell of a machine part). Chunks the
/// reader keeps raw (detail parts, BSP parts) are not searched. A group whose drawing data
/// does not decode is an error located at its byte offset in the file.
pub fn shape_meshes(dts: &DtsFile, file: &str) -> Result<Vec<ShapeMesh>, ScenarioError> {
    fn walk(
        c: &DtsChunk,
        at: usize,
        file: &str,
        out: &mut Vec<ShapeMesh>,
    ) -> Result<(), ScenarioError> {
        // Offsets: 8-byte chunk header, 12 base bytes, then (for lists) an i16 child count.
        let (children, first_only) = match c {
            DtsChunk::Raw { .. } => return Ok(()),
            DtsChunk::Part(p) if p.tag == TAG_GROUP => {
                let geometry = GroupGeometry::read(&p.tail, file, at + 20)?;
                out.push(ShapeMesh {
                    transform_id: p.base.transform_id,
                    part_id: p.base.part_id,
                    geometry,
                });
                return Ok(());
            }
            DtsChunk::Part(p) => match &p.children {
                Some(ch) => (ch.as_slice(), p.tag == TAG_CELL_ANIM_PART),
                None => return Ok(()),
            },
            DtsChunk::Shape(s) => (s.children.as_slice(), false),
        };
        let mut o = at + 22;
        for (i, ch) in children.iter().enumerate() {
            if first_only && i > 0 {
                break;
            }
            walk(ch, o, file, out)?;
            o += super::dts::encoded_len(ch);
        }
        Ok(())
    }
    let mut out = Vec::new();
    if let Some(root) = dts.roots.first() {
        walk(root, 0, file, &mut out)?;
    }
    Ok(out)
}
