//! What every fuzz target checks once a reader or runner has accepted its input:
//! the rules of docs/limits.md that a fuzzer can observe.

use serde_json::Value;
use std::path::PathBuf;

/// Largest trace line the limits allow (docs/limits.md); well above every real line.
pub const MAX_LINE_BYTES: usize = 512 * 1024;

/// A directory of the repository (relative paths in scenarios resolve against it).
pub fn repo_dir(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

/// Panic (a fuzzer finding) when an accepted trace breaks a limit: NaN/Infinity in a
/// line, or a line past [`MAX_LINE_BYTES`].
pub fn check_trace(lines: &[Value]) {
    for l in lines {
        let text = l.to_string();
        for bad in ["\"NaN\"", "\"Infinity\"", "\"-Infinity\""] {
            assert!(!text.contains(bad), "non-finite number in an accepted trace: {text}");
        }
        assert!(text.len() <= MAX_LINE_BYTES, "trace line of {} bytes", text.len());
    }
}
