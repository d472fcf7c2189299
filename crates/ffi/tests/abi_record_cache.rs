//! The record cache shared by AC worlds: worlds opened on one folder or one DAT parse
//! each motion table once and drive their creatures with the same parsed set; another
//! folder, a changed file or records given as bytes get their own. Each test works on
//! its own copy of the sample records, so that the load counts are its own.

#![allow(clippy::disallowed_methods)]

mod support;
use support::{ac_state, add_creature, creature_desc, last_error, scratch, HUMANOID_TABLE};

use retroanim_ac::commands::{TURN_RIGHT, WALK_FORWARD};
use retroanim_ac::records::dat::write_dat;
use retroanim_ffi::ac::*;
use retroanim_ffi::record_cache::{same_source, source_stats, world_motion_set, SourceStats};
use retroanim_ffi::RaStatus;
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};
use std::time::{Duration, SystemTime};

fn sample_records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records")
}

/// A fresh copy of the sample records in a folder of this test's own.
fn records_copy(name: &str) -> PathBuf {
    let dir = scratch(&format!("record_cache/{name}"));
    for e in std::fs::read_dir(&dir).unwrap() {
        std::fs::remove_file(e.unwrap().path()).unwrap();
    }
    for e in std::fs::read_dir(sample_records()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    dir
}

fn open_dir(dir: &str) -> RaAcWorld {
    let dir = CString::new(dir).unwrap();
    let mut w = 0;
    // SAFETY: a valid C string and a writable out-parameter.
    let s = unsafe { ra_ac_world_new_dir(dir.as_ptr(), &mut w) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    w
}

fn open_dat(path: &Path) -> RaAcWorld {
    let path = CString::new(path.to_str().unwrap()).unwrap();
    let mut w = 0;
    // SAFETY: a valid C string and a writable out-parameter.
    let s = unsafe { ra_ac_world_new_dat(path.as_ptr(), &mut w) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    w
}

fn open_records(dir: &Path) -> RaAcWorld {
    let bytes: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    let ptrs: Vec<*const u8> = bytes.iter().map(|b| b.as_ptr()).collect();
    let lens: Vec<usize> = bytes.iter().map(Vec::len).collect();
    let mut w = 0;
    // SAFETY: `ptrs` and `lens` hold `bytes.len()` entries describing live buffers.
    let s = unsafe { ra_ac_world_new_records(ptrs.as_ptr(), lens.as_ptr(), ptrs.len(), &mut w) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    w
}

fn stats(w: RaAcWorld) -> SourceStats {
    source_stats(w).expect("a live world")
}

/// Whether two worlds drive their humanoids with one parsed table and animation map.
fn same_set(a: RaAcWorld, b: RaAcWorld) -> bool {
    let x = world_motion_set(a, HUMANOID_TABLE).expect("a humanoid in the first world");
    let y = world_motion_set(b, HUMANOID_TABLE).expect("a humanoid in the second world");
    assert_eq!(
        Arc::ptr_eq(&x.table, &y.table),
        Arc::ptr_eq(&x.anims, &y.anims)
    );
    Arc::ptr_eq(&x.table, &y.table)
}

/// Set a file's modification time to 2001-09-09 01:46:40 UTC (10^9 s), which no file
/// written by this test has.
fn backdate(path: &Path) {
    let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000))
        .unwrap();
}

fn free(worlds: &[RaAcWorld]) {
    for &w in worlds {
        assert_eq!(ra_ac_world_free(w), RaStatus::Ok);
    }
}

#[test]
fn worlds_on_one_folder_share_one_parsed_table_and_another_folder_does_not() {
    let a = records_copy("share_a");
    let b = records_copy("share_b");
    let w1 = open_dir(a.to_str().unwrap());
    // The same folder spelled another way is the same source.
    let w2 = open_dir(&format!("{}/./", a.display()));
    let w3 = open_dir(b.to_str().unwrap());
    assert!(same_source(w1, w2));
    assert!(!same_source(w1, w3));
    assert_eq!(
        stats(w1).loads,
        0,
        "nothing is read before a creature needs it"
    );

    add_creature(w1, &creature_desc());
    add_creature(w2, &creature_desc());
    add_creature(w2, &creature_desc());
    assert_eq!(
        stats(w1),
        SourceStats {
            loads: 1,
            cached_sets: 1
        }
    );
    assert_eq!(stats(w2).loads, 1);
    assert!(same_set(w1, w2));

    add_creature(w3, &creature_desc());
    assert_eq!(stats(w3).loads, 1);
    assert!(!same_set(w1, w3));
    free(&[w1, w2, w3]);
}

#[test]
fn four_threads_adding_the_same_table_at_once_load_it_once() {
    let dir = records_copy("contention");
    // Twenty rounds, each on a fresh source (the last round's worlds are freed).
    for _ in 0..20 {
        let worlds: Vec<RaAcWorld> = (0..4).map(|_| open_dir(dir.to_str().unwrap())).collect();
        assert_eq!(stats(worlds[0]).loads, 0);
        let start = Barrier::new(4);
        std::thread::scope(|s| {
            for &w in &worlds {
                let start = &start;
                s.spawn(move || {
                    start.wait();
                    add_creature(w, &creature_desc());
                });
            }
        });
        assert_eq!(stats(worlds[0]).loads, 1);
        for &w in &worlds[1..] {
            assert!(same_source(worlds[0], w));
            assert!(same_set(worlds[0], w));
        }
        free(&worlds);
    }
}

#[test]
fn a_source_lives_while_a_world_on_it_does() {
    let dir = records_copy("lifetime");
    let w1 = open_dir(dir.to_str().unwrap());
    add_creature(w1, &creature_desc());
    let w2 = open_dir(dir.to_str().unwrap());
    add_creature(w2, &creature_desc());
    assert_eq!(stats(w2).loads, 1);
    free(&[w1, w2]);
    // Both worlds are gone, and with them the source: a new world reads afresh.
    let w3 = open_dir(dir.to_str().unwrap());
    add_creature(w3, &creature_desc());
    assert_eq!(stats(w3).loads, 1);
    free(&[w3]);
}

#[test]
fn a_record_file_rewritten_in_the_folder_is_read_again_by_the_next_world() {
    let dir = records_copy("rewritten");
    let w1 = open_dir(dir.to_str().unwrap());
    add_creature(w1, &creature_desc());
    backdate(&dir.join("09000001.bin"));
    // The folder itself is unchanged, so the source is shared ...
    let w2 = open_dir(dir.to_str().unwrap());
    assert!(same_source(w1, w2));
    add_creature(w2, &creature_desc());
    // ... but its cached table is not served: it was read from a file since changed.
    assert_eq!(stats(w2).loads, 2);
    assert!(!same_set(w1, w2));

    // An animation file counts too.
    backdate(&dir.join("03000101.bin"));
    let w3 = open_dir(dir.to_str().unwrap());
    add_creature(w3, &creature_desc());
    assert_eq!(stats(w3).loads, 3);
    // The unchanged state is shared again.
    let w4 = open_dir(dir.to_str().unwrap());
    add_creature(w4, &creature_desc());
    assert_eq!(stats(w4).loads, 3);
    assert!(same_set(w3, w4));
    free(&[w1, w2, w3, w4]);
}

#[test]
fn worlds_on_one_dat_share_and_a_changed_dat_is_another_source() {
    let folder = sample_records();
    let records: Vec<(u32, Vec<u8>)> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let stem = p.file_stem().unwrap().to_str().unwrap().to_owned();
            (
                u32::from_str_radix(&stem, 16).unwrap(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    let dat = scratch("record_cache").join("portal.dat");
    std::fs::write(&dat, write_dat(&records, 1024, 61)).unwrap();

    let w1 = open_dat(&dat);
    let w2 = open_dat(&dat);
    assert!(same_source(w1, w2));
    add_creature(w1, &creature_desc());
    add_creature(w2, &creature_desc());
    assert_eq!(stats(w1).loads, 1);
    assert!(same_set(w1, w2));

    backdate(&dat);
    let w3 = open_dat(&dat);
    assert!(!same_source(w1, w3));
    add_creature(w3, &creature_desc());
    assert_eq!(stats(w3).loads, 1);
    assert!(!same_set(w1, w3));
    free(&[w1, w2, w3]);
}

#[test]
fn worlds_on_records_given_as_bytes_share_nothing() {
    let w1 = open_records(&sample_records());
    let w2 = open_records(&sample_records());
    assert!(!same_source(w1, w2));
    add_creature(w1, &creature_desc());
    add_creature(w2, &creature_desc());
    assert_eq!(stats(w1).loads, 1);
    assert_eq!(stats(w2).loads, 1);
    assert!(!same_set(w1, w2));
    free(&[w1, w2]);
}

/// Every bit of a creature's state, for comparing two runs exactly.
fn bits(s: &RaAcState) -> Vec<u32> {
    let p = &s.position;
    let f = &p.frame;
    let mut v = vec![p.cell];
    v.extend(
        [
            f.origin.x,
            f.origin.y,
            f.origin.z,
            f.orientation.w,
            f.orientation.x,
            f.orientation.y,
            f.orientation.z,
            s.velocity.x,
            s.velocity.y,
            s.velocity.z,
            s.frame_number,
        ]
        .map(f32::to_bits),
    );
    v.extend([
        s.style,
        s.motion,
        s.table_substate,
        s.animation,
        s.part_count,
        u32::from(s.active),
    ]);
    v
}

/// A walk with a turn through `w`'s creature `c`, its state after every tick.
fn walk(w: RaAcWorld, c: u32) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    // SAFETY: null parameters mean the defaults.
    let s = unsafe { ra_ac_do_motion(w, c, WALK_FORWARD, std::ptr::null()) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    for t in 0..90 {
        if t == 30 {
            // SAFETY: as above.
            let s = unsafe { ra_ac_do_motion(w, c, TURN_RIGHT, std::ptr::null()) };
            assert_eq!(s, RaStatus::Ok, "{}", last_error());
        }
        assert_eq!(ra_ac_world_tick(w, 1.0 / 30.0), RaStatus::Ok);
        out.push(bits(&ac_state(w, c)));
    }
    out
}

#[test]
fn a_shared_table_drives_creatures_bit_for_bit_as_a_private_reader_does() {
    let dir = records_copy("identical");
    let shared1 = open_dir(dir.to_str().unwrap());
    let shared2 = open_dir(dir.to_str().unwrap());
    let private = open_records(&dir);
    let c1 = add_creature(shared1, &creature_desc());
    let c2 = add_creature(shared2, &creature_desc());
    let cp = add_creature(private, &creature_desc());
    assert!(same_set(shared1, shared2));
    let reference = walk(private, cp);
    assert_eq!(walk(shared1, c1), reference);
    assert_eq!(walk(shared2, c2), reference);
    // The walk did move and turn the creature.
    let last = reference.last().unwrap();
    assert_ne!(last[1..4], reference[0][1..4]);
    free(&[shared1, shared2, private]);
}
