//! F3 drawing data: the TSGroup geometry writer, the groups a shape draws, and the sample
//! biped's DTS (`assets/herc/biped.dts`: the animation of `assets/herc/biped.json` with one
//! box-shaped TSGroup per part). Expected bytes and values are worked out by hand from the
//! layout (docs/herc-formats.md, "TSGroup geometry").

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_herc::formats::dts::{
    AnimListChunk, BasePart, DtsChunk, DtsFile, PartChunk, TAG_AN_SHAPE, TAG_CELL_ANIM_PART,
    TAG_GROUP, TAG_PART_LIST,
};
use retroanim_herc::formats::group::{
    shape_meshes, GroupGeometry, SurfaceEntry, TAG_SHADED_POLY, TAG_SOLID_POLY, TAG_TEXTURE4_POLY,
};
use retroanim_herc::Model;

const BIPED_JSON: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/herc/biped.json");
const BIPED_DTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/herc/biped.dts");

fn le(vs: &[i16]) -> Vec<u8> {
    vs.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The unit-square tail of `f03_tsgroup_geometry_decodes_points_indexes_surfaces_and_polygons`.
fn square_tail() -> Vec<u8> {
    let mut t = le(&[4, 4, 4, 1]);
    t.extend(le(&[0, 1, 2, 3]));
    t.extend(le(&[0, 0, 0, 100, 0, 0, 100, 100, 0, 0, 100, 0]));
    t.extend(le(&[7, 0, 0, 0, 7, 0, 0, 0]));
    t.extend(TAG_SOLID_POLY.to_le_bytes());
    t.extend(10u32.to_le_bytes());
    t.extend(le(&[5, 0, 4, 0, 0]));
    t
}

#[test]
fn f03_group_geometry_writes_back_the_tail_it_read() {
    let tail = square_tail();
    let g = GroupGeometry::read(&tail, "G.DTS", 20).unwrap();
    assert_eq!(g.write().unwrap(), tail);
    // Bytes after the last item are kept and written back.
    let mut longer = tail.clone();
    longer.extend([0xAB, 0xCD]);
    let g = GroupGeometry::read(&longer, "G.DTS", 20).unwrap();
    assert_eq!(g.trailing, [0xAB, 0xCD]);
    assert_eq!(g.write().unwrap(), longer);
    // A polygon running past the index list is refused by the writer too.
    let mut bad = GroupGeometry::read(&tail, "G.DTS", 20).unwrap();
    bad.polys[0].vertex_list = 1;
    assert_eq!(
        bad.write().unwrap_err(),
        "polygon 0: vertices 1..+4 outside the 4 indexes"
    );
}

#[test]
fn f03_a_box_group_has_fourteen_points_and_six_quads() {
    let g = GroupGeometry::boxed([-10, -20, -30], [10, 20, 30], 6);
    let bytes = g.write().unwrap();
    // 4 counts (8 bytes), 24 indexes (48), 14 points (84), one surface entry (16), six
    // TSSolidPoly items of 8 header + 10 payload bytes (108): 264 bytes.
    assert_eq!(bytes.len(), 264);
    assert_eq!(&bytes[..8], le(&[24, 14, 4, 6]).as_slice());
    // Face −x: corners 0, 4, 6, 2 = (−10,−20,−30), (−10,−20,30), (−10,20,30), (−10,20,−30).
    assert_eq!(&g.indexes[..4], [0, 4, 6, 2]);
    assert_eq!(g.points[0], [-10, -20, -30]);
    assert_eq!(g.points[4], [-10, -20, 30]);
    assert_eq!(g.points[6], [-10, 20, 30]);
    assert_eq!(g.points[7], [10, 20, 30]);
    // Face centres follow the corners: face −x's centre (−10, 0, 0), face +z's (0, 0, 30).
    assert_eq!(g.points[8], [-10, 0, 0]);
    assert_eq!(g.points[13], [0, 0, 30]);
    assert_eq!(g.surfaces[0].front_color, 6);
    assert_eq!(g.surfaces[0].back_color, 6);
    // The last item: TSSolidPoly, length 10, normal 5, centre 13, 4 vertices from index 20,
    // colour index 0.
    let last = &bytes[264 - 18..];
    assert_eq!(&last[..4], TAG_SOLID_POLY.to_le_bytes());
    assert_eq!(&last[4..8], 10u32.to_le_bytes());
    assert_eq!(&last[8..], le(&[5, 13, 4, 20, 0]).as_slice());
    let back = GroupGeometry::read(&bytes, "box", 0).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.poly_points(1), [1, 3, 7, 5]);
}

