//! Palette (`0x04……`), SurfaceTexture (`0x05……`), RenderSurface (`0x06……`) and Surface
//! (`0x08……`) records: hand-built bytes read to hand-derived values, round trips, located
//! errors for truncated records, and the pixel decoders (P8, R8G8B8, A8R8G8B8, DXT1/3/5).

#![allow(clippy::disallowed_methods)]

use proptest::prelude::*;
use retroanim_ac::records::render_surface::*;
use retroanim_ac::records::*;
use std::path::PathBuf;

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn rs(format: u32, w: i32, h: i32, data: Vec<u8>, pal: Option<u32>) -> RenderSurface {
    RenderSurface {
        id: 0x0600_0001,
        unknown: 6,
        width: w,
        height: h,
        format,
        data,
        default_palette: pal,
    }
}

#[test]
fn palette_reads_argb_words_and_round_trips() {
    let bytes = le(&[0x0400_0007, 2, 0xFF10_2030, 0x8040_5060]);
    let p = read_palette(&bytes, "p.bin").unwrap();
    assert_eq!(p.id, 0x0400_0007);
    assert_eq!(p.colors, [0xFF10_2030, 0x8040_5060]);
    assert_eq!(p.rgba(1), Some([0x40, 0x50, 0x60, 0x80]));
    assert_eq!(write_palette(&p), bytes);
}

#[test]
fn palette_count_past_the_end_is_refused_where_it_stands() {
    let bytes = le(&[0x0400_0007, 3, 0xFF10_2030]);
    let e = read_palette(&bytes, "p.bin").unwrap_err().to_string();
    assert!(
        e.starts_with("p.bin: record 0x04000007, byte 4: palette colour count 3 exceeds"),
        "{e}"
    );
}

#[test]
fn image_surface_stores_texture_and_palette_ids_solid_surface_a_colour() {
    // Type 2 (image): texture id, palette id, translucency 0, luminosity 0, diffuse 1.
    let img = le(&[2, 0x0500_0001, 0x0400_0001, 0, 0, 0x3F80_0000]);
    let s = read_surface(&img, 0x0800_0001, "s.bin").unwrap();
    assert_eq!(
        (s.texture_id, s.palette_id, s.color),
        (0x0500_0001, 0x0400_0001, 0)
    );
    assert_eq!(s.diffuse, 1.0);
    assert_eq!(write_surface(&s), img);
    // Type 1 (solid): one colour word instead, so 20 bytes.
    let solid = le(&[1, 0xFF80_4020, 0x3F00_0000, 0, 0]);
    let s = read_surface(&solid, 0x0800_0002, "s.bin").unwrap();
    assert_eq!(
        (s.color, s.translucency, s.texture_id),
        (0xFF80_4020, 0.5, 0)
    );
    assert_eq!(write_surface(&s), solid);
}

#[test]
fn truncated_surface_names_the_id_from_the_container_and_the_offset() {
    let img = le(&[4, 0x0500_0001, 0x0400_0001, 0, 0]);
    let e = read_surface(&img, 0x0800_0009, "s.bin")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "s.bin: record 0x08000009, byte 20: truncated: surface diffuse needs 4 bytes, 0 left"
    );
}

#[test]
fn surface_texture_round_trips() {
    let mut bytes = le(&[0x0500_0003, 0]);
    bytes.push(2);
    bytes.extend(le(&[2, 0x0600_0001, 0x0600_0002]));
    let t = read_surface_texture(&bytes, "t.bin").unwrap();
    assert_eq!(t.render_surfaces, [0x0600_0001, 0x0600_0002]);
    assert_eq!(t.unknown_byte, 2);
    assert_eq!(write_surface_texture(&t), bytes);
}

#[test]
fn render_surface_p8_keeps_its_default_palette_and_decodes_through_it() {
    let mut bytes = le(&[0x0600_0001, 6, 2, 1, PFID_P8, 2]);
    bytes.extend([1, 0]);
    bytes.extend(le(&[0x0400_0001]));
    let r = read_render_surface(&bytes, "r.bin").unwrap();
    assert_eq!(r.default_palette, Some(0x0400_0001));
    assert_eq!(write_render_surface(&r), bytes);
    let pal = Palette {
        id: 0x0400_0001,
        colors: vec![0xFF00_0000, 0x80FF_8000],
    };
    assert_eq!(
        decode_rgba(&r, Some(&pal), "r.bin").unwrap(),
        [255, 128, 0, 128, 0, 0, 0, 255]
    );
    let short = Palette {
        id: 0x0400_0001,
        colors: vec![0xFF00_0000],
    };
    let e = decode_rgba(&r, Some(&short), "r.bin")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "r.bin: record 0x06000001, byte 24: palette index 1 past the end of palette 0x04000001 (1 colours)");
}

#[test]
fn render_surface_truncated_pixels_are_refused_at_the_count() {
    let mut bytes = le(&[0x0600_0001, 6, 4, 4, PFID_DXT1, 8]);
    bytes.extend([0; 5]);
    let e = read_render_surface(&bytes, "r.bin")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("r.bin: record 0x06000001, byte 20: pixel byte count 8 exceeds"),
        "{e}"
    );
}

