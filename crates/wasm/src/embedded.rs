//! The files built into the module, and how a scenario's relative paths find them.
//!
//! Paths resolve the way the model browser's server resolves them (so the same
//! scenarios work in both): as if the scenario sat in the engine folder's
//! `scenarios/` subfolder, failing that relative to the engine folder. A path is
//! refused when it is absolute or when its `..` would climb above the engine folder;
//! there is no file system underneath, so nothing else can be reached.

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

use std::sync::OnceLock;

/// The built-in files unpacked, the first time one is asked for. Empty if the stream is
/// broken (it is written by the build script, so it is not): every engine then reports
/// its assets as missing instead of the module trapping.
fn unpacked() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        use std::io::Read as _;
        let mut out = Vec::with_capacity(UNPACKED_LEN);
        let mut z = flate2::read::DeflateDecoder::new(PACKED);
        match z.read_to_end(&mut out) {
            Ok(_) if out.len() == UNPACKED_LEN => out,
            _ => Vec::new(),
        }
    })
}

/// A table's files with their bytes.
fn files(
    table: &'static [(&'static str, usize, usize)],
) -> impl Iterator<Item = (&'static str, &'static [u8])> {
    let bytes = unpacked();
    table
        .iter()
        .filter_map(move |&(path, at, len)| Some((path, bytes.get(at..at + len)?)))
}

/// Every sample asset with its path under `assets/`.
fn assets() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    files(ASSETS)
}

/// Where relative paths start, in the order they are tried.
const STARTS: [&str; 2] = ["scenarios", ""];

/// `a/./b/../c` to `a/c`; `None` when `..` climbs above the start.
fn normalise(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for c in path.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    Some(parts.join("/"))
}

/// The engine folder's entry a scenario path names: `Ok(path under the folder)` for a
/// file (`want_dir` false) or a folder holding files (`want_dir` true).
pub fn resolve(engine: &str, rel: &str, want_dir: bool) -> Result<String, String> {
    if rel.starts_with('/') || rel.starts_with('\\') || rel.contains(':') || rel.contains('\0') {
        return Err(format!(
            "absolute asset paths are not allowed ('{rel}'); name a path relative to the asset folder"
        ));
    }
    let rel = rel.replace('\\', "/");
    let mut escaped = false;
    for start in STARTS {
        let Some(norm) = normalise(&format!("{start}/{rel}")) else {
            escaped = true;
            continue;
        };
        let full = if norm.is_empty() {
            engine.to_string()
        } else {
            format!("{engine}/{norm}")
        };
        let found = if want_dir {
            let prefix = format!("{full}/");
            assets().any(|(p, _)| p.starts_with(&prefix))
        } else {
            file(&full).is_some()
        };
        if found {
            return Ok(full);
        }
    }
    if escaped {
        return Err(format!(
            "asset path '{rel}' leads outside the asset folder ('..' may not climb above it)"
        ));
    }
    let what = if want_dir { "folder" } else { "file" };
    Err(format!(
        "no {what} '{rel}' among the assets built into this page (only the bundled samples are)"
    ))
}

/// A built-in file by its path under `assets/`.
pub fn file(path: &str) -> Option<&'static [u8]> {
    assets().find(|(p, _)| *p == path).map(|(_, b)| b)
}

/// A built-in file as text (`None`: absent or not UTF-8). JSON is parsed from text only,
/// so that the module carries one JSON reader, not a second one for bytes.
pub fn text(path: &str) -> Option<&'static str> {
    file(path).and_then(|b| std::str::from_utf8(b).ok())
}

/// The files directly inside folder `dir` (a path under `assets/`), with their names.
pub fn files_in(dir: &str) -> impl Iterator<Item = (&'static str, &'static [u8])> + '_ {
    assets().filter_map(move |(p, b)| {
        let rest = p.strip_prefix(dir)?.strip_prefix('/')?;
        (!rest.contains('/')).then_some((rest, b))
    })
}

/// Whether any asset of `engine` is built in.
pub fn has_engine(engine: &str) -> bool {
    let prefix = format!("{engine}/");
    assets().any(|(p, _)| p.starts_with(&prefix))
}

/// A starting scenario of the browser by file name.
pub fn start(name: &str) -> Option<&'static str> {
    files(START_SCENARIOS)
        .find(|(p, _)| *p == name)
        .and_then(|(_, b)| std::str::from_utf8(b).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_paths_resolve_from_the_scenarios_folder_first() {
        assert_eq!(
            resolve("herc", "../biped.json", false).unwrap(),
            "herc/biped.json"
        );
        assert_eq!(
            resolve("herc", "biped.json", false).unwrap(),
            "herc/biped.json"
        );
        assert_eq!(resolve("ac", "../records", true).unwrap(), "ac/records");
        assert_eq!(resolve("ac", ".", true).unwrap(), "ac/scenarios");
    }

    #[test]
    fn paths_may_not_leave_the_engine_folder() {
        let e = resolve("herc", "../../ac/humanoid.json", false).unwrap_err();
        assert!(e.contains("leads outside the asset folder"), "{e}");
        let e = resolve("herc", "/etc/passwd", false).unwrap_err();
        assert!(e.contains("absolute asset paths are not allowed"), "{e}");
        let e = resolve("actor", "nothing.json", false).unwrap_err();
        assert!(e.contains("no file 'nothing.json'"), "{e}");
    }
}
