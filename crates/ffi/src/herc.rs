//! HERC shapes: one model instance with its animation threads.

use crate::args;
use crate::handle::{self, Table};
use crate::model_cache::{self, SharedModel};
use crate::status::{guard, Error, Result};
use retroanim_herc::animated_shape::ThreadId;
use retroanim_herc::{AnimatedShape, Model};
use std::ffi::c_char;
use std::sync::{Arc, Mutex};

/// A HERC shape instance. 0 is the null handle. Threads inside it are numbered as
/// `ra_herc_add_thread` returns them.
pub type RaHercShape = u64;

/// One part's Q14 world matrix (16384 = 1.0), rows in storage order m0..m8, and its
/// translation.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaHercMatrix {
    pub m: [i16; 9],
    pub t: [i32; 3],
}

/// Where the machine is: euler angles (pitch, roll, heading; 65536 = a full turn) and
/// position.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RaHercObject {
    pub euler: [i16; 3],
    pub position: [i32; 3],
}

/// A shape and, when it was made from a file, the parsed model it shares with the other
/// shapes made from that file (the `model_cache` module).
struct Shape {
    anim: AnimatedShape,
    model: Option<Arc<SharedModel>>,
}

static SHAPES: Mutex<Table<Shape>> = Mutex::new(Table::new(3, "HERC shape"));

fn on(h: RaHercShape, f: impl FnOnce(&mut AnimatedShape) -> Result<()>) -> RaStatus {
    guard(|| handle::with(&SHAPES, h, |s| f(&mut s.anim)))
}

/// Whether two shapes play one parsed model: made from the same, unchanged model file
/// (for tests and diagnostics; shapes made from bytes share with none).
pub fn same_model(a: RaHercShape, b: RaHercShape) -> bool {
    let model = |h| {
        handle::with(&SHAPES, h, |s| Ok(s.model.clone()))
            .ok()
            .flatten()
    };
    match (model(a), model(b)) {
        (Some(x), Some(y)) => Arc::ptr_eq(&x, &y),
        _ => false,
    }
}

use crate::status::RaStatus;

fn create(model: Model, out: *mut RaHercShape) -> Result<()> {
    create_shared(&model, None, out)
}

fn create_shared(
    model: &Model,
    shared: Option<Arc<SharedModel>>,
    out: *mut RaHercShape,
) -> Result<()> {
    let shape = Shape {
        anim: AnimatedShape::new(model),
        model: shared,
    };
    let h = handle::insert(&SHAPES, shape)?;
    // SAFETY: every caller passes its own caller's `out`, under the same guarantee.
    unsafe { args::put(out, h, "out") }
}

fn refused(e: impl std::fmt::Display) -> Error {
    Error::refused(e)
}

/// A shape from a model asset JSON file. Shapes made from the same, unchanged file
/// share one parsed model (docs/embedding.md, "The record cache").
///
/// Ownership: `*out` receives a new handle; free it with `ra_herc_shape_free`.
///
/// # Safety
/// `path` is NUL-terminated UTF-8; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_herc_shape_new_json_file(
    path: *const c_char,
    out: *mut RaHercShape,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantee for `path`.
        let path = unsafe { args::text(path, "path")? };
        let shared = model_cache::load(path, None).map_err(Error::load)?;
        create_shared(&shared.model.clone(), Some(shared), out)
    })
}

/// A shape from model asset JSON in memory (`len` bytes of UTF-8).
///
/// Ownership: the bytes are copied; `*out` receives a new handle; free it with
/// `ra_herc_shape_free`.
///
/// # Safety
/// `json` points to `len` readable bytes; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_herc_shape_new_json(
    json: *const u8,
    len: usize,
    out: *mut RaHercShape,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantee for `json`.
        let bytes = unsafe { args::bytes(json, len, "json")? };
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Error::load(format!("<json>: byte {}: not UTF-8", e.valid_up_to())))?;
        create(
            Model::from_json_str(text, "<json>").map_err(Error::load)?,
            out,
        )
    })
}

/// A shape from the DTS entry `entry` of a VOL archive file. Shapes made from the same
/// entry of the same, unchanged file share one parsed model.
///
/// Ownership: `*out` receives a new handle; free it with `ra_herc_shape_free`.
///
/// # Safety
/// `path` and `entry` are NUL-terminated UTF-8; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_herc_shape_new_vol_file(
    path: *const c_char,
    entry: *const c_char,
    out: *mut RaHercShape,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantees for `path` and `entry`.
        let (path, entry) = unsafe { (args::text(path, "path")?, args::text(entry, "entry")?) };
        let shared = model_cache::load(path, Some(entry)).map_err(Error::load)?;
        create_shared(&shared.model.clone(), Some(shared), out)
    })
}