#[test]
fn r8g8b8_is_stored_blue_first_and_a8r8g8b8_as_a_little_endian_argb_word() {
    let r = rs(PFID_R8G8B8, 1, 1, vec![0x10, 0x20, 0x30], None);
    assert_eq!(decode_rgba(&r, None, "r").unwrap(), [0x30, 0x20, 0x10, 255]);
    let a = rs(
        PFID_A8R8G8B8,
        1,
        1,
        0x7F11_2233u32.to_le_bytes().to_vec(),
        None,
    );
    assert_eq!(
        decode_rgba(&a, None, "r").unwrap(),
        [0x11, 0x22, 0x33, 0x7F]
    );
    let short = rs(PFID_A8R8G8B8, 2, 1, vec![0; 4], None);
    assert_eq!(
        decode_rgba(&short, None, "r").unwrap_err().to_string(),
        "r: record 0x06000001, byte 24: A8R8G8B8 2×1 needs 8 pixel bytes, the record has 4"
    );
}

/// A DXT1 block: c0 = 0xF800 (pure red), c1 = 0x001F (pure blue), selectors by texel.
fn red_blue_block(sel: u32) -> Vec<u8> {
    let mut b = vec![0x00, 0xF8, 0x1F, 0x00];
    b.extend(sel.to_le_bytes());
    b
}

#[test]
fn dxt1_four_colour_block_mixes_two_thirds_one_third() {
    // Texels 0..3 select 0, 1, 2, 3; the rest 0.
    let r = rs(PFID_DXT1, 4, 4, red_blue_block(0b11_10_01_00), None);
    let px = decode_rgba(&r, None, "r").unwrap();
    assert_eq!(&px[0..4], [255, 0, 0, 255]);
    assert_eq!(&px[4..8], [0, 0, 255, 255]);
    // (2·255 + 0) / 3 = 170, (2·0 + 255) / 3 = 85.
    assert_eq!(&px[8..12], [170, 0, 85, 255]);
    assert_eq!(&px[12..16], [85, 0, 170, 255]);
    assert_eq!(&px[16..20], [255, 0, 0, 255]);
}

#[test]
fn dxt1_with_c0_not_above_c1_has_a_half_colour_and_transparent_black() {
    // c0 = 0x001F (blue) <= c1 = 0xF800 (red).
    let mut b = vec![0x1F, 0x00, 0x00, 0xF8];
    b.extend(0b11_10u32.to_le_bytes());
    let px = decode_rgba(&rs(PFID_DXT1, 4, 4, b, None), None, "r").unwrap();
    assert_eq!(&px[0..4], [127, 0, 127, 255]);
    assert_eq!(&px[4..8], [0, 0, 0, 0]);
}

#[test]
fn dxt3_alpha_nibbles_scale_by_17() {
    // Texel 0 alpha 0x3 (51), texel 1 alpha 0xF (255), rest 0.
    let mut b = vec![0xF3, 0, 0, 0, 0, 0, 0, 0];
    b.extend(red_blue_block(0));
    let px = decode_rgba(&rs(PFID_DXT3, 4, 4, b, None), None, "r").unwrap();
    assert_eq!(&px[0..4], [255, 0, 0, 51]);
    assert_eq!(&px[4..8], [255, 0, 0, 255]);
    assert_eq!(px[11], 0);
}

#[test]
fn dxt5_interpolates_eight_or_six_alpha_steps() {
    // a0 = 210 > a1 = 0: selector 2 is (6·210 + 0) / 7 = 180; texel 1 selector 7 = 30.
    let sel: u64 = 2 | (7 << 3);
    let mut b = vec![210, 0];
    b.extend(&sel.to_le_bytes()[..6]);
    b.extend(red_blue_block(0));
    let px = decode_rgba(&rs(PFID_DXT5, 4, 4, b, None), None, "r").unwrap();
    assert_eq!((px[3], px[7], px[11]), (180, 30, 210));
    // a0 = 0 <= a1 = 100: selector 2 is (4·0 + 100) / 5 = 20, 6 is 0, 7 is 255.
    let sel: u64 = 2 | (6 << 3) | (7 << 6);
    let mut b = vec![0, 100];
    b.extend(&sel.to_le_bytes()[..6]);
    b.extend(red_blue_block(0));
    let px = decode_rgba(&rs(PFID_DXT5, 4, 4, b, None), None, "r").unwrap();
    assert_eq!((px[3], px[7], px[11]), (20, 0, 255));
}

#[test]
fn dxt_images_smaller_than_a_block_keep_the_top_left_texels() {
    let px = decode_rgba(
        &rs(PFID_DXT1, 2, 1, red_blue_block(0b01_00), None),
        None,
        "r",
    )
    .unwrap();
    assert_eq!(px, [255, 0, 0, 255, 0, 0, 255, 255]);
}

#[test]
fn sizes_outside_the_limit_and_unknown_formats_are_refused() {
    let e = decode_rgba(&rs(PFID_DXT1, 0, 4, vec![], None), None, "r").unwrap_err();
    assert!(
        e.to_string().contains("byte 8: image 0×4 is outside"),
        "{e}"
    );
    let e = decode_rgba(&rs(23, 1, 1, vec![0; 2], None), None, "r").unwrap_err();
    assert!(e.to_string().contains("byte 16: pixel format 23"), "{e}");
}

