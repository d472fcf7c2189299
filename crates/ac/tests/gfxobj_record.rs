//! The GfxObj record (`0x01……`, docs/ac-formats.md section 1) on bytes typed in from the
//! layout: dereth's one-triangle description, and an object with physics polygons and a
//! branching physics BSP, UV pairs, a two-surface polygon, a portal node and a degrade id.

use retroanim_ac::math::Vec3;
use retroanim_ac::records::gfxobj::{
    terminal_drawing_bsp, write_compressed_u32, HAS_DEGRADE, HAS_DRAWING, HAS_PHYSICS, TAG_LEAF,
    TAG_PORTAL,
};
use retroanim_ac::records::*;

#[derive(Default)]
struct B(Vec<u8>);
impl B {
    fn b(mut self, v: &[u8]) -> Self {
        self.0.extend_from_slice(v);
        self
    }
    fn h(mut self, v: u16) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn w(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn f(mut self, vs: &[f32]) -> Self {
        for v in vs {
            self.0.extend_from_slice(&v.to_le_bytes());
        }
        self
    }
}

#[test]
fn gfxobj_compressed_counts_use_the_shortest_of_three_forms() {
    for (v, want) in [
        (0x7Fu32, vec![0x7F]),
        (0x80, vec![0x80, 0x80]),
        (0x3FFF, vec![0xBF, 0xFF]),
        (0x4000, vec![0xC0, 0x00, 0x00, 0x40]),
        (0x12345, vec![0xC0, 0x01, 0x45, 0x23]),
    ] {
        let mut out = Vec::new();
        write_compressed_u32(&mut out, v);
        assert_eq!(out, want, "0x{v:x}");
    }
}

#[test]
fn gfxobj_one_triangle_example_reads_and_writes_back() {
    let bytes = B::default()
        .w(0x0100_0001)
        .w(2) // drawing only
        .b(&[1]) // one surface, a one-byte count
        .w(0x0800_0001)
        .w(1) // vertex type
        .w(3)
        .h(0)
        .h(0)
        .f(&[0.0, 0.0, 0.0, 0.0, 0.0, -1.0])
        .h(1)
        .h(0)
        .f(&[1.0, 0.0, 0.0, 0.0, 0.0, -1.0])
        .h(2)
        .h(0)
        .f(&[0.0, 1.0, 0.0, 0.0, 0.0, -1.0])
        .f(&[0.33, 0.33, 0.0]) // sort centre
        .b(&[1]) // one polygon
        .h(0)
        .b(&[3, 0x04]) // 3 points, texture mode 4: no UV arrays
        .w(0) // single-sided
        .h(0)
        .h(0xFFFF)
        .h(0)
        .h(1)
        .h(2)
        .b(b"LOPB") // BPOL as a little-endian u32
        .f(&[0.0; 4])
        .f(&[0.33, 0.33, 0.0, 0.75])
        .w(1)
        .h(0)
        .0;
    assert_eq!(bytes.len(), 178);
    let g = read_gfxobj(&bytes, "tri").unwrap();
    assert_eq!(g.surfaces, [0x0800_0001]);
    assert_eq!(g.vertices.len(), 3);
    assert_eq!(g.vertices[1].origin, Vec3::new(1.0, 0.0, 0.0));
    assert!(g.vertices[2].uvs.is_empty());
    assert_eq!(g.polygons.len(), 1);
    let p = &g.polygons[0];
    assert_eq!(p.vertex_ids, [0, 1, 2]);
    assert_eq!((p.pos_surface, p.neg_surface), (0, -1));
    assert!(p.pos_uv.is_empty() && p.neg_uv.is_empty());
    assert_eq!(g.drawing_bsp.len(), 42);
    assert_eq!(
        g.drawing_bsp,
        terminal_drawing_bsp(&[0], Vec3::new(0.33, 0.33, 0.0), 0.75)
    );
    assert_eq!(g.degrade_id, None);
    assert_eq!(write_gfxobj(&g), bytes);
    for n in 0..bytes.len() {
        assert!(read_gfxobj(&bytes[..n], "tri").is_err(), "prefix {n}");
    }
}

#[test]
fn gfxobj_physics_bsp_portal_uvs_two_surface_polygon_and_degrade_id() {
    let leaf = |idx: u32, polys: &[u16]| {
        let mut b = B::default()
            .w(TAG_LEAF)
            .w(idx)
            .w(1)
            .f(&[0.0, 0.0, 0.0, 1.0])
            .w(polys.len() as u32);
        for &p in polys {
            b = b.h(p);
        }
        b.0
    };
    let physics_bsp = B::default()
        .b(b"NIPB") // BPIN: both children
        .f(&[0.0, 0.0, 1.0, -0.5])
        .b(&leaf(0, &[0]))
        .b(&leaf(1, &[]))
        .f(&[0.0, 0.0, 0.5, 1.0])
        .0;
    let drawing_bsp = B::default()
        .w(TAG_PORTAL)
        .f(&[1.0, 0.0, 0.0, 0.0])
        .w(TAG_LEAF)
        .w(0)
        .w(TAG_LEAF)
        .w(1)
        .f(&[0.0, 0.0, 0.0, 2.0])
        .w(1) // polygon count
        .w(1) // portal count
        .h(0)
        .h(0)
        .h(7) // (polygon 0, portal 7)
        .0;
    let bytes = B::default()
        .w(0x0100_0002)
        .w(HAS_PHYSICS | HAS_DRAWING | HAS_DEGRADE)
        .b(&[2])
        .w(0x0800_0001)
        .w(0x0800_0002)
        .w(1)
        .w(1)
        .h(0)
        .h(2) // two UV pairs
        .f(&[0.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.25, 0.75, 1.0, 0.0])
        .b(&[1]) // one physics polygon
        .h(0)
        .b(&[1, 0x04])
        .w(0)
        .h(0)
        .h(0xFFFF)
        .h(0)
        .b(&physics_bsp)
        .f(&[0.0, 0.0, 0.5])
        .b(&[1]) // one drawing polygon: two-surface with both UV arrays
        .h(0)
        .b(&[1, 0x00])
        .w(2)
        .h(0)
        .h(1)
        .h(0)
        .b(&[1]) // front UV index
        .b(&[0]) // back UV index
        .b(&drawing_bsp)
        .w(0x1100_0042)
        .0;
    let g = read_gfxobj(&bytes, "phys").unwrap();
    assert_eq!(g.vertices[0].uvs, [[0.25, 0.75], [1.0, 0.0]]);
    assert_eq!(g.physics_polygons.len(), 1);
    assert_eq!(g.physics_bsp, physics_bsp);
    assert_eq!(g.polygons[0].sides_type, 2);
    assert_eq!(g.polygons[0].pos_uv, [1]);
    assert_eq!(g.polygons[0].neg_uv, [0]);
    assert_eq!(g.drawing_bsp, drawing_bsp);
    assert_eq!(g.degrade_id, Some(0x1100_0042));
    assert_eq!(write_gfxobj(&g), bytes);
    // A vertex type other than 1 cannot be read: located at byte 17 (after id, flags,
    // the one-byte count and two surface ids).
    let mut bad = bytes.clone();
    bad[17] = 0;
    let e = read_gfxobj(&bad, "phys.bin").unwrap_err().to_string();
    assert!(
        e.starts_with("phys.bin: record 0x01000002, byte 17: vertex type 0"),
        "{e}"
    );
}
