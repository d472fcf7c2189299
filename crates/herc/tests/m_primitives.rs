//! M1–M9: fixed-point primitives, trig tables and the Q14 transform. Every expected value
//! below was worked out by hand from the rule text (the arithmetic is in the comments) or
//! typed in from the worked example (the `example` conformance scenario).

use retroanim_herc::fixed::{
    integrate_rate_over_tick, move_toward, q10, q14, q16, q16_div, q8, qn,
};
use retroanim_herc::transform::{Transform3, KIND_GENERAL, KIND_GENERAL_X, KIND_IDENTITY, KIND_Z};
use retroanim_herc::trig::{
    asin, asin_coarse_entry, asin_fine_entry, atan2, atan_corr_entry, cos, cos_table_entry, sin,
    CosTable,
};

fn tr(m: [i16; 9], kind: u8, t: [i32; 3]) -> Transform3 {
    Transform3 { m, kind, t }
}

#[test]
fn m01_qn_products_floor_and_keep_low_32_bits() {
    // 81·128 = 10368, >>8 = 40.5 → 40; negative floors: −40.5 → −41.
    assert_eq!(q8(81, 128), 40);
    assert_eq!(q8(81, -128), -41);
    assert_eq!(q10(1000, 768), 750);
    // −3·102 = −306, >>10 = −0.3 → −1 (floor, not truncation).
    assert_eq!(q10(-3, 102), -1);
    assert_eq!(q14(16384, 16384), 16384);
    assert_eq!(q14(11585, 11585), 8191);
    assert_eq!(q16(3 << 16, 5), 15);
    // (2^31−1)² >> 8 = 2^54 − 2^24; its low 32 bits are 0xff00_0000.
    assert_eq!(q8(i32::MAX, i32::MAX), -16_777_216);
    assert_eq!(qn(-1, 1, 14), -1);
}

#[test]
fn m01_q16div_truncates_toward_zero() {
    assert_eq!(q16_div(3, 2), Some(98_304));
    assert_eq!(q16_div(-3, 2), Some(-98_304));
    // 65536/3 = 21845.33; −21845.33 truncates to −21845.
    assert_eq!(q16_div(1, 3), Some(21_845));
    assert_eq!(q16_div(-1, 3), Some(-21_845));
    assert_eq!(q16_div(1, 0), None);
}

#[test]
fn m02_integrate_rate_over_tick_clamps() {
    // 81·100 = 8100, >>8 = 31; 64·100 >> 8 = 25.
    assert_eq!(integrate_rate_over_tick(81, 100), 31);
    assert_eq!(integrate_rate_over_tick(64, 100), 25);
    // 450·32767 >> 8 = 57598 → 0x7fff; −57600 → −0x7fff.
    assert_eq!(integrate_rate_over_tick(450, 32767), 32767);
    assert_eq!(integrate_rate_over_tick(450, -32768), -32767);
    assert_eq!(integrate_rate_over_tick(81, -3), -1);
}

#[test]
fn m02_move_toward_steps_and_snaps() {
    assert_eq!(move_toward(0, 100, 30), 30);
    assert_eq!(move_toward(90, 100, 30), 100);
    assert_eq!(move_toward(100, 0, 30), 70);
    assert_eq!(move_toward(20, 0, 30), 0);
    assert_eq!(move_toward(5, 5, 7), 5);
    // The i16 wrap happens before the overshoot test: 32760 + 100 wraps to −32676.
    assert_eq!(move_toward(32760, 32767, 100), -32676);
    // A negative step moves away and is kept.
    assert_eq!(move_toward(0, 100, -10), -10);
}