fn sample(id: u32) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/ac/records")
        .join(format!("{id:08x}.bin"));
    std::fs::read(p).unwrap()
}

#[test]
fn the_sample_textures_decode_to_their_authored_colours() {
    // Head: P8 16×16 checker of 4-texel cells over palette 0x04000101.
    let pal = read_palette(&sample(0x0400_0101), "pal").unwrap();
    assert_eq!(pal.colors, [0xFFE0_A070, 0xFFC0_8050]);
    let surf = read_surface(&sample(0x0800_0102), 0x0800_0102, "s").unwrap();
    assert_eq!(
        (surf.texture_id, surf.palette_id),
        (0x0500_0102, 0x0400_0101)
    );
    let st = read_surface_texture(&sample(0x0500_0102), "st").unwrap();
    assert_eq!(st.render_surfaces, [0x0600_0102]);
    let head = read_render_surface(&sample(0x0600_0102), "rs").unwrap();
    assert_eq!((head.width, head.format), (16, PFID_P8));
    let px = decode_rgba(&head, Some(&pal), "rs").unwrap();
    assert_eq!(&px[0..4], [0xE0, 0xA0, 0x70, 255]);
    assert_eq!(&px[16..20], [0xC0, 0x80, 0x50, 255]); // texel (4, 0): the next cell
                                                      // Torso: DXT1 32×32 stripes, 4 rows each, of 0xff2050c0 and 0xffe0e0e0; 565 keeps
                                                      // r 0x20 -> 4 -> 0x21, g 0x50 -> 20 -> 0x51, b 0xc0 -> 24 -> 0xc6.
    let torso = read_render_surface(&sample(0x0600_0101), "rs").unwrap();
    assert_eq!(torso.data.len(), 8 * 8 * 8);
    let px = decode_rgba(&torso, None, "rs").unwrap();
    assert_eq!(&px[0..4], [0x21, 0x51, 0xC6, 255]);
    let row4 = 4 * 32 * 4;
    assert_eq!(&px[row4..row4 + 4], [0xE7, 0xE3, 0xE7, 255]);
    for id in [0x0600_0103, 0x0600_0104, 0x0600_0105, 0x0600_0106] {
        let r = read_render_surface(&sample(id), "rs").unwrap();
        assert_eq!(write_render_surface(&r), sample(id));
        assert_eq!(decode_rgba(&r, None, "rs").unwrap().len(), 16 * 16 * 4);
    }
}

#[test]
fn inspect_shows_the_texture_records_by_id_and_a_surface_by_its_file_name() {
    use retroanim_ac::inspect::inspect_file;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records");
    let text = inspect_file(&dir.join("06000101.bin"), None, false).unwrap();
    assert_eq!(
        text,
        "RenderSurface 0x06000101\n32×32 DXT1 (827611204), 512 pixel bytes\n"
    );
    let text = inspect_file(&dir.join("06000102.bin"), None, false).unwrap();
    assert!(text.ends_with("16×16 P8 (41), 256 pixel bytes, default palette 0x04000101\n"));
    let text = inspect_file(&dir.join("08000102.bin"), None, false).unwrap();
    assert_eq!(
        text,
        "Surface 0x08000102\ntype 0x00000002, image: SurfaceTexture 0x05000102, palette 0x04000101\ntranslucency 0, luminosity 0, diffuse 1\n"
    );
    let text = inspect_file(&dir.join("04000101.bin"), None, false).unwrap();
    assert_eq!(
        text,
        "Palette 0x04000101\n2 colours (0xAARRGGBB)\n     0: ffe0a070 ffc08050\n"
    );
    let json = inspect_file(&dir.join("05000101.bin"), None, true).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["render_surfaces"][0], "0x06000101");
    assert!(retroanim_ac::inspect::recognises(&dir.join("08000101.bin")));
}

fn any_record() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..200)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic_and_accepted_records_round_trip(bytes in any_record(), cut in any::<usize>()) {
        let mut samples = vec![bytes];
        for id in [0x0400_0101u32, 0x0500_0101, 0x0600_0101, 0x0600_0102, 0x0800_0101] {
            let s = sample(id);
            let c = cut % (s.len() + 1);
            samples.push(s[..c].to_vec());
        }
        for b in &samples {
            if let Ok(p) = read_palette(b, "f") {
                prop_assert!(write_palette(&p) == *b);
            }
            if let Ok(s) = read_surface(b, 1, "f") {
                prop_assert!(write_surface(&s) == *b);
            }
            if let Ok(t) = read_surface_texture(b, "f") {
                prop_assert!(write_surface_texture(&t) == *b);
            }
            if let Ok(r) = read_render_surface(b, "f") {
                prop_assert!(write_render_surface(&r) == *b);
                let pal = Palette { id: 1, colors: vec![0; 3] };
                let _ = decode_rgba(&r, Some(&pal), "f");
            }
        }
    }
}
