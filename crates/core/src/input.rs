//! Opening the files a user names: regular files only, with a size cap.
//!
//! `/dev/zero` never ends and a FIFO blocks until someone writes to it, so every
//! reader checks the file type before opening, opens without blocking (a FIFO put in
//! the path's place after the check cannot hold the open), checks the type again on
//! the open handle, and refuses files over the caller's byte limit. The CLI and the
//! browser share these helpers so both say the same thing about the same file.

use crate::error::ScenarioError;
use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// Limit for inputs that are streamed (scenarios run step by step, traces diffed line
/// by line): memory does not grow with the file, so the cap only bounds the time.
pub const DEFAULT_MAX_STREAMED_BYTES: u64 = 1 << 30;

/// Limit for inputs that are held whole in memory (the files `inspect` reads).
pub const DEFAULT_MAX_WHOLE_BYTES: u64 = 256 << 20;

/// Why a file was not read.
#[derive(Debug)]
pub enum InputError {
    /// The path does not name a regular file (directory, FIFO, device, socket).
    NotRegular { kind: &'static str },
    /// The file is larger than the caller's limit.
    TooLarge { size: u64, limit: u64 },
    /// The operating system refused: missing file, no permission, symlink loop...
    Io(io::Error),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::NotRegular { kind } => {
                write!(f, "cannot read: {kind}, not a regular file")
            }
            InputError::TooLarge { size, limit } => write!(
                f,
                "cannot read: the file is {size} bytes, over the input limit of {limit} bytes"
            ),
            InputError::Io(e) => write!(f, "cannot read: {}", describe_io(e)),
        }
    }
}

impl std::error::Error for InputError {}

impl InputError {
    /// The located error for `file`.
    pub fn at(&self, file: &str) -> ScenarioError {
        ScenarioError::new(file, "", self.to_string())
    }
}

/// io::Error's text, with the causes people meet most spelled out plainly.
fn describe_io(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ if is_symlink_loop(e) => "too many levels of symbolic links (a symlink loop)".to_string(),
        _ => e.to_string(),
    }
}

#[cfg(unix)]
fn is_symlink_loop(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::ELOOP)
}

#[cfg(not(unix))]
fn is_symlink_loop(_: &io::Error) -> bool {
    false
}

fn kind_of(meta: &Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a file")
}

/// Check that `path` names a regular file of at most `limit` bytes; return its size.
pub fn check_regular(path: &Path, limit: u64) -> Result<u64, InputError> {
    let meta = std::fs::metadata(path).map_err(InputError::Io)?;
    check_meta(&meta, limit)
}

fn check_meta(meta: &Metadata, limit: u64) -> Result<u64, InputError> {
    if let Some(kind) = kind_of(meta) {
        return Err(InputError::NotRegular { kind });
    }
    if meta.len() > limit {
        return Err(InputError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    Ok(meta.len())
}

/// Open a regular file of at most `limit` bytes for reading. The handle reads at most
/// `limit` bytes even if the file grows after the check.
pub fn open_regular(path: &Path, limit: u64) -> Result<io::Take<File>, InputError> {
    check_regular(path, limit)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(InputError::Io)?;
    // The path may have been swapped for something else between the two looks.
    check_meta(&file.metadata().map_err(InputError::Io)?, limit)?;
    Ok(file.take(limit))
}

/// Read a whole regular file of at most `limit` bytes.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let size = check_regular(path, limit)?;
    let mut reader = open_regular(path, limit)?;
    let mut bytes = Vec::with_capacity(size as usize);
    reader.read_to_end(&mut bytes).map_err(InputError::Io)?;
    Ok(bytes)
}

/// [`read_regular`] with the error located at the file's display name.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, ScenarioError> {
    read_regular(path, limit).map_err(|e| e.at(&path.display().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("retroanim-input-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn missing_file_and_directory_name_the_cause() {
        let d = temp("kinds");
        let e = read_regular(&d.join("nope.json"), 100).unwrap_err();
        assert_eq!(e.to_string(), "cannot read: no such file or directory");
        let e = read_regular(&d, 100).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read: a directory, not a regular file"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loop_is_named() {
        let d = temp("loop");
        std::os::unix::fs::symlink(d.join("b"), d.join("a")).unwrap();
        std::os::unix::fs::symlink(d.join("a"), d.join("b")).unwrap();
        let e = read_regular(&d.join("a"), 100).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read: too many levels of symbolic links (a symlink loop)"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn dev_zero_is_refused_as_a_device() {
        let e = read_regular(Path::new("/dev/zero"), 1 << 30).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read: a character device, not a regular file"
        );
    }

    #[test]
    fn file_over_the_limit_is_refused_with_both_sizes() {
        let d = temp("size");
        let p = d.join("big.json");
        std::fs::write(&p, [b' '; 11]).unwrap();
        let e = read_regular(&p, 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read: the file is 11 bytes, over the input limit of 10 bytes"
        );
        assert_eq!(read_regular(&p, 11).unwrap().len(), 11);
        let _ = std::fs::remove_dir_all(&d);
    }
}