#[test]
fn m03_cosine_table_entries() {
    assert_eq!(cos_table_entry(0), 16384);
    // cos(0.0879°) = 1 − 1.2e-6: 16383.98 + 0.5 → 16384.
    assert_eq!(cos_table_entry(1), 16384);
    // 1 − cos(0.0092039 rad) = 4.236e-5; 16384 − 0.694 + 0.5 = 16383.8 → 16383.
    assert_eq!(cos_table_entry(6), 16383);
    // cos 22.5° = 0.9238795 → 15136.9 → 15137.
    assert_eq!(cos_table_entry(256), 15137);
    // cos 45° → 11585.24 → 11585.
    assert_eq!(cos_table_entry(512), 11585);
    // cos 67.5° = 0.3826834 → 6269.98 → 6270.
    assert_eq!(cos_table_entry(768), 6270);
    // 90° − 84.4629° = 5.5371°: sin = 0.096496 → 1580.99 → 1581.
    assert_eq!(cos_table_entry(961), 1581);
    // sin 5.4492° = 0.0949636 → 1555.88 → 1556.
    assert_eq!(cos_table_entry(962), 1556);
    // sin 0.5273° = 0.0092038 → 150.8 → 151.
    assert_eq!(cos_table_entry(1018), 151);
    assert_eq!(cos_table_entry(1024), 0);
}

#[test]
fn m03_cosine_table_matches_formula() {
    for i in 0..=1024usize {
        let v = ((i as f64) * std::f64::consts::TAU / 4096.0).cos() * 16384.0 + 0.5;
        assert_eq!(cos_table_entry(i) as f64, v.floor(), "entry {i}");
    }
    assert!(CosTable::generated().generated);
}

#[test]
fn m03_lookup_on_both_sides_of_each_quarter_seam() {
    // 16392: k = 1024 + ((2049) & 1) = 1025 → −cos_tab[1023]; 16384·sin(2π/4096) = 25.13 → −25.
    assert_eq!(cos(16392), -25);
    // −16392: k = −1025 + ((−2049) & 1) = −1024 → |k| = 1024 → −cos_tab[1024] = 0.
    assert_eq!(cos(-16392), 0);
    // 32767: k = 2047 + ((4095) & 1) = 2048 → −cos_tab[0]; −32760: k = −2048 + 1 → −cos_tab[1].
    assert_eq!(cos(32767), -16384);
    assert_eq!(cos(-32760), -16384);
    // 7 and −8 stay at k = 0.
    assert_eq!(cos(7), 16384);
    assert_eq!(cos(-8), 16384);
}

#[test]
fn m03_cosine_table_lookup() {
    assert_eq!(cos(0), 16384);
    // a = 8: k = 0 + ((8 >> 3) & 1) = 1 → entry 1; a = 24: k = 1 + 1 = 2.
    assert_eq!(cos(8), 16384);
    assert_eq!(cos(0x2000), 11585);
    assert_eq!(cos(-0x2000), 11585);
    // k = 1024 is past the quarter: −cos_tab[1024] = 0.
    assert_eq!(cos(0x4000), 0);
    assert_eq!(cos(0x6000), -11585);
    // −32768: k = |−2048| → −cos_tab[0].
    assert_eq!(cos(-32768), -16384);
    // C(1000): k = 62 + ((125) & 1) = 63; cos(0.09664 rad)·16384 = 16307.55 → 16308.
    assert_eq!(cos(1000), 16308);
    // S(1000) = C(−15384): k = −962 + 1 → 961 → 1581.
    assert_eq!(sin(1000), 1581);
    // S(−1000) = C(−17384): k = −1087 + 1 → 1086 ≥ 1024 → −cos_tab[962] = −1556.
    assert_eq!(sin(-1000), -1556);
    assert_eq!(sin(0x4000), 16384);
    assert_eq!(sin(-0x4000), -16384);
    assert_eq!(sin(100), 151);
    assert_eq!(cos(100), 16383);
}

