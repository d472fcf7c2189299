//! A scenario read from disk without holding its steps in memory.
//!
//! A scenario is one JSON object whose `steps` array may be most of the file. The file
//! is read twice, both times as a stream:
//!
//! 1. [`ScenarioFile::open`] checks the whole document's syntax and keeps every
//!    top-level field except `steps` (the setup and asset blocks the engine loads),
//!    counting the steps without keeping them. A syntax error anywhere is reported
//!    before any step runs, exactly as when the document was parsed at once.
//! 2. [`ScenarioFile::for_each_step`] reads the file again and hands each step to the
//!    caller as soon as it is parsed, then drops it.
//!
//! Memory is the kept fields plus one step, whatever the number of steps. JSON allows
//! a key twice; as with a whole-document parse, the last `steps` wins.

use crate::error::ScenarioError;
use crate::input::{open_regular, InputError};
use crate::scenario::Scenario;
use crate::sim::StepSource;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::fmt;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// A scenario file opened for streaming: its fields without `steps`, and where the
/// steps are.
#[derive(Debug, Clone)]
pub struct ScenarioFile {
    path: PathBuf,
    limit: u64,
    scenario: Scenario,
    steps: usize,
    /// How many `steps` keys the document has (the last one is played).
    steps_keys: usize,
}

impl ScenarioFile {
    /// Check `path` (a regular file of at most `limit` bytes) and read everything but
    /// the steps.
    pub fn open(path: &Path, limit: u64) -> Result<ScenarioFile, ScenarioError> {
        let file = path.display().to_string();
        let reader = open_regular(path, limit).map_err(|e| e.at(&file))?;
        let mut de = serde_json::Deserializer::from_reader(BufReader::new(reader));
        let outline = de
            .deserialize_any(OutlineVisitor)
            .and_then(|o| de.end().map(|()| o))
            .map_err(|e| json_error(&file, &e))?;
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let Outline::Object {
            fields,
            steps,
            steps_keys,
        } = outline
        else {
            return Err(ScenarioError::new(
                &file,
                "$",
                "a scenario must be a JSON object",
            ));
        };
        let mut scenario = Scenario::from_value(Value::Object(fields), &file, dir)?;
        let steps = match steps {
            Some(StepsOutline::Array(n, ops)) => {
                scenario.step_ops = Some(ops);
                n
            }
            Some(StepsOutline::NotArray) => {
                return Err(ScenarioError::new(&file, "steps", "expected an array"))
            }
            None => 0,
        };
        Ok(ScenarioFile {
            path: path.to_path_buf(),
            limit,
            scenario,
            steps,
            steps_keys,
        })
    }

    /// The scenario without its steps (what an engine's `load` reads).
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The number of steps.
    pub fn step_count(&self) -> usize {
        self.steps
    }
}

impl StepSource for ScenarioFile {
    fn for_each_step(
        &self,
        f: &mut dyn FnMut(usize, &Value) -> Result<(), ScenarioError>,
    ) -> Result<(), ScenarioError> {
        if self.steps_keys == 0 {
            return Ok(());
        }
        let file = &self.scenario.file;
        let reader = open_regular(&self.path, self.limit).map_err(|e| e.at(file))?;
        let mut de = serde_json::Deserializer::from_reader(BufReader::new(reader));
        let stopped = RefCell::new(None);
        let result = de.deserialize_map(PlayVisitor {
            want: self.steps_keys,
            f,
            stopped: &stopped,
        });
        if let Some(e) = stopped.into_inner() {
            return Err(e);
        }
        result.map_err(|e| json_error(file, &e))
    }
}

