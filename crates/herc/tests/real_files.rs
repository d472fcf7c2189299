//! Data-gated suite on the user's own Earthsiege 2 folder (docs/herc-formats.md, "Tests on
//! your own game files"). Set `RETROANIM_ES2_DIR` to the folder holding the game's `.VOL`
//! archives; without it each test prints a SKIPPED line to stderr and passes, because no
//! game data can ever be in CI (so `RETROANIM_NO_SKIP` does not turn missing data into a
//! failure). A variable pointing at a folder without SIMVOL0.VOL is a failure.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_herc::formats::chassis::{ChassisRecord, CHASSIS_SIZE};
use retroanim_herc::formats::dts::{DtsChunk, DtsFile, ShapeChunk};
use retroanim_herc::formats::group::{shape_meshes, GroupGeometry};
use retroanim_herc::formats::vol::VolArchive;
use std::path::{Path, PathBuf};

const VAR: &str = "RETROANIM_ES2_DIR";

/// A line on the process's stderr itself (`eprintln!` is captured by the test harness).
fn note(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn es2_dir(test: &str) -> Option<PathBuf> {
    match std::env::var_os(VAR).filter(|v| !v.is_empty()) {
        None => {
            let no_skip = if std::env::var_os("RETROANIM_NO_SKIP").is_some() {
                " (RETROANIM_NO_SKIP is set, but game data can never be in CI, so this is not a failure)"
            } else {
                ""
            };
            note(&format!(
                "SKIPPED {test}: set {VAR} to the Earthsiege 2 folder holding SIMVOL0.VOL{no_skip}"
            ));
            None
        }
        Some(d) => Some(PathBuf::from(d)),
    }
}

/// Every `*.VOL` in `dir` (any case), sorted.
fn vols(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{VAR}={}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("vol")))
        .collect();
    v.sort();
    v
}

fn read_vol(path: &Path) -> VolArchive {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    VolArchive::read(&bytes, &path.display().to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn simvol0(dir: &Path) -> PathBuf {
    vols(dir)
        .into_iter()
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.eq_ignore_ascii_case("SIMVOL0.VOL"))
        })
        .unwrap_or_else(|| panic!("{VAR} is set but {} holds no SIMVOL0.VOL", dir.display()))
}

#[test]
fn real_es2_every_vol_lists() {
    let Some(dir) = es2_dir("real_es2_every_vol_lists") else {
        return;
    };
    let all = vols(&dir);
    assert!(!all.is_empty(), "no .VOL files in {}", dir.display());
    for p in &all {
        let v = read_vol(p);
        note(&format!(
            "{}: precedence 0x{:02x}, {} directories, {} entries ({} without a trailer, {} not stored)",
            p.display(),
            v.precedence,
            v.directories.len(),
            v.entries.len(),
            v.entries.iter().filter(|e| e.trailer.is_none()).count(),
            v.entries.iter().filter(|e| !e.is_stored()).count()
        ));
    }
}

#[test]
fn real_es2_every_dts_in_simvol0_parses() {
    let Some(dir) = es2_dir("real_es2_every_dts_in_simvol0_parses") else {
        return;
    };
    let path = simvol0(&dir);
    let vol = read_vol(&path);
    let (mut shapes, mut animated, mut groups) = (0usize, 0usize, 0usize);
    for e in vol
        .entries
        .iter()
        .filter(|e| e.name().to_ascii_uppercase().ends_with(".DTS"))
    {
        let file = format!("{}:{}", path.display(), e.name());
        let dts = DtsFile::read(&e.content, &file).unwrap_or_else(|err| panic!("{err}"));
        assert!(
            dts.write().unwrap() == e.content,
            "{file} does not write back"
        );
        if let Some(DtsChunk::Shape(ShapeChunk { anim: Some(_), .. })) = dts.roots.first() {
            dts.anim_list(&file).unwrap_or_else(|err| panic!("{err}"));
            animated += 1;
        }
        // Every group root 0 draws decodes, and each decoded group writes back its tail.
        let meshes = shape_meshes(&dts, &file).unwrap_or_else(|err| panic!("{err}"));
        for m in &meshes {
            let again = m
                .geometry
                .write()
                .unwrap_or_else(|err| panic!("{file}: {err}"));
            let back = GroupGeometry::read(&again, &file, 0).unwrap_or_else(|err| panic!("{err}"));
            assert!(back == m.geometry, "{file}: a group does not write back");
        }
        groups += meshes.len();
        shapes += 1;
    }
    note(&format!(
        "{}: {shapes} DTS files parsed and written back ({animated} animated; HercWorks reads 55 retail models), {groups} mesh groups decoded",
        path.display()
    ));
    assert!(shapes > 0);
}

#[test]
fn real_es2_every_chassis_record_reads() {
    let Some(dir) = es2_dir("real_es2_every_chassis_record_reads") else {
        return;
    };
    let path = simvol0(&dir);
    let vol = read_vol(&path);
    let mut n = 0usize;
    for e in vol.entries.iter().filter(|e| {
        vol.directories
            .get(e.directory as usize)
            .is_some_and(|d| d.eq_ignore_ascii_case("dat"))
            && e.content.len() == CHASSIS_SIZE
    }) {
        let file = format!("{}:{}", path.display(), e.name());
        let rec = ChassisRecord::read(&e.content, &file).unwrap_or_else(|err| panic!("{err}"));
        assert!(
            rec.write().unwrap() == e.content,
            "{file} does not write back"
        );
        n += 1;
    }
    note(&format!(
        "{}: {n} chassis records (216-byte dat\\ entries) read and written back",
        path.display()
    ));
    assert!(n > 0);
}