#[test]
fn m03_user_cos_table_is_reported() {
    let mut entries: Vec<i16> = (0..=1024).map(cos_table_entry).collect();
    entries[961] = 1580;
    let user = CosTable::from_user(&entries).unwrap();
    assert!(!user.generated);
    assert_eq!(user.sin(1000), 1580);
    assert!(CosTable::from_user(&entries[..1024]).is_err());
    // FromEuler through the user's table: m5 = S(1000) = entry 961 = 1580.
    let t = Transform3::from_euler_with(&user, 1000, 0, 0);
    assert_eq!(t.m[5], 1580);
    assert_eq!(
        Transform3::from_euler_with(CosTable::generated(), 1000, 0, 0),
        Transform3::from_euler(1000, 0, 0)
    );
}

#[test]
fn m04_atan_and_asin_tables() {
    assert_eq!(atan_corr_entry(0), 0);
    // atan(1/512)·0x4000/2π = 5.093 → floor(5.593) = 5, minus 4 → 1.
    assert_eq!(atan_corr_entry(1), 1);
    // atan(5/512)·2607.59 = 25.46 → 25 − 20 = 5.
    assert_eq!(atan_corr_entry(5), 5);
    // atan(6/512)·2607.59 = 30.56 → 31 − 24 = 7.
    assert_eq!(atan_corr_entry(6), 7);
    // π/4 → 2048.5 → 2048 − 2048 = 0.
    assert_eq!(atan_corr_entry(512), 0);
    assert_eq!(asin_coarse_entry(0), 0);
    // asin(0.5) = π/6 → 65536/12 = 5461.33 → 5461.
    assert_eq!(asin_coarse_entry(256), 5461);
    // asin(392/4096) = 0.0958497 rad → 999.75 → 999.
    assert_eq!(asin_coarse_entry(49), 999);
    assert_eq!(asin_fine_entry(512), 16384);
}

#[test]
fn m04_atan2_quadrants() {
    assert_eq!(atan2(0, 0), 0);
    assert_eq!(atan2(0, 16384), 0);
    // ax ≥ ay: i = (151·512 + 8191)/16383 = 5; a = 20 + 5 = 25; 25 << 2 = 100.
    assert_eq!(atan2(151, 16383), 100);
    // i = (176·512 + 8191)/16383 = 6; a = 24 + 7 = 31 → 124.
    assert_eq!(atan2(176, 16383), 124);
    // ax < ay with i = 0: a = 0x1000 → 0x4000.
    assert_eq!(atan2(16384, 0), 16384);
    // x < 0: a = 0x2000 → 0x8000 wraps to −32768.
    assert_eq!(atan2(0, -16384), -32768);
    // y < 0: a = 0x4000 − 0x1000 = 0x3000 → 0xc000 = −16384.
    assert_eq!(atan2(-16384, 0), -16384);
    // i = (100·512 + 50)/100 = 512: a = 2048 → 8192.
    assert_eq!(atan2(100, 100), 8192);
    // a = 0x2000 − 2048 = 6144, then 0x4000 − 6144 = 10240 → 40960 = −24576.
    assert_eq!(atan2(-100, -100), -24576);
}

#[test]
fn m04_asin_rounds_to_q12_then_table() {
    assert_eq!(asin(0), 0);
    assert_eq!(asin(16384), 16384);
    assert_eq!(asin(-16384), -16384);
    // m = 8192: k = 2048, coarse[256] = 5461.
    assert_eq!(asin(8192), 5461);
    assert_eq!(asin(-8192), -5461);
    // m = 1581: k = 395 + 0; coarse[49 + 0] = 999.
    assert_eq!(asin(1581), 999);
    // Not a sine: clamps to the last fine entry.
    assert_eq!(asin(-32768), -16384);
}

