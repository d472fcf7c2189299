//! Conformance suites: a folder of scenarios, each with a committed expected trace.
//!
//! ```text
//! <root>/scenarios/<name>.json   <root>/traces/<name>.jsonl
//! ```
//! Every engine checks its suites the same way, so the loop lives here. Expected traces
//! are regenerated only on purpose: with the suite's bless variable set to `1` a missing
//! trace is written, with `all` every trace is rewritten, except the ones typed in
//! from a worked example (`typed_in`), which are never written.

use crate::diff::{diff_traces, DiffOptions};
use crate::error::ScenarioError;
use crate::scenario::Scenario;
use crate::trace::{parse_trace, to_jsonl};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// How one suite is checked.
#[derive(Clone, Debug)]
pub struct Suite<'a> {
    pub root: PathBuf,
    pub diff: DiffOptions,
    /// Also require the trace text to be byte-identical (key order, number format).
    pub exact_text: bool,
    /// Environment variable that allows writing traces (`1`: missing ones, `all`: all).
    pub bless_var: &'a str,
    /// Scenario names whose traces are typed in from a worked example and are never written.
    pub typed_in: &'a [&'a str],
}

/// Outcome of a suite: the scenario names checked and one message per failure.
#[derive(Debug, Default)]
pub struct SuiteReport {
    pub names: Vec<String>,
    pub failures: Vec<String>,
}

impl Suite<'_> {
    /// Run every scenario of the suite with `run` and compare with its committed trace.
    pub fn check<F>(&self, run: F) -> SuiteReport
    where
        F: Fn(&Scenario) -> Result<Vec<Value>, ScenarioError>,
    {
        let mut report = SuiteReport::default();
        let mut paths: Vec<PathBuf> = match std::fs::read_dir(self.root.join("scenarios")) {
            Ok(rd) => rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect(),
            Err(e) => {
                report
                    .failures
                    .push(format!("{}: {e}", self.root.join("scenarios").display()));
                return report;
            }
        };
        paths.sort();
        let bless = std::env::var(self.bless_var).unwrap_or_default();
        for path in &paths {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if let Err(msg) = self.check_one(path, &name, &bless, &run) {
                report.failures.push(format!("{name}: {msg}"));
            }
            report.names.push(name);
        }
        report
    }

    /// Check one scenario of the suite by name.
    pub fn check_named<F>(&self, name: &str, run: F) -> Result<(), String>
    where
        F: Fn(&Scenario) -> Result<Vec<Value>, ScenarioError>,
    {
        let path = self.root.join("scenarios").join(format!("{name}.json"));
        let bless = std::env::var(self.bless_var).unwrap_or_default();
        self.check_one(&path, name, &bless, &run)
            .map_err(|msg| format!("{name}: {msg}"))
    }

    fn check_one<F>(&self, path: &Path, name: &str, bless: &str, run: &F) -> Result<(), String>
    where
        F: Fn(&Scenario) -> Result<Vec<Value>, ScenarioError>,
    {
        let scenario = Scenario::from_file(path).map_err(|e| e.to_string())?;
        let got = run(&scenario).map_err(|e| e.to_string())?;
        let trace = self.root.join("traces").join(format!("{name}.jsonl"));
        let writable = !self.typed_in.contains(&name);
        if writable && (bless == "all" || (bless == "1" && !trace.exists())) {
            return std::fs::write(&trace, to_jsonl(&got)).map_err(|e| e.to_string());
        }
        let text = crate::input::read_text_kind(&trace, crate::input::FileKind::Whole)
            .map_err(|e| format!("{}: {e}", trace.display()))?;
        let want = parse_trace(&text, &trace.display().to_string()).map_err(|e| e.to_string())?;
        let report =
            diff_traces(&want, &got, "expected", "actual", self.diff).map_err(|e| e.to_string())?;
        if let Some(d) = report.first {
            return Err(format!("{d} ({} lines differ)", report.divergent_steps));
        }
        if self.exact_text && to_jsonl(&got) != text {
            return Err("same values, different text".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_suite(tag: &str) -> PathBuf {
        let root =
            std::env::temp_dir().join(format!("retroanim-suite-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("scenarios")).unwrap();
        std::fs::create_dir_all(root.join("traces")).unwrap();
        root
    }

    fn echo(s: &Scenario) -> Result<Vec<Value>, ScenarioError> {
        Ok(s.steps().to_vec())
    }

    #[test]
    fn suite_reports_equal_different_and_missing_traces() {
        let root = temp_suite("a");
        let write = |p: &str, t: &str| std::fs::write(root.join(p), t).unwrap();
        write("scenarios/a.json", r#"{"engine":"x","steps":[{"v":1}]}"#);
        write("traces/a.jsonl", "{\"v\":1}\n");
        write("scenarios/b.json", r#"{"engine":"x","steps":[{"v":2}]}"#);
        write("traces/b.jsonl", "{\"v\":3}\n");
        write("scenarios/c.json", r#"{"engine":"x","steps":[{"v":4}]}"#);
        let suite = Suite {
            root: root.clone(),
            diff: DiffOptions::default(),
            exact_text: true,
            bless_var: "RETROANIM_TEST_NEVER_SET",
            typed_in: &[],
        };
        let r = suite.check(echo);
        assert_eq!(r.names, vec!["a", "b", "c"]);
        assert_eq!(r.failures.len(), 2);
        assert_eq!(r.failures[0], "b: step 0: v: 3 vs 2 (1 lines differ)");
        assert!(r.failures[1].starts_with("c: "), "{}", r.failures[1]);
        let _ = std::fs::remove_dir_all(&root);
    }
}