/// A shape from a VOL archive in memory (entry `entry`), or, with `entry` null, from a
/// bare DTS shape in memory.
///
/// Ownership: the bytes are copied; `*out` receives a new handle; free it with
/// `ra_herc_shape_free`.
///
/// # Safety
/// `bytes` points to `len` readable bytes; `entry` is null or NUL-terminated; `out`
/// is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_herc_shape_new_bytes(
    bytes: *const u8,
    len: usize,
    entry: *const c_char,
    out: *mut RaHercShape,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantees for `bytes` and `entry`.
        let (bytes, entry) = unsafe {
            (
                args::bytes(bytes, len, "bytes")?,
                args::optional_text(entry, "entry")?,
            )
        };
        let model = match entry {
            Some(e) => Model::from_vol_bytes(bytes, "<vol>", e),
            None => Model::from_dts_bytes(bytes, "<dts>"),
        };
        create(model.map_err(Error::load)?, out)
    })
}

/// Free a shape. 0 is accepted and does nothing.
#[no_mangle]
pub extern "C" fn ra_herc_shape_free(shape: RaHercShape) -> RaStatus {
    guard(|| handle::free(&SHAPES, shape))
}

/// The index of the sequence named `name`.
///
/// # Safety
/// `name` is NUL-terminated UTF-8; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_herc_sequence_named(
    shape: RaHercShape,
    name: *const c_char,
    out: *mut i16,
) -> RaStatus {
    on(shape, |s| {
        // SAFETY: the caller's guarantee for `name`.
        let name = unsafe { args::text(name, "name")? };
        let seq = s
            .model()
            .sequence_named(name)
            .ok_or_else(|| Error::invalid(format!("the model has no sequence named '{name}'")))?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, seq, "out") }
    })
}

/// Add a thread playing sequence `seq` from its first frame at 1x; `*out` receives
/// its number.
///
/// # Safety
/// `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn ra_herc_add_thread(
    shape: RaHercShape,
    seq: i16,
    out: *mut u32,
) -> RaStatus {
    on(shape, |s| {
        let t = s.add_thread(seq).map_err(refused)?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put_optional(out, t.0 as u32) };
        Ok(())
    })
}

/// Ask `thread` to go to `seq` at `frame` (-1: wherever its transitions lead); with
/// `stop_on_arrival` 1 it holds there.
#[no_mangle]
pub extern "C" fn ra_herc_request(
    shape: RaHercShape,
    thread: u32,
    seq: i16,
    frame: i16,
    stop_on_arrival: u8,
) -> RaStatus {
    on(shape, |s| {
        let frame = if frame < 0 { None } else { Some(frame) };
        s.request(ThreadId(thread as usize), seq, frame, stop_on_arrival != 0)
            .map_err(refused)
    })
}

/// Jump `thread` to position `pos` of `seq` (Q14 fraction of its length, 0..=16384).
#[no_mangle]
pub extern "C" fn ra_herc_seek(shape: RaHercShape, thread: u32, seq: i16, pos: i32) -> RaStatus {
    on(shape, |s| {
        s.seek(ThreadId(thread as usize), seq, pos).map_err(refused)
    })
}

/// Set `thread`'s Q8 playback rate (256 = 1x, negative plays backwards).
#[no_mangle]
pub extern "C" fn ra_herc_set_rate(shape: RaHercShape, thread: u32, rate: i16) -> RaStatus {
    on(shape, |s| {
        s.set_rate(ThreadId(thread as usize), rate).map_err(refused)
    })
}

/// Forget `thread`'s pending request (DropRequest).
#[no_mangle]
pub extern "C" fn ra_herc_drop_request(shape: RaHercShape, thread: u32) -> RaStatus {
    on(shape, |s| {
        s.drop_request(ThreadId(thread as usize)).map_err(refused)
    })
}

/// One simulation step of `ms` milliseconds (the game steps every 40 ms).
#[no_mangle]
pub extern "C" fn ra_herc_step_ms(shape: RaHercShape, ms: i64) -> RaStatus {
    on(shape, |s| s.step_ms(ms).map_err(refused))
}

/// Where the machine is.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_herc_object(shape: RaHercShape, out: *mut RaHercObject) -> RaStatus {
    on(shape, |s| {
        let o = s.object();
        let v = RaHercObject {
            euler: o.euler,
            position: o.position,
        };
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, v, "out") }
    })
}

/// The batch read: every part's world matrix, indexed by node, into the caller's array
/// of `cap` entries; `*count` receives the node count.
///
/// # Safety
/// `out` points to `cap` writable entries (or is null with `cap == 0`); `count` is
/// writable.
#[no_mangle]
pub unsafe extern "C" fn ra_herc_part_matrices(
    shape: RaHercShape,
    out: *mut RaHercMatrix,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    on(shape, |s| {
        let world = s.world();
        let items = world.iter().map(|t| RaHercMatrix { m: t.m, t: t.t });
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, world.len(), items) }
    })
}
