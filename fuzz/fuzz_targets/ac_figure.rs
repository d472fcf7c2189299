#![no_main]
//! Setup and GfxObj records: whatever reads must re-encode to bytes that read back to
//! the same record (write -> read -> write is stable).
use libfuzzer_sys::fuzz_target;
use retroanim_ac::records::{read_gfxobj, read_setup, write_gfxobj, write_setup};

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = read_setup(data, "fuzz") {
        let once = write_setup(&s);
        let again = write_setup(&read_setup(&once, "fuzz").expect("a written Setup reads"));
        assert!(once == again, "a re-encoded Setup changed");
    }
    if let Ok(g) = read_gfxobj(data, "fuzz") {
        let once = write_gfxobj(&g);
        let again = write_gfxobj(&read_gfxobj(&once, "fuzz").expect("a written GfxObj reads"));
        assert!(once == again, "a re-encoded GfxObj changed");
    }
});
