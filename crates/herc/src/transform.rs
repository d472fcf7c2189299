//! The Q14 transform record (M5–M9; the port's Transform3).
//!
//! Storage order m0..m8 with `M = [[m0 m1 m4], [m2 m3 m5], [m6 m7 m8]]`; points are row
//! vectors, `p' = p·M + t`. Every rounding step and width below is the one rules M5–M9
//! states; sums that DBSIM forms in 32 bits wrap in 32 bits here.

use serde::{Deserialize, Serialize};

use crate::fixed::wrap16;
use crate::trig::{asin, atan2, pitch, pitch_rotation, CosTable};

/// Q14 one.
pub const ONE: i16 = 16384;

/// Identity rotation (kind 0).
pub const KIND_IDENTITY: u8 = 0;
/// Rotation about Z only (kind 1).
pub const KIND_Z: u8 = 1;
/// General rotation (kind 2).
pub const KIND_GENERAL: u8 = 2;
/// General rotation built with a pitch X ≠ 0; every consumer treats it as kind 2.
pub const KIND_GENERAL_X: u8 = 3;

/// The 32-byte transform record (M5, F7). Serializes as `{"m":[..9],"kind":k,"t":[..3]}`,
/// the trace form of a transform (docs/herc.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Transform3 {
    /// Rotation m0..m8, Q14, in storage order.
    pub m: [i16; 9],
    /// 0 identity, 1 about Z, 2 general, 3 general with X ≠ 0.
    pub kind: u8,
    /// Translation.
    pub t: [i32; 3],
}

impl Default for Transform3 {
    fn default() -> Self {
        Self::IDENTITY
    }
}

/// A translation sum, component by component, wrapping as the original's 32-bit adds do.
#[inline(always)]
fn add3(a: [i32; 3], b: [i32; 3]) -> [i32; 3] {
    [
        a[0].wrapping_add(b[0]),
        a[1].wrapping_add(b[1]),
        a[2].wrapping_add(b[2]),
    ]
}

/// `q(v) = i16((v + 0x2000) >> 14)` over a 32-bit sum (M7).
fn q(v: i32) -> i16 {
    wrap16(v.wrapping_add(0x2000) >> 14)
}

/// `qq(v) = (v + 0x2000) >> 14` over a 64-bit sum, giving i32 (M7).
fn qq(v: i64) -> i32 {
    (v.wrapping_add(0x2000) >> 14) as i32
}

/// An i16×i16 product in 32 bits (it always fits).
fn p(a: i16, b: i16) -> i32 {
    a as i32 * b as i32
}

/// `r(v) = i16((v + 0x2000) >> 14)` of FromEuler (M6); same rounding as `q`.
fn r(v: i32) -> i32 {
    q(v) as i32
}

impl Transform3 {
    /// Identity rotation, zero translation, kind 0.
    pub const IDENTITY: Transform3 = Transform3 {
        m: [ONE, 0, 0, ONE, 0, 0, 0, 0, ONE],
        kind: KIND_IDENTITY,
        t: [0, 0, 0],
    };

    /// This transform with translation `t`.
    pub fn with_translation(mut self, t: [i32; 3]) -> Self {
        self.t = t;
        self
    }

    /// The rotation as rows of `M`: `[[m0 m1 m4], [m2 m3 m5], [m6 m7 m8]]`.
    pub fn rows(&self) -> [[i16; 3]; 3] {
        let m = &self.m;
        [[m[0], m[1], m[4]], [m[2], m[3], m[5]], [m[6], m[7], m[8]]]
    }

    /// Build from rows of `M` (the inverse of [`Transform3::rows`]).
    pub fn from_rows(rows: [[i16; 3]; 3], kind: u8, t: [i32; 3]) -> Self {
        Transform3 {
            m: [
                rows[0][0], rows[0][1], rows[1][0], rows[1][1], rows[0][2], rows[1][2], rows[2][0],
                rows[2][1], rows[2][2],
            ],
            kind,
            t,
        }
    }

