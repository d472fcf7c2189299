//! Scenario files: `{"engine": ..., <engine fields>, "steps": [...]}`.
//!
//! The core reads only `engine` and `steps`; everything else belongs to the engine,
//! which pulls typed fields out with [`Scenario::field`] so that a mistake is reported
//! with the file and the JSON path (`setup.origin[1]: invalid type: ...`).

use crate::error::ScenarioError;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A parsed scenario document.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Shown in errors: the file path, or a label such as `<browser>`.
    pub file: String,
    /// Directory that relative asset paths are resolved against.
    pub dir: PathBuf,
    /// The `engine` field.
    pub engine: String,
    /// The whole document (without `steps` when the steps are streamed).
    pub doc: Value,
    /// The distinct `op` names of the steps when they are streamed (None: read them
    /// from `doc`). See [`Scenario::uses_op`].
    pub step_ops: Option<std::collections::BTreeSet<String>>,
}

impl Scenario {
    /// Read and parse a scenario file (a regular file of at most
    /// [`crate::input::DEFAULT_MAX_WHOLE_BYTES`]; [`crate::ScenarioFile`] streams larger ones).
    pub fn from_file(path: &Path) -> Result<Scenario, ScenarioError> {
        let file = path.display().to_string();
        let bytes = crate::input::read_file(path, crate::input::DEFAULT_MAX_WHOLE_BYTES)?;
        let text = String::from_utf8(bytes).map_err(|e| {
            ScenarioError::new(
                &file,
                format!("byte {}", e.utf8_error().valid_up_to()),
                "cannot read: not UTF-8 text",
            )
        })?;
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        Scenario::from_str(&text, &file, dir)
    }

    /// Parse scenario text; `file` names it in errors, `dir` resolves relative paths.
    pub fn from_str(text: &str, file: &str, dir: PathBuf) -> Result<Scenario, ScenarioError> {
        let doc: Value = serde_json::from_str(text).map_err(|e| {
            ScenarioError::new(
                file,
                format!("line {}, column {}", e.line(), e.column()),
                format!("malformed JSON: {}", strip_position(&e.to_string())),
            )
        })?;
        Scenario::from_value(doc, file, dir)
    }

    /// Wrap an already parsed document.
    pub fn from_value(doc: Value, file: &str, dir: PathBuf) -> Result<Scenario, ScenarioError> {
        let obj = doc
            .as_object()
            .ok_or_else(|| ScenarioError::new(file, "$", "a scenario must be a JSON object"))?;
        let engine = match obj.get("engine") {
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(ScenarioError::new(file, "engine", "expected a string")),
            None => return Err(ScenarioError::new(file, "engine", "missing field")),
        };
        match obj.get("steps") {
            None | Some(Value::Array(_)) => {}
            Some(_) => return Err(ScenarioError::new(file, "steps", "expected an array")),
        }
        Ok(Scenario {
            file: file.to_string(),
            dir,
            engine,
            doc,
            step_ops: None,
        })
    }

    /// Whether any step has the op `name` (also when the steps are streamed), so an
    /// engine can choose at load time which keys every trace line carries.
    pub fn uses_op(&self, name: &str) -> bool {
        match &self.step_ops {
            Some(ops) => ops.contains(name),
            None => self
                .steps()
                .iter()
                .any(|s| s.get("op").and_then(Value::as_str) == Some(name)),
        }
    }

    /// The steps (an empty list when the scenario has none).
    pub fn steps(&self) -> &[Value] {
        self.doc
            .get("steps")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The raw value of a top-level field.
    pub fn raw(&self, name: &str) -> Option<&Value> {
        self.doc.get(name)
    }

    /// Deserialize a top-level field; `Ok(None)` when it is absent.
    pub fn field<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, ScenarioError> {
        match self.doc.get(name) {
            None => Ok(None),
            Some(v) => from_value_at(v, &self.file, name).map(Some),
        }
    }

    /// Resolve a path written in the scenario against the scenario's directory.
    pub fn resolve(&self, rel: &str) -> PathBuf {
        let p = Path::new(rel);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.dir.join(p)
        }
    }

    /// An error located in this scenario's file.
    pub fn error(&self, at: impl Into<String>, message: impl Into<String>) -> ScenarioError {
        ScenarioError::new(&self.file, at, message)
    }
}

