//! The machine's place in the world as root motion moves it (H29, without terrain or
//! collision: the conformance format drives neither).

use crate::transform::Transform3;
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
        Transform3::from_euler(x, y, z).with_translation(self.position)
    }

    /// Mech_IntegrateMotion (0x418f40; H29): position = TransformPoint(O, delta.t), and each
    /// euler component gains ToEuler(delta), wrapped to i16.
    pub fn integrate(&mut self, delta: &Transform3) {
        self.position = self.transform().transform_point(delta.t);
        let d = delta.to_euler();
        for (e, d) in self.euler.iter_mut().zip(d) {
            *e = e.wrapping_add(d);
        }
    }
}