    /// `FromEuler(x, y, z)` (M6; BuildEulerRotationMatrixQ14, 0x47eaac): roll about Y
    /// first, then pitch about X, then yaw about Z, for row vectors. Translation 0.
    #[inline]
    pub fn from_euler(x: i16, y: i16, z: i16) -> Self {
        // No rotation (a root-motion key straight ahead, an object that has not turned): the
        // identity, answered where it is asked without a call.
        if x == 0 && y == 0 && z == 0 {
            return Self::IDENTITY;
        }
        Self::from_euler_rotated(x, y, z)
    }

    /// [`Transform3::from_euler`] with at least one angle non-zero, kept out of line.
    #[inline(never)]
    fn from_euler_rotated(x: i16, y: i16, z: i16) -> Self {
        Self::from_euler_with(CosTable::generated(), x, y, z)
    }

    /// `FromEuler` with a given cosine table (D8: a table extracted from a user's own
    /// DBSIM.EXE instead of the generated one).
    #[inline(always)]
    pub fn from_euler_with(table: &CosTable, x: i16, y: i16, z: i16) -> Self {
        let cos = |a: i16| table.cos(a);
        let sin = |a: i16| table.sin(a);
        if x == 0 && y == 0 {
            if z == 0 {
                return Self::IDENTITY;
            }
            let (c, s) = (cos(z), sin(z));
            return Transform3 {
                m: [c, s, s.wrapping_neg(), c, 0, 0, 0, 0, ONE],
                kind: KIND_Z,
                t: [0, 0, 0],
            };
        }
        let kind = if x == 0 { KIND_GENERAL } else { KIND_GENERAL_X };
        let cw = |a: i16| cos(a) as i32;
        let sw = |a: i16| sin(a) as i32;
        let sx = sin(x) as i32;
        let mut m = [0i16; 9];
        if y == 0 && z == 0 {
            // Pitch only, the commonest local: the general formulas below with y = z = 0, where
            // every angle sum and difference is 0 or ±x, so 5 table reads instead of 13. The
            // rounding steps are the same; r(sx·0) = 0.
            let (c0, s0) = (cw(0), sw(0));
            let (cx, sxp, sxn) = (cw(x), sx, sw(x.wrapping_neg()));
            m[0] = wrap16(c0);
            m[7] = wrap16(-r(sxp * c0));
            m[1] = wrap16(s0);
            m[6] = wrap16(r(sxp * s0));
            m[3] = wrap16((cx + cx) >> 1);
            m[8] = wrap16((cx + cx) >> 1);
            m[5] = wrap16(sxp);
            m[4] = wrap16((-(sxp + sxn)) >> 1);
            m[2] = wrap16(-((sxp + sxn) >> 1));
            return Transform3 {
                m,
                kind,
                t: [0, 0, 0],
            };
        }

        let a = cw(y.wrapping_sub(z));
        let b = cw(z.wrapping_add(y));
        let (s, d) = ((a + b) >> 1, (a - b) >> 1);
        m[0] = wrap16(s - r(sx * d));
        m[7] = wrap16(d - r(sx * s));

        let a = sw(y.wrapping_add(z));
        let b = sw(z.wrapping_sub(y));
        let (s, d) = ((a + b) >> 1, (a - b) >> 1);
        m[1] = wrap16(r(sx * d) + s);
        m[6] = wrap16(r(sx * s) + d);

        m[3] = wrap16((cw(z.wrapping_add(x)) + cw(x.wrapping_sub(z))) >> 1);
        m[8] = wrap16((cw(y.wrapping_add(x)) + cw(x.wrapping_sub(y))) >> 1);
        m[5] = wrap16(sx);
        // The two halvings differ in where the sign is applied; both are as in DBSIM.
        m[4] = wrap16((-(sw(y.wrapping_add(x)) + sw(y.wrapping_sub(x)))) >> 1);
        m[2] = wrap16(-((sw(z.wrapping_add(x)) + sw(z.wrapping_sub(x))) >> 1));
        Transform3 {
            m,
            kind,
            t: [0, 0, 0],
        }
    }