#[test]
fn m05_transform_record_layout() {
    let id = Transform3::IDENTITY;
    assert_eq!(id.m, [16384, 0, 0, 16384, 0, 0, 0, 0, 16384]);
    assert_eq!(id.kind, KIND_IDENTITY);
    let t = tr([1, 2, 3, 4, 5, 6, 7, 8, 9], KIND_GENERAL, [10, 20, 30]);
    // M = [[m0 m1 m4], [m2 m3 m5], [m6 m7 m8]].
    assert_eq!(t.rows(), [[1, 2, 5], [3, 4, 6], [7, 8, 9]]);
    assert_eq!(
        Transform3::from_rows(t.rows(), KIND_GENERAL, [10, 20, 30]),
        t
    );
    assert_eq!(
        serde_json::to_string(&t).unwrap(),
        r#"{"m":[1,2,3,4,5,6,7,8,9],"kind":2,"t":[10,20,30]}"#
    );
}

#[test]
fn m06_euler_matrix_identity_and_yaw() {
    assert_eq!(Transform3::from_euler(0, 0, 0), Transform3::IDENTITY);
    // C(0x4000) = 0, S(0x4000) = 16384.
    assert_eq!(
        Transform3::from_euler(0, 0, 0x4000),
        tr([0, 16384, -16384, 0, 0, 0, 0, 0, 16384], KIND_Z, [0, 0, 0])
    );
    // C(100) = 16383, S(100) = 151.
    assert_eq!(
        Transform3::from_euler(0, 0, 100),
        tr(
            [16383, 151, -151, 16383, 0, 0, 0, 0, 16384],
            KIND_Z,
            [0, 0, 0]
        )
    );
}

#[test]
fn m06_euler_matrix_general() {
    // x = 1000: sx = 1581; m3 = m8 = C(1000) = 16308; m7 = −r(1581·16384) = −1581;
    // m2 = −((1581 − 1556) >> 1) = −12; m4 = (−(1581 − 1556)) >> 1 = −13. Kind 3 (x ≠ 0).
    assert_eq!(
        Transform3::from_euler(1000, 0, 0),
        tr(
            [16384, 0, -12, 16308, -13, 1581, 0, -1581, 16308],
            KIND_GENERAL_X,
            [0, 0, 0]
        )
    );
    // Roll 90° about Y: sx = 0; m6 = d = (S(0x4000) − S(−0x4000)) >> 1 = 16384;
    // m4 = (−(16384 + 16384)) >> 1 = −16384; m3 = 16384; m8 = (0 + 0) >> 1 = 0. Kind 2.
    assert_eq!(
        Transform3::from_euler(0, 0x4000, 0),
        tr(
            [0, 0, 0, 16384, -16384, 0, 16384, 0, 0],
            KIND_GENERAL,
            [0, 0, 0]
        )
    );
    // Pitch 90°: sx = 16384; m0 = 16384; m7 = −16384; m5 = 16384; the rest 0.
    assert_eq!(
        Transform3::from_euler(0x4000, 0, 0),
        tr(
            [16384, 0, 0, 0, 0, 16384, 0, -16384, 0],
            KIND_GENERAL_X,
            [0, 0, 0]
        )
    );
}

