//! f32 vector, quaternion and AFrame types (System.Numerics layout, ACE semantics).
//! Operations live next to the types and keep ACE's operand order (System.Numerics and `Anim/AFrame.cs`):
//! every formula is evaluated left to right exactly as the managed System.Numerics code
//! does, so results agree with ACE to the last few ulps.

use serde::{Deserialize, Serialize};
use std::cell::Cell;

/// `PhysicsGlobals.EPSILON`.
pub const EPSILON: f32 = 0.0002;

/// A System.Numerics `Vector3`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Vec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

impl Vec3 {
    pub const ZERO: Vec3 = Vec3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };
    pub const fn new(x: f32, y: f32, z: f32) -> Vec3 {
        Vec3 { x, y, z }
    }
    /// `a + b`.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn add(self, b: Vec3) -> Vec3 {
        Vec3::new(self.x + b.x, self.y + b.y, self.z + b.z)
    }
    /// `a - b`.
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn sub(self, b: Vec3) -> Vec3 {
        Vec3::new(self.x - b.x, self.y - b.y, self.z - b.z)
    }
    /// `v * s` (component-wise by a scalar).
    #[inline]
    pub fn scale(self, s: f32) -> Vec3 {
        Vec3::new(self.x * s, self.y * s, self.z * s)
    }
    /// `v * w` (component-wise).
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn mul(self, b: Vec3) -> Vec3 {
        Vec3::new(self.x * b.x, self.y * b.y, self.z * b.z)
    }
    /// `v / s` as Mono's System.Numerics computes it: each component divided by `s`
    /// (checked against the runtime ACE's reference traces come from: multiplying by
    /// `1/s` differs in the last ulp).
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn div(self, s: f32) -> Vec3 {
        Vec3::new(self.x / s, self.y / s, self.z / s)
    }
    /// `Vector3.Dot`.
    #[inline]
    pub fn dot(self, b: Vec3) -> f32 {
        self.x * b.x + self.y * b.y + self.z * b.z
    }
    /// `Vector3.LengthSquared`.
    #[inline]
    pub fn length_sq(self) -> f32 {
        self.x * self.x + self.y * self.y + self.z * self.z
    }
    /// `Vector3.Length` (square root taken in f64, as managed code does).
    #[inline]
    pub fn length(self) -> f32 {
        (self.length_sq() as f64).sqrt() as f32
    }
    /// `Vector3.Normalize`: `v / |v|`.
    #[inline]
    pub fn normalize(self) -> Vec3 {
        self.div(self.length())
    }
    /// `Vec.IsZero`: every component within EPSILON of zero.
    pub fn is_zero(self) -> bool {
        self.x.abs() < EPSILON && self.y.abs() < EPSILON && self.z.abs() < EPSILON
    }
    /// `Vec.NormalizeCheckSmall`: true (and `v` untouched) when `|v| < EPSILON`.
    pub fn normalize_check_small(&mut self) -> bool {
        let d = self.length();
        if d < EPSILON {
            return true;
        }
        *self = self.scale(1.0 / d);
        false
    }
}

/// A System.Numerics `Quaternion` (stored w-first on disk and in traces).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Quat {
    pub w: f32,
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

impl Quat {
    pub const IDENTITY: Quat = Quat {
        w: 1.0,
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };
    pub const fn new(w: f32, x: f32, y: f32, z: f32) -> Quat {
        Quat { w, x, y, z }
    }

    /// `Quaternion.Multiply(a, b)` = `a ⊗ b` (applies `b` first, then `a`).
    #[allow(clippy::should_implement_trait)]
    #[inline]
    pub fn mul(a: Quat, b: Quat) -> Quat {
        let cx = a.y * b.z - a.z * b.y;
        let cy = a.z * b.x - a.x * b.z;
        let cz = a.x * b.y - a.y * b.x;
        let dot = a.x * b.x + a.y * b.y + a.z * b.z;
        Quat {
            x: a.x * b.w + b.x * a.w + cx,
            y: a.y * b.w + b.y * a.w + cy,
            z: a.z * b.w + b.z * a.w + cz,
            w: a.w * b.w - dot,
        }
    }

    /// `Vector3.Transform(v, q)` (rotation-matrix form; no rescale for non-unit `q`).
    #[inline]
    pub fn rotate(q: Quat, v: Vec3) -> Vec3 {
        Quat::rotation_rows(q).apply(v)
    }

    /// The rotation matrix `Vector3.Transform` builds from `q`, row by row.
    #[inline]
    pub fn rotation_rows(q: Quat) -> Rows {
        let x2 = q.x + q.x;
        let y2 = q.y + q.y;
        let z2 = q.z + q.z;
        let wx2 = q.w * x2;
        let wy2 = q.w * y2;
        let wz2 = q.w * z2;
        let xx2 = q.x * x2;
        let xy2 = q.x * y2;
        let xz2 = q.x * z2;
        let yy2 = q.y * y2;
        let yz2 = q.y * z2;
        let zz2 = q.z * z2;
        // Column by column (see `Rows`).
        Rows([
            1.0 - yy2 - zz2,
            xy2 + wz2,
            xz2 - wy2,
            xy2 - wz2,
            1.0 - xx2 - zz2,
            yz2 + wx2,
            xz2 + wy2,
            yz2 - wx2,
            1.0 - xx2 - yy2,
        ])
    }

    fn length_sq(self) -> f32 {
        self.x * self.x + self.y * self.y + self.z * self.z + self.w * self.w
    }

    /// `Quaternion.Normalize`.
    #[inline]
    pub fn normalize(self) -> Quat {
        let k = 1.0 / ((self.length_sq() as f64).sqrt() as f32);
        Quat {
            x: self.x * k,
            y: self.y * k,
            z: self.z * k,
            w: self.w * k,
        }
    }

    /// `Quaternion.Inverse`.
    #[inline]
    pub fn inverse(self) -> Quat {
        let k = 1.0 / self.length_sq();
        Quat {
            x: -self.x * k,
            y: -self.y * k,
            z: -self.z * k,
            w: self.w * k,
        }
    }

    /// `Quaternion.CreateFromYawPitchRoll` (yaw about +Y, pitch about +X, roll about +Z).
    #[inline]
    pub fn from_ypr(yaw: f32, pitch: f32, roll: f32) -> Quat {
        let (sr, cr) = sin_cos(roll * 0.5);
        let (sp, cp) = sin_cos(pitch * 0.5);
        let (sy, cy) = sin_cos(yaw * 0.5);
        Quat {
            x: cy * sp * cr + sy * cp * sr,
            y: sy * cp * cr - cy * sp * sr,
            z: cy * cp * sr - sy * sp * cr,
            w: cy * cp * cr + sy * sp * sr,
        }
    }

    /// The four `Matrix4x4.CreateFromQuaternion` elements motion code reads:
    /// `(M13, M21, M22, M23)`.
    pub fn matrix_elements(self) -> (f32, f32, f32, f32) {
        let xx = self.x * self.x;
        let zz = self.z * self.z;
        let xy = self.x * self.y;
        let wz = self.z * self.w;
        let xz = self.z * self.x;
        let wy = self.y * self.w;
        let yz = self.y * self.z;
        let wx = self.x * self.w;
        let m13 = 2.0 * (xz - wy);
        let m21 = 2.0 * (xy - wz);
        let m22 = 1.0 - 2.0 * (zz + xx);
        let m23 = 2.0 * (yz + wx);
        (m13, m21, m22, m23)
    }
}

impl Default for Quat {
    fn default() -> Self {
        Quat::IDENTITY
    }
}

/// `MathF.Sin(x)`, `MathF.Cos(x)`: Mono's `CreateFromYawPitchRoll` works in single
/// precision (the C library's `sinf`/`cosf`, which Rust's f32 methods also call), and a
/// double-precision sine narrowed to f32 differs in the last ulp for a few angles.
///
/// A zero angle (the common case: no rotation this step) skips the library call:
/// `sinf(±0) = ±0` and `cosf(±0) = 1` exactly, so the result is the same bits.
#[inline]
fn sin_cos(x: f32) -> (f32, f32) {
    if x == 0.0 {
        (x, 1.0)
    } else {
        (x.sin(), x.cos())
    }
}

/// One remembered rotation step: the bits of the orientation, of `omega` and of `q`
/// (the step vector is `omega · q`, a function of them, so it is only computed on a
/// miss) and the orientation the step gave.
#[derive(Clone, Copy, Debug, PartialEq)]
struct StepEntry {
    key: [u32; 8],
    value: Quat,
}

#[inline(always)]
fn step_key(o: Quat, omega: &Vec3, q: f32) -> [u32; 8] {
    let p = quat_bits(o);
    let w = step_inputs_key(omega, q);
    [p[0], p[1], p[2], p[3], w[0], w[1], w[2], w[3]]
}

/// The orientation with every part +0 and the zero vector: the key of a new memo's
/// entries (each computed by the memo's own step function).
const ZERO_QUAT: Quat = Quat {
    w: 0.0,
    x: 0.0,
    y: 0.0,
    z: 0.0,
};

/// `AFrame.Rotate(Vector3)`'s new orientation: the vector taken in local axes, then
/// `GRotate`: `o ⊗ CreateFromYawPitchRoll(g)`, normalised.
// A turn about the vertical axis alone takes the formulas with its x and y as the +0
// constants (`yaw_only`, the same bits), which the compiler folds where exact.
#[inline]
fn rotate_vec_step(o: Quat, w: Vec3) -> Quat {
    match yaw_only(o) {
        Some(p) => rotate_vec_step_from(p, w),
        None => rotate_vec_step_from(o, w),
    }
}

#[inline(always)]
fn rotate_vec_step_from(o: Quat, w: Vec3) -> Quat {
    let g = Quat::rotate(o, w);
    Quat::mul(o, Quat::from_ypr(g.x, g.y, g.z)).normalize()
}

/// A two-entry memo of the sequence's `Rotate(Vector3)` (`apply_physics`). Within a
/// tick a cycle that crosses two frames steps from the identity and then from the
/// rotated orientation, and the next tick, crossing one, steps from the identity
/// again, so one entry would miss on every crossing of a turning run. Both entries are
/// checked in place (no reordering on a hit); a miss, out of line, replaces the older.
/// A new memo holds the all-zero key's entry in both, computed by the step itself.
// `repr(C)` with the second entry first: a hit on the first entry reads only it, and
// the sequence places the memo so that the second lies on its colder side.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct RotateVecMemo {
    second: StepEntry,
    first: StepEntry,
}

impl Default for RotateVecMemo {
    fn default() -> Self {
        let first = StepEntry {
            key: [0; 8],
            value: rotate_vec_step(ZERO_QUAT, Vec3::ZERO),
        };
        Self {
            first,
            second: first,
        }
    }
}