    /// `FromEuler(x, 0, 0)` with translation `t` when it is in pitch form
    /// ([`Transform3::is_pitch_form`]), else `None`. With the generated table `C(0) = ONE` and
    /// `S(0) = 0`, so M6's pitch-only formulas give `m0 = ONE`, `m1 = m6 = 0`, `m7 = −S(x)`,
    /// `m3 = m8 = C(x)`, `m5 = S(x)`, and `m2 = m4 = 0` exactly when `S(x) + S(−x) = 0`
    /// (the table's rounding of ±x can differ by one step); 3 table reads.
    #[inline(always)]
    pub fn pitch_only(x: i16, t: [i32; 3]) -> Option<Self> {
        // C(x), S(x) and whether S(x) + S(−x) = 0, in one read (see `trig::PITCH`).
        // The whole rotation in the same read (see `trig::PITCH_ROTATION`).
        let e = &pitch_rotation()[(i32::from(x >> 3) + 4096) as usize];
        let form = e.pitch >> u8::from(x & 7 != 0);
        if x == 0 || form & 1 == 0 {
            return None;
        }
        Some(Transform3 {
            m: e.m,
            kind: KIND_GENERAL_X,
            t,
        })
    }

    /// `FromEuler(x, 0, 0)` with translation `t` for any x ≠ 0, in pitch form or not: M6's
    /// pitch-only formulas with `C(0) = ONE` and `S(0) = 0` (generated table), so
    /// `m = [ONE, 0, −((S(x) + S(−x)) >> 1), C(x), (−(S(x) + S(−x))) >> 1, S(x), 0, −S(x),
    /// C(x)]`; 2 table reads (the locals [`Transform3::pitch_only`] does not answer).
    #[inline(always)]
    pub fn pitch_general(x: i16, t: [i32; 3]) -> Self {
        let e = pitch()[(i32::from(x >> 3) + 4096) as usize];
        let sxn = pitch()[(i32::from(x.wrapping_neg() >> 3) + 4096) as usize].sin;
        let (c, s) = (e.cos, e.sin);
        let sum = i32::from(s) + i32::from(sxn);
        Transform3 {
            m: [
                ONE,
                0,
                wrap16(-(sum >> 1)),
                c,
                wrap16((-sum) >> 1),
                s,
                0,
                s.wrapping_neg(),
                c,
            ],
            kind: KIND_GENERAL_X,
            t,
        }
    }

    /// `FromEuler(0, 0, z)` with translation `t`: the identity for z = 0, else a rotation about
    /// Z, `m = [C(z), S(z), −S(z), C(z), 0, 0, 0, 0, ONE]` (M6's first branch).
    #[inline(always)]
    pub fn yaw_only(z: i16, t: [i32; 3]) -> Self {
        if z == 0 {
            return Self::IDENTITY.with_translation(t);
        }
        // C(z) and S(z) in one read (see `trig::PITCH`).
        let e = pitch()[(i32::from(z >> 3) + 4096) as usize];
        let (c, s) = (e.cos, e.sin);
        Transform3 {
            m: [c, s, s.wrapping_neg(), c, 0, 0, 0, 0, ONE],
            kind: KIND_Z,
            t,
        }
    }

    /// `FromEuler` of a 6-component local record `[rx, ry, rz, tx, ty, tz]` (H13): the
    /// rotation from the angles and the translation widened to i32.
    #[inline]
    pub fn from_local(k: [i16; 6]) -> Self {
        Self::from_euler(k[0], k[1], k[2]).with_translation([k[3] as i32, k[4] as i32, k[5] as i32])
    }

