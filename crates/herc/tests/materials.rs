//! H80–H84: palettes (`.DPL`), bitmaps (`.DBM`, `.DBA`), what a polygon's surface value
//! names, and the sample biped's own palette and textures (`assets/herc/biped.dpl`,
//! `assets/herc/biped.dba`, written by `regenerate_sample_biped_materials`). Expected bytes
//! and values are worked out by hand from the layouts in docs/herc-formats.md ("Palettes,
//! bitmaps and materials").

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use proptest::prelude::*;
use retroanim_herc::formats::bitmap::{Bitmap, BitmapArray};
use retroanim_herc::formats::group::{
    GroupGeometry, SurfaceEntry, TAG_POLY, TAG_SHADED_POLY, TAG_SOLID_POLY, TAG_TEXTURE4_POLY,
};
use retroanim_herc::formats::material::{
    frame_rgba, material, material_rgb, poly_sides, texture_corners, Material,
};
use retroanim_herc::formats::palette::{Palette, PaletteEntry};
use retroanim_herc::formats::vol::with_entry_prefix;

const BIPED_DPL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/herc/biped.dpl");
const BIPED_DBA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/herc/biped.dba");

fn le16(vs: &[i16]) -> Vec<u8> {
    vs.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A three-colour palette with two ramps, assembled by hand.
fn small_dpl() -> Vec<u8> {
    let mut b = vec![0x0f, 0x00, 0x28, 0x00];
    // size: count (4) + 3 entries (12) + ramp count (4) + ramp 0 (2 + 4) + ramp 1 (2 + 6) = 34
    b.extend(34u32.to_le_bytes());
    b.extend(3i32.to_le_bytes());
    b.extend([0, 0, 0, 1, 63, 32, 0, 1, 10, 20, 30, 0]);
    b.extend(2i32.to_le_bytes());
    b.extend(le16(&[2, 1, 2]));
    b.extend(le16(&[3, 2, 1, 0]));
    b
}

#[test]
fn h80_palette_layout_channels_and_round_trip() {
    let bytes = small_dpl();
    let p = Palette::read(&bytes, "S.DPL").unwrap();
    assert_eq!(p.size_field, 34);
    assert_eq!(p.entries.len(), 3);
    assert_eq!(p.entries[1], PaletteEntry::vga(63, 32, 0));
    assert_eq!(p.entries[2].flag, 0);
    // 6-bit channels times 4, capped: 63 → 252, 32 → 128, 10/20/30 → 40/80/120.
    assert_eq!(p.rgb(1), Some([252, 128, 0]));
    assert_eq!(p.rgb(2), Some([40, 80, 120]));
    assert_eq!(p.rgb(3), None);
    assert_eq!(p.ramps, Some(vec![vec![1, 2], vec![2, 1, 0]]));
    assert_eq!(p.write().unwrap(), bytes);
    // The same palette built in code has the same bytes (the size is the bytes after it).
    let built = Palette::new(p.entries.clone(), p.ramps.clone());
    assert_eq!(built.write().unwrap(), bytes);
    // A colour-only palette (no ramp table) reads with `ramps: None` and writes back.
    let only = &bytes[..4 + 4 + 4 + 12];
    let q = Palette::read(only, "C.DPL").unwrap();
    assert_eq!(q.ramps, None);
    assert_eq!(q.write().unwrap(), only);
    // Extracted with its VOL prefix, the file reads the same.
    let prefixed = with_entry_prefix(&bytes, 0, 0);
    assert_eq!(Palette::read(&prefixed, "S.DPL").unwrap(), p);
    // A channel above 63 is capped at 255 (64 · 4 = 256).
    assert_eq!(PaletteEntry::vga(64, 0, 0).rgb(), [255, 0, 0]);
}

#[test]
fn h80_bad_palettes_are_located() {
    let bytes = small_dpl();
    let e = Palette::read(&[1, 2, 3, 4, 0, 0, 0, 0], "X.DPL").unwrap_err();
    assert_eq!(
        (e.file.as_str(), e.at.as_str()),
        ("X.DPL", "record DPL, byte 0")
    );
    assert!(e.message.contains("not a palette"), "{e}");
    let mut big = bytes.clone();
    big[8..12].copy_from_slice(&257i32.to_le_bytes());
    let e = Palette::read(&big, "X.DPL").unwrap_err();
    assert_eq!(e.at, "record DPL, byte 8");
    assert!(e.message.contains("colour count 257"), "{e}");
    // Three entries need 12 bytes from byte 12; 11 remain after cutting the file at 23.
    let e = Palette::read(&bytes[..23], "X.DPL").unwrap_err();
    assert_eq!(e.at, "record DPL, byte 12");
    // Ramp 1 claims 3 indices (6 bytes at 36); the file cut at 40 has 4.
    let e = Palette::read(&bytes[..40], "X.DPL").unwrap_err();
    assert_eq!(e.at, "record DPL shade ramps, byte 34");
    assert!(e.message.contains("ramp 1 length 3"), "{e}");
    let mut many = bytes.clone();
    many[24..28].copy_from_slice(&300i32.to_le_bytes());
    let e = Palette::read(&many, "X.DPL").unwrap_err();
    assert_eq!(e.at, "record DPL shade ramps, byte 24");
    // Every truncation is an error or a shorter palette, never a panic.
    for n in 0..bytes.len() {
        let _ = Palette::read(&bytes[..n], "T.DPL");
    }
}

#[test]
fn h83_ramp_lookup_follows_the_light() {
    let p = Palette::read(&small_dpl(), "S.DPL").unwrap();
    // Ramp 1 is [2, 1, 0], length 3: shade 0 → step 0; 85 → (85·3)>>8 = 0; 86 → 258>>8 = 1;
    // 171 → 513>>8 = 2; 255 → 765>>8 = 2.
    assert_eq!(p.ramp_index(1, 0), Some(2));
    assert_eq!(p.ramp_index(1, 85), Some(2));
    assert_eq!(p.ramp_index(1, 86), Some(1));
    assert_eq!(p.ramp_index(1, 171), Some(0));
    assert_eq!(p.ramp_index(1, 255), Some(0));
    // Ramp numbers are masked to a byte; past the table the lookup takes ramp 0 ([1, 2]).
    assert_eq!(p.ramp_index(257, 0), Some(2)); // 257 & 0xff = 1
    assert_eq!(p.ramp_index(7, 0), Some(1));
    assert_eq!(p.ramp_index(7, 200), Some(2));
    // No ramp table: no colour.
    let only = Palette::read(&small_dpl()[..24], "C.DPL").unwrap();
    assert_eq!(only.ramp_index(0, 0), None);
}

/// A 3 × 2 raw bitmap (odd record: padded), assembled by hand.
fn small_dbm() -> Vec<u8> {
    let mut b = vec![0x0e, 0x00, 0x28, 0x00];
    b.extend(19u32.to_le_bytes()); // 13 + 6 image bytes
    b.extend(le16(&[2, 3])); // rows, columns
    b.extend([8, 0x10, 0]); // bits per pixel, flags, packing
    b.extend(6i32.to_le_bytes());
    b.extend(le16(&[0]));
    b.extend([1, 2, 0, 2, 1, 1]);
    b.push(0); // 8 + 19 = 27 bytes: one padding byte
    b
}

#[test]
fn h81_bitmap_record_layout_and_round_trip() {
    let bytes = small_dbm();
    let b = Bitmap::read(&bytes, "S.DBM").unwrap();
    assert_eq!(
        (b.rows, b.cols, b.bits_per_pixel, b.flags, b.packing),
        (2, 3, 8, 0x10, 0)
    );
    assert_eq!(b.indices().unwrap(), &[1, 2, 0, 2, 1, 1]);
    assert_eq!(b.write().unwrap(), bytes);
    let mut built = Bitmap::indexed(3, 2, vec![1, 2, 0, 2, 1, 1]);
    built.flags = 0x10;
    assert_eq!(built.write().unwrap(), bytes);
    // Extra words follow the image: one word makes the record 31 bytes, padded to 32.
    let mut x = built.clone();
    x.extra_count = 1;
    x.extras = vec![0xdead_beef];
    let xb = x.write().unwrap();
    assert_eq!(xb.len(), 32);
    assert_eq!(&xb[27..31], &0xdead_beefu32.to_le_bytes());
    assert_eq!(Bitmap::read(&xb, "X.DBM").unwrap(), x);
    // A packed image is kept but not decoded.
    let mut rle = built.clone();
    rle.packing = 1;
    assert!(rle.indices().unwrap_err().contains("packing 1"));
}

#[test]
fn h81_bitmap_array_layout_and_round_trip() {
    let one = small_dbm();
    let mut bytes = vec![0x01, 0x00, 0x28, 0x00];
    bytes.extend(((4 + 2 * one.len()) as u32).to_le_bytes());
    bytes.extend(le16(&[2, 0]));
    bytes.extend(&one);
    bytes.extend(&one);
    let a = BitmapArray::read(&bytes, "S.DBA").unwrap();
    assert_eq!(a.frames.len(), 2);
    assert_eq!(a.size_field, 60);
    assert_eq!(a.write().unwrap(), bytes);
    assert_eq!(
        BitmapArray::new(a.frames.clone()).unwrap().write().unwrap(),
        bytes
    );
    // The second frame's tag damaged: located at its offset, 12 + 28 = 40.
    let mut bad = bytes.clone();
    bad[40] = 0x0f;
    let e = BitmapArray::read(&bad, "B.DBA").unwrap_err();
    assert_eq!(e.at, "record DBA frame 1, byte 40");
    // A frame count the bytes cannot hold (each frame is at least 21 bytes).
    let mut many = bytes.clone();
    many[8..10].copy_from_slice(&9i16.to_le_bytes());
    let e = BitmapArray::read(&many, "B.DBA").unwrap_err();
    assert_eq!(e.at, "record DBA, byte 8");
    // An image length running past its record.
    let mut long = one.clone();
    long[15..19].copy_from_slice(&100i32.to_le_bytes());
    let e = Bitmap::read(&long, "L.DBM").unwrap_err();
    assert_eq!(e.at, "record DBM at 0, byte 21");
    for n in 0..bytes.len() {
        let _ = BitmapArray::read(&bytes[..n], "T.DBA");
    }
}

/// A group with one surface entry per class and one polygon of each class.
fn group_of_each_class() -> GroupGeometry {
    let mut g = GroupGeometry::boxed([0, 0, 0], [10, 10, 10], 5);
    g.surfaces = vec![
        SurfaceEntry {
            front_color: 5,
            back_color: 6,
            back_flag: 0x1400, // the back side is not drawn
            ..SurfaceEntry::default()
        },
        SurfaceEntry {
            front_color: 1,
            back_color: 1,
            ..SurfaceEntry::default()
        },
        SurfaceEntry {
            front_color: 0,
            back_color: 0,
            ..SurfaceEntry::default()
        },
    ];
    let classes = [TAG_SOLID_POLY, TAG_SHADED_POLY, TAG_TEXTURE4_POLY, TAG_POLY];
    let colours = [Some(0), Some(4), Some(8), None];
    for (k, p) in g.polys.iter_mut().take(4).enumerate() {
        p.tag = classes[k];
        p.color = colours[k];
    }
    g
}

#[test]
fn h82_surface_value_names_a_colour_ramp_or_frame_by_class() {
    let g = group_of_each_class();
    // Round trip through the group writer: the classes and slots are what was written.
    let g = GroupGeometry::read(&g.write().unwrap(), "M.DTS", 0).unwrap();
    let (front, back) = poly_sides(&g, 0);
    assert_eq!(front.map(|s| s.value), Some(5));
    assert_eq!(back.map(|s| (s.value, s.hidden())), Some((6, true)));
    assert!(!front.unwrap().hidden());
    let m: Vec<Material> = (0..4)
        .map(|i| {
            let (f, _) = poly_sides(&g, i);
            f.map_or(Material::None, |s| material(g.polys[i].tag, s.value))
        })
        .collect();
    assert_eq!(
        m,
        [
            Material::PaletteIndex(5),
            Material::Ramp(1),
            Material::Frame(0),
            Material::None
        ]
    );
    // Colours through the small palette and a one-frame array: solid index 5 is past the
    // 3-colour palette (none); ramp 1 at the view shade 192 → (192·3)>>8 = 2 → index 0,
    // black; frame 0's non-zero texels are 1, 2, 2, 1, 1: mean of (252,128,0)×3 and
    // (40,80,120)×2 = (167, 108, 48).
    let pal = Palette::read(&small_dpl(), "S.DPL").unwrap();
    let dba = BitmapArray::new(vec![Bitmap::read(&small_dbm(), "S.DBM").unwrap()]).unwrap();
    assert_eq!(material_rgb(m[0], Some(&pal), Some(&dba)), None);
    assert_eq!(
        material_rgb(Material::PaletteIndex(1), Some(&pal), None),
        Some([252, 128, 0])
    );
    assert_eq!(material_rgb(m[1], Some(&pal), Some(&dba)), Some([0, 0, 0]));
    assert_eq!(
        material_rgb(m[2], Some(&pal), Some(&dba)),
        Some([167, 108, 48])
    );
    assert_eq!(material_rgb(m[2], Some(&pal), None), None);
    assert_eq!(
        material_rgb(Material::Frame(1), Some(&pal), Some(&dba)),
        None
    );
    assert_eq!(material_rgb(m[3], Some(&pal), Some(&dba)), None);
}

#[test]
fn h84_textured_corners_and_frame_pixels() {
    assert_eq!(
        texture_corners(4),
        vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    );
    assert_eq!(texture_corners(3), vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]]);
    let pal = Palette::read(&small_dpl(), "S.DPL").unwrap();
    let dba = BitmapArray::new(vec![Bitmap::read(&small_dbm(), "S.DBM").unwrap()]).unwrap();
    let (w, h, rgba) = frame_rgba(&dba, 0, &pal).unwrap();
    assert_eq!((w, h), (3, 2));
    // Texel (2, 0) is index 0: transparent; texel (0, 0) index 1, opaque.
    assert_eq!(&rgba[0..4], &[252, 128, 0, 255]);
    assert_eq!(&rgba[8..12], &[0, 0, 0, 0]);
    assert!(frame_rgba(&dba, 1, &pal)
        .unwrap_err()
        .contains("no frame 1"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn h80_h81_readers_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = Palette::read(&bytes, "x.dpl");
        let _ = Bitmap::read(&bytes, "x.dbm");
        let _ = BitmapArray::read(&bytes, "x.dba");
        for tag in [[0x0f, 0, 0x28, 0], [0x0e, 0, 0x28, 0], [0x01, 0, 0x28, 0]] {
            let mut b = tag.to_vec();
            b.extend_from_slice(&bytes);
            let _ = Palette::read(&b, "x.dpl");
            let _ = Bitmap::read(&b, "x.dbm");
            let _ = BitmapArray::read(&b, "x.dba");
        }
    }

    #[test]
    fn h80_h81_written_files_read_back(
        colours in prop::collection::vec((0u8..64, 0u8..64, 0u8..64), 0..40),
        ramps in prop::option::of(prop::collection::vec(prop::collection::vec(0i16..40, 0..6), 0..5)),
        frames in prop::collection::vec((1i16..6, 1i16..6, any::<u8>()), 0..4),
    ) {
        let p = Palette::new(colours.iter().map(|&(r, g, b)| PaletteEntry::vga(r, g, b)).collect(), ramps);
        let pb = p.write().unwrap();
        prop_assert_eq!(Palette::read(&pb, "p.dpl").unwrap(), p);
        let fs: Vec<Bitmap> = frames.iter().map(|&(w, h, v)| Bitmap::indexed(w, h, vec![v; (w * h) as usize])).collect();
        let a = BitmapArray::new(fs).unwrap();
        let ab = a.write().unwrap();
        prop_assert_eq!(ab.len() - 8, a.size_field as usize);
        prop_assert_eq!(BitmapArray::read(&ab, "p.dba").unwrap(), a);
    }
}

