//! Root motion: the ground increment G of the current frame as a transform (H14), and the
//! elapsed part P of it (H15).
//!
//! The thread-side operations (commit, uncommit, read, write/seed) live on
//! [`crate::thread::AnimationThread`]; the per-tick seed → step → read-back → seed cycle
//! (H16) lives in [`crate::shape_instance::ShapeInstance::tick`].

use crate::anim_list::Keyframe;
use crate::fixed::wrap16;
use crate::transform::{Transform3, KIND_IDENTITY, KIND_Z, ONE};

/// `Gt` of commit/uncommit (0x478e60 / 0x478ee8): FromEuler(gr) with translation gt.
pub fn whole(g: &Keyframe) -> Transform3 {
    rotation(g[0], g[1], g[2]).with_translation([i32::from(g[3]), i32::from(g[4]), i32::from(g[5])])
}

/// `FromEuler(x, y, z)` of a root-motion increment: a turn about Z alone (x = y = 0) from
/// the one-read table of [`Transform3::yaw_only`] (the same values as FromEuler for every
/// angle, and the identity for z = 0), any other rotation from FromEuler itself.
#[inline(always)]
fn rotation(x: i16, y: i16, z: i16) -> Transform3 {
    if x == 0 && y == 0 {
        return Transform3::yaw_only(z, [0, 0, 0]);
    }
    Transform3::from_euler(x, y, z)
}

/// `Concat(Gt, root)` of Commit (0x478e60; H14). A G without rotation is a kind-0
/// transform, for which Concat keeps the root's rotation and kind and takes
/// `Apply(root, G.t)`; when the root's rotation is the exact identity matrix (a root that
/// has only been moved, never turned) every row product is `qq(ONE·v) = v`, so the
/// translation is `G.t + root.t` (the same wrapping 32-bit adds) without the products.
#[inline(always)]
pub fn commit_onto(g: &Keyframe, root: &Transform3) -> Transform3 {
    if commit_moves_only(g, root) {
        return Transform3 {
            t: moved(g, root.t),
            ..*root
        };
    }
    concat_onto(&whole(g), root)
}

/// [`commit_onto`] is a translation sum: G has no rotation and the root's rotation is the
/// exact identity matrix.
#[inline(always)]
pub fn commit_moves_only(g: &Keyframe, root: &Transform3) -> bool {
    g[0] == 0 && g[1] == 0 && g[2] == 0 && root.m == Transform3::IDENTITY.m
}

/// `G.t + t`, the translation of such a commit.
#[inline(always)]
pub fn moved(g: &Keyframe, t: [i32; 3]) -> [i32; 3] {
    add3([i32::from(g[3]), i32::from(g[4]), i32::from(g[5])], t)
}

/// `Concat(p, root)` for a partial `p` from [`partial`]: for a kind-0 `p` onto a root whose
/// rotation is the exact identity matrix, the same shortcut as [`commit_onto`]: the root's
/// rotation and kind, and `p.t + root.t`. A `p` without translation (a turn in place) takes
/// Concat's rotation products; its translation `Apply(root, 0)` is `qq(0) = 0` in every
/// lane plus `root.t`, which Concat of a literal zero translation folds to `root.t`.
#[inline(always)]
pub fn concat_onto(p: &Transform3, root: &Transform3) -> Transform3 {
    if p.kind == KIND_IDENTITY && root.m == Transform3::IDENTITY.m {
        return Transform3 {
            t: add3(p.t, root.t),
            ..*root
        };
    }
    if p.t == [0, 0, 0] {
        return Transform3 { t: [0, 0, 0], ..*p }.concat(root);
    }
    p.concat(root)
}

/// G turns about Z alone and does not move (a turn in place): no pitch, roll or
/// translation. Its `Gt` and every partial of it are `FromEuler(0, 0, z)` without
/// translation.
#[inline(always)]
pub fn turns_in_place(g: &Keyframe) -> bool {
    g[0] == 0 && g[1] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0
}

