//! Keeping every asset path a scenario names inside its engine's asset folder.
//!
//! A scenario sent to the server is untrusted: it may name `/etc/passwd`,
//! `../../secret` or a symlink that leads out of the folder. Relative paths are
//! read as if the scenario file sat in the folder's `scenarios/` subfolder (where the
//! bundled sample scenarios live, so their `../flag2.json` works unchanged), and
//! failing that relative to the folder itself. A path is accepted only when it is
//! relative, its `..` components never climb above the folder (checked lexically,
//! and the lexically normalised path is what gets opened), it exists, and its
//! canonical form still lies under the canonical folder (which catches symlinks).

use std::path::{Component, Path, PathBuf};

/// What the path must name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
}

/// Where relative paths start, in the order they are tried.
const STARTS: [&str; 2] = ["scenarios", ""];

/// Resolve `rel` inside `base` (already canonical). Errors are sentences for the user.
pub fn confine(base: &Path, rel: &str, kind: Kind) -> Result<PathBuf, String> {
    if rel.contains('\0') {
        return Err("an asset path must not contain NUL characters".into());
    }
    let p = Path::new(rel);
    if p.is_absolute()
        || rel.starts_with('/')
        || rel.starts_with('\\')
        || p.components()
            .any(|c| matches!(c, Component::RootDir | Component::Prefix(_)))
    {
        return Err(format!(
            "absolute asset paths are not allowed ('{rel}'); name a path relative to the asset folder"
        ));
    }
    let mut escaped = false;
    // A candidate that exists but is refused explains more than one that is missing.
    let mut refused = None;
    for start in STARTS {
        let Some(norm) = normalise(&Path::new(start).join(p)) else {
            escaped = true;
            continue;
        };
        match check(base, &base.join(&norm), rel, kind) {
            Ok(found) => return Ok(found),
            Err(Fault::Missing) => {}
            Err(Fault::Refused(e)) => refused = refused.or(Some(e)),
        }
    }
    if let Some(e) = refused {
        return Err(e);
    }
    if escaped {
        return Err(format!(
            "asset path '{rel}' leads outside the asset folder ('..' may not climb above it)"
        ));
    }
    Err(format!(
        "no such asset '{rel}' (paths are read from the asset folder's scenarios/ subfolder, then from the folder itself)"
    ))
}

enum Fault {
    Missing,
    Refused(String),
}

/// Drop `.` and resolve `..` lexically; `None` when `..` climbs above the start.
fn normalise(p: &Path) -> Option<PathBuf> {
    let mut out: Vec<&std::ffi::OsStr> = Vec::new();
    for c in p.components() {
        match c {
            Component::Normal(s) => out.push(s),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out.iter().collect())
}

fn check(base: &Path, joined: &Path, rel: &str, kind: Kind) -> Result<PathBuf, Fault> {
    let canonical = joined.canonicalize().map_err(|_| Fault::Missing)?;
    if !canonical.starts_with(base) {
        return Err(Fault::Refused(format!(
            "asset path '{rel}' leads outside the asset folder"
        )));
    }
    match kind {
        Kind::File if !canonical.is_file() => {
            Err(Fault::Refused(format!("asset '{rel}' is not a file")))
        }
        Kind::Dir if !canonical.is_dir() => {
            Err(Fault::Refused(format!("asset '{rel}' is not a folder")))
        }
        _ => Ok(canonical),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> (PathBuf, PathBuf) {
        let root = std::env::temp_dir().join(format!(
            "retroanim-browser-paths-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        let base = root.join("herc");
        std::fs::create_dir_all(base.join("sub")).unwrap();
        std::fs::create_dir_all(base.join("scenarios")).unwrap();
        std::fs::write(base.join("a.json"), "{}").unwrap();
        std::fs::write(base.join("sub/b.json"), "{}").unwrap();
        std::fs::write(root.join("secret.json"), "{}").unwrap();
        (root.canonicalize().unwrap(), base.canonicalize().unwrap())
    }

    #[test]
    fn relative_paths_inside_the_folder_resolve() {
        let (_root, base) = folder();
        assert_eq!(
            confine(&base, "a.json", Kind::File).unwrap(),
            base.join("a.json")
        );
        assert_eq!(
            confine(&base, "./sub/b.json", Kind::File).unwrap(),
            base.join("sub/b.json")
        );
        assert_eq!(
            confine(&base, ".", Kind::Dir).unwrap(),
            base.join("scenarios")
        );
        assert_eq!(confine(&base, "sub", Kind::Dir).unwrap(), base.join("sub"));
        // As if the scenario sat in scenarios/: the bundled samples' `../x.json`.
        assert_eq!(
            confine(&base, "../a.json", Kind::File).unwrap(),
            base.join("a.json")
        );
        assert_eq!(
            confine(&base, "sub/../a.json", Kind::File).unwrap(),
            base.join("a.json")
        );
        assert_eq!(confine(&base, "..", Kind::Dir).unwrap(), base);
    }

    #[test]
    fn escapes_are_rejected() {
        let (root, base) = folder();
        let abs = root.join("secret.json").display().to_string();
        assert!(confine(&base, &abs, Kind::File)
            .unwrap_err()
            .contains("absolute"));
        assert!(confine(&base, "../secret.json", Kind::File)
            .unwrap_err()
            .contains("outside"));
        assert!(confine(&base, "../../secret.json", Kind::File)
            .unwrap_err()
            .contains("outside"));
        assert!(confine(&base, "sub/../../../secret.json", Kind::File)
            .unwrap_err()
            .contains("outside"));
        assert!(confine(&base, "missing.json", Kind::File)
            .unwrap_err()
            .contains("no such asset"));
        assert!(confine(&base, "sub", Kind::File)
            .unwrap_err()
            .contains("not a file"));
        assert!(confine(&base, "a.json", Kind::Dir)
            .unwrap_err()
            .contains("not a folder"));
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_leading_outside_are_rejected() {
        let (root, base) = folder();
        std::os::unix::fs::symlink(root.join("secret.json"), base.join("link.json")).unwrap();
        std::os::unix::fs::symlink(&root, base.join("up")).unwrap();
        assert!(confine(&base, "link.json", Kind::File)
            .unwrap_err()
            .contains("outside"));
        assert!(confine(&base, "up/secret.json", Kind::File)
            .unwrap_err()
            .contains("outside"));
        // A symlink that stays inside is fine.
        std::os::unix::fs::symlink(base.join("a.json"), base.join("alias.json")).unwrap();
        assert_eq!(
            confine(&base, "alias.json", Kind::File).unwrap(),
            base.join("a.json")
        );
    }
}