fn json_error(file: &str, e: &serde_json::Error) -> ScenarioError {
    if e.is_io() {
        let io = std::io::Error::new(
            e.io_error_kind().unwrap_or(std::io::ErrorKind::Other),
            e.to_string(),
        );
        return InputError::Io(io).at(file);
    }
    ScenarioError::new(
        file,
        format!("line {}, column {}", e.line(), e.column()),
        format!("malformed JSON: {}", strip_position(&e.to_string())),
    )
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

enum Outline {
    Object {
        fields: Map<String, Value>,
        steps: Option<StepsOutline>,
        steps_keys: usize,
    },
    Other,
}

enum StepsOutline {
    /// The step count and the distinct `op` names the steps use.
    Array(usize, std::collections::BTreeSet<String>),
    NotArray,
}

struct OutlineVisitor;

impl<'de> Visitor<'de> for OutlineVisitor {
    type Value = Outline;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Outline, A::Error> {
        let mut fields = Map::new();
        let mut steps = None;
        let mut steps_keys = 0;
        while let Some(key) = map.next_key::<String>()? {
            if key == "steps" {
                steps = Some(map.next_value_seed(StepsProbe)?);
                steps_keys += 1;
            } else {
                let v: Value = map.next_value()?;
                fields.insert(key, v);
            }
        }
        Ok(Outline::Object {
            fields,
            steps,
            steps_keys,
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Outline, A::Error> {
        while seq.next_element::<Value>()?.is_some() {}
        Ok(Outline::Other)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Outline, E> {
        Ok(Outline::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Outline, E> {
        Ok(Outline::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Outline, E> {
        Ok(Outline::Other)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Outline, E> {
        Ok(Outline::Other)
    }
    fn visit_str<E>(self, _: &str) -> Result<Outline, E> {
        Ok(Outline::Other)
    }
    fn visit_unit<E>(self) -> Result<Outline, E> {
        Ok(Outline::Other)
    }
}

/// Counts the steps (checking their syntax) without keeping them.
struct StepsProbe;

impl<'de> DeserializeSeed<'de> for StepsProbe {
    type Value = StepsOutline;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<StepsOutline, D::Error> {
        d.deserialize_any(StepsProbe)
    }
}

impl<'de> Visitor<'de> for StepsProbe {
    type Value = StepsOutline;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StepsOutline, A::Error> {
        // Each step is parsed as the second pass will parse it (so a step nested too
        // deeply fails here, before any runs), then dropped.
        let mut n = 0;
        let mut ops = std::collections::BTreeSet::new();
        while let Some(step) = seq.next_element::<Value>()? {
            if let Some(op) = step.get("op").and_then(Value::as_str) {
                if !ops.contains(op) {
                    ops.insert(op.to_string());
                }
            }
            n += 1;
        }
        Ok(StepsOutline::Array(n, ops))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StepsOutline, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(StepsOutline::NotArray)
    }

    fn visit_bool<E>(self, _: bool) -> Result<StepsOutline, E> {
        Ok(StepsOutline::NotArray)
    }
    fn visit_i64<E>(self, _: i64) -> Result<StepsOutline, E> {
        Ok(StepsOutline::NotArray)
    }
    fn visit_u64<E>(self, _: u64) -> Result<StepsOutline, E> {
        Ok(StepsOutline::NotArray)
    }
    fn visit_f64<E>(self, _: f64) -> Result<StepsOutline, E> {
        Ok(StepsOutline::NotArray)
    }
    fn visit_str<E>(self, _: &str) -> Result<StepsOutline, E> {
        Ok(StepsOutline::NotArray)
    }
    fn visit_unit<E>(self) -> Result<StepsOutline, E> {
        Ok(StepsOutline::NotArray)
    }
}

/// Second pass: skips to the last `steps` key and plays each element as it is parsed.
struct PlayVisitor<'a> {
    want: usize,
    f: &'a mut dyn FnMut(usize, &Value) -> Result<(), ScenarioError>,
    stopped: &'a RefCell<Option<ScenarioError>>,
}

impl<'de> Visitor<'de> for PlayVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a scenario object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = 0;
        while let Some(key) = map.next_key::<String>()? {
            if key != "steps" {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            seen += 1;
            if seen < self.want {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            map.next_value_seed(StepsPlayer {
                f: &mut *self.f,
                stopped: self.stopped,
            })?;
        }
        Ok(())
    }
}

struct StepsPlayer<'a> {
    f: &'a mut dyn FnMut(usize, &Value) -> Result<(), ScenarioError>,
    stopped: &'a RefCell<Option<ScenarioError>>,
}

impl<'de> DeserializeSeed<'de> for StepsPlayer<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for StepsPlayer<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of steps")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        while let Some(step) = seq.next_element::<Value>()? {
            if let Err(e) = (self.f)(i, &step) {
                *self.stopped.borrow_mut() = Some(e);
                return Err(de::Error::custom("stopped by a step error"));
            }
            i += 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(tag: &str, text: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("retroanim-sfile-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let p = d.join(format!("{tag}.json"));
        std::fs::write(&p, text).unwrap();
        p
    }

    fn steps_of(f: &ScenarioFile) -> Vec<String> {
        let mut got = Vec::new();
        f.for_each_step(&mut |i, v| {
            got.push(format!("{i}:{v}"));
            Ok(())
        })
        .unwrap();
        got
    }

    #[test]
    fn fields_are_kept_and_steps_streamed_in_order() {
        let p = write(
            "order",
            r#"{"steps":[{"a":1},{"a":2}],"engine":"x","setup":{"k":[1,2]}}"#,
        );
        let f = ScenarioFile::open(&p, 1 << 20).unwrap();
        assert_eq!(f.step_count(), 2);
        assert_eq!(f.scenario().engine, "x");
        assert_eq!(
            f.scenario().raw("setup").unwrap().to_string(),
            r#"{"k":[1,2]}"#
        );
        assert!(f.scenario().raw("steps").is_none());
        assert_eq!(steps_of(&f), vec![r#"0:{"a":1}"#, r#"1:{"a":2}"#]);
    }

    #[test]
    fn the_last_steps_key_wins_as_in_a_whole_parse() {
        let p = write("dup", r#"{"engine":"x","steps":[1,2,3],"steps":[4]}"#);
        let f = ScenarioFile::open(&p, 1 << 20).unwrap();
        assert_eq!(f.step_count(), 1);
        assert_eq!(steps_of(&f), vec!["0:4"]);
    }

    #[test]
    fn syntax_error_after_the_steps_is_found_before_any_step_runs() {
        let p = write("late", "{\"engine\":\"x\",\"steps\":[1,2],\n\"z\": tru}");
        let e = ScenarioFile::open(&p, 1 << 20).unwrap_err();
        assert_eq!(e.at, "line 2, column 9");
        assert!(e.message.starts_with("malformed JSON: "), "{}", e.message);
    }

    #[test]
    fn shape_errors_match_the_whole_document_reader() {
        let p = write("arr", "[1]");
        assert_eq!(ScenarioFile::open(&p, 1 << 20).unwrap_err().at, "$");
        let p = write("noeng", r#"{"steps":[]}"#);
        let e = ScenarioFile::open(&p, 1 << 20).unwrap_err();
        assert_eq!(
            (e.at.as_str(), e.message.as_str()),
            ("engine", "missing field")
        );
        let p = write("badsteps", r#"{"engine":"x","steps":{"a":1}}"#);
        assert_eq!(ScenarioFile::open(&p, 1 << 20).unwrap_err().at, "steps");
        let p = write("trailing", r#"{"engine":"x"} 5"#);
        let e = ScenarioFile::open(&p, 1 << 20).unwrap_err();
        assert_eq!(e.at, "line 1, column 16");
    }

    #[test]
    fn too_deep_nesting_is_a_syntax_error_found_in_the_first_pass() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let p = write("deep", &format!(r#"{{"engine":"x","steps":[{deep}]}}"#));
        let e = ScenarioFile::open(&p, 1 << 20).unwrap_err();
        assert!(e.message.contains("recursion limit exceeded"), "{e}");
        let p = write("deeptop", &deep);
        let e = ScenarioFile::open(&p, 1 << 20).unwrap_err();
        assert!(e.message.contains("recursion limit exceeded"), "{e}");
    }

    #[test]
    fn a_step_error_stops_the_stream_and_is_returned() {
        let p = write("stop", r#"{"engine":"x","steps":[1,2,3]}"#);
        let f = ScenarioFile::open(&p, 1 << 20).unwrap();
        let mut seen = 0;
        let e = f
            .for_each_step(&mut |i, _| {
                seen += 1;
                if i == 1 {
                    Err(ScenarioError::new("s", "steps[1]", "no"))
                } else {
                    Ok(())
                }
            })
            .unwrap_err();
        assert_eq!((e.at.as_str(), seen), ("steps[1]", 2));
    }
}