    /// `Apply(T, p)` (M7): the general row-vector product with `qq` rounding, plus `t`.
    #[inline]
    pub fn apply(&self, pt: [i32; 3]) -> [i32; 3] {
        let v = self.rotate_general(pt);
        add3(v, self.t)
    }

    /// [`Transform3::apply`] of `(0, 0, z)`: the products of the two zero components left
    /// out of the exact 64-bit sums.
    #[inline(always)]
    pub fn apply_z(&self, z: i32) -> [i32; 3] {
        let m = &self.m;
        let z = i64::from(z);
        add3(
            [
                qq(z * i64::from(m[6])),
                qq(z * i64::from(m[7])),
                qq(z * i64::from(m[8])),
            ],
            self.t,
        )
    }

    fn rotate_general(&self, pt: [i32; 3]) -> [i32; 3] {
        let m = self.m.map(|v| v as i64);
        let (x, y, z) = (pt[0] as i64, pt[1] as i64, pt[2] as i64);
        [
            qq(x * m[0] + y * m[2] + z * m[6]),
            qq(x * m[1] + y * m[3] + z * m[7]),
            qq(x * m[4] + y * m[5] + z * m[8]),
        ]
    }

    /// `RotateVector(T, p)` (M8; 0x4801f8): `TransformPoint` without the translation.
    pub fn rotate_vector(&self, pt: [i32; 3]) -> [i32; 3] {
        match self.kind {
            KIND_IDENTITY => pt,
            KIND_Z => {
                let m = self.m.map(|v| v as i64);
                let (x, y) = (pt[0] as i64, pt[1] as i64);
                [qq(x * m[0] + y * m[2]), qq(x * m[1] + y * m[3]), pt[2]]
            }
            _ => self.rotate_general(pt),
        }
    }

    /// `TransformPoint(T, p)` (M8; 0x480330): the kind picks a shortcut.
    pub fn transform_point(&self, pt: [i32; 3]) -> [i32; 3] {
        let v = self.rotate_vector(pt);
        add3(v, self.t)
    }

    /// `Inverse(T)` (M8): transpose by swapping m1↔m2, m4↔m6, m5↔m7 (kind kept), then
    /// `t = RotateVector(swapped, −t)`.
    #[inline]
    pub fn inverse(&self) -> Self {
        let mut m = self.m;
        m.swap(1, 2);
        m.swap(4, 6);
        m.swap(5, 7);
        let mut inv = Transform3 {
            m,
            kind: self.kind,
            t: [0, 0, 0],
        };
        inv.t = inv.rotate_vector(self.t.map(i32::wrapping_neg));
        inv
    }

    /// `Concat(A, B)` (M7; 0x47f914): apply `self` (A), then `b` (B).
    #[inline(always)]
    pub fn concat(&self, b: &Transform3) -> Self {
        let a = self;
        let am = &a.m;
        let bm = &b.m;
        if a.kind == KIND_IDENTITY {
            return Transform3 {
                m: b.m,
                kind: b.kind,
                t: b.apply(a.t),
            };
        }
        if b.kind == KIND_IDENTITY {
            return Transform3 {
                m: a.m,
                kind: a.kind,
                t: add3(a.t, b.t),
            };
        }
        let upper = |i: usize, j: usize| q(p(am[i], bm[j]).wrapping_add(p(am[i + 1], bm[j + 2])));
        let mut m = [0i16; 9];
        let kind;
        if b.kind == KIND_Z {
            m[0] = upper(0, 0);
            m[1] = upper(0, 1);
            m[2] = upper(2, 0);
            m[3] = upper(2, 1);
            if a.kind == KIND_Z {
                m[8] = ONE;
                kind = KIND_Z;
            } else {
                m[6] = upper(6, 0);
                m[7] = upper(6, 1);
                m[4] = am[4];
                m[5] = am[5];
                m[8] = am[8];
                kind = KIND_GENERAL;
            }
        } else if a.kind == KIND_Z {
            m[0] = upper(0, 0);
            m[1] = upper(0, 1);
            m[2] = upper(2, 0);
            m[3] = upper(2, 1);
            m[4] = q(p(am[0], bm[4]).wrapping_add(p(am[1], bm[5])));
            m[5] = q(p(am[2], bm[4]).wrapping_add(p(am[3], bm[5])));
            m[6] = bm[6];
            m[7] = bm[7];
            m[8] = bm[8];
            kind = KIND_GENERAL;
        } else {
            let ra = a.rows();
            let rb = b.rows();
            let mut rows = [[0i16; 3]; 3];
            for (i, row) in rows.iter_mut().enumerate() {
                for (j, cell) in row.iter_mut().enumerate() {
                    let sum = p(ra[i][0], rb[0][j])
                        .wrapping_add(p(ra[i][1], rb[1][j]))
                        .wrapping_add(p(ra[i][2], rb[2][j]));
                    *cell = q(sum);
                }
            }
            return Transform3::from_rows(rows, KIND_GENERAL, b.apply(a.t));
        }
        Transform3 {
            m,
            kind,
            t: b.apply(a.t),
        }
    }

