//! HERC shapes made from one model file share one parsed model; a copy of the file, a
//! file changed since, and models given as bytes do not; and a shared model plays
//! exactly as one of its own.

#![allow(clippy::disallowed_methods)]

mod support;
use support::{last_error, scratch};

use retroanim_ffi::herc::*;
use retroanim_ffi::RaStatus;
use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

fn biped() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/herc/biped.json")
}

fn from_file(path: &Path) -> RaHercShape {
    let p = CString::new(path.to_str().unwrap()).unwrap();
    let mut h = 0;
    // SAFETY: a valid C string and a writable out-parameter.
    let s = unsafe { ra_herc_shape_new_json_file(p.as_ptr(), &mut h) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    h
}

fn from_json(path: &Path) -> RaHercShape {
    let bytes = std::fs::read(path).unwrap();
    let mut h = 0;
    // SAFETY: `bytes` holds `len` readable bytes; `h` is writable.
    let s = unsafe { ra_herc_shape_new_json(bytes.as_ptr(), bytes.len(), &mut h) };
    assert_eq!(s, RaStatus::Ok, "{}", last_error());
    h
}

fn free(shapes: &[RaHercShape]) {
    for &h in shapes {
        assert_eq!(ra_herc_shape_free(h), RaStatus::Ok);
    }
}

/// A copy of the biped asset in a folder of this test's own.
fn biped_copy(name: &str) -> PathBuf {
    let path = scratch(&format!("model_cache/{name}")).join("biped.json");
    std::fs::copy(biped(), &path).unwrap();
    path
}

/// The walk from idle for a second; every part matrix after every 40 ms step.
fn walk(h: RaHercShape) -> Vec<RaHercMatrix> {
    let (mut idle, mut walk, mut t) = (-1i16, -1i16, u32::MAX);
    // SAFETY: valid C strings, writable outs.
    unsafe {
        assert_eq!(
            ra_herc_sequence_named(h, c"idle".as_ptr(), &mut idle),
            RaStatus::Ok
        );
        assert_eq!(
            ra_herc_sequence_named(h, c"walk".as_ptr(), &mut walk),
            RaStatus::Ok
        );
        assert_eq!(ra_herc_add_thread(h, idle, &mut t), RaStatus::Ok);
    }
    assert_eq!(ra_herc_request(h, t, walk, -1, 0), RaStatus::Ok);
    let mut all = Vec::new();
    for _ in 0..25 {
        assert_eq!(ra_herc_step_ms(h, 40), RaStatus::Ok);
        let mut m = vec![RaHercMatrix::default(); 64];
        let mut n = 0usize;
        // SAFETY: `m` holds 64 writable entries; `n` is writable.
        let s = unsafe { ra_herc_part_matrices(h, m.as_mut_ptr(), m.len(), &mut n) };
        assert_eq!(s, RaStatus::Ok);
        m.truncate(n);
        all.extend(m);
    }
    all
}

#[test]
fn shapes_from_one_file_share_its_model_and_a_copy_does_not() {
    let path = biped_copy("share");
    let other = biped_copy("other");
    let a = from_file(&path);
    let b = from_file(&path);
    let c = from_file(&other);
    assert!(same_model(a, b));
    assert!(!same_model(a, c));
    free(&[a, b, c]);
}

#[test]
fn a_model_file_changed_since_is_read_again() {
    let path = biped_copy("changed");
    let a = from_file(&path);
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000))
        .unwrap();
    let b = from_file(&path);
    assert!(!same_model(a, b));
    // From then on the new one is shared.
    let c = from_file(&path);
    assert!(same_model(b, c));
    free(&[a, b, c]);
}

#[test]
fn models_given_as_bytes_share_nothing() {
    let a = from_json(&biped());
    let b = from_json(&biped());
    assert!(!same_model(a, b));
    free(&[a, b]);
}

#[test]
fn a_shared_model_plays_as_a_model_of_its_own() {
    let path = biped_copy("identical");
    let a = from_file(&path);
    let b = from_file(&path);
    let own = from_json(&path);
    assert!(same_model(a, b));
    let reference = walk(own);
    assert_eq!(walk(a), reference);
    assert_eq!(walk(b), reference);
    free(&[a, b, own]);
}