impl RotateVecMemo {
    /// [`AFrame::rotate_vec`]`(omega · q)`'s new orientation, in place (same bits): a
    /// hit copies the entry's value straight into it, a miss (out of line) writes it
    /// there itself.
    #[inline(always)]
    fn step_in_place(&mut self, o: &mut Quat, omega: &Vec3, q: f32) {
        #[cfg(debug_assertions)]
        let before = *o;
        let key = step_key(*o, omega, q);
        if same_key(&key, &self.first.key) {
            *o = self.first.value;
        } else if same_key(&key, &self.second.key) {
            *o = self.second.value;
        } else {
            self.miss_in_place(o, omega, q);
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            quat_bits(*o),
            quat_bits(plain_rotate_vec(before, omega, q)),
            "RotateVecMemo differs from AFrame.Rotate"
        );
    }

    /// The step on a miss of both entries. Out of line: a crossing of a cycle nearly
    /// always hits, and the miss's product and normalisation would otherwise give the
    /// tick register saves.
    #[cold]
    #[inline(never)]
    fn miss_in_place(&mut self, o: &mut Quat, omega: &Vec3, q: f32) {
        // The table is found first: to the compiler, a thread-local's address is a call
        // (the linker makes it a load), which clobbers every vector register, so it
        // comes before the miss forms anything it would have to save across it.
        SHARED_STEP_TABLE.with(|table| self.miss_with(table, o, omega, q));
    }

    /// [`RotateVecMemo::miss_in_place`] given this thread's table of steps.
    #[inline(always)]
    fn miss_with(&mut self, table: &SharedSteps, o: &mut Quat, omega: &Vec3, q: f32) {
        let w = omega.scale(q);
        // A step of the zero vector from the identity, which an object that stops
        // turning takes at the first crossing of every tick, is the identity (every
        // intermediate is 1 or +0: `zero_step_from_the_identity_is_the_identity`).
        let key = step_key(*o, omega, q);
        let value = if quat_bits(*o) == quat_bits(Quat::IDENTITY)
            && (w.x.to_bits() | w.y.to_bits() | w.z.to_bits()) == 0
        {
            Quat::IDENTITY
        } else if let Some(value) = shared_step_lookup(table, &key) {
            debug_assert_eq!(
                quat_bits(value),
                quat_bits(rotate_vec_step(*o, w)),
                "shared step table differs from the step"
            );
            value
        } else {
            // A tail call, with nothing held across it: the paths above, nearly every
            // miss, then save and restore no registers.
            return self.miss_computed(o, omega, q);
        };
        self.push(StepEntry { key, value });
        *o = value;
    }

    /// [`RotateVecMemo::miss_in_place`] for a step the thread's table does not hold:
    /// computed, and kept both in the table and in the memo.
    #[cold]
    #[inline(never)]
    fn miss_computed(&mut self, o: &mut Quat, omega: &Vec3, q: f32) {
        let key = step_key(*o, omega, q);
        let value = SHARED_STEP_TABLE.with(|t| shared_step_compute(t, key, *o, omega.scale(q)));
        self.push(StepEntry { key, value });
        *o = value;
    }

    /// Makes `e` the first entry, the first the second.
    #[inline(always)]
    fn push(&mut self, e: StepEntry) {
        self.second = self.first;
        self.first = e;
    }
}

/// The slots of [`shared_rotate_vec_step`]'s table (a power of two).
const SHARED_STEPS: usize = 64;

thread_local! {
    /// Rotation steps computed on this thread, direct-mapped by their key. Objects that
    /// turn at the same rate from the same orientation (every crossing of a tick starts
    /// from the identity) take the same steps, so one object's miss is often a step
    /// another has computed. A step is a function of its key's bits alone, so a slot
    /// holding the key holds the step, whoever computed it.
    static SHARED_STEP_TABLE: SharedSteps = const { [const { Cell::new(None) }; SHARED_STEPS] };
}

/// The type of [`SHARED_STEP_TABLE`].
type SharedSteps = [Cell<Option<StepEntry>>; SHARED_STEPS];

/// [`rotate_vec_step`]`(o, w)` for the step whose key is `key` (`w` is the step vector
/// of its `omega` and `q`), from this thread's table of steps when it holds the key.
#[cfg(test)]
fn shared_rotate_vec_step(key: [u32; 8], o: Quat, w: Vec3) -> Quat {
    let value = SHARED_STEP_TABLE
        .with(|t| shared_step_lookup(t, &key).unwrap_or_else(|| shared_step_compute(t, key, o, w)));
    debug_assert_eq!(
        quat_bits(value),
        quat_bits(rotate_vec_step(o, w)),
        "shared step table differs from the step"
    );
    value
}

/// The step whose key is `key`, when `table` (this thread's table of steps) holds it.
#[inline(always)]
fn shared_step_lookup(table: &SharedSteps, key: &[u32; 8]) -> Option<Quat> {
    let slot = shared_step_slot(key);
    table[slot]
        .get()
        .filter(|e| same_key(&e.key, key))
        .map(|e| e.value)
}

/// [`rotate_vec_step`]`(o, w)` for the step whose key is `key`, computed and put in
/// `table` (this thread's table of steps).
#[inline(always)]
fn shared_step_compute(table: &SharedSteps, key: [u32; 8], o: Quat, w: Vec3) -> Quat {
    let value = rotate_vec_step(o, w);
    table[shared_step_slot(&key)].set(Some(StepEntry { key, value }));
    value
}

/// The slot of a step key in [`SHARED_STEP_TABLE`]: the top bits of a multiplicative
/// hash of its words' exclusive or.
#[inline]
fn shared_step_slot(key: &[u32; 8]) -> usize {
    let mut h = 0u32;
    for &k in key {
        h ^= k;
    }
    (h.wrapping_mul(0x9e37_79b1) >> (32 - SHARED_STEPS.trailing_zeros())) as usize
}

/// `AFrame.Rotate(omega · q)`'s new orientation from `o`, computed plainly (what every
/// rotation memo's hit is checked against in debug builds).
#[cfg(debug_assertions)]
fn plain_rotate_vec(o: Quat, omega: &Vec3, q: f32) -> Quat {
    let mut f = AFrame::new(Vec3::ZERO, o);
    f.rotate_vec(omega.scale(q));
    f.orientation
}

/// `AFrame.GRotate(omega · q)`'s new orientation from `o`, computed plainly.
#[cfg(debug_assertions)]
fn plain_grotate(o: Quat, omega: &Vec3, q: f32) -> Quat {
    let mut f = AFrame::new(Vec3::ZERO, o);
    f.grotate(omega.scale(q));
    f.orientation
}

/// Debug builds: `got` has the bits of the plain `AFrame.Combine(a, b)`.
#[inline(always)]
fn check_combine(got: &AFrame, a: &AFrame, b: &AFrame) {
    #[cfg(debug_assertions)]
    {
        let want = AFrame::combine(a, b);
        debug_assert_eq!(
            (quat_bits(got.orientation), vec_bits(got.origin)),
            (quat_bits(want.orientation), vec_bits(want.origin)),
            "combine memo differs from AFrame.Combine"
        );
    }
    let _ = (got, a, b);
}

/// Whether two memo keys hold the same bits, every word compared as a word. Not `==`
/// on the arrays: that compares them as memory, so the key built from the inputs is
/// first stored word by word and then read back in 8- or 16-byte loads, which the
/// processor cannot forward from the narrower stores (a stall of about a dozen cycles
/// per lookup, the largest cost of a steady tick, in WebAssembly most of all). Folded
/// without short-circuit, the words stay in registers.
#[inline(always)]
fn same_key<const N: usize>(a: &[u32; N], b: &[u32; N]) -> bool {
    let mut diff = 0;
    for i in 0..N {
        diff |= a[i] ^ b[i];
    }
    diff == 0
}

#[inline]
fn quat_bits(q: Quat) -> [u32; 4] {
    [q.w.to_bits(), q.x.to_bits(), q.y.to_bits(), q.z.to_bits()]
}

#[cfg(any(debug_assertions, test))]
#[inline]
fn vec_bits(v: Vec3) -> [u32; 3] {
    [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()]
}

/// The rotation matrix built by [`Quat::rotation_rows`], kept column by column: the
/// three sums of [`Rows::apply`] then take whole adjacent columns (`v.x` times the
/// first, and so on), which vectorise without the shuffles that gathering a column
/// from three rows takes. Each sum's terms and their order are the rows' own.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rows([f32; 9]);

impl Rows {
    /// `v` through the matrix, each row summed left to right as `Vector3.Transform` does.
    #[inline]
    pub fn apply(&self, v: Vec3) -> Vec3 {
        let c = &self.0;
        Vec3 {
            x: v.x * c[0] + v.y * c[3] + v.z * c[6],
            y: v.x * c[1] + v.y * c[4] + v.z * c[7],
            z: v.x * c[2] + v.y * c[5] + v.z * c[8],
        }
    }
}

/// A one-entry memo for [`AFrame::combine`] at one call site: the rotation matrix of
/// `a.orientation` and the product `a.orientation ⊗ b.orientation`, keyed by the bits of
/// both orientations. An object that does not turn combines into the same orientation
/// with the same offset orientation tick after tick, so only the matrix times `b.origin`
/// and the sum with `a.origin` are left; both are computed exactly as `combine` does.
///
/// The memo has no empty state: a new one holds the entry of the all-zero key (both
/// orientations +0 in every part), computed as a miss would, so a lookup is one key
/// compare.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CombineMemo {
    key: [u32; 8],
    rows: Rows,
    product: Quat,
}

impl Default for CombineMemo {
    fn default() -> Self {
        let zero = Quat {
            w: 0.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        };
        Self {
            key: [0; 8],
            rows: Quat::rotation_rows(zero),
            product: Quat::mul(zero, zero),
        }
    }
}

/// The key of a combine memo: the bits of both orientations (the only inputs of the
/// rows and the product it keeps).
#[inline(always)]
fn combine_key(a: &AFrame, b: &AFrame) -> [u32; 8] {
    let p = quat_bits(a.orientation);
    let q = quat_bits(b.orientation);
    [p[0], p[1], p[2], p[3], q[0], q[1], q[2], q[3]]
}

impl CombineMemo {
    /// `AFrame.Combine(a, b)` (same bits as [`AFrame::combine`]).
    // Inlined at both call sites: the result is written straight into the caller's
    // frame instead of through a returned copy.
    #[inline(always)]
    pub fn combine(&mut self, a: &AFrame, b: &AFrame) -> AFrame {
        self.refresh(a, b);
        self.apply(a, b)
    }

    /// Makes the entry the one of `a` and `b`.
    #[inline(always)]
    fn refresh(&mut self, a: &AFrame, b: &AFrame) {
        let key = combine_key(a, b);
        if !same_key(&key, &self.key) {
            self.fill(a, b, key);
        }
    }

    /// The entry of `a` and `b`, whose key is `key`.
    #[inline(always)]
    fn fill(&mut self, a: &AFrame, b: &AFrame, key: [u32; 8]) {
        self.rows = Quat::rotation_rows(a.orientation);
        self.product = Quat::mul(a.orientation, b.orientation);
        self.key = key;
    }

