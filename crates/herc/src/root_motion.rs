//! Root motion: the ground increment G of the current frame as a transform (H14), and the
//! elapsed part P of it (H15).
//!
//! The thread-side operations (commit, uncommit, read, write/seed) live on
//! [`crate::thread::AnimationThread`]; the per-tick seed → step → read-back → seed cycle
//! (H16) lives in [`crate::shape::ShapeInstance::tick`].

use crate::model::Keyframe;
use crate::transform::Transform3;

/// `Gt` of commit/uncommit (0x478e60 / 0x478ee8): FromEuler(gr) with translation gt.
pub fn whole(g: &Keyframe) -> Transform3 {
    Transform3::from_euler(g[0], g[1], g[2]).with_translation([
        i32::from(g[3]),
        i32::from(g[4]),
        i32::from(g[5]),
    ])
}

/// The partial `P` (H15): each of the six components scaled by acc/dur as an integer product
/// followed by a C division truncating toward zero (not the Q10 pose fraction). The angles
/// are stored back into i16; the translation stays i32. `dur = 0` gives the identity (D2),
/// where DBSIM would divide by zero.
pub fn partial(g: &Keyframe, acc: i16, dur: i16) -> Transform3 {
    if dur == 0 {
        return Transform3::IDENTITY;
    }
    let scale = |c: i16| i32::from(c) * i32::from(acc) / i32::from(dur);
    Transform3::from_euler(scale(g[0]) as i16, scale(g[1]) as i16, scale(g[2]) as i16)
        .with_translation([scale(g[3]), scale(g[4]), scale(g[5])])
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

    #[test]
    fn d2_partial_of_a_zero_length_frame_is_identity() {
        assert_eq!(partial(&[100, 0, 200, 5, 6, 7], 0, 0), Transform3::IDENTITY);
    }
}