// ---------------------------------------------------------------------------------------
// The sample biped's palette and textures (authored for this project: no game data).

/// 6-bit colour of each part colour number 1–9 (the TSSolidPoly palette indices of
/// `assets/herc/biped.dts`): pelvis, torso, cockpit, upper arm, forearm, thigh, shin, foot,
/// gun mount.
const PART_COLOURS: [(u8, u8, u8); 9] = [
    (22, 26, 32),
    (30, 34, 40),
    (10, 18, 34),
    (26, 30, 16),
    (46, 38, 10),
    (24, 28, 14),
    (28, 30, 34),
    (40, 32, 10),
    (18, 18, 20),
];

/// The base colours of the five 8-step shade ramps (palette indices 16 + 8·r … 23 + 8·r):
/// grey, olive, blue, amber, gunmetal.
const RAMP_BASES: [(u8, u8, u8); 5] = [
    (28, 30, 34),
    (26, 30, 16),
    (12, 20, 38),
    (46, 38, 10),
    (18, 18, 20),
];

/// Step brightness of a ramp, in 1/100 of the base colour, darkest first.
const RAMP_STEPS: [u32; 8] = [35, 50, 62, 74, 86, 100, 112, 124];

fn ramp_entry(base: (u8, u8, u8), step: usize) -> PaletteEntry {
    let s = |c: u8| (u32::from(c) * RAMP_STEPS[step] / 100).min(63) as u8;
    PaletteEntry::vga(s(base.0), s(base.1), s(base.2))
}

