//! A file of the page's user, read in slices through the host: the page hands the
//! browser's `File` to the Web Worker running this module, and every read here asks the
//! worker for `len` bytes at an offset (`FileReaderSync` on a `File.slice`), so a
//! 1 GB `client_portal.dat` is never held whole.
//!
//! The import is the second place of this crate that needs `unsafe_code` (besides the
//! exported names of [`crate::exports`]): declaring a host function takes an `unsafe
//! extern` block. No `unsafe` block is written: the function is declared `safe`, since
//! its contract (write exactly `len` bytes at `dst`, a buffer this module owns and hands
//! over with that length) is kept on both sides here and in `js/retroanim-worker.js`.
#![allow(unsafe_code)]

use retroanim_ac::records::dat::ReadAt;

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "retroanim_host")]
unsafe extern "C" {
    /// Copy `len` bytes of user file `file` from `offset` to `dst`; returns the number of
    /// bytes written (less than `len` when the file has fewer, or cannot be read).
    safe fn retroanim_host_read(file: u32, offset: f64, len: u32, dst: *mut u8) -> u32;
}

// Natively (the crate's tests, `Api` called from Rust) the "page" is a list of byte
// vectors: [`native_file`] adds one.
#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    static NATIVE: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Natively only: hold `bytes` as a user file of this thread, as the worker holds a
/// `File`; returns its handle for `POST /ac/dat`.
#[cfg(not(target_arch = "wasm32"))]
pub fn native_file(bytes: Vec<u8>) -> u32 {
    NATIVE.with_borrow_mut(|f| {
        f.push(bytes);
        (f.len() - 1) as u32
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn native_read(file: u32, offset: u64, buf: &mut [u8]) -> u32 {
    NATIVE.with_borrow(|f| {
        let Some(bytes) = f.get(file as usize) else {
            return 0;
        };
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        let n = buf.len().min(bytes.len() - start);
        buf[..n].copy_from_slice(&bytes[start..start + n]);
        n as u32
    })
}

/// Largest offset a host number carries exactly (2^53).
const MAX_OFFSET: u64 = 1 << 53;

/// A user file the worker holds under `handle`.
#[derive(Clone, Copy, Debug)]
pub struct HostFile {
    pub handle: u32,
}

impl ReadAt for HostFile {
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), String> {
        if offset >= MAX_OFFSET {
            return Err(format!("offset {offset} is past what the page can address"));
        }
        let want = u32::try_from(buf.len()).map_err(|_| "read too large".to_string())?;
        #[cfg(target_arch = "wasm32")]
        let got = retroanim_host_read(self.handle, offset as f64, want, buf.as_mut_ptr());
        #[cfg(not(target_arch = "wasm32"))]
        let got = native_read(self.handle, offset, buf);
        if got == want {
            Ok(())
        } else {
            Err(format!(
                "the page read {got} of {want} bytes (the file was changed or cannot be read)"
            ))
        }
    }
}
