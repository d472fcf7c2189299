//! The module's entry points, called by the glue `js/retroanim-gltf-wasm.js`.
//!
//! Protocol: the host asks for an input buffer of `len` bytes ([`retroanim_gltf_input`]),
//! writes a UTF-8 JSON request `{"engine", "scenario"}` there and calls
//! [`retroanim_gltf_export`]`(len)`, which answers the length of the output
//! ([`retroanim_gltf_output`]): the `.glb` bytes when [`retroanim_gltf_ok`] is 1 (their
//! file name at [`retroanim_gltf_name`], [`retroanim_gltf_name_len`] bytes), else a
//! UTF-8 sentence saying what is wrong. The buffers belong to the module and stay valid
//! until the next call.
//!
//! `unsafe_code` is allowed here only for `#[unsafe(no_mangle)]` (an exported symbol must
//! keep its name); no `unsafe` block is written: the host writes into a buffer the module
//! handed out, and the module reads it back as its own `Vec`.
#![allow(unsafe_code)]

use serde_json::Value;
use std::cell::RefCell;

#[derive(Default)]
struct State {
    input: Vec<u8>,
    output: Vec<u8>,
    name: String,
    ok: bool,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

/// Largest request accepted: a scenario with inline assets, as the server takes it.
pub const MAX_REQUEST: usize = 16 << 20;

/// A buffer of `len` bytes (at most [`MAX_REQUEST`]) for the request; null when larger.
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_gltf_input(len: usize) -> *mut u8 {
    if len > MAX_REQUEST {
        return std::ptr::null_mut();
    }
    STATE.with_borrow_mut(|s| {
        s.input.clear();
        s.input.resize(len, 0);
        s.input.as_mut_ptr()
    })
}

/// Export the session the first `len` bytes of the input buffer describe; returns the
/// output's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_gltf_export(len: usize) -> usize {
    STATE.with_borrow_mut(|s| {
        let n = len.min(s.input.len());
        let answer = serde_json::from_slice::<Value>(&s.input[..n])
            .map_err(|e| format!("the request is not JSON: {e}"))
            .and_then(|req| {
                let engine = req["engine"].as_str().ok_or("request.engine: missing")?;
                crate::export(engine, &req["scenario"])
            });
        match answer {
            Ok((name, glb)) => {
                s.name = name;
                s.output = glb;
                s.ok = true;
            }
            Err(message) => {
                s.name.clear();
                s.output = message.into_bytes();
                s.ok = false;
            }
        }
        s.output.len()
    })
}

/// 1 when the last output is a `.glb`, 0 when it is an error message.
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_gltf_ok() -> u32 {
    STATE.with_borrow(|s| u32::from(s.ok))
}

/// Where the last output is.
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_gltf_output() -> *const u8 {
    STATE.with_borrow(|s| s.output.as_ptr())
}

/// Where the last export's file name is (UTF-8).
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_gltf_name() -> *const u8 {
    STATE.with_borrow(|s| s.name.as_ptr())
}

/// The last export's file name's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn retroanim_gltf_name_len() -> usize {
    STATE.with_borrow(|s| s.name.len())
}