/// 256 colours: 0 black (the transparent key), 1–9 the part colours, 10–15 black, 16–55
/// the five ramps, 56–255 a grey scale; and the five ramps' table.
fn sample_palette() -> Palette {
    let mut e = vec![PaletteEntry::vga(0, 0, 0)];
    e.extend(
        PART_COLOURS
            .iter()
            .map(|&(r, g, b)| PaletteEntry::vga(r, g, b)),
    );
    e.extend((10..16).map(|_| PaletteEntry::vga(0, 0, 0)));
    for base in RAMP_BASES {
        e.extend((0..8).map(|s| ramp_entry(base, s)));
    }
    e.extend((56..256u32).map(|k| {
        let v = ((k - 56) * 63 / 199) as u8;
        PaletteEntry::vga(v, v, v)
    }));
    let ramps = (0..5i16)
        .map(|r| (0..8).map(|s| 16 + 8 * r + s).collect())
        .collect();
    Palette::new(e, Some(ramps))
}

/// Ramp `r`'s step `s` as a palette index.
fn ri(r: u8, s: u8) -> u8 {
    16 + 8 * r + s
}

/// Four 16 × 16 frames: 0 a riveted plate, 1 hazard stripes, 2 cockpit glass, 3 camouflage.
fn sample_frames() -> Vec<Bitmap> {
    let frame = |f: &dyn Fn(u8, u8) -> u8| {
        let px = (0..16u8)
            .flat_map(|y| (0..16u8).map(move |x| (x, y)))
            .map(|(x, y)| f(x, y))
            .collect();
        Bitmap::indexed(16, 16, px)
    };
    let plate = frame(&|x, y| {
        let edge = x == 0 || y == 0 || x == 15 || y == 15;
        let rivet = [2, 13].contains(&x) && [2, 13].contains(&y);
        if rivet {
            ri(0, 7)
        } else if edge {
            ri(0, 1)
        } else if y == 7 || y == 8 {
            ri(0, 3)
        } else {
            ri(0, 5)
        }
    });
    let hazard = frame(&|x, y| {
        if ((x + y) / 4) % 2 == 0 {
            ri(3, 6)
        } else {
            ri(4, 1)
        }
    });
    let glass = frame(&|x, y| {
        if x == y + 2 || x == y + 3 {
            ri(0, 7)
        } else {
            ri(2, 7 - (y / 3).min(5))
        }
    });
    // Camouflage: 4 × 4 cells, each one of three olive steps from a fixed table.
    const CELLS: [u8; 16] = [2, 4, 6, 4, 6, 2, 4, 2, 4, 6, 2, 6, 2, 4, 6, 4];
    let camo = frame(&|x, y| ri(1, CELLS[usize::from(y / 4 * 4 + x / 4)]));
    vec![plate, hazard, glass, camo]
}

