//! `retroanim export-gltf herc|actor OUT.glb`: a DTS shape or an actor set, baked by running
//! its engine (see docs/export.md).
//!
//! ```text
//! retroanim export-gltf herc biped.glb                          # the bundled biped
//! retroanim export-gltf herc out.glb --es2 DIR --shape BIPED    # a shape of an ES2 folder
//! retroanim export-gltf herc out/ --es2 DIR --all               # every shape
//! retroanim export-gltf actor flag2.glb [--set SET.json]        # the bundled flag, or a set
//! ```

use crate::assets;
use crate::export_gltf::{write, Common, RootMotionArg};
use crate::progress::{self, Progress};
use anyhow::{bail, Context};
use retroanim_core::input::{read_kind, read_text_kind, FileKind};
use retroanim_gltf::actor::ActorAsset;
use retroanim_gltf::herc::{HercAsset, RootMotion};
use retroanim_herc::formats::vol::VolArchive;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct HercArgs {
    #[command(flatten)]
    pub common: Common,
    /// Your Earthsiege 2 folder (read-only): its VOL archives' DTS shapes.
    #[arg(long, value_name = "DIR")]
    pub es2: Option<PathBuf>,
    /// The shape to export: its VOL entry (`dts\BIPED.DTS`) or just its name (`BIPED`).
    #[arg(long, requires = "es2", conflicts_with = "all")]
    pub shape: Option<String>,
    /// Every DTS shape of the folder, each as `OUT/<VOL>_<NAME>.glb`.
    #[arg(long, requires = "es2")]
    pub all: bool,
    /// An asset JSON (the form of assets/herc/biped.json) instead of the bundled biped;
    /// the DTS beside it with the same stem, if any, draws it.
    #[arg(long, value_name = "FILE", conflicts_with = "es2")]
    pub asset: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct ActorArgs {
    #[command(flatten)]
    pub common: Common,
    /// An actor set (the form of assets/actor/flag2.json) instead of the bundled flag.
    #[arg(long, value_name = "FILE")]
    pub set: Option<PathBuf>,
}

fn herc_options(common: &Common) -> retroanim_gltf::herc::Options {
    retroanim_gltf::herc::Options {
        root_motion: match common.root_motion {
            RootMotionArg::InPlace => RootMotion::InPlace,
            RootMotionArg::Baked => RootMotion::Baked,
        },
        ..Default::default()
    }
}

/// One DTS entry of a VOL archive of the folder.
struct Shape {
    vol: String,
    entry: String,
    bytes: Vec<u8>,
}

impl Shape {
    /// `dts\BIPED.DTS` → `BIPED`.
    fn name(&self) -> String {
        let file = self.entry.rsplit(['\\', '/']).next().unwrap_or(&self.entry);
        file.rsplit_once('.')
            .map_or(file, |(stem, _)| stem)
            .to_string()
    }
}

/// Every DTS entry of every VOL archive in `dir` (archives in name order).
fn es2_shapes(dir: &Path) -> anyhow::Result<Vec<Shape>> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("--es2 {}: cannot list", dir.display()))?;
    let mut vols: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("vol")))
        .collect();
    vols.sort();
    if vols.is_empty() {
        bail!("--es2 {}: holds no .VOL archive", dir.display());
    }
    let mut shapes = Vec::new();
    for path in vols {
        let file = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let bytes = read_kind(&path, FileKind::Binary).map_err(|e| anyhow::anyhow!(e.at(&file)))?;
        let archive = VolArchive::read(&bytes, &file)?;
        for e in &archive.entries {
            let entry = e.name();
            if entry.to_ascii_lowercase().ends_with(".dts") {
                shapes.push(Shape {
                    vol: file.clone(),
                    entry,
                    bytes: e.content.clone(),
                });
            }
        }
    }
    Ok(shapes)
}