/// Deserialize `value` into `T`, reporting faults as `{file}: {base}.{inner path}: ...`.
pub fn from_value_at<T: DeserializeOwned>(
    value: &Value,
    file: &str,
    base: &str,
) -> Result<T, ScenarioError> {
    serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
        let mut inner = e.path().to_string();
        if inner.is_empty() || inner == "." {
            if let Some(key) = culprit_key::<T>(value) {
                inner = key;
            }
        }
        let at = join_path(base, &inner);
        ScenarioError::new(file, at, e.inner().to_string())
    })
}

/// Internally tagged enums (`{"op": "tick", "dt": "x"}`) buffer their fields before
/// deserializing them, so serde loses the field path. Find the field by removing
/// each one in turn: the culprit is the key whose absence turns the error into
/// "missing field" or makes the value deserialize. The tag itself (`op`, the name all
/// three step formats use) is never the culprit of a field error.
fn culprit_key<T: DeserializeOwned>(value: &Value) -> Option<String> {
    let obj = value.as_object()?;
    for key in obj.keys().filter(|k| k.as_str() != "op") {
        let mut probe = obj.clone();
        probe.remove(key);
        // Through the same deserializer as `from_value_at`, so that each `T` is compiled
        // once (it is what most of the static page's WebAssembly module consists of).
        match serde_path_to_error::deserialize::<_, T>(&Value::Object(probe)) {
            Ok(_) => return Some(key.clone()),
            Err(e) if e.inner().to_string() == format!("missing field `{key}`") => {
                return Some(key.clone())
            }
            Err(_) => {}
        }
    }
    None
}

/// Join a base JSON path and a relative one produced by serde_path_to_error (`.`
/// means "the value itself").
pub fn join_path(base: &str, inner: &str) -> String {
    if inner.is_empty() || inner == "." {
        base.to_string()
    } else if base.is_empty() {
        inner.to_string()
    } else if inner.starts_with('[') {
        format!("{base}{inner}")
    } else {
        format!("{base}.{inner}")
    }
}

/// serde_json appends " at line L column C"; we print the position ourselves.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Setup {
        origin: [f32; 3],
    }

    #[test]
    fn malformed_json_names_line_and_column() {
        let e = Scenario::from_str("{\n \"engine\": ,}", "s.json", PathBuf::from(".")).unwrap_err();
        assert_eq!(e.file, "s.json");
        assert_eq!(e.at, "line 2, column 12");
        assert!(e.message.starts_with("malformed JSON"), "{}", e.message);
    }

    #[test]
    fn field_errors_carry_the_json_path() {
        let s = Scenario::from_str(
            r#"{"engine":"ac","setup":{"origin":[0,"x",0]},"steps":[]}"#,
            "s.json",
            PathBuf::from("."),
        )
        .unwrap();
        let e = s.field::<Setup>("setup").unwrap_err();
        assert_eq!(e.at, "setup.origin[1]");
        assert_eq!(
            e.to_string(),
            "s.json: setup.origin[1]: invalid type: string \"x\", expected f32"
        );
    }

    #[test]
    fn missing_engine_and_bad_steps_are_errors() {
        let e = Scenario::from_str("{}", "a.json", PathBuf::from(".")).unwrap_err();
        assert_eq!(
            (e.at.as_str(), e.message.as_str()),
            ("engine", "missing field")
        );
        let e = Scenario::from_str(r#"{"engine":"x","steps":3}"#, "a.json", PathBuf::from("."))
            .unwrap_err();
        assert_eq!(e.at, "steps");
        let e = Scenario::from_str("[1]", "a.json", PathBuf::from(".")).unwrap_err();
        assert_eq!(e.at, "$");
    }

    #[test]
    fn paths_join() {
        assert_eq!(join_path("steps[3]", "dt"), "steps[3].dt");
        assert_eq!(join_path("steps[3]", "."), "steps[3]");
        assert_eq!(join_path("setup", "[2]"), "setup[2]");
        assert_eq!(join_path("", "a.b"), "a.b");
    }

    #[test]
    fn relative_paths_resolve_against_the_scenario_dir() {
        let s = Scenario::from_str(r#"{"engine":"x"}"#, "d/s.json", PathBuf::from("d")).unwrap();
        assert_eq!(s.resolve("../assets"), PathBuf::from("d/../assets"));
        assert!(s.steps().is_empty());
    }
}
