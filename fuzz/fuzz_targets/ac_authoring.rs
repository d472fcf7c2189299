#![no_main]
//! The authoring compiler (JSON source to records).
use libfuzzer_sys::fuzz_target;
use retroanim_ac::records::authoring::compile_str;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = compile_str(text);
    }
});
