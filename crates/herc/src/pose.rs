//! Local poses (H10–H12, D5): one thread's keyframe for one node, blended from the current
//! frame toward the next cursor by the rounded Q10 fraction.

use crate::anim_list::{AnimList, Keyframe};
use crate::thread::AnimationThread;

/// The Q10 pose fraction `q = (acc·1024 + dur/2) / dur` (0x4799a4; H10); 0 when dur = 0 (D2).
pub fn fraction(acc: i16, dur: i16) -> i32 {
    if dur == 0 {
        return 0;
    }
    (i32::from(acc) * 1024 + i32::from(dur) / 2) / i32::from(dur)
}

/// Signed short-way rotation difference (H11): `u = (b − a) mod 65536`, `d = u − 65536` when
/// `u > 0x7fff`. Exactly half a turn therefore goes the negative way.
pub fn angle_diff(a: i16, b: i16) -> i32 {
    let u = i32::from(b.wrapping_sub(a) as u16);
    if u > 0x7fff {
        u - 0x10000
    } else {
        u
    }
}

/// Anim_BlendKeyframeTransforms (0x492600; H10): each component becomes
/// `i16(a + ((d·q) >> 10))`; the product is not rounded, only the fraction was.
pub fn blend(a: &Keyframe, b: &Keyframe, q: i32) -> Keyframe {
    let mut out = [0i16; 6];
    for i in 0..6 {
        // Rotations take the short way (H11) and translations wrap to i16: both are the
        // 16-bit difference read as signed, which is what `angle_diff` computes, so the six
        // components go through one branch-free lane each.
        let d = i32::from(b[i].wrapping_sub(a[i]));
        // A 32-bit product as in DBSIM; it only wraps for a cursor with acc outside 0..dur,
        // which a scenario can write with set_sequence.
        out[i] = a[i].wrapping_add((d.wrapping_mul(q) >> 10) as i16);
    }
    out
}

/// [`blend`] of `a` toward `a + d` given the differences `d[i] = b[i].wrapping_sub(a[i])`
/// (taken once per model, see `AnimList::segments`): the same lanes and products.
#[inline(always)]
pub(crate) fn blend_by(a: &Keyframe, d: &Keyframe, q: i32) -> Keyframe {
    let mut out = [0i16; 6];
    for i in 0..6 {
        out[i] = a[i].wrapping_add((i32::from(d[i]).wrapping_mul(q) >> 10) as i16);
    }
    out
}

/// The local one thread writes for `node`, or `None` when its playing sequence does not
/// animate that node or `node` is 0 (column 0 carries ground movement, H12).
/// The node's key at the next cursor is its column in `next_seq`, else its rest key (D5).
pub fn thread_local(list: &AnimList, th: &AnimationThread, node: usize) -> Option<Keyframe> {
    if node == 0 {
        return None;
    }
    let seq = list.sequence(th.seq)?;
    let column = list.column_of(th.seq, node)?;
    let i = seq.key(th.frame, column)?;
    let j = match list.column_of(th.next_seq, node) {
        Some(c) => list.sequence(th.next_seq)?.key(th.next_frame, c)?,
        None => list.nodes()[node].rest,
    };
    let a = list.keyframe(i);
    if i == j {
        return Some(a);
    }
    Some(blend(&a, &list.keyframe(j), fraction(th.acc, th.dur)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h10_q10_fraction_is_rounded() {
        // (11·1024 + 12) / 25 = 11276/25 = 451.04 → 451; (18·1024 + 15)/30 = 18447/30 = 614.9 → 614.
        assert_eq!(fraction(11, 25), 451);
        assert_eq!(fraction(18, 30), 614);
        // Rounding, not truncation: 2/3 → (2048 + 1)/3 = 683 where 2048/3 truncates to 682.
        assert_eq!(fraction(2, 3), 683);
        assert_eq!(fraction(0, 20), 0);
        assert_eq!(fraction(5, 0), 0);
    }

    #[test]
    fn h10_blend_is_an_unrounded_product_on_the_q10_fraction() {
        // Translation 0 → 1000 at q 451: 1000·451 >> 10 = 451000/1024 = 440.4 → 440.
        assert_eq!(blend(&[0; 6], &[0, 0, 0, 1000, 0, 0], 451)[3], 440);
        // A negative difference floors: 0 → −1000 at 451: −451000 >> 10 = −441.
        assert_eq!(blend(&[0; 6], &[0, 0, 0, -1000, 0, 0], 451)[3], -441);
        // Translations wrap to i16: 30000 → −30000 is d = i16(−60000) = 5536; half of it: 2768,
        // and 30000 + 2768 wraps to −32768.
        assert_eq!(
            blend(&[0, 0, 0, 30000, 0, 0], &[0, 0, 0, -30000, 0, 0], 512)[3],
            -32768
        );
    }

    #[test]
    fn h11_short_way_difference_is_the_signed_16_bit_difference() {
        // The values of the H11 worked examples above, as the wrapped i16 difference.
        for (a, b, d) in [
            (30000i16, -30000i16, 5536),
            (-30000, 30000, -5536),
            (0, -32768, -32768),
            (-1000, 31767, 32767),
            (-4000, -32768, -28768),
        ] {
            assert_eq!(angle_diff(a, b), d);
            assert_eq!(i32::from(b.wrapping_sub(a)), d);
        }
    }

    #[test]
    fn h11_rotation_difference_takes_the_short_way_and_half_a_turn_goes_negative() {
        assert_eq!(angle_diff(30000, -30000), 5536);
        assert_eq!(angle_diff(-30000, 30000), -5536);
        assert_eq!(angle_diff(0, -32768), -32768);
        assert_eq!(angle_diff(-1000, 31767), 32767);
        // The worked example (`example` scenario, step 1, node 2): −4000 → −32768 at q 451.
        // u = (−32768 + 4000) mod 65536 = 36768 > 0x7fff, so d = −28768, and
        // −4000 + (−28768·451 >> 10) = −4000 + floor(−12670.3) = −4000 − 12671 = −16671.
        assert_eq!(angle_diff(-4000, -32768), -28768);
        assert_eq!(
            blend(&[-4000, 0, 0, 0, 0, 0], &[-32768, 0, 0, 0, 0, 0], 451)[0],
            -16671
        );
    }
}
