#![no_main]
//! VOL archives, and the DTS and chassis readers on every entry.
use libfuzzer_sys::fuzz_target;
use retroanim_herc::formats::chassis::ChassisRecord;
use retroanim_herc::formats::dts::DtsFile;
use retroanim_herc::formats::vol::VolArchive;

fuzz_target!(|data: &[u8]| {
    if let Ok(a) = VolArchive::read(data, "fuzz.vol") {
        let _ = a.write();
        for e in &a.entries {
            let _ = DtsFile::load_anim_list(&e.content, "fuzz.dts");
            let _ = ChassisRecord::read(&e.content, "fuzz.dat");
        }
    }
});