#[test]
fn m07_concat_cases() {
    let yaw90 = Transform3::from_euler(0, 0, 0x4000);
    // Case 1: A identity → B's rotation, t = Apply(B, A.t) = (100, 0, 0)·M + (0, 0, 5).
    let a = Transform3::IDENTITY.with_translation([100, 0, 0]);
    let b = yaw90.with_translation([0, 0, 5]);
    assert_eq!(a.concat(&b), tr(b.m, KIND_Z, [0, 100, 5]));
    // Case 2: B identity → A's rotation and kind, translations add.
    let b0 = Transform3::IDENTITY.with_translation([1, 2, 3]);
    assert_eq!(
        Transform3::from_euler(1000, 0, 0)
            .with_translation([5, 5, 5])
            .concat(&b0),
        tr(
            [16384, 0, -12, 16308, -13, 1581, 0, -1581, 16308],
            KIND_GENERAL_X,
            [6, 7, 8]
        )
    );
    // Case 3 with A kind 1: m0 = q(16384·−16384) = (−2^28 + 0x2000) >> 14 = −16384.
    let a = yaw90.with_translation([100, 0, 0]);
    assert_eq!(
        a.concat(&b),
        tr(
            [-16384, 0, 0, -16384, 0, 0, 0, 0, 16384],
            KIND_Z,
            [0, 100, 5]
        )
    );
    // Case 5: roll 90° twice = [[−1 0 0], [0 1 0], [0 0 −1]].
    let roll = Transform3::from_euler(0, 0x4000, 0);
    assert_eq!(
        roll.concat(&roll),
        tr(
            [-16384, 0, 0, 16384, 0, 0, 0, 0, -16384],
            KIND_GENERAL,
            [0, 0, 0]
        )
    );
    // Case 3 with a general A keeps A's m4, m5, m8 and gives kind 2.
    let pitch = Transform3::from_euler(1000, 0, 0);
    let c = pitch.concat(&yaw90);
    // m0 = q(16384·0 + 0·−16384) = 0; m1 = q(16384·16384) = 16384;
    // m2 = q(−12·0 + 16308·−16384) = −16308; m3 = q(−12·16384) = (−196608 + 8192) >> 14 = −12;
    // m6 = q(0 + −1581·−16384) = 1581; m7 = q(0·16384 + −1581·0) = 0.
    assert_eq!(
        c,
        tr(
            [0, 16384, -16308, -12, -13, 1581, 1581, 0, 16308],
            KIND_GENERAL,
            [0, 0, 0]
        )
    );
    // 32-bit sums wrap: 2^30 + 2^30 = −2^31 → (−2^31 + 0x2000) >> 14 = −131072 → i16 0.
    let big = tr([-32768, -32768, 0, 0, 0, 0, 0, 0, 16384], KIND_Z, [0, 0, 0]);
    let bz = tr([-32768, 0, -32768, 0, 0, 0, 0, 0, 16384], KIND_Z, [0, 0, 0]);
    assert_eq!(big.concat(&bz).m[0], 0);
}

#[test]
fn m07_concat_worked_example_world() {
    // Worked example, setup line: world[2] = Concat(local 2, world[1]).
    let world1 = Transform3::from_local([1000, 0, 0, 0, 0, 1000]);
    assert_eq!(
        world1,
        tr(
            [16384, 0, -12, 16308, -13, 1581, 0, -1581, 16308],
            KIND_GENERAL_X,
            [0, 0, 1000]
        )
    );
    let local2 = Transform3::from_local([0, 0, 4000, 300, 0, 200]);
    assert_eq!(
        local2.concat(&world1),
        tr(
            [15190, 6102, -6141, 15124, 579, 1471, 0, -1581, 16308],
            KIND_GENERAL,
            [300, -19, 1199]
        )
    );
}

#[test]
fn m08_transform_point_and_inverse() {
    let t0 = Transform3::IDENTITY.with_translation([1, 2, 3]);
    assert_eq!(t0.transform_point([10, 20, 30]), [11, 22, 33]);
    let yaw = Transform3::from_euler(0, 0, 0x4000).with_translation([10, 20, 30]);
    // kind 1: x = qq(0) + 10, y = qq(1000·16384) + 20, z = 7 + 30.
    assert_eq!(yaw.transform_point([1000, 0, 7]), [10, 1020, 37]);
    assert_eq!(yaw.rotate_vector([1000, 0, 7]), [0, 1000, 7]);
    // general: x = qq(−12000) = −1; y = qq(16308000) = 995; z = qq(1581000) = 96.
    let pitch = Transform3::from_euler(1000, 0, 0);
    assert_eq!(pitch.transform_point([0, 1000, 0]), [-1, 995, 96]);
    // Inverse: m1↔m2; t = RotateVector(swapped, (−10, −20, −30)):
    // x = qq(−20·16384) = (−327680 + 8192) >> 14 = −20; y = qq(163840) = 10.
    let inv = yaw.inverse();
    assert_eq!(
        inv,
        tr(
            [0, -16384, 16384, 0, 0, 0, 0, 0, 16384],
            KIND_Z,
            [-20, 10, -30]
        )
    );
    assert_eq!(inv.transform_point([10, 20, 30]), [0, 0, 0]);
    // The worked example's second step: O = FromEuler(0, 0, 100) at (0, 161, 0) moves
    // (−1, 151, 0) to x = qq(−16383 − 22801) = −2, y = qq(2473682) + 161 = 312.
    let o = Transform3::from_euler(0, 0, 100).with_translation([0, 161, 0]);
    assert_eq!(o.transform_point([-1, 151, 0]), [-2, 312, 0]);
}

