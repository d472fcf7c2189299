//! The Setup record (`0x02……`, docs/ac-formats.md section 1): typed in byte by byte from
//! the field order (dereth's one-part door description, and a two-part setup with parent
//! indices, default scales and a placement hook), read, and written back byte for byte.

use retroanim_ac::math::Vec3;
use retroanim_ac::records::*;

#[derive(Default)]
struct B(Vec<u8>);
impl B {
    fn w(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn f(mut self, v: f32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn ident(self) -> Self {
        self.f(0.0).f(0.0).f(0.0).f(1.0).f(0.0).f(0.0).f(0.0)
    }
}

#[test]
fn setup_door_example_reads_every_field_in_file_order() {
    let bytes = B::default()
        .w(0x0200_0001)
        .w(0x0000_000C) // flags: no parent indices, no scales
        .w(1)
        .w(0x0100_0001) // parts
        .w(0) // holding locations
        .w(0) // connection points
        .w(1)
        .w(0)
        .ident()
        .w(0) // placement key 0, one frame, no hooks
        .w(1)
        .f(-1.05)
        .f(0.0)
        .f(-1.39)
        .f(0.269)
        .f(2.776) // cylsphere: low point, radius, height
        .w(0) // spheres
        .f(2.776)
        .f(0.826)
        .f(1.12)
        .f(1.12) // height, radius, step up, step down
        .f(-0.525)
        .f(0.0)
        .f(-0.002)
        .f(1.913) // sorting sphere
        .f(0.0)
        .f(0.0)
        .f(1.388)
        .f(1.388) // selection sphere
        .w(0) // lights
        .w(0)
        .w(0)
        .w(0)
        .w(0)
        .w(0)
        .0;
    assert_eq!(bytes.len(), 164);
    let s = read_setup(&bytes, "door").unwrap();
    assert_eq!(s.id, 0x0200_0001);
    assert_eq!(s.flags, 0xC);
    assert_eq!(s.parts, [0x0100_0001]);
    assert!(s.parent_index.is_empty() && s.default_scale.is_empty());
    assert_eq!(s.placement_frames.len(), 1);
    assert_eq!(s.placement_frames[0].key, 0);
    assert_eq!(s.placement_frames[0].frames[0].orientation.w, 1.0);
    assert_eq!(
        s.cylspheres,
        [CylSphere {
            low_point: Vec3::new(-1.05, 0.0, -1.39),
            radius: 0.269,
            height: 2.776
        }]
    );
    assert_eq!(
        (s.height, s.radius, s.step_up_height, s.step_down_height),
        (2.776, 0.826, 1.12, 1.12)
    );
    assert_eq!(s.sorting_sphere.radius, 1.913);
    assert_eq!(s.selection_sphere.center, Vec3::new(0.0, 0.0, 1.388));
    assert_eq!(write_setup(&s), bytes);
}

#[test]
fn setup_parent_indices_scales_and_end_padding() {
    // Flags 3: parent indices and default scales follow the two parts. The placement's
    // ReplaceObject hook (ACE form, long id) is 6 bytes, so the record ends with 2 bytes of
    // padding to a multiple of 4.
    let mut b = B::default()
        .w(0x0200_0002)
        .w(3)
        .w(2)
        .w(0x0100_0010)
        .w(0x0100_0011)
        .w(0xFFFF_FFFF)
        .w(0) // parent indices
        .f(1.0)
        .f(1.0)
        .f(1.0)
        .f(0.5)
        .f(0.5)
        .f(0.5) // default scales
        .w(1)
        .w(1)
        .w(1)
        .ident() // one holding location: key 1 on part 1
        .w(0)
        .w(1)
        .w(0x65)
        .ident()
        .ident()
        .w(1)
        .w(5)
        .w(0)
        .0;
    b.extend_from_slice(&[0x01, 0x00, 0x01, 0x80, 0x02, 0x00]);
    let mut b = B(b)
        .w(0)
        .w(0)
        .f(1.8)
        .f(0.4)
        .f(0.5)
        .f(0.5)
        .f(0.0)
        .f(0.0)
        .f(0.9)
        .f(1.0)
        .f(0.0)
        .f(0.0)
        .f(0.9)
        .f(1.0)
        .w(0)
        .w(0x0300_0101)
        .w(0)
        .w(0x0900_0001)
        .w(0)
        .w(0)
        .0;
    assert_eq!(b.len() % 4, 2);
    b.extend_from_slice(&[0, 0]);
    let s = read_setup(&b, "two").unwrap();
    assert_eq!(s.parent_index, [0xFFFF_FFFF, 0]);
    assert_eq!(
        s.default_scale,
        [Vec3::new(1.0, 1.0, 1.0), Vec3::new(0.5, 0.5, 0.5)]
    );
    assert_eq!(s.holding_locations[0].key, 1);
    assert_eq!(s.holding_locations[0].part_index, 1);
    assert_eq!(s.placement_frames[0].key, 0x65);
    assert_eq!(s.placement_frames[0].frames.len(), 2);
    assert_eq!(
        s.placement_frames[0].hooks[0].payload,
        [0x01, 0x00, 0x01, 0x80, 0x02, 0x00]
    );
    assert_eq!(s.default_motion_table, 0x0900_0001);
    assert_eq!(write_setup(&s), b);
    // Truncated anywhere: a located error, never a panic.
    for n in 0..b.len() - 2 {
        assert!(read_setup(&b[..n], "two").is_err(), "prefix {n}");
    }
}