fn group(transform_id: i16, part_id: i16, tail: Vec<u8>) -> DtsChunk {
    DtsChunk::Part(PartChunk {
        tag: TAG_GROUP,
        base: BasePart {
            transform_id,
            part_id,
            ..Default::default()
        },
        children: None,
        tail,
    })
}

fn list(tag: u32, children: Vec<DtsChunk>) -> DtsChunk {
    DtsChunk::Part(PartChunk {
        tag,
        base: BasePart::default(),
        children: Some(children),
        tail: Vec::new(),
    })
}

#[test]
fn f03_shape_meshes_walks_part_lists_and_cell_zero() {
    let sq = square_tail();
    let shape = DtsChunk::Shape(retroanim_herc::formats::dts::ShapeChunk {
        tag: TAG_AN_SHAPE,
        base: BasePart::default(),
        children: vec![
            group(1, 11, sq.clone()),
            list(TAG_PART_LIST, vec![group(2, 12, sq.clone())]),
            // A cell part: only cell 0 is drawn.
            list(
                TAG_CELL_ANIM_PART,
                vec![group(3, 13, sq.clone()), group(4, 14, sq.clone())],
            ),
            group(-1, 15, sq.clone()),
        ],
        frame_counts: Vec::new(),
        node_transforms: Vec::new(),
        anim: Some(AnimListChunk {
            sequences: Vec::new(),
            transitions: Vec::new(),
            keyframes: Vec::new(),
            rest_keys: Vec::new(),
            relations: Vec::new(),
            tail: Vec::new(),
        }),
        tail: Vec::new(),
    });
    let dts = DtsFile { roots: vec![shape] };
    let m = shape_meshes(&dts, "S.DTS").unwrap();
    let ids: Vec<(i16, i16)> = m.iter().map(|x| (x.transform_id, x.part_id)).collect();
    assert_eq!(ids, [(1, 11), (2, 12), (3, 13), (-1, 15)]);
    assert_eq!(m[1].geometry.points[2], [100, 100, 0]);
    // The same file read back from its bytes gives the same meshes.
    let bytes = dts.write().unwrap();
    let again = DtsFile::read(&bytes, "S.DTS").unwrap();
    assert_eq!(shape_meshes(&again, "S.DTS").unwrap(), m);
    // A bad group is located in the file. Layout: shape header 8 + base 12 + child count 2
    // = 22; group 1 is 8 + 12 + 74 = 94 bytes, so the part list starts at 116, its group at
    // 116 + 22 = 138 and that group's tail at 158. The tail's polygon starts at 158 + 56;
    // its vertex list field ends at 158 + 56 + 8 + 8 = 230, the colour at 232: the error
    // is placed at the item's end, 232.
    let mut bad = bytes.clone();
    let vl = 158 + 56 + 8 + 6;
    bad[vl..vl + 2].copy_from_slice(&3i16.to_le_bytes());
    let dts = DtsFile::read(&bad, "S.DTS").unwrap();
    let e = shape_meshes(&dts, "S.DTS").unwrap_err();
    assert_eq!(e.file, "S.DTS");
    assert_eq!(e.at, "record item, byte 232");
    assert!(e.message.contains("polygon vertices 3..+4"), "{e}");
}

/// The sample biped's parts: node, box corners in the node's own space, colour. Node 0
/// (root motion) places no geometry. Rest offsets (biped.json): the pelvis is 420 above the
/// ground, thighs 20 below it, shins and feet 190 below their parents, the feet 20 forward.
const BIPED_BOXES: [(i16, [i16; 3], [i16; 3], i16); 14] = [
    (1, [-80, -45, -30], [80, 45, 40], 1),  // pelvis
    (2, [-95, -60, 0], [95, 60, 150], 2),   // torso
    (3, [-50, -30, -30], [50, 70, 45], 3),  // cockpit
    (4, [-25, -25, -90], [25, 25, 15], 4),  // l_upper_arm
    (5, [-20, -20, -90], [20, 20, 0], 5),   // l_forearm
    (6, [-25, -25, -90], [25, 25, 15], 4),  // r_upper_arm
    (7, [-20, -20, -90], [20, 20, 0], 5),   // r_forearm
    (8, [-30, -30, -190], [30, 30, 0], 6),  // l_thigh
    (9, [-25, -25, -190], [25, 25, 0], 7),  // l_shin
    (10, [-30, -50, -20], [30, 60, 15], 8), // l_foot
    (11, [-30, -30, -190], [30, 30, 0], 6), // r_thigh
    (12, [-25, -25, -190], [25, 25, 0], 7), // r_shin
    (13, [-30, -50, -20], [30, 60, 15], 8), // r_foot
    (14, [-15, 0, -15], [15, 140, 15], 9),  // gun_mount
];