    /// [`CombineMemo::fill`] from the two orientations alone (the entry reads nothing
    /// else of the frames).
    #[inline(always)]
    fn fill_orientations(&mut self, a: Quat, b: Quat, key: [u32; 8]) {
        self.rows = Quat::rotation_rows(a);
        self.product = Quat::mul(a, b);
        self.key = key;
    }

    /// `AFrame.Combine(a, b)` from the entry, which must be `a` and `b`'s.
    #[inline(always)]
    fn apply(&self, a: &AFrame, b: &AFrame) -> AFrame {
        let f = AFrame {
            origin: a.origin.add(self.rows.apply(b.origin)),
            orientation: self.product,
        };
        check_combine(&f, a, b);
        f
    }
}

/// The object's offset combine ([`CombineMemo`]) together with the physics step's
/// `GRotate(v)` that follows it in the tick. The step rotates the combine's orientation
/// (the physics step moves only the origin before it), so while the combine hits and
/// `v` repeats, its result is the one remembered here: one compare of four words (the
/// bits of `v` and a constant zero) instead of a second memo's eight.
///
/// Keyed by all its inputs, by construction: `rotation` is
/// `CreateFromYawPitchRoll(omega · q)` for the `omega` and `q` whose bits are in
/// `step_key` (a new step recomputes both, out of line), and `stepped` is always
/// `normalize(product ⊗ rotation)` of the combine entry's product, recomputed whenever
/// either changes (a combine miss recomputes it from the kept rotation: a turning
/// object's orientation moves every tick while its step stays, so no trig is redone).
/// A new memo holds the all-zero key's entries (`+0 · +0` is the zero vector), computed
/// by the same functions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OffsetMemo {
    combine: CombineMemo,
    step_key: [u32; 4],
    rotation: Quat,
    stepped: Quat,
}

impl Default for OffsetMemo {
    fn default() -> Self {
        let combine = CombineMemo::default();
        let rotation = Quat::from_ypr(0.0, 0.0, 0.0);
        Self {
            combine,
            step_key: [0; 4],
            rotation,
            stepped: Quat::mul(combine.product, rotation).normalize(),
        }
    }
}

impl OffsetMemo {
    /// `AFrame.Combine(a, b)` (same bits as [`AFrame::combine`]).
    #[inline(always)]
    pub fn combine(&mut self, a: &AFrame, b: &AFrame) -> AFrame {
        let origin = self.combine_origin(a, b);
        AFrame {
            origin,
            orientation: self.combine.product,
        }
    }

    /// The origin of `AFrame.Combine(a, b)`; its orientation is then
    /// [`OffsetMemo::combined_orientation`]`(false)`.
    // The tick writes the orientation into the object's frame from the memo itself,
    // after the hooks, so it is not carried through the update in a returned frame.
    #[inline(always)]
    pub fn combine_origin(&mut self, a: &AFrame, b: &AFrame) -> Vec3 {
        if !same_key(&combine_key(a, b), &self.combine.key) {
            self.refill(a, b);
        }
        self.combine.apply(a, b).origin
    }

    /// A miss of the combine: its entry for `a` and `b`, then the remembered step from
    /// the new product (debug builds check the result in `step_combined`). Out of line,
    /// as the other memos' misses: the rows, the product and the normalisation would
    /// otherwise give the tick's loop register saves on every path.
    #[cold]
    #[inline(never)]
    fn refill(&mut self, a: &AFrame, b: &AFrame) {
        let key = combine_key(a, b);
        // Stored first, as the orientations' own bits: two copies of 16 bytes, not
        // six stores of the parts the arithmetic below holds.
        self.combine.key = key;
        match (yaw_only(a.orientation), yaw_only(b.orientation)) {
            (Some(p), Some(q)) => self.combine.fill_orientations(p, q, key),
            _ => self.combine.fill(a, b, key),
        }
        self.stepped = step_product(self.combine.product, self.rotation);
    }

    /// The orientation [`AFrame::grotate`]`(omega · q)` gives a frame whose orientation
    /// is the last [`OffsetMemo::combine`]'s result (same bits).
    #[inline(always)]
    pub fn grotate_combined(&mut self, omega: &Vec3, q: f32) -> Quat {
        self.step_combined(omega, q);
        self.stepped
    }

    /// Makes [`OffsetMemo::combined_orientation`]`(true)` the orientation
    /// [`AFrame::grotate`]`(omega · q)` gives the last combine's result.
    // Keyed by the bits of `omega` and `q` rather than of their product: the product
    // is a function of them, `omega` is compared where it lies in memory, and a hit
    // needs no multiplication.
    #[inline(always)]
    pub fn step_combined(&mut self, omega: &Vec3, q: f32) {
        if !same_key(&step_inputs_key(omega, q), &self.step_key) {
            self.restep(omega, q);
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            quat_bits(self.stepped),
            quat_bits(plain_grotate(self.combine.product, omega, q)),
            "OffsetMemo's step differs from AFrame.GRotate"
        );
    }

    /// The last combine's orientation, after [`OffsetMemo::step_combined`]'s step
    /// (`stepped`) or as the combine left it.
    #[inline(always)]
    pub fn combined_orientation(&self, stepped: bool) -> Quat {
        if stepped {
            self.stepped
        } else {
            self.combine.product
        }
    }

    #[cold]
    #[inline(never)]
    fn restep(&mut self, omega: &Vec3, q: f32) {
        let v = omega.scale(q);
        self.rotation = Quat::from_ypr(v.x, v.y, v.z);
        self.stepped = Quat::mul(self.combine.product, self.rotation).normalize();
        self.step_key = step_inputs_key(omega, q);
    }
}

/// `normalize(p ⊗ r)`: [`OffsetMemo`]'s step of the product `p` by the rotation `r`.
///
/// A physics step without spin (`omega` zero, as for every object that is not set
/// spinning) rotates by `CreateFromYawPitchRoll(+0, +0, +0)`, the identity with +0
/// parts, and for a `p` that is finite and has no negative zero, `p ⊗ identity` is `p`
/// itself: each part is the part of `p` times 1 plus products with +0, which are zeros,
/// and a zero added to (or subtracted from) a nonzero part leaves it, while `+0 ± 0` is
/// `+0` (`product_with_the_identity_keeps_a_quaternion_without_negative_zeros`). So the
/// product is skipped there: a turning object, whose orientation moves every tick, makes
/// this step on every tick. Any other `p` or `r` takes the product.
#[inline(always)]
fn step_product(p: Quat, r: Quat) -> Quat {
    let product = if same_key(&quat_bits(r), &quat_bits(Quat::IDENTITY)) && is_plain(p) {
        p
    } else {
        Quat::mul(p, r)
    };
    let stepped = product.normalize();
    debug_assert_eq!(
        quat_bits(stepped),
        quat_bits(Quat::mul(p, r).normalize()),
        "step_product differs from normalize(p ⊗ r)"
    );
    stepped
}

/// `q` rebuilt with the literal `+0.0` in its x and y parts, when those parts are +0 (a
/// turn about the vertical axis alone, as every heading the motion code sets): the same
/// bits, so the same rows and products, but the formulas then multiply and add those
/// parts as constants, and the compiler folds what is exact (`+0 · +0`, `1 − +0`) and
/// keeps every operation on `w` and `z` (`w · +0` is not folded: its sign and a NaN
/// depend on `w`). Any other `q` is None.
#[inline(always)]
fn yaw_only(q: Quat) -> Option<Quat> {
    ((q.x.to_bits() | q.y.to_bits()) == 0).then_some(Quat {
        w: q.w,
        x: 0.0,
        y: 0.0,
        z: q.z,
    })
}

/// Whether every part of `q` is finite and none is a negative zero (the parts a product
/// with the identity leaves as they are).
#[inline(always)]
fn is_plain(q: Quat) -> bool {
    let mut odd = false;
    for b in quat_bits(q) {
        odd |= (b == 0x8000_0000) | (b & 0x7f80_0000 == 0x7f80_0000);
    }
    !odd
}

/// The key of [`OffsetMemo`]'s step: the bits of `omega` and `q`.
#[inline(always)]
fn step_inputs_key(omega: &Vec3, q: f32) -> [u32; 4] {
    [
        omega.x.to_bits(),
        omega.y.to_bits(),
        omega.z.to_bits(),
        q.to_bits(),
    ]
}

/// A two-entry [`CombineMemo`] for the sequence's pos-frame combine. A turning run crosses
/// two frames in one tick, combining into the identity offset and then into the rotated
/// one, and one frame in the next (into the identity again): one entry would miss on
/// every other crossing, two hold both.
///
/// Each entry also keeps the `Rotate(omega·q)` step `apply_physics` takes right after
/// the combine (the velocity step moves only the origin before it), keyed by the bits
/// of `omega` and `q`; a new or refilled entry has a key no step can have (a NaN `q`:
/// a forward crossing's `q = 1 / fr` with `fr · t > 0` is never NaN, and
/// `combine_then_step_in_place` asserts it), so its first step is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CombineMemo2 {
    first: Combine2Entry,
    second: Combine2Entry,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Combine2Entry {
    m: CombineMemo,
    step_key: [u32; 4],
    stepped: Quat,
}

/// The step key of an entry whose step is not computed yet: `q` a NaN, which no step
/// has (see [`CombineMemo2`]).
const NO_STEP: [u32; 4] = [0, 0, 0, 0x7fc0_0000];

impl Default for Combine2Entry {
    fn default() -> Self {
        Self {
            m: CombineMemo::default(),
            step_key: NO_STEP,
            stepped: ZERO_QUAT,
        }
    }
}

impl Combine2Entry {
    /// The step from this entry's product, computed by `memo` and remembered.
    #[cold]
    #[inline(never)]
    fn restep(&mut self, omega: &Vec3, q: f32, memo: &mut RotateVecMemo) {
        // The key first and the step in place: the memo's miss, most resteps', is then
        // a tail call, and nothing is saved across it.
        self.step_key = step_inputs_key(omega, q);
        self.stepped = self.m.product;
        memo.step_in_place(&mut self.stepped, omega, q);
    }
}

impl CombineMemo2 {
    /// The entry for combining `b` into `a`, filled on a miss.
    #[inline(always)]
    fn entry(&mut self, a: &AFrame, b: &AFrame) -> &mut Combine2Entry {
        let key = combine_key(a, b);
        if same_key(&key, &self.first.m.key) {
            &mut self.first
        } else if same_key(&key, &self.second.m.key) {
            &mut self.second
        } else {
            // The newest entry stays checked first; the older one is replaced.
            self.second = self.first;
            self.first.m.fill(a, b, key);
            self.first.step_key = NO_STEP;
            &mut self.first
        }
    }

