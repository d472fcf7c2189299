#![no_main]
//! DTS meshes: the drawing groups of a shape (points, polygons, colours) as the
//! browser's herc view reads them, and their JSON.
use libfuzzer_sys::fuzz_target;
use retroanim_herc::formats::dts::DtsFile;
use retroanim_herc::formats::group::shape_meshes;
use retroanim_herc::inspect::meshes::meshes_json;

fuzz_target!(|data: &[u8]| {
    if let Ok(d) = DtsFile::read(data, "fuzz.dts") {
        if let Ok(meshes) = shape_meshes(&d, "fuzz.dts") {
            let _ = meshes_json(&meshes).to_string();
        }
    }
});