/// Per part colour number 1–9: the shade ramp of its underside and the frame of its sides
/// in the sample's own palette and bitmap array (`assets/herc/biped.dpl`, `biped.dba`,
/// written by `tests/materials.rs`): ramps 0 grey, 1 olive, 2 blue, 3 amber, 4 gunmetal;
/// frames 0 plate, 1 hazard stripes, 2 cockpit glass, 3 camouflage.
const PART_RAMP: [i16; 9] = [0, 0, 2, 1, 3, 1, 0, 3, 4];
const PART_FRAME: [i16; 9] = [0, 0, 2, 3, 1, 3, 0, 1, 0];

/// A part's box with its materials (H82): surface 0 the part colour (a palette index, for
/// the TSSolidPoly top), surface 1 its ramp (the TSShadedPoly underside), surface 2 its
/// frame (the four TSTexture4Poly sides); a polygon's colour index names the first slot
/// of its surface (4 slots per surface).
fn biped_box(lo: [i16; 3], hi: [i16; 3], color: i16) -> GroupGeometry {
    let mut g = GroupGeometry::boxed(lo, hi, color);
    let k = (color - 1) as usize;
    let both = |v: i16| SurfaceEntry {
        front_color: v,
        back_color: v,
        ..SurfaceEntry::default()
    };
    g.surfaces = vec![both(color), both(PART_RAMP[k]), both(PART_FRAME[k])];
    for (f, p) in g.polys.iter_mut().enumerate() {
        (p.tag, p.color) = match f {
            0..=3 => (TAG_TEXTURE4_POLY, Some(8)),
            4 => (TAG_SHADED_POLY, Some(4)),
            _ => (TAG_SOLID_POLY, Some(0)),
        };
    }
    g
}