#[test]
fn m09_to_euler() {
    assert_eq!(Transform3::IDENTITY.to_euler(), [0, 0, 0]);
    assert_eq!(
        Transform3::IDENTITY.with_translation([3, 4, 5]).to_euler(),
        [0, 0, 0]
    );
    // A half turn about Z: m2 = m4 = m5 = 0 as for the identity, but m3 = −16384, so the
    // heading is atan2(0, −16384): a = 0x2000 for x < 0, (0x2000 << 2) wraps to −32768.
    assert_eq!(
        tr([-16384, 0, 0, -16384, 0, 0, 0, 0, 16384], KIND_Z, [0; 3]).to_euler(),
        [0, 0, -32768]
    );
    assert_eq!(
        Transform3::from_euler(0, 0, 0x4000).to_euler(),
        [0, 0, 16384]
    );
    // The worked example's first delta turns by atan2(151, 16383) = 100.
    let d = tr(
        [16383, 151, -151, 16383, 0, 0, 0, 0, 16384],
        KIND_Z,
        [0, 161, 0],
    );
    assert_eq!(d.to_euler(), [0, 0, 100]);
    // asin(16384) = 0x4000: (x, 0, atan2(m1, m0)) = (16384, 0, 0).
    assert_eq!(
        Transform3::from_euler(0x4000, 0, 0).to_euler(),
        [16384, 0, 0]
    );
    // asin(1581) = 999; atan2(13, 16308) and atan2(12, 16308) have i = 0.
    assert_eq!(Transform3::from_euler(1000, 0, 0).to_euler(), [999, 0, 0]);
}

#[test]
fn m06_pitch_only_builds_fromeuler_x_0_0_in_pitch_form() {
    // x = 1008: C(1008) reads entry ((1008 >> 3) + 1) >> 1 = 63 = 16308; S(1008) = C(−15376)
    // reads |((−1922) + 1) >> 1| = 961 = 1581; S(−1008) = C(−17392) reads k = −1087, i.e.
    // −entries[2048 − 1087] = −1581, so the two halvings (m2, m4) are 0.
    let p = Transform3::pitch_only(1008, [1, 2, 3]).expect("pitch form");
    assert_eq!(
        p,
        tr(
            [16384, 0, 0, 16308, 0, 1581, 0, -1581, 16308],
            KIND_GENERAL_X,
            [1, 2, 3]
        )
    );
    // x = 1000 ≡ 8 (mod 16): S(1000) reads entry 961 = 1581 but S(−1000) reads k = −1086,
    // −entries[962] = −1556; m2 = −(25 >> 1) = −12 ≠ 0, so not pitch form.
    assert_eq!(Transform3::pitch_only(1000, [0; 3]), None);
    assert_eq!(Transform3::from_euler(1000, 0, 0).m[2], -12);
    // pitch_general answers it: S(x) + S(−x) = 1581 − 1556 = 25, m2 = −(25 >> 1) = −12,
    // m4 = (−25) >> 1 = −13; C(1000) reads entry ((125 + 1) >> 1) = 63 = 16308.
    assert_eq!(
        Transform3::pitch_general(1000, [1, 2, 3]),
        tr(
            [16384, 0, -12, 16308, -13, 1581, 0, -1581, 16308],
            KIND_GENERAL_X,
            [1, 2, 3]
        )
    );
    // x = 0 is the identity, not pitch form.
    assert_eq!(Transform3::pitch_only(0, [0; 3]), None);
    // Every angle: the same transform as FromEuler wherever it answers, and it answers for
    // every x ≠ 0 whose FromEuler is in pitch form.
    for x in i16::MIN..=i16::MAX {
        let full = Transform3::from_euler(x, 0, 0);
        match Transform3::pitch_only(x, [0; 3]) {
            Some(p) => {
                assert_eq!(p, full, "x = {x}");
                assert!(p.is_pitch_form());
            }
            None => assert!(x == 0 || !full.is_pitch_form(), "x = {x}"),
        }
        if x != 0 {
            assert_eq!(
                Transform3::pitch_general(x, [7, -8, 9]),
                full.with_translation([7, -8, 9]),
                "x = {x}"
            );
        }
    }
}

