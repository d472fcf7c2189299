#![no_main]
//! Palettes (`.DPL`), bitmaps (`.DBM`) and bitmap arrays (`.DBA`): the readers, the
//! writers on what they read, the ramp lookup and the frames' RGBA (H80–H84).
use libfuzzer_sys::fuzz_target;
use retroanim_herc::formats::bitmap::{Bitmap, BitmapArray};
use retroanim_herc::formats::material::frame_rgba;
use retroanim_herc::formats::palette::Palette;

fuzz_target!(|data: &[u8]| {
    let pal = Palette::read(data, "fuzz.dpl");
    if let Ok(p) = &pal {
        let _ = p.write();
        for v in [0i16, 1, 255, 256, -1] {
            let _ = p.ramp_index(v, 192);
        }
    }
    let _ = Bitmap::read(data, "fuzz.dbm").map(|b| (b.write(), b.indices().is_ok()));
    if let Ok(a) = BitmapArray::read(data, "fuzz.dba") {
        let _ = a.write();
        if let Ok(p) = &pal {
            for f in 0..a.frames.len().min(4) {
                let _ = frame_rgba(&a, f, p);
            }
        }
    }
});
