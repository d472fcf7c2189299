//! The one door every file read goes through: regular files only, opened without
//! blocking, under a size cap per kind of file.
//!
//! `/dev/zero` never ends and a FIFO blocks until someone writes to it, so every
//! reader checks the file type before opening, opens without blocking (a FIFO put in
//! the path's place after the check cannot hold the open), checks the type again on
//! the open handle, and reads at most one byte past the cap (a file that grows while
//! it is read cannot make the reader allocate more than the cap). The CLI, the
//! browser, the C ABI and the engines' loaders all read through here, so all say the
//! same thing about the same file; `clippy.toml` forbids every other way to open one.
//!
//! A file named by a scenario field is refused with that field's JSON path:
//! [`InputError::naming`] gives the message, the caller's scenario the location, as in
//! `s.json: assets: cannot read /dev/zero: a character device, not a regular file`.

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

/// Cap of a JSON document a scenario names and that is parsed whole: an actor set
/// (`assets`), a HERC animation list (`asset`), a chassis in JSON
/// (`setup.mech.chassis`). The largest sample is under 100 KB; parsed JSON costs a
/// few times its size, so 64 MiB keeps a load under a few hundred MiB.
pub const MAX_JSON_ASSET_BYTES: u64 = 64 << 20;

/// Cap of one AC record file in an `asset_dir` (`<id>.bin`: a MotionTable, an
/// Animation, a Setup, a GfxObj). The largest record of the original game's portal
/// DAT is well under 1 MiB; 16 MiB leaves room for authored ones.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// Cap of a binary file a loader reads whole: a HERC VOL archive or DTS shape
/// (`setup.mech.vol`, `setup.mech.shape`), a binary chassis record
/// (`setup.mech.chassis`), the page's WebAssembly module.
pub const MAX_BINARY_BYTES: u64 = DEFAULT_MAX_WHOLE_BYTES;

/// Cap of a container that is opened and read by offset, never whole (an AC DAT such
/// as `client_portal.dat`): only the records asked for are read, each under its own
/// cap, so the file's size costs no memory. The original game's largest DAT is under
/// 4 GiB.
pub const MAX_CONTAINER_BYTES: u64 = 16 << 30;

/// The kinds of file retroanim reads, each with its cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Scenarios and traces read as a stream: [`DEFAULT_MAX_STREAMED_BYTES`].
    Streamed,
    /// A file read whole by `inspect` or the browser: [`DEFAULT_MAX_WHOLE_BYTES`].
    Whole,
    /// A JSON asset a scenario names: [`MAX_JSON_ASSET_BYTES`].
    JsonAsset,
    /// One AC record file: [`MAX_RECORD_BYTES`].
    Record,
    /// A binary file read whole (VOL, DTS, chassis, wasm): [`MAX_BINARY_BYTES`].
    Binary,
    /// A container read by offset (AC DAT): [`MAX_CONTAINER_BYTES`].
    Container,
}

impl FileKind {
    /// The kind's size cap in bytes.
    pub const fn cap(self) -> u64 {
        match self {
            FileKind::Streamed => DEFAULT_MAX_STREAMED_BYTES,
            FileKind::Whole => DEFAULT_MAX_WHOLE_BYTES,
            FileKind::JsonAsset => MAX_JSON_ASSET_BYTES,
            FileKind::Record => MAX_RECORD_BYTES,
            FileKind::Binary => MAX_BINARY_BYTES,
            FileKind::Container => MAX_CONTAINER_BYTES,
        }
    }
}