pub fn herc(args: &HercArgs) -> anyhow::Result<String> {
    let options = herc_options(&args.common);
    let Some(dir) = &args.es2 else {
        let json = match &args.asset {
            Some(p) => p.clone(),
            None => assets::resolve(None)?.join("herc").join("biped.json"),
        };
        let text = read_text_kind(&json, FileKind::JsonAsset)
            .map_err(|e| anyhow::anyhow!(e.at(&json.display().to_string())))?;
        let dts_path = json.with_extension("dts");
        let dts = if dts_path.is_file() {
            Some(
                read_kind(&dts_path, FileKind::Binary)
                    .map_err(|e| anyhow::anyhow!(e.at(&dts_path.display().to_string())))?,
            )
        } else {
            None
        };
        let label = json.display().to_string();
        let dts_label = dts_path.display().to_string();
        let asset = HercAsset::from_json(
            &text,
            &label,
            dts.as_deref().map(|b| (b, dts_label.as_str())),
        )?;
        let scene = retroanim_gltf::herc::export(&asset, &options)?;
        return write(&scene, &args.common.out, &args.common);
    };
    let shapes = es2_shapes(dir)?;
    if args.all {
        std::fs::create_dir_all(&args.common.out)
            .with_context(|| format!("{}: cannot create the folder", args.common.out.display()))?;
        let mut progress = Progress::new(progress::allowed(false), shapes.len() as u64, "shapes");
        let mut report = String::new();
        let mut failed = 0;
        for (done, s) in shapes.iter().enumerate() {
            let vol = s.vol.rsplit_once('.').map_or(s.vol.as_str(), |(v, _)| v);
            let out = args.common.out.join(format!("{vol}_{}.glb", s.name()));
            let label = format!("{}:{}", s.vol, s.entry);
            // A shape that is not an animated one (no ANShape) is reported and skipped; the
            // others are still exported.
            match HercAsset::from_dts(&s.bytes, &label, &s.name())
                .and_then(|a| retroanim_gltf::herc::export(&a, &options))
            {
                Ok(scene) => report.push_str(&write(&scene, &out, &args.common)?),
                Err(e) => {
                    failed += 1;
                    report.push_str(&format!("{label}: skipped: {e}\n"));
                }
            }
            progress.set(done as u64 + 1);
        }
        drop(progress);
        if shapes.len() == failed {
            bail!(
                "--es2 {}: no shape could be exported\n{report}",
                dir.display()
            );
        }
        return Ok(report);
    }
    let Some(want) = &args.shape else {
        bail!(
            "--es2 {}: name the shape with --shape NAME (or export every one with --all)",
            dir.display()
        );
    };
    // The archives name entries without their directory.
    let file = want.rsplit(['\\', '/']).next().unwrap_or(want);
    let found = shapes
        .iter()
        .find(|s| s.entry.eq_ignore_ascii_case(file) || s.name().eq_ignore_ascii_case(file))
        .with_context(|| {
            format!(
                "--es2 {}: no DTS shape {want:?} in its archives ({} shapes)",
                dir.display(),
                shapes.len()
            )
        })?;
    let label = format!("{}:{}", found.vol, found.entry);
    let asset = HercAsset::from_dts(&found.bytes, &label, &found.name())?;
    let scene = retroanim_gltf::herc::export(&asset, &options)?;
    write(&scene, &args.common.out, &args.common)
}

pub fn actor(args: &ActorArgs) -> anyhow::Result<String> {
    let path = match &args.set {
        Some(p) => p.clone(),
        None => assets::resolve(None)?.join("actor").join("flag2.json"),
    };
    let label = path.display().to_string();
    let text =
        read_text_kind(&path, FileKind::JsonAsset).map_err(|e| anyhow::anyhow!(e.at(&label)))?;
    let asset = ActorAsset::from_json(&text, &label)?;
    let scene = retroanim_gltf::actor::export(&asset, &Default::default())?;
    write(&scene, &args.common.out, &args.common)
}
