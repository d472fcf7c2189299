#![no_main]
//! Chassis records, binary and JSON.
use libfuzzer_sys::fuzz_target;
use retroanim_herc::formats::chassis::ChassisRecord;

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = ChassisRecord::read(data, "fuzz.dat") {
        assert_eq!(c.write().unwrap(), data, "a chassis record did not round-trip");
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = ChassisRecord::from_json_str(text, "fuzz.json");
    }
});
