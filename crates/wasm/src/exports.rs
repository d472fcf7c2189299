//! The module's entry points: plain `extern "C"` functions over linear memory, called
//! by the hand-written glue `js/retroanim-wasm.js`.
//!
//! Protocol: the host asks for an input buffer of `len` bytes
//! ([`retroanim_input`]), writes a UTF-8 JSON request there, calls
//! [`retroanim_call`]`(len)`, and reads the answer's `len` bytes at
//! [`retroanim_output`]. Both buffers belong to the module and stay valid until the
//! next call; the host owns nothing and frees nothing. The module is single-threaded
//! (one page, one instance).
//!
//! This is the only code of the workspace besides the C ABI crate that needs
//! `unsafe_code`, and only for `#[unsafe(no_mangle)]`: an exported symbol must keep
//! its name, and two such names could clash at link time. No `unsafe` block is
//! written: Rust never dereferences a pointer the host gave it (the host writes into
//! a buffer the module handed out, and the module reads it back as its own `Vec`).
#![allow(unsafe_code)]

use crate::api::Api;
use retroanim_ac::bench::AcBench;
use retroanim_core::bench::BenchWorld;
use std::cell::RefCell;

#[derive(Default)]
struct State {
    api: Api,
    input: Vec<u8>,
    output: Vec<u8>,
    bench: Option<AcBench>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Largest request accepted (the server's body limit).
pub const MAX_REQUEST: usize = retroanim_session::MAX_BODY_BYTES;

/// A buffer of `len` bytes (at most [`MAX_REQUEST`]) for the next request; null when
/// `len` is larger.
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_input(len: usize) -> *mut u8 {
    if len > MAX_REQUEST {
        return std::ptr::null_mut();
    }
    STATE.with_borrow_mut(|s| {
        s.input.clear();
        s.input.resize(len, 0);
        s.input.as_mut_ptr()
    })
}

/// Answer the request in the first `len` bytes of the input buffer; returns the
/// answer's length in bytes (read it at [`retroanim_output`]).
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_call(len: usize) -> usize {
    STATE.with_borrow_mut(|s| {
        let n = len.min(s.input.len());
        let text = String::from_utf8_lossy(&s.input[..n]).into_owned();
        let answer = s.api.handle_text(&text);
        s.output = answer.into_bytes();
        s.output.len()
    })
}

/// Where the last answer is.
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_output() -> *const u8 {
    STATE.with_borrow(|s| s.output.as_ptr())
}

/// Build the `retroanim bench ac` world of `n` creatures (replacing any previous one);
/// returns the number of entities.
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_bench_ac_new(n: u32) -> u32 {
    STATE.with_borrow_mut(|s| {
        let b = match crate::engines::bench_table() {
            Ok((table, anims)) => AcBench::with_table(n as usize, table, anims),
            Err(_) => AcBench::with_table(0, Default::default(), Default::default()),
        };
        let count = b.entities() as u32;
        s.bench = Some(b);
        count
    })
}

/// Tick the bench world `ticks` times (the host times it: the module has no clock).
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_bench_ac_tick(ticks: u32) {
    STATE.with_borrow_mut(|s| {
        if let Some(b) = s.bench.as_mut() {
            for _ in 0..ticks {
                b.tick();
            }
        }
    })
}

/// A value depending on the whole bench state, so that no work is optimised away;
/// also lets the host compare the wasm run with a native one.
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_bench_ac_checksum() -> u64 {
    STATE.with_borrow(|s| s.bench.as_ref().map_or(0, |b| b.checksum()))
}
