//! Byte-mutation fuzz properties for every herc reader and loader: valid samples
//! (a VOL archive, a DTS shape written from the sample model, the sample chassis
//! record, the JSON model and chassis, every conformance scenario) with random edits
//! must give a value or a located error, never a panic, a hang or a NaN in a trace.
//! The cargo-fuzz targets under fuzz/ drive the same entry points without limits.

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

mod common;

use proptest::prelude::*;
use retroanim_core::mutation::*;
use retroanim_core::Scenario;
use retroanim_herc::anim_list::AnimList;
use retroanim_herc::formats::chassis::ChassisRecord;
use retroanim_herc::formats::dts::{BasePart, DtsFile};
use retroanim_herc::formats::vol::{VolArchive, VolEntry};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sample_model() -> AnimList {
    AnimList::from_json_file(&root().join("assets/herc/biped.json")).unwrap()
}

fn sample_dts() -> Vec<u8> {
    DtsFile::from_anim_list(&sample_model(), BasePart::default(), &[])
        .write()
        .unwrap()
}

fn sample_vol() -> Vec<u8> {
    let chassis = std::fs::read(root().join("assets/herc/biped.chassis.bin")).unwrap();
    VolArchive {
        program_mask: 1,
        precedence: 0,
        directories: vec!["dat".into(), "dts".into()],
        entries: vec![
            VolEntry::stored("BIPED.DAT", 0, chassis).unwrap(),
            VolEntry::stored("BIPED.DTS", 1, sample_dts()).unwrap(),
        ],
        list_extra: Vec::new(),
    }
    .write()
    .unwrap()
}

/// Every scenario the herc runner accepts: (directory, file name, text).
fn scenarios() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for dir in [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/scenarios"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mech/scenarios"),
        root().join("assets/herc/scenarios"),
    ] {
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        names.sort();
        for p in names {
            out.push((dir.clone(), std::fs::read_to_string(&p).unwrap()));
        }
    }
    out
}

fn run_checked(doc: Result<Scenario, retroanim_core::ScenarioError>) -> Result<(), TestCaseError> {
    if let Ok(s) = doc {
        if let Ok(lines) = retroanim_herc::run(&s) {
            for l in &lines {
                prop_assert!(non_finite_text(l).is_none(), "{:?}", non_finite_text(l));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn mutated_vol_dts_and_chassis_bytes_never_panic(es in edits()) {
        let vol = mutated(&sample_vol(), &es);
        if let Ok(a) = VolArchive::read(&vol, "fuzz.vol") {
            for e in &a.entries {
                let _ = DtsFile::load_anim_list(&e.content, "fuzz.dts");
                let _ = ChassisRecord::read(&e.content, "fuzz.dat");
            }
        }
        let dts = mutated(&sample_dts(), &es);
        if let Ok(d) = DtsFile::read(&dts, "fuzz.dts") {
            let _ = d.anim_list("fuzz.dts");
            let _ = d.write();
        }
        let chassis = std::fs::read(root().join("assets/herc/biped.chassis.bin")).unwrap();
        if let Ok(c) = ChassisRecord::read(&mutated(&chassis, &es), "fuzz.dat") {
            prop_assert!(c.write().is_ok());
        }
    }

    #[test]
    fn mutated_model_and_chassis_json_never_panic(es in edits(), k in any::<usize>(), n in edge_number()) {
        let model = std::fs::read(root().join("assets/herc/biped.json")).unwrap();
        if let Ok(v) = serde_json::from_slice::<Value>(&mutated(&model, &es)) {
            let _ = AnimList::from_json_value(&v, "fuzz.json", "");
        }
        let mut v: Value = serde_json::from_slice(&model).unwrap();
        replace_number(&mut v, k, &n);
        let _ = AnimList::from_json_value(&v, "fuzz.json", "");
        let chassis = std::fs::read(root().join("assets/herc/biped.chassis.json")).unwrap();
        if let Ok(text) = String::from_utf8(mutated(&chassis, &es)) {
            let _ = ChassisRecord::from_json_str(&text, "fuzz.json");
        }
        let mut v: Value = serde_json::from_slice(&chassis).unwrap();
        replace_number(&mut v, k, &n);
        let _ = ChassisRecord::from_json_str(&v.to_string(), "fuzz.json");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn mutated_scenarios_never_panic_hang_or_print_non_finite(
        which in any::<usize>(), es in edits(), k in any::<usize>(), n in edge_number(),
    ) {
        let all = scenarios();
        let (dir, text) = &all[which % all.len()];
        let bytes = mutated(text.as_bytes(), &es);
        if let Ok(t) = std::str::from_utf8(&bytes) {
            run_checked(Scenario::from_str(t, "fuzz.json", dir.clone()))?;
        }
        let mut v: Value = serde_json::from_str(text).unwrap();
        replace_number(&mut v, k, &n);
        run_checked(Scenario::from_value(v, "fuzz.json", dir.clone()))?;
    }
}