    /// [`Transform3::concat`] of a `self` that is not kind 0 with a kind-0 `b` (Concat's
    /// second branch: A's rotation and kind, the translations added), written into `out`.
    #[inline(always)]
    pub fn concat_identity_b_into(&self, b: &Transform3, out: &mut Transform3) {
        out.t = add3(self.t, b.t);
        out.m = self.m;
        out.kind = self.kind;
    }

    /// [`Transform3::concat`] of two rotations about Z (kind 1 each; Concat's b-about-Z
    /// branch with A about Z), written into `out`.
    #[inline(always)]
    pub fn concat_z_z_into(&self, b: &Transform3, out: &mut Transform3) {
        let am = &self.m;
        let bm = &b.m;
        out.t = b.apply(self.t);
        let upper = |i: usize, j: usize| q(p(am[i], bm[j]).wrapping_add(p(am[i + 1], bm[j + 2])));
        out.m = [
            upper(0, 0),
            upper(0, 1),
            upper(2, 0),
            upper(2, 1),
            0,
            0,
            0,
            0,
            ONE,
        ];
        out.kind = KIND_Z;
    }

    /// [`Transform3::concat`] for a general `self` (kind 2 or 3) whose `m1` and `m6` are 0
    /// (FromEuler(x, 0, 0) not in pitch form), written into `out`: the same branches and
    /// wrapping sums with the products of those two zeros left out, 21 products instead of
    /// 27 against a general `b`.
    #[inline(always)]
    pub fn concat_m1_m6_zero_into(&self, b: &Transform3, out: &mut Transform3) {
        let am = &self.m;
        let bm = &b.m;
        if b.kind == KIND_IDENTITY {
            out.t = add3(self.t, b.t);
            out.m = self.m;
            out.kind = self.kind;
            return;
        }
        out.t = b.apply(self.t);
        out.kind = KIND_GENERAL;
        let (a0, a2, a3, a4, a5, a7, a8) = (am[0], am[2], am[3], am[4], am[5], am[7], am[8]);
        if b.kind == KIND_Z {
            // upper(i, j) = q(p(am[i], bm[j]) + p(am[i + 1], bm[j + 2])) without p(am1, ·)
            // and p(am6, ·); m4, m5, m8 are a's.
            out.m = [
                q(p(a0, bm[0])),
                q(p(a0, bm[1])),
                q(p(a2, bm[0]).wrapping_add(p(a3, bm[2]))),
                q(p(a2, bm[1]).wrapping_add(p(a3, bm[3]))),
                a4,
                a5,
                q(p(a7, bm[2])),
                q(p(a7, bm[3])),
                a8,
            ];
            return;
        }
        // Rows of a: [a0, 0, a4], [a2, a3, a5], [0, a7, a8]; columns of b: (m0, m2, m6),
        // (m1, m3, m7), (m4, m5, m8).
        let two = |x: i16, y: i16, j1: usize, j2: usize| q(p(x, bm[j1]).wrapping_add(p(y, bm[j2])));
        let three = |j0: usize, j1: usize, j2: usize| {
            q(p(a2, bm[j0])
                .wrapping_add(p(a3, bm[j1]))
                .wrapping_add(p(a5, bm[j2])))
        };
        out.m = [
            two(a0, a4, 0, 6),
            two(a0, a4, 1, 7),
            three(0, 2, 6),
            three(1, 3, 7),
            two(a0, a4, 4, 8),
            three(4, 5, 8),
            two(a7, a8, 2, 6),
            two(a7, a8, 3, 7),
            two(a7, a8, 5, 8),
        ];
    }

