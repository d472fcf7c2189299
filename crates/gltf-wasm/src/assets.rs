//! The sample assets built into the module, and how a scenario's relative paths find
//! them: as the main module resolves them (as if the scenario sat in the engine folder's
//! `scenarios/` subfolder, failing that relative to the engine folder), never above the
//! engine folder. There is no file system underneath.

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

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

/// The paths under `assets/` that `rel` may name, in the order they are tried.
fn candidates(engine: &str, rel: &str) -> Result<Vec<String>, String> {
    if rel.starts_with('/') || rel.starts_with('\\') || rel.contains(':') || rel.contains('\0') {
        return Err(format!(
            "absolute asset paths are not allowed ('{rel}'); name a path relative to the asset folder"
        ));
    }
    let rel = rel.replace('\\', "/");
    Ok(["scenarios", ""]
        .iter()
        .filter_map(|start| normalise(&format!("{start}/{rel}")))
        .map(|n| {
            if n.is_empty() {
                engine.to_string()
            } else {
                format!("{engine}/{n}")
            }
        })
        .collect())
}

/// The built-in file a scenario path names (its path under `assets/`).
pub fn resolve(engine: &str, rel: &str) -> Result<String, String> {
    candidates(engine, rel)?
        .into_iter()
        .find(|p| file(p).is_some())
        .ok_or_else(|| format!("no file '{rel}' among the assets built into this page"))
}

/// The built-in folder a scenario path names (its path under `assets/`).
pub fn resolve_dir(engine: &str, rel: &str) -> Result<String, String> {
    candidates(engine, rel)?
        .into_iter()
        .find(|p| files_in(p).next().is_some())
        .ok_or_else(|| format!("no folder '{rel}' among the assets built into this page"))
}

/// A built-in file by its path under `assets/`.
pub fn file(path: &str) -> Option<&'static [u8]> {
    ASSETS.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

/// The files directly inside folder `dir` (a path under `assets/`), with their names.
pub fn files_in(dir: &str) -> impl Iterator<Item = (&'static str, &'static [u8])> + '_ {
    ASSETS.iter().filter_map(move |(p, b)| {
        let rest = p.strip_prefix(dir)?.strip_prefix('/')?;
        (!rest.contains('/')).then_some((rest, *b))
    })
}
