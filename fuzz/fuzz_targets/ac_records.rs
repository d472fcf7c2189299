#![no_main]
//! MotionTable and Animation records, and the inspector that renders either.
use libfuzzer_sys::fuzz_target;
use retroanim_ac::inspect::render_record;
use retroanim_ac::records::{read_animation, read_motion_table, write_animation, write_motion_table};

fuzz_target!(|data: &[u8]| {
    if let Ok(t) = read_motion_table(data, "fuzz") {
        let once = write_motion_table(&t);
        let again = write_motion_table(&read_motion_table(&once, "fuzz").unwrap());
        assert!(once == again, "a re-encoded motion table changed");
    }
    if let Ok(a) = read_animation(data, "fuzz") {
        let once = write_animation(&a);
        let again = write_animation(&read_animation(&once, "fuzz").unwrap());
        assert!(once == again, "a re-encoded animation changed");
    }
    let _ = render_record(data, "fuzz", false);
    let _ = render_record(data, "fuzz", true);
});
