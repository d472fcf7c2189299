//! Reading the host's arguments and writing its out-parameters. All raw-pointer
//! access of the crate goes through these few functions.

use crate::status::{Error, RaStatus, Result};
use std::ffi::{c_char, CStr, CString};

/// A NUL-terminated UTF-8 string argument.
///
/// # Safety
/// `p` is null or points to a NUL-terminated string that stays valid and unchanged
/// for the duration of the call.
pub(crate) unsafe fn text<'a>(p: *const c_char, what: &str) -> Result<&'a str> {
    if p.is_null() {
        return Err(Error::null(what));
    }
    // SAFETY: non-null, and the caller guarantees a NUL-terminated string alive for
    // the call.
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str()
        .map_err(|e| Error::invalid(format!("{what} is not UTF-8 (byte {})", e.valid_up_to())))
}

/// Like [`text`], but null means "not given".
///
/// # Safety
/// As for [`text`].
pub(crate) unsafe fn optional_text<'a>(p: *const c_char, what: &str) -> Result<Option<&'a str>> {
    if p.is_null() {
        Ok(None)
    } else {
        // SAFETY: the caller's guarantee is passed through unchanged.
        unsafe { text(p, what) }.map(Some)
    }
}

/// A byte-array argument of `len` bytes; null is allowed only with `len == 0`.
///
/// # Safety
/// `p` is null or points to `len` readable bytes that stay unchanged for the call.
pub(crate) unsafe fn bytes<'a>(p: *const u8, len: usize, what: &str) -> Result<&'a [u8]> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Error::null(what));
    }
    if len > isize::MAX as usize {
        return Err(Error::invalid(format!("{what}: length {len} is too large")));
    }
    // SAFETY: non-null, len within isize::MAX, and the caller guarantees `len`
    // readable bytes for the call.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// A struct argument read by reference; null means "not given".
///
/// # Safety
/// `p` is null or points to a valid, aligned `T`.
pub(crate) unsafe fn optional<'a, T>(p: *const T) -> Option<&'a T> {
    // SAFETY: the caller guarantees null or a valid aligned T alive for the call.
    unsafe { p.as_ref() }
}

/// Write an out-parameter.
///
/// # Safety
/// `p` is null or points to writable, aligned memory for a `T`.
pub(crate) unsafe fn put<T>(p: *mut T, value: T, what: &str) -> Result<()> {
    if p.is_null() {
        return Err(Error::null(what));
    }
    // SAFETY: non-null and, by the caller's guarantee, writable and aligned. `write`
    // does not drop the old contents, which may be uninitialised.
    unsafe { p.write(value) };
    Ok(())
}

/// Write an out-parameter if the caller asked for it (non-null).
///
/// # Safety
/// As for [`put`].
pub(crate) unsafe fn put_optional<T>(p: *mut T, value: T) {
    if !p.is_null() {
        // SAFETY: non-null and, by the caller's guarantee, writable and aligned.
        unsafe { p.write(value) };
    }
}

/// Fill a caller-owned array `out[0..cap]` with `items`: the count is written to
/// `count` first; when it exceeds `cap`, nothing else is written and the call fails
/// with `RA_STATUS_BUFFER_TOO_SMALL` (so a host may call once with `cap == 0` to size
/// its array).
///
/// # Safety
/// `count` is null or writable; `out` is null (only with `cap == 0`) or points to
/// `cap` writable, aligned `T`s.
pub(crate) unsafe fn fill<T>(
    out: *mut T,
    cap: usize,
    count: *mut usize,
    n: usize,
    items: impl Iterator<Item = T>,
) -> Result<()> {
    // SAFETY: passed through from the caller.
    unsafe { put(count, n, "count")? };
    if n > cap {
        return Err(Error::new(
            RaStatus::BufferTooSmall,
            format!("the array holds {cap} entries, {n} are needed"),
        ));
    }
    if n == 0 {
        return Ok(());
    }
    if out.is_null() {
        return Err(Error::null("out"));
    }
    // SAFETY: non-null; the caller guarantees `cap >= n` writable aligned entries.
    let dst = unsafe { std::slice::from_raw_parts_mut(out, n) };
    for (d, item) in dst.iter_mut().zip(items) {
        *d = item;
    }
    Ok(())
}

/// Hand a string to the host: written to `out` as a NUL-terminated UTF-8 string the
/// host frees with `ra_string_free`.
///
/// # Safety
/// As for [`put`].
pub(crate) unsafe fn put_string(out: *mut *mut c_char, s: String) -> Result<()> {
    let c = CString::new(s).map_err(|_| Error::invalid("text holds a NUL byte"))?;
    if out.is_null() {
        return Err(Error::null("out"));
    }
    // SAFETY: passed through from the caller.
    unsafe { put(out, c.into_raw(), "out") }
}

/// Free a string this library returned (a trace line, a snapshot, a step). Null is
/// accepted and does nothing.
///
/// # Safety
/// `s` is null or a pointer returned by this library through a `char **` out
/// parameter, not freed before.
#[no_mangle]
pub unsafe extern "C" fn ra_string_free(s: *mut c_char) {
    if s.is_null() {
        return;
    }
    // A panic cannot happen here, but the rule "no unwind crosses" holds everywhere.
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: the caller guarantees `s` came from `CString::into_raw` in this
        // library and was not freed yet.
        drop(unsafe { CString::from_raw(s) });
    });
}
