//! `retroanim export-gltf ENGINE OUT.glb`: an engine's model and every animation it plays,
//! baked by running the engine, as binary glTF 2.0 plus a sidecar JSON (OUT.json) holding
//! the state graph and timed events glTF cannot.
//!
//! ```text
//! retroanim export-gltf ac humanoid.glb                      # the bundled sample
//! retroanim export-gltf ac out.glb --ac-dat client_portal.dat --table 0x09000001 [--setup 0x02000001]
//! retroanim export-gltf ac out/ --ac-dat client_portal.dat --all
//! ```

use crate::assets;
use crate::progress::{self, Progress};
use anyhow::{bail, Context};
use retroanim_ac::records::RecordStore;
use retroanim_ac::Loader;
use retroanim_gltf::{write_glb, Scene, WriteOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Which engine's assets to export.
#[derive(clap::Subcommand)]
pub enum Source {
    /// Asheron's Call: a Setup with its GfxObj meshes and a motion table; one clip per
    /// cycle (NonCombat.WalkForward), link (NonCombat.Ready→WalkForward) and modifier.
    ///
    /// Without --ac-dat the bundled sample records are exported (the humanoid, Setup
    /// 0x02000001 with motion table 0x09000001).
    Ac(AcArgs),
    /// Earthsiege 2's HERC: a DTS shape with its meshes; one clip per sequence, keyed at
    /// the game's 25 Hz steps.
    ///
    /// Without --es2 the bundled sample biped is exported (assets/herc/biped.json, drawn
    /// by biped.dts); with --es2 DIR, the shape --shape names or, with --all, every shape.
    Herc(crate::export_gltf_herc_actor::HercArgs),
    /// An actor set: each model's frames as morph targets, one clip per RAGR group.
    ///
    /// Without --set the bundled sample flag is exported (assets/actor/flag2.json).
    Actor(crate::export_gltf_herc_actor::ActorArgs),
}

/// What root motion does in the clips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RootMotionArg {
    /// The root node stays put; the sidecar carries the speeds.
    InPlace,
    /// The root node moves as the engine moves the object.
    Baked,
}

/// Options every engine's export takes.
#[derive(clap::Args)]
pub struct Common {
    /// The .glb to write; the sidecar goes beside it with the extension .json. With
    /// --all, a folder (created when absent) receiving one pair per export.
    pub out: PathBuf,
    /// Root motion: in-place or baked.
    #[arg(long, value_enum, default_value = "in-place")]
    pub root_motion: RootMotionArg,
    /// Also bind the parts as single-joint, weight-1 skins of one mesh (for tools that
    /// want one skinned mesh rather than node animation).
    #[arg(long)]
    pub skinned: bool,
}

impl Common {
    fn write_options(&self) -> WriteOptions {
        WriteOptions {
            skinned: self.skinned,
        }
    }
}

#[derive(clap::Args)]
pub struct AcArgs {
    #[command(flatten)]
    pub common: Common,
    /// Your own client_portal.dat (read-only).
    #[arg(long, value_name = "FILE", conflicts_with = "records")]
    pub ac_dat: Option<PathBuf>,
    /// A folder of `<id>.bin` records instead of the bundled sample's.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// The Setup (0x02......) to draw; default: the first one naming the table.
    #[arg(long, value_parser = parse_id, conflicts_with = "all")]
    pub setup: Option<u32>,
    /// The motion table (0x09......); needed with --ac-dat unless --all.
    #[arg(long, value_parser = parse_id, conflicts_with = "all")]
    pub table: Option<u32>,
    /// Every motion table of the source, each with the first Setup naming it.
    #[arg(long)]
    pub all: bool,
}

fn parse_id(s: &str) -> Result<u32, String> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    u32::from_str_radix(digits, 16).map_err(|e| format!("not a hex record id: {e}"))
}

/// Runs the export; returns what to print.
pub fn run(source: Source) -> anyhow::Result<String> {
    match source {
        Source::Ac(args) => ac(&args),
        Source::Herc(args) => crate::export_gltf_herc_actor::herc(&args),
        Source::Actor(args) => crate::export_gltf_herc_actor::actor(&args),
    }
}

/// Where AC records come from.
enum AcSource {
    Dir(PathBuf),
    Dat(PathBuf),
}

impl AcSource {
    fn loader(&self) -> anyhow::Result<Loader> {
        Ok(match self {
            AcSource::Dir(dir) => Loader::from_dir(dir),
            AcSource::Dat(path) => {
                Loader::from_dat(path).with_context(|| format!("--ac-dat {}", path.display()))?
            }
        })
    }