    /// `AFrame.Combine(a, b)` (same bits as [`AFrame::combine`]).
    #[inline(always)]
    pub fn combine(&mut self, a: &AFrame, b: &AFrame) -> AFrame {
        self.entry(a, b).m.apply(a, b)
    }

    /// `AFrame.Combine(a, b)`, then `apply_physics`' step: the origin plus
    /// `velocity · q` and [`AFrame::rotate_vec`]`(omega · q)` through `memo`; the same
    /// bits as those three in turn. `q` is never NaN (the key of a step not computed
    /// yet; a forward crossing's `1 / fr` is not).
    #[cfg(test)]
    fn combine_then_step(
        &mut self,
        a: &AFrame,
        b: &AFrame,
        velocity: &Vec3,
        omega: &Vec3,
        q: f32,
        memo: &mut RotateVecMemo,
    ) -> AFrame {
        let mut f = *a;
        self.combine_then_step_in_place(&mut f, b, velocity, omega, q, memo);
        f
    }

    /// `combine_then_step` with `f` as `a`, the result written into `f` (`q` is never
    /// NaN, as there).
    #[inline(always)]
    pub(crate) fn combine_then_step_in_place(
        &mut self,
        f: &mut AFrame,
        b: &AFrame,
        velocity: &Vec3,
        omega: &Vec3,
        q: f32,
        memo: &mut RotateVecMemo,
    ) {
        debug_assert!(!q.is_nan(), "a NaN step would read the no-step sentinel");
        #[cfg(debug_assertions)]
        let before = *f;
        let e = self.entry(f, b);
        f.origin = f
            .origin
            .add(e.m.rows.apply(b.origin))
            .add(velocity.scale(q));
        if !same_key(&step_inputs_key(omega, q), &e.step_key) {
            e.restep(omega, q, memo);
        }
        f.orientation = e.stepped;
        #[cfg(debug_assertions)]
        {
            let mut want = AFrame::combine(&before, b);
            want.origin = want.origin.add(velocity.scale(q));
            want.rotate_vec(omega.scale(q));
            debug_assert_eq!(
                (quat_bits(f.orientation), vec_bits(f.origin)),
                (quat_bits(want.orientation), vec_bits(want.origin)),
                "pos-frame memo differs from Combine then apply_physics"
            );
        }
    }
}

/// `ToRadians`: computed in f64, narrowed.
pub fn to_radians(deg: f32) -> f32 {
    (std::f64::consts::PI / 180.0 * deg as f64) as f32
}

/// `ToDegrees`: computed in f64, narrowed.
pub fn to_degrees(rad: f32) -> f32 {
    (180.0 / std::f64::consts::PI * rad as f64) as f32
}

/// The sine and cosine `AFrame.set_heading(deg)` turns to: of `deg` in radians (narrowed
/// to f32), in f64, each within 1e-13 of the library's and narrowing to the same f32
/// (which is all `set_heading` reads of them): `sin_cos_estimate` when it decides,
/// else the library's ([`heading_sin_cos_plain`]).
pub fn heading_sin_cos(deg: f32) -> (f64, f64) {
    let r = to_radians(deg);
    let Some(sc) = sin_cos_estimate(r) else {
        return heading_sin_cos_plain(deg);
    };
    debug_assert!(
        {
            let (s, c) = heading_sin_cos_plain(deg);
            (sc.0 as f32).to_bits() == (s as f32).to_bits()
                && (sc.1 as f32).to_bits() == (c as f32).to_bits()
        },
        "sine and cosine estimate"
    );
    sc
}

/// [`heading_sin_cos`] from the library: `sin` and `cos` of the radians in f64.
pub fn heading_sin_cos_plain(deg: f32) -> (f64, f64) {
    let r = to_radians(deg) as f64;
    (r.sin(), r.cos())
}

/// π/2 as a multiple of 2⁻²⁸, and the rest of it: `k · SIN_COS_PI_2_HI` is exact for
/// the quadrants `k` in [−5, 5] of an angle within 8.
const SIN_COS_PI_2_HI: f64 = 1.570_796_325_802_803;
const SIN_COS_PI_2_LO: f64 = std::f64::consts::FRAC_PI_2 - SIN_COS_PI_2_HI;

/// How far [`sin_cos_estimate`]'s values may lie from the library's: the series' first
/// omitted terms are below 2.1e-14 (sine) and 1.1e-15 (cosine), the reduction and the
/// roundings add a few 1e-16, and the library is within an ulp (2.2e-16).
const SIN_COS_MARGIN: f64 = 1e-13;

/// The sine and cosine of the f32 angle `r` (radians) as f64 values that narrow to the
/// same f32 as the library's `sin` and `cos` of it, without the library call; None for
/// an angle beyond ±8 (NaN and infinities too) and when either value lies within
/// `SIN_COS_MARGIN` of an f32 rounding edge (as every value near zero does), where the
/// caller asks the library.
///
/// The quadrant `k` is `r · 2/π` rounded (by adding 1.5·2⁵²: `k mod 4` lands in the
/// low bits) and `y = r − k·π/2` in [−π/4, π/4] is formed in two parts: `r` is a
/// multiple of 2⁻²⁴ when `k` is not 0 (it is an f32 of at least π/4) and the high part
/// a multiple of 2⁻²⁸, so `r − k·HI` is exact (a multiple of 2⁻²⁸ below 2³); the low
/// part's product and the last subtraction round once each. Then the sine and cosine
/// series of `y` to `y¹³` and `y¹⁴`.
fn sin_cos_estimate(r: f32) -> Option<(f64, f64)> {
    if !(..=8.0).contains(&r.abs()) {
        return None;
    }
    let r = f64::from(r);
    let q = r * std::f64::consts::FRAC_2_PI + ROUND_TO_INTEGER;
    let quadrant = q.to_bits() & 3;
    let k = q - ROUND_TO_INTEGER;
    let y = (r - k * SIN_COS_PI_2_HI) - k * SIN_COS_PI_2_LO;
    let z = y * y;
    let sin_y = y + y
        * z
        * (-1.0 / 6.0
            + z * (1.0 / 120.0
                + z * (-1.0 / 5_040.0
                    + z * (1.0 / 362_880.0
                        + z * (-1.0 / 39_916_800.0 + z * (1.0 / 6_227_020_800.0))))));
    let cos_y = 1.0
        + z * (-0.5
            + z * (1.0 / 24.0
                + z * (-1.0 / 720.0
                    + z * (1.0 / 40_320.0
                        + z * (-1.0 / 3_628_800.0
                            + z * (1.0 / 479_001_600.0 - z * (1.0 / 87_178_291_200.0)))))));
    let (s, c) = match quadrant {
        0 => (sin_y, cos_y),
        1 => (cos_y, -sin_y),
        2 => (-sin_y, -cos_y),
        _ => (-cos_y, sin_y),
    };
    let settled = |v: f64| (v - SIN_COS_MARGIN) as f32 == (v + SIN_COS_MARGIN) as f32;
    (settled(s) && settled(c)).then_some((s, c))
}

/// `atan(k / 8)` for `k = 0..=8`, the anchors of [`atan2_f32`]'s reduction, then NaN
/// up to the 16 indices four bits can give: the index needs no clamp, and one that no
/// ratio in [0, 1] gives would make the estimate NaN, which leaves the answer to the
/// library.
const ATAN_EIGHTHS: [f64; 16] = [
    0.0,
    0.124_354_994_546_761_44,
    0.244_978_663_126_864_14,
    0.358_770_670_270_572_25,
    0.463_647_609_000_806_1,
    0.558_599_315_343_562_4,
    0.643_501_108_793_284_4,
    0.718_829_999_621_624_5,
    std::f64::consts::FRAC_PI_4,
    f64::NAN,
    f64::NAN,
    f64::NAN,
    f64::NAN,
    f64::NAN,
    f64::NAN,
    f64::NAN,
];

/// How far [`atan2_f32`]'s f64 estimate may lie from the library's `atan2` (each within
/// a few units in the last place of the true angle, at most about 2.5e-15 apart), with
/// a factor of four to spare.
const ATAN2_MARGIN: f64 = 1e-14;

/// 1.5·2⁵²: adding it to an f64 in [0, 2⁵¹] rounds it to an integer, which the low bits
/// of the sum then hold.
const ROUND_TO_INTEGER: f64 = 6_755_399_441_055_744.0;

/// `y.atan2(x) as f32`, the arctangent the headings narrow to f32, mostly without the
/// library call. An f64 estimate within `ATAN2_MARGIN` of the library's result answers
/// when every value that close rounds to the same f32 (narrowing is monotonic, so the
/// two ends of the interval decide); near a rounding edge, and for zeros, infinities,
/// NaN and extreme magnitudes, the library answers. So the bits are always the
/// library's.
///
/// The estimate: `r = min/max(|y|, |x|)` in [0, 1]; `atan r = atan(k/8) + atan t` with
/// `k/8` the nearest eighth and `t = (r − k/8) / (1 + r·k/8)`, `|t| ≤ 1/16` (the
/// subtraction is exact: `r` lies within a factor of two of `k/8`); `atan t` by its
/// series to `t¹¹`, whose first omitted term is below 2e-17; then the octant.
#[inline]
pub fn atan2_f32(y: f64, x: f64) -> f32 {
    match atan2_estimate(y, x) {
        Some(a) => a,
        None => y.atan2(x) as f32,
    }
}

/// [`atan2_f32`]'s answer when the estimate decides it, else None.
#[inline]
fn atan2_estimate(y: f64, x: f64) -> Option<f32> {
    let (ax, ay) = (x.abs(), y.abs());
    // The shorter and the longer part (a minimum and a maximum, one division). A NaN
    // part makes every compare false, so it lands in `short` when it is `y`'s and in
    // `long` when it is `x`'s, and fails the range test either way.
    let swap = ax < ay;
    let (short, long) = if swap { (ax, ay) } else { (ay, ax) };
    // Both parts in [1e-150, 1e150]: the shorter is at most the longer. Also false for
    // zeros and NaN.
    if !(short >= 1e-150 && long <= 1e150) {
        return None;
    }
    let r = short / long;
    // The nearest eighth, rounded by adding 1.5·2⁵²: `k` lands in the low bits.
    let rounded = r * 8.0 + ROUND_TO_INTEGER;
    let k = (rounded.to_bits() & 0xf) as usize;
    let c = (rounded - ROUND_TO_INTEGER) * 0.125;
    let t = (r - c) / (1.0 + r * c);
    let t2 = t * t;
    let series =
        -1.0 / 3.0 + t2 * (1.0 / 5.0 + t2 * (-1.0 / 7.0 + t2 * (1.0 / 9.0 - t2 * (1.0 / 11.0))));
    let mut a = ATAN_EIGHTHS[k] + (t + t * t2 * series);
    if swap {
        a = std::f64::consts::FRAC_PI_2 - a;
    }
    if x < 0.0 {
        a = std::f64::consts::PI - a;
    }
    if y < 0.0 {
        a = -a;
    }
    let f = a as f32;
    ((a - ATAN2_MARGIN) as f32 == f && (a + ATAN2_MARGIN) as f32 == f).then_some(f)
}

