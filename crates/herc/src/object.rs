//! The machine's place in the world as root motion moves it (H29, without terrain or
//! collision: the conformance format drives neither).

use crate::transform::Transform3;
use crate::trig::atan2;
use serde::Serialize;

/// Euler `(ex, ey, ez)` = (pitch, roll, heading) and position (mech+0x0c.., +0x26..).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SimObject {
    pub euler: [i16; 3],
    pub position: [i32; 3],
}

impl SimObject {
    /// The object transform O = FromEuler(ex, ey, ez) with translation = position.
    pub fn transform(&self) -> Transform3 {
        let [x, y, z] = self.euler;
        // A machine that has only turned (the usual case on flat ground): FromEuler(0, 0, z)
        // from the one-read yaw table, the same values for every z.
        if x == 0 && y == 0 {
            return Transform3::yaw_only(z, self.position);
        }
        Transform3::from_euler(x, y, z).with_translation(self.position)
    }

    /// Mech_IntegrateMotion (0x418f40; H29): position = TransformPoint(O, delta.t), and each
    /// euler component gains ToEuler(delta), wrapped to i16.
    #[inline]
    pub fn integrate(&mut self, delta: &Transform3) {
        // A machine that has not turned, moved by a step that does not turn (a walk or a run
        // straight ahead): O is the identity moved to the position (kind 0: TransformPoint
        // adds the point) and the Euler step is [0, 0, 0] (see `euler_step`), answered where
        // it is asked.
        let m = &delta.m;
        if self.euler == [0, 0, 0] && straight(m) && m[2] == 0 && m[3] >= 0 {
            let (v, p) = (delta.t, self.position);
            self.position = [
                v[0].wrapping_add(p[0]),
                v[1].wrapping_add(p[1]),
                v[2].wrapping_add(p[2]),
            ];
            return;
        }
        self.integrate_turned(delta);
    }

    /// [`Self::integrate`] of a machine that has turned or a step that turns.
    #[inline(never)]
    fn integrate_turned(&mut self, delta: &Transform3) {
        let [x, y, z] = self.euler;
        let m = &delta.m;
        if x != 0 || y != 0 || !straight(m) {
            self.integrate_general(delta);
            return;
        }
        // O = FromEuler(0, 0, z) with the position, made here without the record: for z = 0
        // it is kind 0 (TransformPoint adds the point), else kind 1 (RotateVector's two
        // products per lane about Z, the point's z unchanged).
        let [px, py, pz] = delta.t;
        let v = if z == 0 {
            delta.t
        } else {
            let o = Transform3::yaw_only(z, [0, 0, 0]).m;
            let qq = |v: i64| (v.wrapping_add(0x2000) >> 14) as i32;
            let (px, py) = (i64::from(px), i64::from(py));
            [
                qq(px * i64::from(o[0]) + py * i64::from(o[2])),
                qq(px * i64::from(o[1]) + py * i64::from(o[3])),
                pz,
            ]
        };
        let p = self.position;
        self.position = [
            v[0].wrapping_add(p[0]),
            v[1].wrapping_add(p[1]),
            v[2].wrapping_add(p[2]),
        ];
        // The Euler step of a delta about Z alone (see `euler_step`): the heading only.
        if m[2] != 0 || m[3] < 0 {
            self.euler[2] = z.wrapping_add(atan2(-i32::from(m[2]), i32::from(m[3])));
        }
    }

    /// [`Self::integrate`] of a machine with pitch or roll, or of a step that pitches or
    /// rolls: O and ToEuler themselves.
    #[inline(never)]
    fn integrate_general(&mut self, delta: &Transform3) {
        self.position = self.transform().transform_point(delta.t);
        let d = euler_step(delta);
        for (e, d) in self.euler.iter_mut().zip(d) {
            *e = e.wrapping_add(d);
        }
    }
}

/// The delta turns about Z alone, if at all: `m4 = m5 = 0`, `m8 ≥ 0`.
#[inline(always)]
fn straight(m: &[i16; 9]) -> bool {
    m[4] == 0 && m[5] == 0 && m[8] >= 0
}

