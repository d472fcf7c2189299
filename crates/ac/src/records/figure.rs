//! The authored figure of a sample: a Setup (`0x02……`) whose parts are one box GfxObj
//! (`0x01……`) per skeleton part, compiled from the `figure` section and the skeleton of
//! the sample source (docs/ac-formats.md section 4). Only f32 additions, multiplications
//! and one IEEE square root (correctly rounded everywhere) are used, so the bytes are the
//! same on every platform.

use super::authoring::{parse_id, AssetSource};
use super::gfxobj::{terminal_drawing_bsp, GfxObj, Polygon, Vertex, HAS_DRAWING};
use super::palette::write_palette;
use super::render_surface::write_render_surface;
use super::surface::{write_surface, write_surface_texture};
use super::texture_authoring::{compile_textures, TextureDef, TextureRecords};
use super::types::{CylSphere, Placement, SetupRecord, Sphere};
use crate::math::{AFrame, Quat, Vec3};
use serde::Deserialize;

/// The `figure` section of a sample source.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureDef {
    /// The Setup's id (`0x02……`).
    pub setup_id: String,
    /// The first GfxObj id; part *i* gets this id + *i*.
    pub first_gfxobj_id: String,
    /// The surface every box face uses (untextured, flat-shaded).
    pub surface_id: String,
    pub height: f32,
    pub radius: f32,
    pub step_up_height: f32,
    pub step_down_height: f32,
    /// Sample textures (Surface, SurfaceTexture, RenderSurface, Palette records) that
    /// parts name by surface id.
    #[serde(default)]
    pub textures: Vec<TextureDef>,
}

/// The compiled figure: the Setup and the boxes in part order.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub setup: SetupRecord,
    pub gfxobjs: Vec<GfxObj>,
    /// The records of `figure.textures`.
    pub textures: TextureRecords,
}

impl Figure {
    /// The texture records of the figure as `(id, bytes)`: surfaces, surface textures,
    /// render surfaces, palettes.
    pub fn texture_records(&self) -> Vec<(u32, Vec<u8>)> {
        let t = &self.textures;
        let mut out = Vec::new();
        out.extend(t.surfaces.iter().map(|s| (s.id, write_surface(s))));
        out.extend(
            t.surface_textures
                .iter()
                .map(|s| (s.id, write_surface_texture(s))),
        );
        out.extend(
            t.render_surfaces
                .iter()
                .map(|r| (r.id, write_render_surface(r))),
        );
        out.extend(t.palettes.iter().map(|p| (p.id, write_palette(p))));
        out
    }
}

/// A box GfxObj: 24 vertices (4 per face, each with its face's outward normal, no UVs),
/// 6 quads (counter-clockwise seen from outside, single-sided, surface 0, no UV arrays),
/// and a drawing BSP of one terminal node around all six.
pub fn box_gfxobj(id: u32, surface: u32, size: [f32; 3], center: [f32; 3]) -> GfxObj {
    build_box(id, surface, size, center, false)
}

/// As [`box_gfxobj`], with one UV pair per vertex mapping the whole image onto each face
/// (u right, v down, as seen from outside) and polygons that use them (texture mode 0).
pub fn textured_box_gfxobj(id: u32, surface: u32, size: [f32; 3], center: [f32; 3]) -> GfxObj {
    build_box(id, surface, size, center, true)
}

/// Corner UVs in the order faces list their corners (counter-clockwise from outside,
/// starting bottom left).
const FACE_UVS: [[f32; 2]; 4] = [[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]];