/// [`AFrame::get_heading`] of an orientation whose matrix elements `M21`, `M22` (see
/// [`Quat::matrix_elements`]) are `m21`, `m22`: a caller that keeps the two elements
/// instead of the heading gets the heading's bits back whenever it asks.
#[inline(always)]
pub fn heading_of_facing(m21: f32, m22: f32) -> f32 {
    let h = atan2_f32(m22 as f64, m21 as f64);
    rem360(450.0 - to_degrees(h))
}

/// `x % 360` in f32 (C#'s `%`, the C `fmodf`), without the library call for the values
/// the heading formulas produce. `fmodf(x, 360)` is `x` itself while `|x| < 360`, and
/// `|x| − 360` with `x`'s sign while `|x| < 720`: that subtraction is exact (both
/// operands within a factor of two of each other, Sterbenz), so the bits are `fmodf`'s.
/// Anything else (larger, infinite, NaN) takes the library call.
#[inline]
pub fn rem360(x: f32) -> f32 {
    let a = x.abs();
    if a < 360.0 {
        x
    } else if a < 720.0 {
        // copysign keeps fmodf's signed zero for x = −360.
        (a - 360.0).copysign(x)
    } else {
        x % 360.0
    }
}

/// `Quaternion.Inverse` of the identity: its squared length is 1, so the vector part
/// is `-(+0) · 1 = -0`.
pub const IDENTITY_INVERSE: Quat = Quat {
    w: 1.0,
    x: -0.0,
    y: -0.0,
    z: -0.0,
};

/// ACE's `AFrame` (and the DAT `Frame`): origin plus orientation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AFrame {
    pub origin: Vec3,
    pub orientation: Quat,
}

impl AFrame {
    pub const IDENTITY: AFrame = AFrame {
        origin: Vec3::ZERO,
        orientation: Quat::IDENTITY,
    };

    pub const fn new(origin: Vec3, orientation: Quat) -> AFrame {
        AFrame {
            origin,
            orientation,
        }
    }

    /// `AFrame.Combine(a, b)`: `b` expressed in `a` (orientation not normalised).
    #[inline]
    pub fn combine(a: &AFrame, b: &AFrame) -> AFrame {
        AFrame {
            origin: a.origin.add(Quat::rotate(a.orientation, b.origin)),
            orientation: Quat::mul(a.orientation, b.orientation),
        }
    }

    /// `AFrame.Combine(a, b, scale)` (PartArray poses): `b`'s origin scaled first.
    #[inline]
    pub fn combine_scaled(a: &AFrame, b: &AFrame, scale: Vec3) -> AFrame {
        AFrame {
            origin: a
                .origin
                .add(Quat::rotate(a.orientation, b.origin.mul(scale))),
            orientation: Quat::mul(a.orientation, b.orientation),
        }
    }

    /// `AFrame.Subtract(b)` (in place): not the inverse of `combine`.
    #[inline]
    pub fn subtract(&mut self, b: &AFrame) {
        self.origin = self.origin.sub(Quat::rotate(b.orientation, b.origin));
        self.orientation = Quat::mul(self.orientation, b.orientation.inverse());
    }

    /// [`AFrame::subtract`]`(&AFrame::IDENTITY)` (same bits), what a backward crossing
    /// takes for a frame without a pos frame: the identity's matrix has entries 1 and
    /// +0 only, so it turns the zero origin into the zero vector, and its inverse is
    /// [`IDENTITY_INVERSE`]; the subtraction of +0 and the product are what is left.
    #[inline(always)]
    pub fn subtract_identity(&mut self) {
        #[cfg(debug_assertions)]
        let want = {
            let mut w = *self;
            w.subtract(&AFrame::IDENTITY);
            w
        };
        self.origin = self.origin.sub(Vec3::ZERO);
        // The product leaves the identity's bits as they are (each part is 1 or a sum
        // of signed zeros that comes to +0: `the_identity_less_the_identity_is_the_identity`),
        // and the first backward crossing of a tick starts from the identity.
        if !same_key(&quat_bits(self.orientation), &quat_bits(Quat::IDENTITY)) {
            self.orientation = Quat::mul(self.orientation, IDENTITY_INVERSE);
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            (quat_bits(self.orientation), vec_bits(self.origin)),
            (quat_bits(want.orientation), vec_bits(want.origin)),
            "subtract_identity differs from AFrame.Subtract"
        );
    }

    /// `AFrame.GRotate(v)`.
    #[inline]
    pub fn grotate(&mut self, v: Vec3) {
        let r = Quat::from_ypr(v.x, v.y, v.z);
        self.orientation = Quat::mul(self.orientation, r).normalize();
    }

    /// `AFrame.Rotate(Vector3)`: the vector is taken in local axes.
    #[inline]
    pub fn rotate_vec(&mut self, w: Vec3) {
        let g = Quat::rotate(self.orientation, w);
        self.grotate(g);
    }

    /// [`AFrame::rotate_vec`]`(omega · q)` through `memo` (same bits).
    #[inline(always)]
    pub fn rotate_vec_memo(&mut self, omega: &Vec3, q: f32, memo: &mut RotateVecMemo) {
        memo.step_in_place(&mut self.orientation, omega, q);
    }

    /// `AFrame.Rotate(Quaternion)`.
    pub fn rotate_quat(&mut self, r: Quat) {
        self.orientation = Quat::mul(r, self.orientation).normalize();
    }

    /// `AFrame.LocalToGlobalVec`.
    #[inline]
    pub fn local_to_global(&self, v: Vec3) -> Vec3 {
        Quat::rotate(self.orientation, v)
    }

    /// `AFrame.GlobalToLocalVec`: multiply by the transposed rotation matrix.
    pub fn global_to_local(&self, v: Vec3) -> Vec3 {
        let q = self.orientation;
        let xx = q.x * q.x;
        let yy = q.y * q.y;
        let zz = q.z * q.z;
        let xy = q.x * q.y;
        let wz = q.z * q.w;
        let xz = q.z * q.x;
        let wy = q.y * q.w;
        let yz = q.y * q.z;
        let wx = q.x * q.w;
        let m11 = 1.0 - 2.0 * (yy + zz);
        let m12 = 2.0 * (xy + wz);
        let m13 = 2.0 * (xz - wy);
        let m21 = 2.0 * (xy - wz);
        let m22 = 1.0 - 2.0 * (zz + xx);
        let m23 = 2.0 * (yz + wx);
        let m31 = 2.0 * (xz + wy);
        let m32 = 2.0 * (yz - wx);
        let m33 = 1.0 - 2.0 * (yy + xx);
        Vec3 {
            x: v.x * m11 + v.y * m12 + v.z * m13,
            y: v.x * m21 + v.y * m22 + v.z * m23,
            z: v.x * m31 + v.y * m32 + v.z * m33,
        }
    }

    /// `AFrame.set_rotate(q)`.
    pub fn set_rotate(&mut self, q: Quat) {
        self.orientation = q.normalize();
    }

    /// `AFrame.get_heading()`: compass degrees, 0 = +Y, 90 = +X.
    // Inline: a turning mover reads its heading every tick, and the call cost more
    // than the copies of the body at the few sites that read it.
    #[inline(always)]
    pub fn get_heading(&self) -> f32 {
        let (_, m21, m22, _) = self.orientation.matrix_elements();
        heading_of_facing(m21, m22)
    }

    /// `AFrame.set_heading(deg)`.
    pub fn set_heading(&mut self, deg: f32) {
        self.set_heading_sin_cos(heading_sin_cos(deg));
    }

    /// [`AFrame::set_heading`] given [`heading_sin_cos`] of the heading, for a caller
    /// that already holds them.
    pub fn set_heading_sin_cos(&mut self, (sin, cos): (f64, f64)) {
        let (m13, _, _, m23) = self.orientation.matrix_elements();
        let dir = Vec3::new(sin as f32, cos as f32, m23 + m13);
        self.set_vector_heading(dir);
    }

    /// `AFrame.set_vector_heading(v)`: replaces the whole orientation.
    pub fn set_vector_heading(&mut self, v: Vec3) {
        let mut n = v;
        if n.normalize_check_small() {
            return;
        }
        let z_deg = 450.0 - to_degrees(atan2_f32(n.y as f64, n.x as f64));
        let z_rot = -to_radians(rem360(z_deg));
        // `asin(±0)` is ±0, and a heading set about the vertical axis alone (every
        // turn's snap) has `n.z` ±0: no library call there.
        let x_rot = if n.z == 0.0 {
            n.z
        } else {
            (n.z as f64).asin() as f32
        };
        debug_assert_eq!(x_rot.to_bits(), ((n.z as f64).asin() as f32).to_bits());
        self.set_rotate(Quat::from_ypr(x_rot, 0.0, z_rot));
    }

    /// `AFrame.Equals` as ACE evaluates it: origins within EPSILON; the orientation
    /// test compares each component with itself, so it never fails (quirk Q27).
    #[inline]
    pub fn ace_equals(&self, other: &AFrame) -> bool {
        (self.origin.x - other.origin.x).abs() <= EPSILON
            && (self.origin.y - other.origin.y).abs() <= EPSILON
            && (self.origin.z - other.origin.z).abs() <= EPSILON
    }

    /// `AFrame.close_rotation(a, b)`.
    pub fn close_rotation(a: &AFrame, b: &AFrame) -> bool {
        let (p, q) = (a.orientation, b.orientation);
        (p.x - q.x).abs() < EPSILON
            && (p.y - q.y).abs() < EPSILON
            && (p.z - q.z).abs() < EPSILON
            && (p.w - q.w).abs() < EPSILON
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_applies_right_operand_first() {
        let a = Quat::new(0.0, 0.0, 0.0, 1.0); // 180 deg about z
        let b = Quat::new(0.0, 1.0, 0.0, 0.0); // 180 deg about x
        let p = Quat::mul(a, b);
        assert_eq!(p, Quat::new(0.0, 0.0, 1.0, 0.0));
    }

    #[test]
    fn rotate_by_quarter_turn_about_z() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let q = Quat::new(h, 0.0, 0.0, h);
        let r = Quat::rotate(q, Vec3::new(1.0, 0.0, 0.0));
        assert!((r.x).abs() < 1e-6 && (r.y - 1.0).abs() < 1e-6);
    }