    /// Motion table → the Setups naming it (sorted), for every table of the source.
    fn pairings(&self) -> anyhow::Result<BTreeMap<u32, Vec<u32>>> {
        match self {
            AcSource::Dat(path) => {
                let dat = retroanim_browser::user_data::AcDat::open(path)
                    .map_err(|m| anyhow::anyhow!("--ac-dat: {m}"))?;
                Ok(dat.tables().clone())
            }
            AcSource::Dir(dir) => {
                let ids = record_ids(dir)?;
                let mut tables: BTreeMap<u32, Vec<u32>> = ids
                    .iter()
                    .filter(|id| *id >> 24 == 0x09)
                    .map(|id| (*id, Vec::new()))
                    .collect();
                let mut store = RecordStore::from_dir(dir);
                for &setup in ids.iter().filter(|id| *id >> 24 == 0x02) {
                    let (bytes, file) = store.raw(setup)?;
                    let s = retroanim_ac::records::read_setup(&bytes, &file)?;
                    if let Some(users) = tables.get_mut(&s.default_motion_table) {
                        users.push(s.id);
                    }
                }
                Ok(tables)
            }
        }
    }
}

/// The record ids of a folder of `<id>.bin` files, sorted.
fn record_ids(dir: &Path) -> anyhow::Result<Vec<u32>> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("{}: cannot list", dir.display()))?;
    let mut ids: Vec<u32> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".bin")?;
            (stem.len() == 8)
                .then(|| u32::from_str_radix(stem, 16).ok())
                .flatten()
        })
        .collect();
    ids.sort_unstable();
    Ok(ids)
}

fn ac(args: &AcArgs) -> anyhow::Result<String> {
    let source = match (&args.ac_dat, &args.records) {
        (Some(dat), _) => AcSource::Dat(dat.clone()),
        (None, Some(dir)) => AcSource::Dir(dir.clone()),
        (None, None) => AcSource::Dir(assets::resolve(None)?.join("ac").join("records")),
    };
    let options = retroanim_gltf::ac::Options {
        root_motion: match args.common.root_motion {
            RootMotionArg::InPlace => retroanim_gltf::ac::RootMotion::InPlace,
            RootMotionArg::Baked => retroanim_gltf::ac::RootMotion::Baked,
        },
    };
    // Opening the source first makes a missing or wrong file the first thing reported.
    let mut loader = source.loader()?;
    if args.all {
        let pairings = source.pairings()?;
        std::fs::create_dir_all(&args.common.out)
            .with_context(|| format!("{}: cannot create the folder", args.common.out.display()))?;
        let mut progress = Progress::new(progress::allowed(false), pairings.len() as u64, "tables");
        let mut report = String::new();
        for (done, (table, setups)) in pairings.iter().enumerate() {
            let setup = setups.first().copied();
            let out = args.common.out.join(format!("{table:08x}.glb"));
            let scene = retroanim_gltf::ac::export(&mut loader, setup, *table, &options)
                .with_context(|| format!("motion table 0x{table:08x}"))?;
            report.push_str(&write(&scene, &out, &args.common)?);
            progress.set(done as u64 + 1);
        }
        drop(progress);
        if pairings.is_empty() {
            bail!("the source holds no motion table");
        }
        return Ok(report);
    }
    let table = match (args.table, &source) {
        (Some(t), _) => t,
        (None, AcSource::Dat(path)) => bail!(
            "--ac-dat {}: name the motion table with --table 0x09...... (or export every one with --all)",
            path.display()
        ),
        (None, AcSource::Dir(dir)) => {
            let tables: Vec<u32> = record_ids(dir)?
                .into_iter()
                .filter(|id| id >> 24 == 0x09)
                .collect();
            match tables.as_slice() {
                [only] => *only,
                [] => bail!("{}: holds no motion table", dir.display()),
                _ => bail!(
                    "{}: holds {} motion tables; name one with --table (or use --all)",
                    dir.display(),
                    tables.len()
                ),
            }
        }
    };
    let setup = match args.setup {
        Some(s) => Some(s),
        None => source
            .pairings()?
            .get(&table)
            .and_then(|s| s.first().copied()),
    };
    let scene = retroanim_gltf::ac::export(&mut loader, setup, table, &options)?;
    write(&scene, &args.common.out, &args.common)
}

/// Writes `scene` as `out` and its sidecar as `out` with the extension `.json`.
pub fn write(scene: &Scene, out: &Path, common: &Common) -> anyhow::Result<String> {
    let glb = write_glb(scene, &common.write_options())
        .with_context(|| format!("{}: cannot be written as glTF", scene.name))?;
    let sidecar_path = out.with_extension("json");
    let mut sidecar = serde_json::to_string_pretty(&scene.sidecar)?;
    sidecar.push('\n');
    std::fs::write(out, &glb).with_context(|| format!("{}: cannot write", out.display()))?;
    std::fs::write(&sidecar_path, sidecar)
        .with_context(|| format!("{}: cannot write", sidecar_path.display()))?;
    Ok(format!(
        "{}: {} clips, {} bytes ({}); sidecar {}\n",
        out.display(),
        scene.clips.len(),
        glb.len(),
        scene.name,
        sidecar_path.display()
    ))
}