/// `Concat(FromEuler(0, 0, z), root)` for `z ≠ 0` (a rotation about Z, kind 1, without
/// translation) onto a root of kind 0 or 1; `None` for any other root. Concat's branches
/// for these kinds: onto a kind-0 root, A's rotation and kind with the translations added
/// (A's is 0); onto a root about Z, the four upper products `q(a·b + a·b)` with `m8 = ONE`,
/// kind 1, and translation `Apply(root, 0)`, which is `qq(0) = 0` in every lane plus
/// `root.t`.
#[inline(always)]
pub fn turn_onto(z: i16, root: &Transform3) -> Option<Transform3> {
    let a = Transform3::yaw_only(z, [0, 0, 0]).m;
    let m = match root.kind {
        KIND_IDENTITY => a,
        KIND_Z => {
            let b = &root.m;
            let p = |x: i16, y: i16| i32::from(x) * i32::from(y);
            let q = |v: i32| wrap16(v.wrapping_add(0x2000) >> 14);
            let upper = |i: usize, j: usize| q(p(a[i], b[j]).wrapping_add(p(a[i + 1], b[j + 2])));
            [
                upper(0, 0),
                upper(0, 1),
                upper(2, 0),
                upper(2, 1),
                0,
                0,
                0,
                0,
                ONE,
            ]
        }
        _ => return None,
    };
    Some(Transform3 {
        m,
        kind: KIND_Z,
        t: root.t,
    })
}

/// `Inverse(FromEuler(0, 0, z))` for `z ≠ 0`: the transposed rotation about Z (m1 and m2
/// swapped), kind 1, and translation `RotateVector(transposed, −0)`, 0 in every lane.
#[inline(always)]
pub fn turn_inverse(z: i16) -> Transform3 {
    let mut m = Transform3::yaw_only(z, [0, 0, 0]).m;
    m.swap(1, 2);
    Transform3 {
        m,
        kind: KIND_Z,
        t: [0, 0, 0],
    }
}

/// `Inverse(p)` (M8) of a partial: one without translation (a turn in place) has the
/// transposed rotation and translation `RotateVector(transposed, −0)`, which is 0 in every
/// lane (`qq(0) = 0`); Inverse of a literal zero translation folds to that.
#[inline(always)]
pub fn inverse(p: &Transform3) -> Transform3 {
    if p.t == [0, 0, 0] {
        return Transform3 { t: [0, 0, 0], ..*p }.inverse();
    }
    p.inverse()
}

/// The wrapping 32-bit translation sum of Concat's Apply.
#[inline(always)]
fn add3(a: [i32; 3], b: [i32; 3]) -> [i32; 3] {
    [
        a[0].wrapping_add(b[0]),
        a[1].wrapping_add(b[1]),
        a[2].wrapping_add(b[2]),
    ]
}

