#![no_main]
//! DTS shapes and the animation list built from them.
use libfuzzer_sys::fuzz_target;
use retroanim_herc::formats::dts::DtsFile;

fuzz_target!(|data: &[u8]| {
    if let Ok(d) = DtsFile::read(data, "fuzz.dts") {
        let _ = d.anim_list("fuzz.dts");
        let _ = d.write();
    }
});