#[test]
fn sample_biped_palette_and_textures_are_the_generators() {
    let dpl = std::fs::read(BIPED_DPL).expect(
        "assets/herc/biped.dpl (regenerate: cargo test -p retroanim-herc --test materials -- --ignored)",
    );
    let dba = std::fs::read(BIPED_DBA).expect("assets/herc/biped.dba");
    assert_eq!(dpl, sample_palette().write().unwrap());
    assert_eq!(
        dba,
        BitmapArray::new(sample_frames()).unwrap().write().unwrap()
    );
    // 4 + 4 + 4 + 256 × 4 bytes of colours, then 4 + 5 × (2 + 16) of ramps: 1130 bytes.
    assert_eq!(dpl.len(), 1130);
    // 12 bytes of array header, four frames of 21 + 256 bytes (odd: one padding byte each).
    assert_eq!(dba.len(), 12 + 4 * 278);
    let pal = Palette::read(&dpl, "biped.dpl").unwrap();
    // Part colour 2 (torso): 6-bit (30, 34, 40) → (120, 136, 160).
    assert_eq!(pal.rgb(2), Some([120, 136, 160]));
    // Ramp 3 (amber (46, 38, 10)) at the view shade 192: step (192·8)>>8 = 6, 112 % of
    // the base, truncated: (51, 42, 11) → index 16 + 24 + 6 = 46, colour (204, 168, 44).
    assert_eq!(pal.ramp_index(3, 192), Some(46));
    assert_eq!(pal.rgb(46), Some([204, 168, 44]));
    let a = BitmapArray::read(&dba, "biped.dba").unwrap();
    // The plate's rivet at (2, 2) is grey step 7: index 23.
    assert_eq!(a.frames[0].indices().unwrap()[2 * 16 + 2], 23);
}