    #[test]
    fn the_heading_sine_and_cosine_narrow_to_the_library_ones() {
        // By hand: 30° is 0.52359879 rad in f32, 1.46e-8 past π/6, so the sine is
        // 0.5 + 1.26e-8 and the cosine 0.86602540 − 7.3e-9; both lie within half an
        // ulp (2.98e-8) of the f32 values 0.5 and 0.8660254.
        let (s, c) = heading_sin_cos(30.0);
        assert_eq!(((s as f32), (c as f32)), (0.5, 0.866_025_4));
        assert!(sin_cos_estimate(to_radians(30.0)).is_some());
        // Near a quadrant's edge a value is near zero, where f32 steps are finer than
        // the margin: the library answers (90°'s cosine is −4.37e-8).
        assert_eq!(sin_cos_estimate(to_radians(90.0)), None);
        assert_eq!(sin_cos_estimate(to_radians(0.0)), None);
        // Beyond ±8 rad, and NaN: the library.
        for deg in [460.0, -460.0, f32::NAN, f32::INFINITY] {
            assert_eq!(sin_cos_estimate(to_radians(deg)), None);
        }
        let same = |deg: f32| {
            let (s, c) = heading_sin_cos(deg);
            let (ps, pc) = heading_sin_cos_plain(deg);
            assert_eq!(
                ((s as f32).to_bits(), (c as f32).to_bits()),
                ((ps as f32).to_bits(), (pc as f32).to_bits()),
                "{deg}"
            );
            assert!(
                (s - ps).abs() <= SIN_COS_MARGIN && (c - pc).abs() <= SIN_COS_MARGIN,
                "{deg}: {} {}",
                s - ps,
                c - pc
            );
            sin_cos_estimate(to_radians(deg)).is_some()
        };
        // Every heading on a fine grid of [−450, 450], and f32 steps around each whole
        // degree.
        let mut answered = 0;
        let n = 900_000;
        for i in 0..=n {
            answered += usize::from(same(-450.0 + 900.0 * i as f32 / n as f32));
        }
        assert!(answered > n - n / 100, "{answered} of {n}");
        for d in -450..=450 {
            let b = (d as f32).to_bits();
            for k in 0..64 {
                same(f32::from_bits(b + k));
                // Below +0's bits lie NaNs' (the sign bit's side is −0 and beyond).
                if d != 0 {
                    same(f32::from_bits(b - k));
                }
            }
        }
    }