    /// The rotation has FromEuler(x, 0, 0)'s exact first row and column (`m0 = ONE`,
    /// `m1 = m2 = m4 = m6 = 0`) and is not kind 0 or 1: the form of most pitch-only locals.
    /// [`Transform3::concat_pitch`] may then be used for [`Transform3::concat`].
    #[inline]
    pub fn is_pitch_form(&self) -> bool {
        let m = &self.m;
        self.kind != KIND_IDENTITY
            && self.kind != KIND_Z
            && m[0] == ONE
            && m[1] == 0
            && m[2] == 0
            && m[4] == 0
            && m[6] == 0
    }

    /// [`Transform3::concat`] for a `self` in pitch form ([`Transform3::is_pitch_form`]):
    /// the same branches and the same sums with their zero products left out (adding 0 to a
    /// wrapping sum changes nothing) and `q(ONE·v) = v`, so 12 products instead of 27.
    #[inline(always)]
    pub fn concat_pitch(&self, b: &Transform3) -> Self {
        let mut out = Self::IDENTITY;
        self.concat_pitch_into(b, &mut out);
        out
    }

    /// [`Transform3::concat_pitch`] written into `out` field by field (the pose loop builds
    /// a world transform where it is kept, without a temporary).
    #[inline(always)]
    pub fn concat_pitch_into(&self, b: &Transform3, out: &mut Transform3) {
        self.concat_pitch_t(b, out, |b, t| b.apply(t))
    }

    /// [`Transform3::concat_pitch`] for a `self` whose translation x is 0: the translation
    /// product leaves out x's three products (0 added to an exact 64-bit sum).
    #[inline(always)]
    pub fn concat_pitch_no_tx(&self, b: &Transform3) -> Self {
        let mut out = Self::IDENTITY;
        self.concat_pitch_no_tx_into(b, &mut out);
        out
    }

    /// [`Transform3::concat_pitch_no_tx`] written into `out` field by field.
    #[inline(always)]
    pub fn concat_pitch_no_tx_into(&self, b: &Transform3, out: &mut Transform3) {
        self.concat_pitch_t(b, out, |b, t| {
            let m = b.m.map(|v| v as i64);
            let (y, z) = (t[1] as i64, t[2] as i64);
            [
                qq(y * m[2] + z * m[6]).wrapping_add(b.t[0]),
                qq(y * m[3] + z * m[7]).wrapping_add(b.t[1]),
                qq(y * m[5] + z * m[8]).wrapping_add(b.t[2]),
            ]
        })
    }