/// Rewrites assets/herc/biped.dpl and biped.dba from the tables above.
#[test]
#[ignore]
fn regenerate_sample_biped_materials() {
    std::fs::write(BIPED_DPL, sample_palette().write().unwrap()).unwrap();
    std::fs::write(
        BIPED_DBA,
        BitmapArray::new(sample_frames()).unwrap().write().unwrap(),
    )
    .unwrap();
}

/// An Earthsiege 2 folder of one archive holding the sample biped as DBSIM keeps a
/// machine: `dts\BIPED.DTS`, its chassis `dat\BIPED.DAT` (rec 148 = 0: bank LIGHT), a
/// theater palette `dpl\WORLD1.DPL` and the bank `dba\LIGHT.DBA`.
fn es2_folder() -> retroanim_herc::inspect::es2::Es2Listing {
    use retroanim_herc::formats::vol::{VolArchive, VolEntry};
    let asset = |f: &str| std::fs::read(BIPED_DPL.replace("biped.dpl", f)).unwrap();
    let vol = VolArchive {
        program_mask: 1,
        precedence: 5,
        directories: vec!["dts".into(), "dat".into(), "dpl".into(), "dba".into()],
        entries: vec![
            VolEntry::stored("BIPED.DTS", 0, asset("biped.dts")).unwrap(),
            VolEntry::stored("BIPED.DAT", 1, asset("biped.chassis.bin")).unwrap(),
            VolEntry::stored("WORLD1.DPL", 2, asset("biped.dpl")).unwrap(),
            VolEntry::stored("LIGHT.DBA", 3, asset("biped.dba")).unwrap(),
        ],
        list_extra: Vec::new(),
    }
    .write()
    .unwrap();
    retroanim_herc::inspect::es2::Es2Listing::from_archives(
        "ES2".into(),
        vec![("SIMVOL0.VOL".into(), Ok(vol))],
        &|f| f.to_string(),
    )
    .unwrap()
}