#[test]
fn m07_concat_pitch_is_concat_for_pitch_form_locals() {
    // Parents of every kind: identity with a translation, about Z, general, general with X.
    let parents = [
        Transform3::IDENTITY.with_translation([5, -7, 9]),
        Transform3::from_euler(0, 0, 12345).with_translation([100, 200, 300]),
        Transform3::from_euler(0, 3000, -7000).with_translation([-40, 50, 60]),
        Transform3::from_euler(-20000, 31000, 9000).with_translation([i32::MAX, i32::MIN, 7]),
        tr([-32768; 9], KIND_GENERAL, [1, 2, 3]),
    ];
    let mut checked = 0;
    for x in (i16::MIN..=i16::MAX).step_by(97) {
        let Some(a) = Transform3::pitch_only(x, [-150, 0, 100]) else {
            continue;
        };
        // The same rotation with a translation whose x is 0, for concat_pitch_no_tx.
        let a0 = a.with_translation([0, -20, 190]);
        for b in &parents {
            assert_eq!(a.concat_pitch(b), a.concat(b), "x = {x}, b = {b:?}");
            assert_eq!(a0.concat_pitch_no_tx(b), a0.concat(b), "x = {x}, b = {b:?}");
            checked += 1;
        }
    }
    assert!(checked > 2000);
    // FromEuler(x, 0, 0) not in pitch form (m2, m4 ≠ 0, m1 = m6 = 0) for every such x.
    let mut checked = 0;
    for x in i16::MIN..=i16::MAX {
        if x == 0 || Transform3::pitch_only(x, [0; 3]).is_some() {
            continue;
        }
        let a = Transform3::pitch_general(x, [-70, 0, -20]);
        for b in &parents {
            let mut out = Transform3::IDENTITY;
            a.concat_m1_m6_zero_into(b, &mut out);
            assert_eq!(out, a.concat(b), "x = {x}, b = {b:?}");
            checked += 1;
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn m07_concat_of_two_rotations_about_z() {
    // A quarter turn (C = 0, S = 16384) at (100, 0, 0) on a quarter turn at (0, 0, 5): a half
    // turn, m0 = q(0·0 + 16384·(−16384)) = −16384, m1 = q(0·16384 + 16384·0) = 0, and the
    // translation (100, 0, 0)·B + (0, 0, 5) = (0, 100, 5).
    let a = Transform3::yaw_only(16384, [100, 0, 0]);
    let b = Transform3::yaw_only(16384, [0, 0, 5]);
    assert_eq!(a.m, [0, 16384, -16384, 0, 0, 0, 0, 0, 16384]);
    let mut out = Transform3::IDENTITY;
    a.concat_z_z_into(&b, &mut out);
    assert_eq!(
        out,
        tr(
            [-16384, 0, 0, -16384, 0, 0, 0, 0, 16384],
            KIND_Z,
            [0, 100, 5]
        )
    );
    // Against Concat over many angle pairs and translations.
    for z1 in (i16::MIN..=i16::MAX).step_by(1237) {
        for z2 in (i16::MIN..=i16::MAX).step_by(2459) {
            let a = Transform3::yaw_only(z1, [-150, 7, 100]);
            let b = Transform3::yaw_only(z2, [i32::MAX, -3, 9]);
            if a.kind != KIND_Z || b.kind != KIND_Z {
                continue;
            }
            let mut out = Transform3::IDENTITY;
            a.concat_z_z_into(&b, &mut out);
            assert_eq!(out, a.concat(&b), "z1 = {z1}, z2 = {z2}");
        }
    }
}

#[test]
fn m07_concat_with_a_kind_0_parent_keeps_the_child_rotation() {
    // A twist of 100 about Z at (0, 0, 120) on a pelvis at (0, 0, 408) without rotation:
    // A's rotation and kind, translation (0, 0, 528), whatever B's rotation entries hold.
    let a = Transform3::yaw_only(100, [0, 0, 120]);
    for b in [
        Transform3::IDENTITY.with_translation([0, 0, 408]),
        tr([7; 9], KIND_IDENTITY, [0, 0, 408]),
    ] {
        let mut out = Transform3::IDENTITY;
        a.concat_identity_b_into(&b, &mut out);
        assert_eq!(out, tr(a.m, KIND_Z, [0, 0, 528]));
        assert_eq!(out, a.concat(&b));
    }
    // Wrapping sums, as Concat's.
    let a = Transform3::from_euler(100, 200, 300).with_translation([i32::MAX, -1, 0]);
    let b = Transform3::IDENTITY.with_translation([1, i32::MIN, 5]);
    let mut out = Transform3::IDENTITY;
    a.concat_identity_b_into(&b, &mut out);
    assert_eq!(out.t, [i32::MIN, i32::MAX, 5]);
    assert_eq!(out, a.concat(&b));
}

#[test]
fn m06_yaw_only_builds_fromeuler_0_0_z() {
    // z = 0 is the identity (kind 0) with the translation.
    assert_eq!(
        Transform3::yaw_only(0, [4, 5, 6]),
        tr(
            [16384, 0, 0, 16384, 0, 0, 0, 0, 16384],
            KIND_IDENTITY,
            [4, 5, 6]
        )
    );
    // z = 1008: C reads entry 63 = 16308, S reads entry 961 = 1581 (worked out above).
    assert_eq!(
        Transform3::yaw_only(1008, [0; 3]),
        tr(
            [16308, 1581, -1581, 16308, 0, 0, 0, 0, 16384],
            KIND_Z,
            [0; 3]
        )
    );
    for z in i16::MIN..=i16::MAX {
        assert_eq!(
            Transform3::yaw_only(z, [1, -2, 3]),
            Transform3::from_euler(0, 0, z).with_translation([1, -2, 3]),
            "z = {z}"
        );
    }
}

#[test]
fn m07_apply_of_a_translation_along_z_alone() {
    // FromEuler(16384, 0, 0) at (1, 2, 3): m6 = 0, m7 = −S = −16384, m8 = C = 0, so
    // (0, 0, −90)·M = (0, qq(−90·−16384), 0) = (0, (1474560 + 8192) >> 14, 0) = (0, 90, 0),
    // plus (1, 2, 3).
    let b = Transform3::from_euler(16384, 0, 0).with_translation([1, 2, 3]);
    assert_eq!([b.m[6], b.m[7], b.m[8]], [0, -16384, 0]);
    assert_eq!(b.apply_z(-90), [1, 92, 3]);
    // Against Apply for rotations of every kind, z across the i32 range.
    for x in (i16::MIN..=i16::MAX).step_by(997) {
        for (y, zr) in [(0, 0), (0, 1200), (-300, 77), (9000, -16000)] {
            let b = Transform3::from_euler(x, y, zr).with_translation([i32::MAX, -5, 7]);
            for z in [0, -90, 1, i32::MIN, i32::MAX, 123_456] {
                assert_eq!(b.apply_z(z), b.apply([0, 0, z]), "x {x} y {y} z {zr} t {z}");
            }
        }
    }
}
