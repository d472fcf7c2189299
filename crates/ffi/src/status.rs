//! Status codes, the thread-local last error, and the guard every entry point runs
//! its body in so that no panic unwinds into the host.

use std::cell::RefCell;
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a call did. Every function returns one; only `RA_STATUS_OK` means the
/// out-parameters were written.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaStatus {
    /// Success.
    Ok = 0,
    /// A pointer argument was null where a value is required.
    NullArgument = 1,
    /// The handle is 0, of another kind, already freed, or never issued.
    BadHandle = 2,
    /// An argument is out of range or malformed (bad UTF-8, unknown actor, creature
    /// index past the end, ...).
    InvalidArgument = 3,
    /// A file, record set, model or scenario could not be loaded; nothing was created.
    Load = 4,
    /// The engine refused the command (an AC `WeenieError`, a HERC control error, an
    /// actor run error, a scenario step error). The object is unchanged or changed
    /// exactly as the engine defines for that refusal.
    Refused = 5,
    /// A caller-owned array was too small; the needed count was written to the count
    /// out-parameter and nothing else.
    BufferTooSmall = 6,
    /// A bug inside the library (a caught panic). The handle involved should be freed.
    Internal = 7,
}

/// Why a call failed: the status to return and the text `ra_last_error` reports.
#[derive(Debug)]
pub(crate) struct Error {
    pub status: RaStatus,
    pub message: String,
    /// The engine's own numeric code (AC `WeenieError`), 0 when there is none.
    pub code: u32,
}

impl Error {
    pub fn new(status: RaStatus, message: impl Into<String>) -> Error {
        Error {
            status,
            message: message.into(),
            code: 0,
        }
    }
    pub fn null(what: &str) -> Error {
        Error::new(RaStatus::NullArgument, format!("{what} is null"))
    }
    pub fn invalid(message: impl Into<String>) -> Error {
        Error::new(RaStatus::InvalidArgument, message)
    }
    pub fn load(message: impl std::fmt::Display) -> Error {
        Error::new(RaStatus::Load, message.to_string())
    }
    pub fn refused(message: impl std::fmt::Display) -> Error {
        Error::new(RaStatus::Refused, message.to_string())
    }
}

pub(crate) type Result<T> = std::result::Result<T, Error>;

struct LastError {
    message: CString,
    code: u32,
}

thread_local! {
    static LAST: RefCell<LastError> = RefCell::new(LastError {
        message: CString::default(),
        code: 0,
    });
}

fn record(message: &str, code: u32) {
    // A message never holds NUL in practice; if one did, cut it there rather than lose it.
    let text = message.split('\0').next().unwrap_or_default();
    let c = CString::new(text).unwrap_or_default();
    let _ = LAST.try_with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            l.message = c;
            l.code = code;
        }
    });
}

/// Run an entry point's body: a returned error or a caught panic becomes a status and
/// the thread's last error; success leaves the last error as it was (like `errno`).
pub(crate) fn guard(body: impl FnOnce() -> Result<()>) -> RaStatus {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => RaStatus::Ok,
        Ok(Err(e)) => {
            record(&e.message, e.code);
            e.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            record(&format!("internal error (caught panic): {what}"), 0);
            RaStatus::Internal
        }
    }
}

/// The message of the most recent failed call on the calling thread, as NUL-terminated
/// UTF-8; an empty string when no call on this thread has failed.
///
/// Ownership: the library owns the text. The pointer stays valid until the next call
/// that fails on the same thread; copy it if you need it longer. Never free it.
#[no_mangle]
pub extern "C" fn ra_last_error() -> *const c_char {
    // `try_with` and `try_borrow`: during thread teardown, or re-entered, it answers
    // the empty string instead of panicking.
    LAST.try_with(|l| l.try_borrow().map(|m| m.message.as_ptr()).ok())
        .ok()
        .flatten()
        .unwrap_or(c"".as_ptr())
}

/// The engine's numeric code for the most recent failed call on the calling thread:
/// for `RA_STATUS_REFUSED` from an AC motion call, ACE's `WeenieError` value; 0
/// otherwise.
#[no_mangle]
pub extern "C" fn ra_last_error_code() -> u32 {
    LAST.try_with(|l| l.try_borrow().map(|m| m.code).unwrap_or(0))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CStr;

    #[test]
    fn panic_inside_an_entry_point_becomes_internal_with_its_message() {
        let s = guard(|| panic!("boom"));
        assert_eq!(s, RaStatus::Internal);
        // SAFETY: ra_last_error returns a valid NUL-terminated string.
        let msg = unsafe { CStr::from_ptr(ra_last_error()) };
        assert_eq!(msg.to_str().unwrap(), "internal error (caught panic): boom");
    }

    #[test]
    fn success_leaves_the_last_error_as_it_was() {
        let s = guard(|| Err(Error::invalid("first")));
        assert_eq!(s, RaStatus::InvalidArgument);
        assert_eq!(guard(|| Ok(())), RaStatus::Ok);
        // SAFETY: ra_last_error returns a valid NUL-terminated string.
        let msg = unsafe { CStr::from_ptr(ra_last_error()) };
        assert_eq!(msg.to_str().unwrap(), "first");
    }
}