/// The partial `P` (H15): each of the six components scaled by acc/dur as an integer product
/// followed by a C division truncating toward zero (not the Q10 pose fraction). The angles
/// are stored back into i16; the translation stays i32. `dur = 0` gives the identity (D2),
/// where DBSIM would divide by zero.
#[inline]
pub fn partial(g: &Keyframe, acc: i16, dur: i16) -> Transform3 {
    if dur == 0 {
        return Transform3::IDENTITY;
    }
    let scale = |c: i16| i32::from(c) * i32::from(acc) / i32::from(dur);
    let t = [scale(g[3]), scale(g[4]), scale(g[5])];
    // A G without rotation (a walk's or a run's): each angle scales to 0·acc/dur = 0 and
    // FromEuler(0, 0, 0) is the identity, so the three divisions are left out.
    if g[0] == 0 && g[1] == 0 && g[2] == 0 {
        return Transform3::IDENTITY.with_translation(t);
    }
    rotation(scale(g[0]) as i16, scale(g[1]) as i16, scale(g[2]) as i16).with_translation(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h15_partial_uses_truncating_division_not_the_q10_fraction() {
        // 100·11/25 = 44; −100·11/25 = −44 (toward zero, a floor would give −44 too), and
        // 7·1/3 = 2 where the rounded Q10 fraction (1·1024+1)/3 = 341 would give 7·341>>10 = 2;
        // −7·1/3 = −2 where a floor shift would give −3.
        let p = partial(&[0, 0, 0, 100, -7, 7], 11, 25);
        assert_eq!(p.t, [44, -3, 3]);
        let p = partial(&[0, 0, 0, 0, -7, 7], 1, 3);
        assert_eq!(p.t, [0, -2, 2]);
        assert_eq!(p.kind, 0);
    }

    fn ident_t(t: [i32; 3]) -> Transform3 {
        Transform3::IDENTITY.with_translation(t)
    }

    #[test]
    fn h14_commit_of_a_g_without_rotation_onto_an_unturned_root_adds_translations() {
        // Walk G ty 150 onto a root moved by (3, −20, 7): (3, 130, 7).
        let g = [0, 0, 0, 0, 150, 0];
        let root = ident_t([3, -20, 7]);
        assert_eq!(commit_onto(&g, &root), ident_t([3, 130, 7]));
        assert_eq!(commit_onto(&g, &root), whole(&g).concat(&root));
        // The root's kind is kept even when its matrix is the identity (a record read back).
        let root = Transform3 {
            kind: 2,
            ..ident_t([1, 2, 3])
        };
        let c = commit_onto(&g, &root);
        assert_eq!((c.m, c.kind, c.t), (Transform3::IDENTITY.m, 2, [1, 152, 3]));
        // The 32-bit sum wraps: i32::MAX + 1.
        let c = commit_onto(&[0, 0, 0, 1, 0, 0], &ident_t([i32::MAX, 0, 0]));
        assert_eq!(c.t, [i32::MIN, 0, 0]);
        // A turned root takes the general Concat: Apply(root, (0, 150, 0)) with C = 16383,
        // S = 151: x = qq(150·−151 = −22650) = (−22650 + 8192) >> 14 = −1, y = qq(150·16383 =
        // 2457450) = 2465642 >> 14 = 150, z = qq(0) = 0; plus root.t (−1, −61, 0).
        let root = Transform3 {
            m: [16383, 151, -151, 16383, 0, 0, 0, 0, 16384],
            kind: 1,
            t: [-1, -61, 0],
        };
        let c = commit_onto(&g, &root);
        assert_eq!((c.m, c.kind, c.t), (root.m, 1, [-2, 89, 0]));
        // A G with rotation takes the general Concat too.
        let g = [0, 0, 400, 0, 0, 0];
        assert_eq!(
            commit_onto(&g, &root),
            Transform3::from_euler(0, 0, 400).concat(&root)
        );
    }

    #[test]
    fn h14_commit_of_a_turn_in_place_keeps_the_root_translation() {
        // G turns by 1008 (C = 16308, S = 1581) and does not move: Concat about Z of two
        // rotations about Z, m0 = q(16308·16383 + 1581·−151 = 266935233) = 266943425 >> 14 =
        // 16292, m1 = q(16308·151 + 1581·16383 = 28364031) = 1731, m2 = q(−28364031) =
        // −28355839 >> 14 = −1731, m3 = 16292, m8 = ONE; Apply(root, 0) = root.t.
        let root = Transform3 {
            m: [16383, 151, -151, 16383, 0, 0, 0, 0, 16384],
            kind: 1,
            t: [-1, -61, 0],
        };
        let g = [0, 0, 1008, 0, 0, 0];
        let c = commit_onto(&g, &root);
        assert_eq!(
            (c.m, c.kind, c.t),
            (
                [16292, 1731, -1731, 16292, 0, 0, 0, 0, 16384],
                1,
                [-1, -61, 0]
            )
        );
        assert_eq!(c, Transform3::from_euler(0, 0, 1008).concat(&root));
        // The G as a transform: FromEuler(0, 0, 1008), kind 1, no translation.
        assert_eq!(
            whole(&g),
            Transform3 {
                m: [16308, 1581, -1581, 16308, 0, 0, 0, 0, 16384],
                kind: 1,
                t: [0, 0, 0],
            }
        );
        // The partial at 5/20: 1008·5/20 = 252 about Z, no translation.
        assert_eq!(partial(&g, 5, 20), Transform3::from_euler(0, 0, 252));
        let p = partial(&g, 5, 20);
        assert_eq!(concat_onto(&p, &root), p.concat(&root));
        assert_eq!(concat_onto(&p, &root).t, [-1, -61, 0]);
        // Its inverse: the transposed rotation, no translation.
        let c252 = Transform3::from_euler(0, 0, 252);
        let [c, s] = [c252.m[0], c252.m[1]];
        let inv = inverse(&p);
        assert_eq!(
            (inv.m, inv.kind, inv.t),
            ([c, -s, s, c, 0, 0, 0, 0, 16384], 1, [0, 0, 0])
        );
        assert_eq!(inv, p.inverse());
        // A moving partial keeps Inverse's translation: −(0, 52, 0).
        let p = partial(&[0, 0, 0, 0, 150, 0], 7, 20);
        assert_eq!(inverse(&p), ident_t([0, -52, 0]));
        // Each component truncates toward zero: 3·7/20 = 1, −150·7/20 = −52.
        assert_eq!(partial(&[0, 0, 0, 3, -150, 0], 7, 20).t, [1, -52, 0]);
    }

    #[test]
    fn h14_a_turn_in_place_onto_a_root_of_kind_0_or_1_takes_concat_branch() {
        // FromEuler(0, 0, 1008): C = 16308, S = 1581 (worked out in the test above).
        let z = 1008;
        let g = [0, 0, z, 0, 0, 0];
        assert!(turns_in_place(&g));
        assert!(!turns_in_place(&[0, 0, z, 0, 1, 0]));
        assert!(!turns_in_place(&[1, 0, z, 0, 0, 0]));
        // Onto a root about Z: the four products worked out above, the root's translation.
        let root = Transform3 {
            m: [16383, 151, -151, 16383, 0, 0, 0, 0, 16384],
            kind: 1,
            t: [-1, -61, 0],
        };
        let c = turn_onto(z, &root).unwrap();
        assert_eq!(
            (c.m, c.kind, c.t),
            (
                [16292, 1731, -1731, 16292, 0, 0, 0, 0, 16384],
                1,
                [-1, -61, 0]
            )
        );
        assert_eq!(c, whole(&g).concat(&root));
        // Onto a kind-0 root: the turn's rotation and kind, the root's translation (Concat
        // reads nothing of a kind-0 B's matrix).
        let root = Transform3 {
            m: [1, 2, 3, 4, 5, 6, 7, 8, 9],
            kind: 0,
            t: [5, 6, 7],
        };
        let c = turn_onto(z, &root).unwrap();
        assert_eq!(
            (c.m, c.kind, c.t),
            ([16308, 1581, -1581, 16308, 0, 0, 0, 0, 16384], 1, [5, 6, 7])
        );
        assert_eq!(c, whole(&g).concat(&root));
        // A general root is left to Concat.
        let root = Transform3 { kind: 2, ..root };
        assert_eq!(turn_onto(z, &root), None);
        // The inverse: m1 and m2 swapped, no translation.
        let inv = turn_inverse(z);
        assert_eq!(
            (inv.m, inv.kind, inv.t),
            ([16308, -1581, 1581, 16308, 0, 0, 0, 0, 16384], 1, [0, 0, 0])
        );
        assert_eq!(inv, whole(&g).inverse());
    }

    #[test]
    fn h15_partial_without_rotation_onto_an_unturned_root() {
        // 150·7/20 = 52.5 → 52; kind 0, identity matrix.
        let p = partial(&[0, 0, 0, 0, 150, 0], 7, 20);
        assert_eq!(p, ident_t([0, 52, 0]));
        // Read: P onto a root at (0, −75, 0) is (0, −23, 0).
        let root = ident_t([0, -75, 0]);
        assert_eq!(concat_onto(&p, &root), ident_t([0, -23, 0]));
        assert_eq!(concat_onto(&p, &root), p.concat(&root));
        // A turned P (FromEuler(0, 0, 88), C = 16383, S = 151) keeps the general Concat:
        // onto a kind-0 root its rotation stays and the translations add.
        let p = partial(&[0, 0, 200, 0, 140, 0], 11, 25);
        let r = concat_onto(&p, &ident_t([10, 20, 30]));
        assert_eq!(
            (r.m, r.kind, r.t),
            (
                [16383, 151, -151, 16383, 0, 0, 0, 0, 16384],
                1,
                [10, 81, 30]
            )
        );
    }

    #[test]
    fn d2_partial_of_a_zero_length_frame_is_identity() {
        assert_eq!(partial(&[100, 0, 200, 5, 6, 7], 0, 0), Transform3::IDENTITY);
    }
}