    #[test]
    fn atan2_f32_has_the_bits_of_the_library_arctangent() {
        // By hand: the axes and the diagonals, in f32.
        assert_eq!(atan2_f32(1.0, 0.0), std::f32::consts::FRAC_PI_2);
        assert_eq!(atan2_f32(0.0, -1.0), std::f32::consts::PI);
        assert_eq!(atan2_f32(1.0, 1.0), std::f32::consts::FRAC_PI_4);
        assert_eq!(atan2_f32(-1.0, -1.0), -3.0 * std::f32::consts::FRAC_PI_4);
        assert_eq!(atan2_f32(-0.0, 1.0).to_bits(), (-0.0f32).to_bits());
        let same = |y: f64, x: f64| {
            let (a, b) = (atan2_f32(y, x), y.atan2(x) as f32);
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "atan2({y}, {x}): {a} {b}"
            );
        };
        for y in [0.0, -0.0, 1.0, -1.0, 1e-300, 1e300, f64::INFINITY, f64::NAN] {
            for x in [
                0.0,
                -0.0,
                1.0,
                -1.0,
                1e-300,
                -1e300,
                f64::NEG_INFINITY,
                f64::NAN,
            ] {
                same(y, x);
            }
        }
        // f32 pairs like the ones the headings take it of (matrix elements, offsets): every
        // direction at many scales, and ratios a few steps from each anchor k/8.
        let mut h = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            h ^= h << 13;
            h ^= h >> 7;
            h ^= h << 17;
            h
        };
        let mut answered = 0;
        let n = 300_000;
        for i in 0..n {
            let r = next();
            let angle = (r >> 11) as f64 / (1u64 << 53) as f64 * std::f64::consts::TAU;
            let scale = match i % 3 {
                0 => 1.0,
                1 => (r & 0x7ff) as f64 * 0.01 + 1e-3,
                _ => 2f64.powi((r & 0xff) as i32 - 128),
            };
            let (y, x) = ((angle.sin() * scale) as f32, (angle.cos() * scale) as f32);
            let (y, x) = (f64::from(y), f64::from(x));
            same(y, x);
            if let Some(a) = atan2_estimate(y, x) {
                assert_eq!(
                    a.to_bits(),
                    (y.atan2(x) as f32).to_bits(),
                    "atan2({y}, {x})"
                );
                answered += 1;
            }
            let anchor = (r % 9) as f32 / 8.0;
            let step = (r >> 40) as u32 % 64;
            for k in [
                anchor.max(1e-3).to_bits() + step,
                anchor.to_bits().saturating_sub(step),
            ] {
                let near = f64::from(f32::from_bits(k));
                same(near, 1.0);
                same(-1.0, -near);
                same(1.0, near);
            }
        }
        // The library is left only a hair's breadth from a rounding edge (and outside
        // the estimate's range).
        assert!(answered > n - n / 1000, "{answered} of {n}");
    }

    #[test]
    fn rem360_has_the_bits_of_the_remainder_operator() {
        // By hand: within ±360 unchanged, then one turn off, signed zero for −360.
        assert_eq!(rem360(450.0), 90.0);
        assert_eq!(rem360(719.5), 359.5);
        assert_eq!(rem360(-400.0), -40.0);
        assert_eq!(rem360(-360.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(rem360(360.0).to_bits(), 0.0f32.to_bits());
        assert_eq!(rem360(1080.0), 0.0);
        let same = |x: f32| {
            let (a, b) = (rem360(x), x % 360.0);
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{x}: {a} {b}"
            );
        };
        // Every f32 within 2^16 steps of each branch edge, and a stride over all of them.
        for edge in [0.0f32, 360.0, 720.0, -360.0, -720.0] {
            let c = edge.to_bits() as i64;
            for k in -65_536i64..=65_536 {
                same(f32::from_bits((c + k).clamp(0, u32::MAX as i64) as u32));
            }
        }
        for bits in (0..=u32::MAX).step_by(65_537) {
            same(f32::from_bits(bits));
        }
    }

    #[test]
    fn heading_of_identity_is_zero_and_set_heading_90_faces_plus_x() {
        let mut f = AFrame::IDENTITY;
        assert_eq!(f.get_heading(), 0.0);
        f.set_heading(90.0);
        let fwd = f.local_to_global(Vec3::new(0.0, 1.0, 0.0));
        assert!((fwd.x - 1.0).abs() < 1e-6 && fwd.y.abs() < 1e-6);
        assert!((f.get_heading() - 90.0).abs() < 1e-4);
    }

    #[test]
    fn inverse_and_global_to_local_undo_rotation() {
        let q = Quat::from_ypr(0.3, 0.2, 0.1);
        let f = AFrame::new(Vec3::ZERO, q);
        let v = Vec3::new(1.0, 2.0, 3.0);
        let back = f.global_to_local(f.local_to_global(v));
        assert!((back.x - 1.0).abs() < 1e-5 && (back.z - 3.0).abs() < 1e-5);
        let i = Quat::mul(q, q.inverse());
        assert!((i.w - 1.0).abs() < 1e-6);
    }

    #[test]
    fn zero_angles_keep_the_sign_of_zero() {
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        let (s, c) = sin_cos(-0.0);
        assert_eq!(s.to_bits(), 0x8000_0000);
        assert_eq!(c, 1.0);
        // A zero step about any axis is the identity quaternion with +0 parts.
        let q = Quat::from_ypr(0.0, 0.0, 0.0);
        assert_eq!(quat_bits(q), [0x3f80_0000, 0, 0, 0]);
    }

    fn bits(f: &AFrame) -> [u32; 7] {
        let o = quat_bits(f.orientation);
        let v = vec_bits(f.origin);
        [o[0], o[1], o[2], o[3], v[0], v[1], v[2]]
    }

    #[test]
    fn memo_keys_are_equal_only_when_every_word_is() {
        let key = [0x3f80_0000, 0, 0, 0, 0xbd4c_cccd, 0, 0, 0x3d08_8889];
        assert!(same_key(&key, &key));
        for i in 0..8 {
            let mut other = key;
            other[i] ^= 0x8000_0000;
            assert!(!same_key(&key, &other), "word {i}");
            other[i] ^= 0x8000_0001;
            assert!(!same_key(&key, &other), "word {i}");
        }
        assert!(same_key(&[0u32; 4], &[0, 0, 0, 0]));
        assert!(!same_key(&[0u32; 4], &[0, 0, 0, 0x7fc0_0000]));
    }

    #[test]
    fn rotation_memo_gives_the_formulas_bits_on_hits_and_after_a_change() {
        let turning = Vec3::new(0.0, 0.0, -0.05);
        let still = Vec3::ZERO;
        let mut rotate_vec = RotateVecMemo::default();
        let mut memo_frame = AFrame::new(Vec3::ZERO, Quat::from_ypr(0.3, 0.0, 1.2));
        let mut plain = memo_frame;
        // Turn for three steps (same angles, moving orientation), hold for three
        // (same orientation and angles: whole-step hits), turn again.
        for v in [turning, turning, turning, still, still, still, turning] {
            memo_frame.rotate_vec_memo(&v, TICK, &mut rotate_vec);
            plain.rotate_vec(v.scale(TICK));
            assert_eq!(bits(&memo_frame), bits(&plain));
        }
    }

    #[test]
    fn rotation_memo_keeps_two_steps_for_alternating_orientations() {
        // Two crossings from the identity and one from the rotated orientation, in
        // turn (a turning run): every step after the first two is a memo hit.
        let w = Vec3::new(0.0, 0.0, -0.05);
        let mut memo = RotateVecMemo::default();
        for crossings in [2, 1, 2, 2, 1, 1, 2] {
            let mut memo_frame = AFrame::IDENTITY;
            let mut plain = AFrame::IDENTITY;
            for _ in 0..crossings {
                memo_frame.rotate_vec_memo(&w, TICK, &mut memo);
                plain.rotate_vec(w.scale(TICK));
                assert_eq!(bits(&memo_frame), bits(&plain));
            }
            // The steps turned the frame: the two entries are two orientations.
            assert!(memo_frame.orientation.z < 0.0);
        }
        assert_ne!(memo.first.key, memo.second.key);
        // Both entries are the identity's and the turned orientation's steps.
        let identity_key = step_key(Quat::IDENTITY, &w, TICK);
        assert!(memo.first.key == identity_key || memo.second.key == identity_key);
    }

    #[test]
    fn new_rotation_memo_gives_the_steps_bits_for_the_all_zero_key() {
        // The one key a new memo holds: every part of the orientation and the vector
        // +0. The formulas give NaN there (a zero quaternion normalised), and the memo
        // must give the same bits.
        let zero = AFrame::new(Vec3::ZERO, ZERO_QUAT);
        let mut plain = zero;
        plain.rotate_vec(Vec3::ZERO);
        let mut memo_frame = zero;
        memo_frame.rotate_vec_memo(&Vec3::ZERO, 0.0, &mut RotateVecMemo::default());
        assert_eq!(bits(&memo_frame), bits(&plain));
        assert!(plain.orientation.w.is_nan());
        // The zero angles' rotation is the identity with +0 parts.
        assert_eq!(
            quat_bits(Quat::from_ypr(0.0, 0.0, 0.0)),
            [0x3f80_0000, 0, 0, 0]
        );
    }

    #[test]
    fn two_entry_combine_memo_gives_combines_bits_for_alternating_orientations() {
        // A turning run's crossings: into the identity, then into the turned offset,
        // in ticks of two and one crossings, plus a change of pos frame at the end.
        let step = AFrame::new(Vec3::new(0.0, 0.133, 0.0), Quat::IDENTITY);
        let turned = Quat::from_ypr(0.0, 0.0, -0.05);
        let other = AFrame::new(Vec3::new(0.0, 0.05, 0.0), Quat::from_ypr(0.0, 0.0, -0.1));
        let mut memo = CombineMemo2::default();
        let cases = [
            (Quat::IDENTITY, step),
            (turned, step),
            (Quat::IDENTITY, step),
            (Quat::IDENTITY, step),
            (turned, step),
            (turned, other),
            (Quat::IDENTITY, step),
        ];
        for (o, b) in cases {
            let a = AFrame::new(Vec3::new(1.0, 2.0, 0.0), o);
            assert_eq!(bits(&memo.combine(&a, &b)), bits(&AFrame::combine(&a, &b)));
        }
        // The last two cases filled both entries with different keys.
        assert_ne!(memo.first.m.key, memo.second.m.key);
    }

    #[test]
    fn a_level_heading_takes_the_arcsine_of_a_zero_as_the_zero() {
        // By hand for the direction (0, 1, ±0): its length is 1, the arctangent of 1
        // over 0 is π/2, 90° in f32, 450 − 90 = 360, `rem360` gives +0, so the roll
        // is −0 and its half-angle sine −0; the pitch is 0 and the yaw `asin(±0) = ±0`.
        // Then x = +0 and y = +0 either way, w = 1, and z = −0 − (yaw sine · 0 · 1):
        // −0 for a yaw of +0, +0 for −0. The length is 1, so normalising keeps them.
        for (z, want) in [
            (0.0f32, [0x3f80_0000, 0, 0, 0x8000_0000]),
            (-0.0, [0x3f80_0000, 0, 0, 0]),
        ] {
            assert_eq!(((z as f64).asin() as f32).to_bits(), z.to_bits());
            let mut f = AFrame::IDENTITY;
            f.set_vector_heading(Vec3::new(0.0, 1.0, z));
            assert_eq!(quat_bits(f.orientation), want);
        }
    }

    #[test]
    fn the_identity_less_the_identity_is_the_identity() {
        // By hand, (1, +0, +0, +0) ⊗ (1, −0, −0, −0): every cross term is
        // +0·−0 − +0·−0 = −0 − −0 = +0, each vector part (+0·1 + −0·1) + +0 =
        // (+0 + −0) + +0 = +0, and w = 1·1 − ((−0 + −0) + −0) = 1 − −0 = 1. So the
        // shortcut that skips the product for the identity keeps the formula's bits.
        let identity = [0x3f80_0000, 0, 0, 0];
        assert_eq!(
            quat_bits(Quat::mul(Quat::IDENTITY, IDENTITY_INVERSE)),
            identity
        );
        let mut f = AFrame::new(Vec3::new(-0.0, 0.0, 2.5), Quat::IDENTITY);
        f.subtract_identity();
        assert_eq!(
            bits(&f),
            [0x3f80_0000, 0, 0, 0, 0x8000_0000, 0, 0x4020_0000]
        );
    }

    #[test]
    fn subtracting_the_identity_has_subtracts_bits() {
        // The constants the shortcut relies on, by hand: the identity's inverse has a
        // negative-zero vector part, and its rotation of the zero origin is +0 throughout.
        assert_eq!(
            quat_bits(Quat::IDENTITY.inverse()),
            [0x3f80_0000, 0x8000_0000, 0x8000_0000, 0x8000_0000]
        );
        assert_eq!(
            quat_bits(IDENTITY_INVERSE),
            quat_bits(Quat::IDENTITY.inverse())
        );
        assert_eq!(
            vec_bits(Quat::rotate(Quat::IDENTITY, Vec3::ZERO)),
            [0, 0, 0]
        );
        // Frames a backward crossing meets: the identity offset, turned ones, and
        // signed zeros in every place (the zeros' signs are where a shortcut would slip).
        let turned = Quat::from_ypr(0.0, 0.0, 0.05);
        let mut cases = vec![Quat::IDENTITY, turned, Quat::from_ypr(0.3, -0.2, 0.1)];
        for signs in 0u32..16 {
            let z = |k: u32| if signs >> k & 1 == 1 { -0.0 } else { 0.0 };
            cases.push(Quat::new(z(0), z(1), z(2), z(3)));
            cases.push(Quat::new(1.0, z(1), z(2), z(3)));
            cases.push(Quat::new(-0.8, z(1), z(2), 0.6));
            cases.push(Quat::new(z(0), z(1), -1.0, z(3)));
        }
        for o in cases {
            for origin in [Vec3::new(1.0, -0.0, 0.0), Vec3::new(-0.0, 0.0, -2.5)] {
                let mut got = AFrame::new(origin, o);
                let mut want = got;
                got.subtract_identity();
                want.subtract(&AFrame::IDENTITY);
                assert_eq!(bits(&got), bits(&want));
            }
        }
    }

    #[test]
    fn product_with_the_identity_keeps_a_quaternion_without_negative_zeros() {
        // By hand: a yaw of (0.6, +0, +0, 0.8) times the identity. Every `·0` term is +0
        // (all parts are non-negative), 0.6 and 0.8 absorb zeros, +0 + +0 = +0.
        let p = Quat::new(0.6, 0.0, 0.0, 0.8);
        assert_eq!(
            quat_bits(Quat::mul(p, Quat::IDENTITY)),
            [0x3f19_999a, 0, 0, 0x3f4c_cccd]
        );
        // A negative z: its `·0` terms are −0, and +0 − (−0) = +0, +0 + −0 = +0.
        let n = Quat::new(0.6, 0.0, 0.0, -0.8);
        assert_eq!(
            quat_bits(Quat::mul(n, Quat::IDENTITY)),
            [0x3f19_999a, 0, 0, 0xbf4c_cccd]
        );
        // A negative zero is not kept: x = (−0 + +0) + (+0 − +0) = +0.
        let z = Quat::new(0.6, -0.0, 0.0, 0.8);
        assert_eq!(quat_bits(Quat::mul(z, Quat::IDENTITY))[1], 0);
        assert!(is_plain(p) && is_plain(n) && !is_plain(z));
        // Whatever the shortcut takes or leaves, the step is the formula's.
        let turned = Quat::from_ypr(0.0, 0.0, 0.05);
        let mut cases = vec![p, n, z, turned, Quat::IDENTITY, ZERO_QUAT];
        for odd in [-0.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
            cases.push(Quat::new(odd, 0.0, 0.0, 0.8));
            cases.push(Quat::new(0.6, 0.0, odd, 0.8));
        }
        for q in cases {
            for r in [Quat::IDENTITY, turned, Quat::new(1.0, -0.0, 0.0, 0.0)] {
                assert_eq!(
                    quat_bits(step_product(q, r)),
                    quat_bits(Quat::mul(q, r).normalize()),
                    "{q:?} {r:?}"
                );
            }
        }
    }

    #[test]
    fn rows_kept_by_column_apply_each_row_of_the_matrix() {
        // By hand: (w, x, y, z) = (1, 0, 0, 1) gives z2 = wz2 = zz2 = 2 and every other
        // product 0, so the rows are (−1, −2, 0), (2, −1, 0), (0, 0, 1); an asymmetric
        // matrix, so a transposed apply would show.
        let rows = Quat::rotation_rows(Quat::new(1.0, 0.0, 0.0, 1.0));
        let v = rows.apply(Vec3::new(1.0, 10.0, 100.0));
        assert_eq!((v.x, v.y, v.z), (-21.0, -8.0, 100.0));
        let r = Quat::rotate(Quat::new(1.0, 0.0, 0.0, 1.0), Vec3::new(0.0, 1.0, 0.0));
        assert_eq!((r.x, r.y, r.z), (-2.0, -1.0, 0.0));
    }

    #[test]
    fn a_turn_about_the_vertical_axis_fills_the_same_entry() {
        // By hand: half a turn, (w, x, y, z) = (+0, +0, +0, 1). z2 = 2, zz2 = 2, every
        // product with w or x or y is +0, so the rows are diag(−1, −1, 1) with +0 off
        // the diagonal, and the product with itself is (−1, +0, +0, +0).
        let half = Quat::new(0.0, 0.0, 0.0, 1.0);
        let p = yaw_only(half).unwrap();
        let mut memo = CombineMemo::default();
        memo.fill_orientations(p, p, [0; 8]);
        let m1 = (-1.0f32).to_bits();
        let one = 1.0f32.to_bits();
        assert_eq!(
            memo.rows.0.map(f32::to_bits),
            [m1, 0, 0, 0, m1, 0, 0, 0, one]
        );
        assert_eq!(quat_bits(memo.product), [m1, 0, 0, 0]);
        // Negative zeros in x or y are not the constant's: no shortcut.
        assert!(yaw_only(Quat::new(0.6, -0.0, 0.0, 0.8)).is_none());
        assert!(yaw_only(Quat::new(0.6, 0.0, -0.0, 0.8)).is_none());
        assert!(yaw_only(Quat::from_ypr(0.3, 0.2, 0.1)).is_none());
        // Whatever w and z hold, the entry is the frames' own.
        let parts = [0.0, -0.0, 0.6, -0.8, 1.0, f32::INFINITY, f32::NAN];
        for w in parts {
            for z in parts {
                let a = AFrame::new(Vec3::new(1.0, 2.0, 0.0), Quat::new(w, 0.0, 0.0, z));
                let b = AFrame::new(Vec3::new(0.0, 0.5, 0.0), Quat::new(z, 0.0, 0.0, w));
                let mut plain = CombineMemo::default();
                plain.fill(&a, &b, [1; 8]);
                let mut yaw = CombineMemo::default();
                let (p, q) = (yaw_only(a.orientation), yaw_only(b.orientation));
                yaw.fill_orientations(p.unwrap(), q.unwrap(), [1; 8]);
                assert_eq!(plain.rows.0.map(f32::to_bits), yaw.rows.0.map(f32::to_bits));
                assert_eq!(quat_bits(plain.product), quat_bits(yaw.product));
                let mut offset = OffsetMemo::default();
                let got = offset_then_grotate(&mut offset, &a, &b, Vec3::ZERO);
                let want = plain_offset_then_grotate(&a, &b, Vec3::ZERO);
                assert_eq!(bits(&got), bits(&want));
            }
        }
    }

    #[test]
    fn a_turn_about_the_vertical_axis_rotates_as_the_formulas() {
        // By hand: half a turn stepped by the zero vector. Its rows are diag(−1, −1, 1)
        // with +0 elsewhere, so the step vector is +0 throughout (−0 + +0 = +0), its
        // rotation the identity, the product half a turn again, of length exactly 1.
        let half = Quat::new(0.0, 0.0, 0.0, 1.0);
        assert_eq!(
            quat_bits(rotate_vec_step(half, Vec3::ZERO)),
            [0, 0, 0, 0x3f80_0000]
        );
        // Turns about the vertical axis and others, stepped by vertical and other
        // vectors, with signed zeros: the memo's step is `AFrame.Rotate`'s.
        let orientations = [
            half,
            Quat::from_ypr(0.0, 0.0, 0.7),
            Quat::new(0.6, 0.0, 0.0, -0.8),
            Quat::new(-0.0, 0.0, 0.0, 1.0),
            Quat::new(0.6, -0.0, 0.0, 0.8),
            Quat::from_ypr(0.3, 0.2, 0.1),
        ];
        let steps = [
            Vec3::ZERO,
            Vec3::new(0.0, 0.0, -0.05),
            Vec3::new(-0.0, 0.0, 0.05),
            Vec3::new(0.01, 0.02, 0.03),
        ];
        for o in orientations {
            for w in steps {
                let mut plain = AFrame::new(Vec3::ZERO, o);
                plain.rotate_vec(w);
                assert_eq!(
                    quat_bits(rotate_vec_step(o, w)),
                    quat_bits(plain.orientation),
                    "{o:?} {w:?}"
                );
            }
        }
    }

    #[test]
    fn the_shared_step_table_answers_each_key_with_its_own_step() {
        // By hand, as in `zero_step_from_the_identity_is_the_identity`: a zero step
        // from the identity is (1, +0, +0, +0); from the half turn (+0, +0, +0, 1) the
        // matrix has rows (−1, +0, +0), (+0, −1, +0), (+0, +0, 1), which turn +0 into
        // +0 (each sum −0 + +0 = +0), the rotation is (1, +0, +0, +0), the product's
        // parts are +0 except z = 1·1 + +0 + +0 = 1, and its length is exactly 1.
        let half = Quat {
            w: 0.0,
            x: 0.0,
            y: 0.0,
            z: 1.0,
        };
        let a = step_key(Quat::IDENTITY, &Vec3::ZERO, TICK);
        // A key of the half turn in the identity's slot, so that each evicts the other.
        let b = (1..)
            .map(|k| step_key(half, &Vec3::ZERO, k as f32))
            .find(|b| shared_step_slot(b) == shared_step_slot(&a))
            .unwrap();
        let identity = [0x3f80_0000, 0, 0, 0];
        let turned = [0, 0, 0, 0x3f80_0000];
        for (key, o, want) in [
            (a, Quat::IDENTITY, identity),
            (b, half, turned),
            (b, half, turned),
            (a, Quat::IDENTITY, identity),
            (a, Quat::IDENTITY, identity),
        ] {
            assert_eq!(quat_bits(shared_rotate_vec_step(key, o, Vec3::ZERO)), want);
        }
    }

    #[test]
    fn zero_step_from_the_identity_is_the_identity() {
        // By hand: the identity's matrix turns +0 into +0, CreateFromYawPitchRoll of
        // three +0 angles is (1, +0, +0, +0), the product with the identity keeps it,
        // and its length is exactly 1.
        let identity = [0x3f80_0000, 0, 0, 0];
        assert_eq!(
            quat_bits(rotate_vec_step(Quat::IDENTITY, Vec3::ZERO)),
            identity
        );
        let mut memo = RotateVecMemo::default();
        for (omega, q) in [
            (Vec3::ZERO, TICK),
            (Vec3::ZERO, 1.0 / 45.0),
            (Vec3::new(0.0, 0.0, 1.5), 0.0),
        ] {
            let mut o = Quat::IDENTITY;
            memo.step_in_place(&mut o, &omega, q);
            assert_eq!(quat_bits(o), identity);
        }
        // A negative zero in the step is not the shortcut's: it takes the formula.
        for omega in [Vec3::new(-0.0, 0.0, 0.0), Vec3::new(0.0, -0.0, -0.0)] {
            let mut o = Quat::IDENTITY;
            memo.step_in_place(&mut o, &omega, TICK);
            assert_eq!(
                quat_bits(o),
                quat_bits(rotate_vec_step(Quat::IDENTITY, omega.scale(TICK)))
            );
        }
    }

    #[test]
    fn combine_memo_gives_combines_bits_on_hits_and_after_a_change() {
        let step = AFrame::new(Vec3::new(0.0, 0.104, 0.0), Quat::IDENTITY);
        let turn = AFrame::new(Vec3::new(0.0, 0.05, 0.0), Quat::from_ypr(0.0, 0.0, -0.1));
        let mut memo = CombineMemo::default();
        let mut a = AFrame::new(Vec3::new(2.0, 4.0, 0.0), Quat::from_ypr(0.0, 0.0, 0.7));
        let mut b = a;
        for off in [step, step, step, turn, turn, step] {
            a = memo.combine(&a, &off);
            b = AFrame::combine(&b, &off);
            assert_eq!(bits(&a), bits(&b));
        }
        // The steps really moved the frame (so the comparisons above were not of a
        // frame that stood still).
        assert!(a.origin.y > 4.0);
    }

    /// The tick's use of [`OffsetMemo`]: combine, then the physics step's `GRotate`.
    fn offset_then_grotate(memo: &mut OffsetMemo, a: &AFrame, b: &AFrame, v: Vec3) -> AFrame {
        let mut f = memo.combine(a, b);
        f.orientation = memo.grotate_combined(&v, TICK);
        f
    }

    fn plain_offset_then_grotate(a: &AFrame, b: &AFrame, v: Vec3) -> AFrame {
        let mut f = AFrame::combine(a, b);
        f.grotate(v.scale(TICK));
        f
    }

    /// The quantum the tests step by (a 30 Hz tick).
    const TICK: f32 = 1.0 / 30.0;

    #[test]
    fn offset_memo_gives_combine_then_grotate_bits() {
        let step = AFrame::new(Vec3::new(0.0, 0.104, 0.0), Quat::IDENTITY);
        let turn = AFrame::new(Vec3::new(0.0, 0.05, 0.0), Quat::from_ypr(0.0, 0.0, -0.1));
        let spin = Vec3::new(0.0, 0.0, -0.05);
        let nz = Vec3::new(-0.0, 0.0, -0.0);
        let zero = Vec3::ZERO;
        let mut memo = OffsetMemo::default();
        let mut a = AFrame::new(Vec3::new(2.0, 4.0, 0.0), Quat::from_ypr(0.0, 0.0, 0.7));
        let mut b = a;
        // Still (hits), turning offsets (combine misses with the same v), a new v on a
        // combine hit, negative zeros, and back.
        let cases = [
            (step, zero),
            (step, zero),
            (turn, zero),
            (turn, zero),
            (step, spin),
            (step, spin),
            (turn, spin),
            (step, nz),
            (step, zero),
            (step, zero),
        ];
        for (off, v) in cases {
            a = offset_then_grotate(&mut memo, &a, &off, v);
            b = plain_offset_then_grotate(&b, &off, v);
            assert_eq!(bits(&a), bits(&b));
        }
        assert!(a.origin.y > 4.0);
        // The all-zero key of a new memo, with v = 0 and v ≠ 0.
        let z = AFrame::new(Vec3::new(1.0, -2.0, 3.0), ZERO_QUAT);
        for v in [zero, spin] {
            let got = offset_then_grotate(&mut OffsetMemo::default(), &z, &z, v);
            assert_eq!(bits(&got), bits(&plain_offset_then_grotate(&z, &z, v)));
        }
    }

    #[test]
    fn pos_frame_memo_gives_combine_then_apply_physics_bits() {
        // A turning run's crossings (identity and turned offsets, ticks of two and one
        // crossings), a change of the step, negative zeros, another pos frame, and
        // crossings without the physics step in between.
        let step = AFrame::new(Vec3::new(0.0, 0.133, 0.0), Quat::IDENTITY);
        let other = AFrame::new(Vec3::new(0.0, 0.05, 0.0), Quat::from_ypr(0.0, 0.0, -0.1));
        let dv = Vec3::new(0.01, 0.0, 0.0);
        let spin = Vec3::new(0.0, 0.0, -0.05);
        let nz = Vec3::new(-0.0, 0.0, -0.0);
        let mut memo = CombineMemo2::default();
        let mut rv = RotateVecMemo::default();
        let cases = [
            (2, step, Some(spin)),
            (1, step, Some(spin)),
            (2, step, Some(spin)),
            (1, step, Some(Vec3::ZERO)),
            (2, other, Some(spin)),
            (1, step, None),
            (2, step, Some(nz)),
            (2, step, Some(spin)),
        ];
        for (crossings, pos, w) in cases {
            let mut got = AFrame::IDENTITY;
            let mut want = AFrame::IDENTITY;
            for _ in 0..crossings {
                match w {
                    Some(w) => {
                        got = memo.combine_then_step(&got, &pos, &dv, &w, TICK, &mut rv);
                        want = AFrame::combine(&want, &pos);
                        want.origin = want.origin.add(dv.scale(TICK));
                        want.rotate_vec(w.scale(TICK));
                    }
                    None => {
                        got = memo.combine(&got, &pos);
                        want = AFrame::combine(&want, &pos);
                    }
                }
                assert_eq!(bits(&got), bits(&want));
            }
        }
        // A new memo's all-zero key, with and without a step.
        let z = AFrame::new(Vec3::new(1.0, -2.0, 3.0), ZERO_QUAT);
        let got = CombineMemo2::default().combine_then_step(&z, &z, &dv, &spin, TICK, &mut rv);
        let mut want = AFrame::combine(&z, &z);
        want.origin = want.origin.add(dv.scale(TICK));
        want.rotate_vec(spin.scale(TICK));
        assert_eq!(bits(&got), bits(&want));
    }

    #[test]
    fn new_combine_memos_give_combines_bits_for_all_zero_orientations() {
        let zero = Quat {
            w: 0.0,
            x: 0.0,
            y: 0.0,
            z: 0.0,
        };
        let a = AFrame::new(Vec3::new(1.0, -2.0, 3.0), zero);
        let b = AFrame::new(Vec3::new(0.5, 0.25, -4.0), zero);
        let want = bits(&AFrame::combine(&a, &b));
        assert_eq!(bits(&CombineMemo::default().combine(&a, &b)), want);
        assert_eq!(bits(&CombineMemo2::default().combine(&a, &b)), want);
        // A zero quaternion's matrix is the identity (the rows' "1 −" terms), so the
        // origins add; its product with itself is +0 in every part.
        let sum = [1.5f32, -1.75, -1.0].map(f32::to_bits);
        assert_eq!(want, [0, 0, 0, 0, sum[0], sum[1], sum[2]]);
    }
}