/// `ToEuler(delta)` (M9) for [`SimObject::integrate`]. A delta that turns about Z alone
/// (`m4 = m5 = 0`, `m8 ≥ 0`): the pitch asin(0) is 0, not a quarter turn, so the roll is
/// atan2(−m4, m8) = atan2(0, m8 ≥ 0) = 0, and only the heading atan2(−m2, m3) is read.
fn euler_step(delta: &Transform3) -> [i16; 3] {
    let m = &delta.m;
    if straight(m) {
        // No heading either (a step straight ahead): atan2(0, m3 ≥ 0) = 0, as ToEuler's own
        // shortcut, answered here without the call.
        if m[2] == 0 && m[3] >= 0 {
            return [0, 0, 0];
        }
        return [0, 0, atan2(-i32::from(m[2]), i32::from(m[3]))];
    }
    delta.to_euler()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trig::asin;

    #[test]
    fn h29_a_straight_step_of_an_unturned_machine_adds_the_translation() {
        // O = identity at (1, 2, 3); a walk's delta (identity, kind 0 or a record's kind 2)
        // moves it by its translation, the 32-bit sums wrapping; the heading stays 0.
        let mut o = SimObject {
            euler: [0, 0, 0],
            position: [1, 2, i32::MAX],
        };
        o.integrate(&Transform3::IDENTITY.with_translation([0, 150, 1]));
        assert_eq!((o.euler, o.position), ([0, 0, 0], [1, 152, i32::MIN]));
        let delta = Transform3 {
            kind: 2,
            ..Transform3::IDENTITY.with_translation([-4, 0, 0])
        };
        o.integrate(&delta);
        assert_eq!((o.euler, o.position), ([0, 0, 0], [-3, 152, i32::MIN]));
        // A machine that has turned (heading 1016: C = 16305, S = 1606, see below) takes the
        // rotation: (qq(100·−1606), qq(100·16305)) = (−10, 100).
        let mut o = SimObject {
            euler: [0, 0, 1016],
            position: [0, 0, 0],
        };
        o.integrate(&Transform3::IDENTITY.with_translation([0, 100, 0]));
        assert_eq!((o.euler, o.position), ([0, 0, 1016], [-10, 100, 0]));
    }

    #[test]
    fn h29_a_turn_in_place_adds_only_heading() {
        // The shortcut's premises: asin(0) = 0 and atan2(0, x) = 0 for every x ≥ 0.
        assert_eq!(asin(0), 0);
        for x in 0..=i32::from(i16::MAX) {
            assert_eq!(atan2(0, x), 0, "x = {x}");
        }
        // Delta FromEuler(0, 0, 1008) (C = 16308, S = 1581) moving (0, 100, 0).
        let delta = Transform3 {
            m: [16308, 1581, -1581, 16308, 0, 0, 0, 0, 16384],
            kind: 1,
            t: [0, 100, 0],
        };
        let mut o = SimObject::default();
        o.integrate(&delta);
        // O is the identity: position (0, 100, 0); heading atan2(1581, 16308): octant index
        // (1581·512 + 8154) / 16308 = 50, 4·50 + correction 54 = 254, ×4 = 1016.
        assert_eq!(o.position, [0, 100, 0]);
        assert_eq!(o.euler, [0, 0, 1016]);
        assert_eq!(delta.to_euler(), [0, 0, 1016]);
        // Second step: O = FromEuler(0, 0, 1016): 1016 >> 3 = 127 rounds to table entry 64,
        // C = 16305, S = 1606 (cos and sin of 5.625°, ×16384, rounded). It moves (0, 100, 0)
        // to (qq(100·−1606), qq(100·16305)) = ((−160600 + 8192) >> 14, (1630500 + 8192) >> 14)
        // = (−10, 100), plus the position (0, 100, 0).
        assert_eq!(
            o.transform(),
            Transform3 {
                m: [16305, 1606, -1606, 16305, 0, 0, 0, 0, 16384],
                kind: 1,
                t: [0, 100, 0],
            }
        );
        o.integrate(&delta);
        assert_eq!(o.position, [-10, 200, 0]);
        assert_eq!(o.euler, [0, 0, 2032]);
        // Half a turn (m3 < 0): atan2(0, −16384) is half a turn, not 0.
        let back = Transform3 {
            m: [-16384, 0, 0, -16384, 0, 0, 0, 0, 16384],
            kind: 1,
            t: [0, 0, 0],
        };
        assert_eq!(euler_step(&back), [0, 0, -32768]);
        // Straight ahead: nothing turns.
        assert_eq!(euler_step(&Transform3::IDENTITY), [0, 0, 0]);
        assert_eq!(back.to_euler(), [0, 0, -32768]);
    }
}
