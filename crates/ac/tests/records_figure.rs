//! The sample humanoid's figure (assets/ac/records/02000001.bin and 01000101..108.bin): a
//! real-format Setup and one box GfxObj per part, compiled from assets/ac/humanoid.json
//! (the committed bytes are checked against the writer in records_assets.rs). Expected
//! values are worked out by hand from the source and the layouts.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::inspect::render_record;
use retroanim_ac::math::Vec3;
use retroanim_ac::records::*;
use std::path::PathBuf;

fn record(id: u32) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/ac/records")
        .join(format!("{id:08x}.bin"));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn figure_setup_has_one_box_part_per_skeleton_part() {
    let bytes = record(0x0200_0001);
    // 12 header + 8 parts × (4 id + 4 parent + 12 scale) + 8 (holding, connection counts)
    // + 4 + (4 key + 8 × 28 + 4 hooks) + 24 cylsphere + 20 sphere + 16 scalars + 32
    // spheres + 4 lights + 20 ids = 532.
    assert_eq!(bytes.len(), 532);
    let s = read_setup(&bytes, "02000001.bin").unwrap();
    assert_eq!(s.flags, 3);
    assert_eq!(s.parts, (0x0100_0101..=0x0100_0108).collect::<Vec<u32>>());
    // pelvis root; torso, legs on the pelvis; head, arms on the torso; weapon on arm_r.
    assert_eq!(s.parent_index, [u32::MAX, 0, 1, 1, 1, 0, 0, 4]);
    assert_eq!(s.default_scale, vec![Vec3::new(1.0, 1.0, 1.0); 8]);
    assert_eq!(s.placement_frames.len(), 1);
    let p = &s.placement_frames[0];
    assert_eq!(p.key, 0);
    assert_eq!(p.frames[2].origin, Vec3::new(0.0, 0.0, 1.7));
    assert_eq!(p.frames[7].origin, Vec3::new(0.3, 0.125, 1.0));
    assert_eq!(s.cylspheres[0].radius, 0.35);
    assert_eq!(s.cylspheres[0].height, 1.8);
    assert_eq!(s.spheres[0].center, Vec3::new(0.0, 0.0, 0.9));
    assert_eq!((s.height, s.radius), (1.8, 0.35));
    assert_eq!(s.default_motion_table, 0x0900_0001);
    assert_eq!(write_setup(&s), bytes);
    let text = render_record(&bytes, "02000001.bin", false).unwrap();
    assert!(text.starts_with("Setup 0x02000001\nflags 0x00000003 (parent indices, default scales), 8 parts\n  part 0: GfxObj 0x01000101 parent none scale (1, 1, 1)\n  part 1: GfxObj 0x01000102 parent 0 scale (1, 1, 1)\n"), "{text}");
    assert!(text
        .contains("defaults: animation 0x00000000, script 0x00000000, motion table 0x09000001,"));
    let json: serde_json::Value =
        serde_json::from_str(&render_record(&bytes, "02000001.bin", true).unwrap()).unwrap();
    assert_eq!(json["kind"], "setup");
    assert_eq!(json["parts"][7], "0x01000108");
    assert_eq!(json["parent_index"][0], serde_json::Value::Null);
    assert_eq!(json["parent_index"][7], 4);
}

#[test]
fn figure_gfxobjs_are_boxes_of_24_vertices_and_6_quads() {
    // The pelvis: size (0.3, 0.18, 0.16) centred on the part origin.
    let bytes = record(0x0100_0101);
    // 8 header + 1 count + 4 surface + 8 vertex header + 24 × (28 + one UV pair 8) + 12
    // sort centre + 1 count + 6 × (12 + 4 × 2 vertex ids + 4 UV indices) + BSP (4 tag + 16
    // plane + 16 sphere + 4 count + 6 × 2) = 1094.
    assert_eq!(bytes.len(), 1094);
    let g = read_gfxobj(&bytes, "01000101.bin").unwrap();
    assert_eq!(g.flags, 2);
    assert_eq!(g.surfaces, [0x0800_0105]);
    assert_eq!(g.vertices.len(), 24);
    // Face +x, first corner (+, −, −) × the half sizes (0.15, 0.09, 0.08).
    assert_eq!(g.vertices[0].origin, Vec3::new(0.15, -0.09, -0.08));
    assert_eq!(g.vertices[0].normal, Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(g.polygons.len(), 6);
    assert_eq!(g.polygons[5].vertex_ids, [20, 21, 22, 23]);
    // Textured: UVs on the front, none behind; corners (0,1) (1,1) (1,0) (0,0).
    assert_eq!(g.polygons[0].texture_mode, 0);
    assert_eq!(g.polygons[0].pos_uv, [0, 0, 0, 0]);
    assert_eq!(g.vertices[2].uvs, [[1.0, 0.0]]);
    assert_eq!(g.polygons[0].neg_surface, -1);
    assert_eq!(write_gfxobj(&g), bytes);
    // The head: size (0.2, 0.2, 0.3) centred on its origin (z 1.7): its bottom face at
    // 1.55 meets the top of the torso (origin 1.3, size 0.5, centred), so no gap shows.
    let head = read_gfxobj(&record(0x0100_0103), "01000103.bin").unwrap();
    assert_eq!(head.sort_center, Vec3::new(0.0, 0.0, 0.0));
    assert_eq!(head.vertices[16].origin, Vec3::new(-0.1, -0.1, 0.15));
    let torso = read_gfxobj(&record(0x0100_0102), "01000102.bin").unwrap();
    assert_eq!(torso.vertices[16].origin, Vec3::new(-0.2, -0.1, 0.25));
    let text = render_record(&bytes, "01000101.bin", false).unwrap();
    assert!(text.starts_with("GfxObj 0x01000101\nflags 0x00000002 (drawing), surfaces [0x08000105]\nvertex type 1, 24 vertices\n"), "{text}");
    assert!(text.contains("drawing polygons 6 (BSP 52 bytes, root BPOL)\n  polygon 0: vertices [0, 1, 2, 3] sides 0 texture mode 0x00 surfaces 0/-1\n"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&render_record(&bytes, "01000101.bin", true).unwrap()).unwrap();
    assert_eq!(json["kind"], "gfxobj");
    assert_eq!(json["vertices"].as_array().unwrap().len(), 24);
    assert_eq!(json["drawing_bsp_bytes"], 52);
}

#[test]
fn figure_matches_the_animations_part_count() {
    let s = read_setup(&record(0x0200_0001), "02000001.bin").unwrap();
    let walk = read_animation(&record(0x0300_0102), "03000102.bin").unwrap();
    assert_eq!(walk.num_parts as usize, s.parts.len());
}