    #[inline(always)]
    fn concat_pitch_t(
        &self,
        b: &Transform3,
        out: &mut Transform3,
        apply: impl Fn(&Transform3, [i32; 3]) -> [i32; 3],
    ) {
        let am = &self.m;
        let bm = &b.m;
        if b.kind == KIND_IDENTITY {
            // Concat's kind-0 B case (A in pitch form is never kind 0): A's rotation and kind,
            // the translations added.
            out.m = self.m;
            out.kind = self.kind;
            out.t = add3(self.t, b.t);
            return;
        }
        // The translation first, so its sums are not kept live across the rotation's.
        out.t = apply(b, self.t);
        let (a3, a5, a7, a8) = (am[3], am[5], am[7], am[8]);
        out.kind = KIND_GENERAL;
        if b.kind == KIND_Z {
            // The b-about-Z branch: upper(0, j) = bm[j], upper(2, j) and upper(6, j) lose
            // their am2 and am6 products; m4, m5, m8 are a's.
            out.m = [
                bm[0],
                bm[1],
                q(p(a3, bm[2])),
                q(p(a3, bm[3])),
                am[4],
                a5,
                q(p(a7, bm[2])),
                q(p(a7, bm[3])),
                a8,
            ];
            return;
        }
        // General: row 0 of a is [ONE, 0, 0], so row 0 of the product is b's row 0; rows 1
        // and 2 of a are [0, a3, a5] and [0, a7, a8].
        let row = |x: i16, y: i16, j1: usize, j2: usize| q(p(x, bm[j1]).wrapping_add(p(y, bm[j2])));
        out.m = [
            bm[0],
            bm[1],
            row(a3, a5, 2, 6),
            row(a3, a5, 3, 7),
            bm[4],
            row(a3, a5, 5, 8),
            row(a7, a8, 2, 6),
            row(a7, a8, 3, 7),
            row(a7, a8, 5, 8),
        ];
    }

    /// The 32-byte in-memory record (F7): m0..m8 as i16 at +0..+0x11, kind as a u8 at
    /// +0x12, one padding byte, and tx, ty, tz as i32 at +0x14, +0x18, +0x1c.
    pub fn to_record(&self) -> [u8; 32] {
        let mut b = [0u8; 32];
        for (i, v) in self.m.iter().enumerate() {
            b[2 * i..2 * i + 2].copy_from_slice(&v.to_le_bytes());
        }
        b[0x12] = self.kind;
        for (i, v) in self.t.iter().enumerate() {
            b[0x14 + 4 * i..0x18 + 4 * i].copy_from_slice(&v.to_le_bytes());
        }
        b
    }

    /// Decode a 32-byte record (F7); the padding byte +0x13 is ignored.
    pub fn from_record(b: &[u8; 32]) -> Self {
        let mut m = [0i16; 9];
        for (i, v) in m.iter_mut().enumerate() {
            *v = i16::from_le_bytes([b[2 * i], b[2 * i + 1]]);
        }
        let mut t = [0i32; 3];
        for (i, v) in t.iter_mut().enumerate() {
            let o = 0x14 + 4 * i;
            *v = i32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        }
        Transform3 {
            m,
            kind: b[0x12],
            t,
        }
    }

    /// `ToEuler(T)` (M9; 0x47f894): `(x, y, z)` = (pitch, roll, heading) via asin/atan2.
    pub fn to_euler(&self) -> [i16; 3] {
        let m = self.m.map(|v| v as i32);
        // No pitch, roll or heading (a root-motion step straight ahead, the commonest input):
        // asin(0) = 0, and atan2(0, x) = 0 for x ≥ 0, so the table reads are left out.
        if m[2] == 0 && m[4] == 0 && m[5] == 0 && m[3] >= 0 && m[8] >= 0 {
            return [0, 0, 0];
        }
        let x = asin(m[5]);
        if x as i32 == 0x4000 || x as i32 == -0x4000 {
            [x, 0, atan2(m[1], m[0])]
        } else {
            [x, atan2(-m[4], m[8]), atan2(-m[2], m[3])]
        }
    }
}

/// `Concat(a, b)` (M7): apply `a`, then `b`. Same as [`Transform3::concat`].
pub fn concat(a: &Transform3, b: &Transform3) -> Transform3 {
    a.concat(b)
}