#[test]
fn h82_an_es2_shape_is_drawn_with_the_theater_palette_and_its_chassis_bank() {
    use serde_json::json;
    let es2 = es2_folder();
    let v = es2
        .meshes(&json!({"vol": "SIMVOL0.VOL", "entry": "dts\\BIPED.DTS"}))
        .unwrap();
    let m = &v["materials"];
    assert_eq!(m["palette"], "SIMVOL0.VOL:dpl\\WORLD1.DPL");
    assert_eq!(m["bitmaps"], "SIMVOL0.VOL:dba\\LIGHT.DBA");
    assert_eq!(m["textures"].as_object().unwrap().len(), 4);
    // The pelvis top: palette index 1 → (88, 104, 128), as beside the loose files.
    assert_eq!(v["meshes"][0]["polys"][5]["rgb"], json!([88, 104, 128]));
}

#[test]
fn h85_an_es2_shape_takes_sequence_and_node_names_from_its_chassis_record() {
    use retroanim_herc::inspect::es2::expand;
    use serde_json::json;
    let es2 = es2_folder();
    let doc =
        json!({"engine": "herc", "asset_es2": {"vol": "SIMVOL0.VOL", "entry": "dts\\BIPED.DTS"}});
    let doc = expand("herc", doc, Some(&es2), "test").unwrap();
    let names: Vec<&str> = doc["asset"]["sequences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    // biped.chassis.json: step off forward 0, walk 1, run 2, turn in place 3, going down 4,
    // twist 5, pitch 6, step off reverse 7.
    assert_eq!(
        names,
        [
            "idle",
            "walk",
            "run",
            "turn",
            "death",
            "twist",
            "pitch",
            "idle_reverse"
        ]
    );
    // Camera part 3 resolves to node 3; the other nodes are numbered.
    let nodes = doc["asset"]["nodes"].as_array().unwrap();
    assert_eq!(nodes[3]["name"], "cockpit");
    assert_eq!(nodes[2]["name"], "node 2");
    assert!(doc["asset"]["note"]
        .as_str()
        .unwrap()
        .contains("dat\\BIPED.DAT"));
}