/// Why a file was not read.
#[derive(Debug)]
pub enum InputError {
    /// The path does not name a regular file (directory, FIFO, device, socket).
    NotRegular { kind: &'static str },
    /// The file is larger than the caller's limit.
    TooLarge { size: u64, limit: u64 },
    /// The file grew past the limit while it was read.
    Grew { limit: u64 },
    /// The file is not UTF-8 text (for readers of text): the first bad byte.
    NotText { byte: usize },
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
            InputError::Grew { limit } => write!(
                f,
                "cannot read: the file grew past the input limit of {limit} bytes while it was read"
            ),
            InputError::NotText { byte } => {
                write!(f, "cannot read: not UTF-8 text (byte {byte})")
            }
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

    /// The message for a file another document named: `cannot read PATH: why`. The
    /// caller locates it at the naming field (`assets`, `setup.mech.vol`, ...).
    pub fn naming(&self, path: &Path) -> String {
        format!(
            "cannot read {}: {}",
            printable(&path.display().to_string()),
            self.reason()
        )
    }

    /// Why, without the leading `cannot read: `.
    pub fn reason(&self) -> String {
        let text = self.to_string();
        match text.strip_prefix("cannot read: ") {
            Some(why) => why.to_string(),
            None => text,
        }
    }

    /// True when the file does not exist (some callers report a missing record by id).
    pub fn is_not_found(&self) -> bool {
        matches!(self, InputError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// `text` with control characters (a NUL byte in a path, a newline) escaped as
/// `\u{0}`, so that an error message prints on one line and shows what is there.
pub fn printable(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
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

/// Open a regular file of at most `limit` bytes: the one place a file is opened.
///
/// The type is checked on the path, the file opened with `O_NONBLOCK` and the type and
/// size checked again on the handle, so a FIFO or device swapped in between cannot
/// hold the open or the reads. Containers read by offset (DAT) use the handle as it
/// is; everything else reads through [`open_regular`] or [`read_regular`].
pub fn open_file(path: &Path, limit: u64) -> Result<File, InputError> {
    check_regular(path, limit)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    // The one sanctioned open: every reader in the workspace comes through here
    // (clippy.toml's disallowed-methods sends all others to this module).
    #[allow(clippy::disallowed_methods)]
    let file = options.open(path).map_err(InputError::Io)?;
    // The path may have been swapped for something else between the two looks.
    check_meta(&file.metadata().map_err(InputError::Io)?, limit)?;
    Ok(file)
}

/// [`open_file`] with the kind's cap.
pub fn open_kind(path: &Path, kind: FileKind) -> Result<File, InputError> {
    open_file(path, kind.cap())
}

/// Open a regular file of at most `limit` bytes for reading. The handle reads at most
/// `limit` bytes even if the file grows after the check.
pub fn open_regular(path: &Path, limit: u64) -> Result<io::Take<File>, InputError> {
    Ok(open_file(path, limit)?.take(limit))
}

/// Read a whole regular file of at most `limit` bytes. At most `limit + 1` bytes are
/// read whatever the file does meanwhile; one byte past the cap refuses it.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let file = open_file(path, limit)?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0).min(limit);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(InputError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(InputError::Grew { limit });
    }
    Ok(bytes)
}

/// [`read_regular`] with the kind's cap.
pub fn read_kind(path: &Path, kind: FileKind) -> Result<Vec<u8>, InputError> {
    read_regular(path, kind.cap())
}

/// [`read_regular`] of UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, InputError> {
    String::from_utf8(read_regular(path, limit)?).map_err(|e| InputError::NotText {
        byte: e.utf8_error().valid_up_to(),
    })
}

/// [`read_text`] with the kind's cap.
pub fn read_text_kind(path: &Path, kind: FileKind) -> Result<String, InputError> {
    read_text(path, kind.cap())
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

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let d = temp("fifo");
        let p = d.join("named.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&p)
            .status()
            .unwrap();
        assert!(made.success());
        // A hang guard: a blocking open would never return.
        let (tx, rx) = std::sync::mpsc::channel();
        let q = p.clone();
        std::thread::spawn(move || {
            let _ = tx.send(read_kind(&q, FileKind::JsonAsset).map_err(|e| e.to_string()));
        });
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("the read returned");
        assert_eq!(
            got.unwrap_err(),
            "cannot read: a FIFO (named pipe), not a regular file"
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_to_dev_zero_is_refused_as_the_device_it_names() {
        let d = temp("zero-link");
        let p = d.join("09000001.bin");
        std::os::unix::fs::symlink("/dev/zero", &p).unwrap();
        let e = read_kind(&p, FileKind::Record).unwrap_err();
        assert_eq!(
            e.naming(&p),
            format!(
                "cannot read {}: a character device, not a regular file",
                p.display()
            )
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_longer_than_its_size_says_is_read_to_one_byte_past_the_cap() {
        // /proc files are regular and report 0 bytes, yet read like a file that grows:
        // the reader stops at the cap plus one byte and refuses.
        let e = read_regular(Path::new("/proc/self/status"), 16).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot read: the file grew past the input limit of 16 bytes while it was read"
        );
    }

    #[test]
    fn an_open_handle_reads_by_offset() {
        use std::io::{Seek, SeekFrom};
        let d = temp("open");
        let p = d.join("c.dat");
        std::fs::write(&p, b"0123456789").unwrap();
        let mut f = open_kind(&p, FileKind::Container).unwrap();
        f.seek(SeekFrom::Start(7)).unwrap();
        let mut b = [0u8; 3];
        f.read_exact(&mut b).unwrap();
        assert_eq!(&b, b"789");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn control_characters_are_escaped_in_named_paths() {
        assert_eq!(printable("rec\0ords\n"), "rec\\u{0}ords\\n");
        assert_eq!(printable("plain/path.bin"), "plain/path.bin");
    }

    #[test]
    fn every_kind_has_its_documented_cap() {
        assert_eq!(FileKind::Streamed.cap(), 1_073_741_824);
        assert_eq!(FileKind::Whole.cap(), 268_435_456);
        assert_eq!(FileKind::JsonAsset.cap(), 67_108_864);
        assert_eq!(FileKind::Record.cap(), 16_777_216);
        assert_eq!(FileKind::Binary.cap(), 268_435_456);
        assert_eq!(FileKind::Container.cap(), 17_179_869_184);
    }
}
