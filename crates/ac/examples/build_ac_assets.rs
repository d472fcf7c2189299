//! Regenerates `assets/ac/records/<id>.bin` from `assets/ac/humanoid.json`:
//! `cargo run -p retroanim-ac --example build_ac_assets [SOURCE.json [OUT_DIR]]`.

use retroanim_ac::records::authoring::compile_str;
use retroanim_ac::records::store::record_file_name;
use retroanim_ac::records::{write_animation, write_gfxobj, write_motion_table, write_setup};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac");
    let mut args = std::env::args().skip(1);
    let source = args
        .next()
        .map_or_else(|| root.join("humanoid.json"), PathBuf::from);
    let out = args
        .next()
        .map_or_else(|| root.join("records"), PathBuf::from);
    match build(&source, &out) {
        Ok(n) => {
            println!("wrote {n} records to {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("build_ac_assets: {e}");
            ExitCode::FAILURE
        }
    }
}

fn build(source: &std::path::Path, out: &std::path::Path) -> Result<usize, String> {
    let text =
        retroanim_core::input::read_text_kind(source, retroanim_core::input::FileKind::JsonAsset)
            .map_err(|e| format!("{}: {e}", source.display()))?;
    let compiled = compile_str(&text).map_err(|e| format!("{}: {e}", source.display()))?;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut files = vec![(
        compiled.motion_table.id,
        write_motion_table(&compiled.motion_table),
    )];
    for a in &compiled.animations {
        files.push((a.id, write_animation(a)));
    }
    if let Some(f) = &compiled.figure {
        files.push((f.setup.id, write_setup(&f.setup)));
        for g in &f.gfxobjs {
            files.push((g.id, write_gfxobj(g)));
        }
        files.extend(f.texture_records());
    }
    for (id, bytes) in &files {
        let path = out.join(record_file_name(*id));
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(files.len())
}