fn build_box(id: u32, surface: u32, size: [f32; 3], center: [f32; 3], textured: bool) -> GfxObj {
    let h = [size[0] * 0.5, size[1] * 0.5, size[2] * 0.5];
    let c = Vec3::new(center[0], center[1], center[2]);
    // Each face: its normal and four corners as sign triples, counter-clockwise from outside.
    let faces: [([f32; 3], [[f32; 3]; 4]); 6] = [
        (
            [1.0, 0.0, 0.0],
            [[1., -1., -1.], [1., 1., -1.], [1., 1., 1.], [1., -1., 1.]],
        ),
        (
            [-1.0, 0.0, 0.0],
            [
                [-1., 1., -1.],
                [-1., -1., -1.],
                [-1., -1., 1.],
                [-1., 1., 1.],
            ],
        ),
        (
            [0.0, 1.0, 0.0],
            [[1., 1., -1.], [-1., 1., -1.], [-1., 1., 1.], [1., 1., 1.]],
        ),
        (
            [0.0, -1.0, 0.0],
            [
                [-1., -1., -1.],
                [1., -1., -1.],
                [1., -1., 1.],
                [-1., -1., 1.],
            ],
        ),
        (
            [0.0, 0.0, 1.0],
            [[-1., -1., 1.], [1., -1., 1.], [1., 1., 1.], [-1., 1., 1.]],
        ),
        (
            [0.0, 0.0, -1.0],
            [
                [-1., 1., -1.],
                [1., 1., -1.],
                [1., -1., -1.],
                [-1., -1., -1.],
            ],
        ),
    ];
    let mut vertices = Vec::with_capacity(24);
    let mut polygons = Vec::with_capacity(6);
    for (f, (n, corners)) in faces.iter().enumerate() {
        let mut ids = Vec::with_capacity(4);
        for (k, s) in corners.iter().enumerate() {
            let vid = vertices.len() as u16;
            vertices.push(Vertex {
                id: vid,
                origin: Vec3::new(c.x + s[0] * h[0], c.y + s[1] * h[1], c.z + s[2] * h[2]),
                normal: Vec3::new(n[0], n[1], n[2]),
                uvs: if textured {
                    vec![FACE_UVS[k]]
                } else {
                    Vec::new()
                },
            });
            ids.push(vid as i16);
        }
        polygons.push(Polygon {
            id: f as u16,
            texture_mode: if textured { 0 } else { 4 },
            sides_type: 0,
            pos_surface: 0,
            neg_surface: -1,
            vertex_ids: ids,
            // Each vertex holds one UV pair: every corner picks pair 0.
            pos_uv: if textured { vec![0; 4] } else { Vec::new() },
            neg_uv: Vec::new(),
        });
    }
    let radius = (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt();
    GfxObj {
        id,
        flags: HAS_DRAWING,
        surfaces: vec![surface],
        vertex_type: 1,
        vertices,
        physics_polygons: Vec::new(),
        physics_bsp: Vec::new(),
        sort_center: c,
        polygons,
        drawing_bsp: terminal_drawing_bsp(&[0, 1, 2, 3, 4, 5], c, radius),
        degrade_id: None,
    }
}

fn id_of(s: &str, at: &str) -> Result<u32, String> {
    parse_id(s).ok_or_else(|| format!("{at}: '{s}' is not an id"))
}

/// Compile the figure of `src`; `None` when the source has no `figure` section. Errors
/// carry the JSON path.
pub fn compile_figure(src: &AssetSource, motion_table: u32) -> Result<Option<Figure>, String> {
    let Some(fig) = &src.figure else {
        return Ok(None);
    };
    let setup_id = id_of(&fig.setup_id, "figure.setup_id")?;
    let first = id_of(&fig.first_gfxobj_id, "figure.first_gfxobj_id")?;
    let surface = id_of(&fig.surface_id, "figure.surface_id")?;
    let mut parts = Vec::with_capacity(src.skeleton.len());
    let mut parent_index = Vec::with_capacity(src.skeleton.len());
    let mut gfxobjs = Vec::with_capacity(src.skeleton.len());
    let mut frames = Vec::with_capacity(src.skeleton.len());
    for (i, p) in src.skeleton.iter().enumerate() {
        let at = format!("skeleton[{i}]");
        let id = first
            .checked_add(i as u32)
            .ok_or_else(|| format!("{at}: GfxObj id past 0xffffffff"))?;
        let parent = match &p.parent {
            None => u32::MAX,
            Some(name) => src
                .skeleton
                .iter()
                .position(|q| &q.name == name)
                .ok_or_else(|| format!("{at}.parent: no part named '{name}'"))?
                as u32,
        };
        parts.push(id);
        parent_index.push(parent);
        let size = p.box_size.unwrap_or([0.1, 0.1, 0.1]);
        let centre = p.box_center.unwrap_or([0.0; 3]);
        gfxobjs.push(match &p.surface {
            None => box_gfxobj(id, surface, size, centre),
            Some(s) => textured_box_gfxobj(id, id_of(s, &format!("{at}.surface"))?, size, centre),
        });
        frames.push(AFrame {
            origin: Vec3::new(p.origin[0], p.origin[1], p.origin[2]),
            orientation: Quat::new(1.0, 0.0, 0.0, 0.0),
        });
    }
    let half = fig.height * 0.5;
    let setup = SetupRecord {
        id: setup_id,
        // Parent indices and default scales present.
        flags: 3,
        default_scale: vec![Vec3::new(1.0, 1.0, 1.0); parts.len()],
        parts,
        parent_index,
        holding_locations: Vec::new(),
        connection_points: Vec::new(),
        placement_frames: vec![Placement {
            key: 0,
            frames,
            hooks: Vec::new(),
        }],
        cylspheres: vec![CylSphere {
            low_point: Vec3::ZERO,
            radius: fig.radius,
            height: fig.height,
        }],
        spheres: vec![Sphere {
            center: Vec3::new(0.0, 0.0, half),
            radius: half,
        }],
        height: fig.height,
        radius: fig.radius,
        step_up_height: fig.step_up_height,
        step_down_height: fig.step_down_height,
        sorting_sphere: Sphere {
            center: Vec3::new(0.0, 0.0, half),
            radius: half,
        },
        selection_sphere: Sphere {
            center: Vec3::new(0.0, 0.0, half),
            radius: half,
        },
        lights: Vec::new(),
        default_animation: 0,
        default_script: 0,
        default_motion_table: motion_table,
        default_sound_table: 0,
        default_script_table: 0,
    };
    let textures = compile_textures(&fig.textures)?;
    Ok(Some(Figure {
        setup,
        gfxobjs,
        textures,
    }))
}
