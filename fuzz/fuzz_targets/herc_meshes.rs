#![no_main]
//! DTS meshes: the drawing groups of a shape (points, polygons, colours) as the
//! browser's herc view reads them, and their JSON, drawn with a palette and a bitmap
//! array read from the same bytes (H80–H84).
use libfuzzer_sys::fuzz_target;
use retroanim_herc::formats::dts::DtsFile;
use retroanim_herc::formats::group::shape_meshes;
use retroanim_herc::inspect::meshes::{materials_json, meshes_json, ShapeMaterials};

fuzz_target!(|data: &[u8]| {
    let mats = ShapeMaterials::read(
        Some((data.to_vec(), "fuzz.dpl".into())),
        Some((data.to_vec(), "fuzz.dba".into())),
    );
    if let Ok(d) = DtsFile::read(data, "fuzz.dts") {
        if let Ok(meshes) = shape_meshes(&d, "fuzz.dts") {
            let _ = meshes_json(&meshes, &mats).to_string();
            let _ = materials_json(&meshes, &mats).to_string();
            let _ = meshes_json(&meshes, &ShapeMaterials::default()).to_string();
        }
    }
});