/// The sample biped's DTS: one ANShape root holding biped.json's animation list (as
/// `DtsFile::from_anim_list` writes it), whose children are one TSGroup per part (transform
/// id = part id = node), each a box (centre and radius in the base part: the box's centre
/// and half its diagonal, rounded down) with its materials ([`biped_box`]).
fn sample_biped_dts() -> Vec<u8> {
    let model = Model::from_json_file(BIPED_JSON).unwrap();
    let base = BasePart {
        transform_id: -1,
        part_id: -1,
        radius: 560,
        center: [0, 0, 280],
    };
    let mut dts = DtsFile::from_anim_list(model.anim_list(), base, &[]);
    let DtsChunk::Shape(shape) = &mut dts.roots[0] else {
        unreachable!()
    };
    shape.children = BIPED_BOXES
        .iter()
        .map(|&(node, lo, hi, color)| {
            let d = [0, 1, 2].map(|k| f64::from(hi[k] - lo[k]));
            DtsChunk::Part(PartChunk {
                tag: TAG_GROUP,
                base: BasePart {
                    transform_id: node,
                    part_id: node,
                    radius: ((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() / 2.0) as i16,
                    center: [0, 1, 2].map(|k| (lo[k] + hi[k]) / 2),
                },
                children: None,
                tail: biped_box(lo, hi, color).write().unwrap(),
            })
        })
        .collect();
    dts.write().unwrap()
}

#[test]
fn sample_biped_dts_is_biped_json_with_a_box_per_part() {
    let committed = std::fs::read(BIPED_DTS).expect(
        "assets/herc/biped.dts (regenerate: cargo test -p retroanim-herc --test meshes -- --ignored)",
    );
    assert_eq!(committed, sample_biped_dts());
    let (dts, list) = DtsFile::load_anim_list(&committed, "biped.dts").unwrap();
    // The animation is biped.json's, unchanged (only the informative names are absent).
    let json = Model::from_json_file(BIPED_JSON).unwrap();
    assert_eq!(
        AnimListChunk::from_model(&list),
        AnimListChunk::from_model(json.anim_list())
    );
    let meshes = shape_meshes(&dts, "biped.dts").unwrap();
    assert_eq!(meshes.len(), 14);
    for (i, m) in meshes.iter().enumerate() {
        assert_eq!(m.transform_id, i as i16 + 1);
        assert_eq!(m.part_id, i as i16 + 1);
        assert_eq!(m.geometry.points.len(), 14);
        assert_eq!(m.geometry.polys.len(), 6);
        assert_eq!(m.geometry.surfaces.len(), 3);
        let tags: Vec<u32> = m.geometry.polys.iter().map(|p| p.tag).collect();
        assert_eq!(
            tags,
            [
                TAG_TEXTURE4_POLY,
                TAG_TEXTURE4_POLY,
                TAG_TEXTURE4_POLY,
                TAG_TEXTURE4_POLY,
                TAG_SHADED_POLY,
                TAG_SOLID_POLY
            ]
        );
    }
    // The cockpit (colour 3): top in palette index 3, underside ramp 2, sides frame 2.
    let s = &meshes[2].geometry.surfaces;
    assert_eq!(
        (s[0].front_color, s[1].front_color, s[2].front_color),
        (3, 2, 2)
    );
    // The pelvis box: corners (−80,−45,−30) and (80,45,40), base centre (0,0,5), radius
    // √(160² + 90² + 70²)/2 = √38600/2 = 98.2… → 98.
    assert_eq!(meshes[0].geometry.points[0], [-80, -45, -30]);
    assert_eq!(meshes[0].geometry.points[7], [80, 45, 40]);
    let DtsChunk::Shape(s) = &dts.roots[0] else {
        panic!("root 0 is not a shape")
    };
    let DtsChunk::Part(p) = &s.children[0] else {
        panic!("child 0 is not a part")
    };
    assert_eq!(p.base.center, [0, 0, 5]);
    assert_eq!(p.base.radius, 98);
    // The camera part of the sample chassis (3) resolves to the cockpit node (H32).
    assert_eq!(dts.part_transform_id(3), Some(3));
    assert_eq!(dts.write().unwrap(), committed);
}

/// Rewrites assets/herc/biped.dts from biped.json and the box table.
#[test]
#[ignore]
fn regenerate_sample_biped_dts() {
    std::fs::write(BIPED_DTS, sample_biped_dts()).unwrap();
}

/// `scenario_meshes` over files held in memory: `(path, bytes)` pairs.
fn in_memory(
    files: Vec<(&'static str, Vec<u8>)>,
) -> impl Fn(&str) -> Result<Option<Vec<u8>>, String> {
    move |p: &str| Ok(files.iter().find(|(n, _)| *n == p).map(|(_, b)| b.clone()))
}

#[test]
fn the_meshes_a_scenario_draws_come_from_its_shape_its_archive_or_the_dts_beside_its_asset() {
    use retroanim_herc::formats::vol::{VolArchive, VolEntry};
    use retroanim_herc::inspect::meshes::scenario_meshes;
    use serde_json::json;
    let dts = std::fs::read(BIPED_DTS).unwrap();
    let vol = VolArchive {
        program_mask: 1,
        precedence: 5,
        directories: vec!["dts".into()],
        entries: vec![VolEntry::stored("BIPED.DTS", 0, dts.clone()).unwrap()],
        list_extra: Vec::new(),
    }
    .write()
    .unwrap();
    let dpl = std::fs::read(BIPED_DTS.replace(".dts", ".dpl")).unwrap();
    let dba = std::fs::read(BIPED_DTS.replace(".dts", ".dba")).unwrap();
    let read = in_memory(vec![
        ("m/biped.json", Vec::new()),
        ("m/biped.dpl", dpl),
        ("m/biped.dba", dba),
        ("m/biped.dts", dts.clone()),
        ("m/other.dts", dts),
        ("m/SIM.VOL", vol),
    ]);

    // A JSON asset draws the DTS beside it, named by its file name.
    let v = scenario_meshes(&json!({"asset": "m/biped.json"}), &read).unwrap();
    assert_eq!(v["source"], "biped.dts");
    let meshes = v["meshes"].as_array().unwrap();
    assert_eq!(meshes.len(), 14);
    // The pelvis box (node 1, part 1): corner 0 is (−80, −45, −30); face −x is corners
    // 0, 4, 6, 2, a TSTexture4Poly whose colour index 8 names slot 8, the front of
    // surface 2: frame 0 (the plate), mapped corner by corner (H84). Its colour is the
    // plate's mean colour through biped.dpl.
    assert_eq!(meshes[0]["node"], 1);
    assert_eq!(meshes[0]["points"][0], json!([-80, -45, -30]));
    let side = &meshes[0]["polys"][0];
    assert_eq!(side["points"], json!([0, 4, 6, 2]));
    assert_eq!(
        (side["color"].clone(), side["surface_color"].clone()),
        (json!(8), json!(0))
    );
    assert_eq!(
        (side["kind"].as_str(), side["frame"].as_i64()),
        (Some("textured"), Some(0))
    );
    assert_eq!(
        side["uv"],
        json!([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    );
    assert_eq!(side["hidden"], false);
    // The underside (face −z): TSShadedPoly, colour index 4 → surface 1, ramp 0 (grey) at
    // the view shade: step 6, 112 % of (28, 30, 34) = (31, 33, 38) → (124, 132, 152).
    let under = &meshes[0]["polys"][4];
    assert_eq!(
        (under["kind"].as_str(), under["surface_color"].as_i64()),
        (Some("shaded"), Some(0))
    );
    assert_eq!(under["rgb"], json!([124, 132, 152]));
    // The top (face +z): TSSolidPoly, palette index 1: (22, 26, 32) → (88, 104, 128).
    let top = &meshes[0]["polys"][5];
    assert_eq!(
        (top["kind"].as_str(), top["surface_color"].as_i64()),
        (Some("solid"), Some(1))
    );
    assert_eq!(top["rgb"], json!([88, 104, 128]));
    // The materials beside the DTS: its palette and bitmap array, and the four frames the
    // boxes use as 16 × 16 RGBA images (1024 bytes: 1368 base64 characters).
    let mats = &v["materials"];
    assert_eq!(
        (mats["palette"].as_str(), mats["bitmaps"].as_str()),
        (Some("biped.dpl"), Some("biped.dba"))
    );
    assert_eq!(mats["problems"], json!([]));
    let tex = mats["textures"].as_object().unwrap();
    assert_eq!(tex.keys().collect::<Vec<_>>(), ["0", "1", "2", "3"]);
    assert_eq!(
        (tex["0"]["width"].as_u64(), tex["0"]["height"].as_u64()),
        (Some(16), Some(16))
    );
    assert_eq!(tex["0"]["rgba"].as_str().unwrap().len(), 1368);

    // The mech extension's shape wins over the asset; an archive's entry is named with it.
    let v = scenario_meshes(
        &json!({"asset": "m/biped.json", "setup": {"mech": {"shape": "m/other.dts"}}}),
        &read,
    )
    .unwrap();
    assert_eq!(v["source"], "other.dts");
    let v = scenario_meshes(
        &json!({"setup": {"mech": {"vol": "m/SIM.VOL", "shape": "dts\\biped.dts"}}}),
        &read,
    )
    .unwrap();
    assert_eq!(v["source"], "SIM.VOL:dts\\biped.dts");
    assert_eq!(v["meshes"].as_array().unwrap().len(), 14);

    // No DTS beside the asset, or an inline asset: nothing to draw, not an error.
    let none = json!({"source": null, "meshes": []});
    assert_eq!(
        scenario_meshes(&json!({"asset": "m/lone.json"}), &read).unwrap(),
        none
    );
    assert_eq!(
        scenario_meshes(&json!({"asset": {"nodes": []}}), &read).unwrap(),
        none
    );
    // A named shape or archive that is not there, or an entry the archive lacks, is.
    assert_eq!(
        scenario_meshes(&json!({"setup": {"mech": {"shape": "m/gone.dts"}}}), &read).unwrap_err(),
        "gone.dts: no such file"
    );
    assert_eq!(
        scenario_meshes(
            &json!({"setup": {"mech": {"vol": "m/SIM.VOL", "shape": "dts\\GONE.DTS"}}}),
            &read
        )
        .unwrap_err(),
        "SIM.VOL: entry dts\\GONE.DTS: not found"
    );
}
