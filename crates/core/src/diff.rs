//! Field-by-field trace comparison.
//!
//! Integers, strings, booleans, nulls and array lengths must be equal; floats are
//! equal within `|a-b| <= tol` or `|a-b| <= tol * max(|a|,|b|)`. Hex id strings
//! (`"0x..."`) compare case-insensitively, as the conformance specs allow.

use crate::error::ScenarioError;
use serde_json::{Map, Number, Value};

/// Default relative/absolute float tolerance.
pub const DEFAULT_TOLERANCE: f64 = 1e-4;

/// Check a tolerance given by a user: a finite number, zero or more. NaN would make
/// every float comparison false and infinity every one true, silently.
pub fn check_tolerance(t: f64) -> Result<f64, String> {
    if t.is_finite() && t >= 0.0 {
        Ok(t)
    } else {
        Err(format!(
            "the tolerance must be a finite number >= 0, not {t}"
        ))
    }
}

/// Options of a comparison.
#[derive(Clone, Copy, Debug)]
pub struct DiffOptions {
    pub tolerance: f64,
    /// Keys present only in B are ignored (B may extend the format).
    pub allow_extra_keys: bool,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            tolerance: DEFAULT_TOLERANCE,
            allow_extra_keys: false,
        }
    }
}

/// One divergent field.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// The line's `step` field, or its 0-based line index when it has none.
    pub step: u64,
    /// Field path inside the line (`seq.anims[1].framerate`).
    pub path: String,
    pub a: String,
    pub b: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "step {}: {}: {} vs {}",
            self.step, self.path, self.a, self.b
        )
    }
}

/// Result of comparing two traces.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffReport {
    /// Lines compared: the steps both traces have.
    pub lines: usize,
    /// First divergent field of the first divergent line.
    pub first: Option<Divergence>,
    /// Number of lines with at least one divergent field.
    pub divergent_steps: usize,
    /// Lines in A and in B (equal to `lines` when the traces have the same length).
    pub lines_a: usize,
    pub lines_b: usize,
}

impl DiffReport {
    /// Same length and no divergent field.
    pub fn is_equal(&self) -> bool {
        self.first.is_none() && self.same_length()
    }
    pub fn same_length(&self) -> bool {
        self.lines_a == self.lines_b
    }
}

/// Compare two traces given as streams of lines, holding one line of each at a time.
/// The steps both have are compared field by field; the report then says how many
/// lines each has, so traces of different lengths get both facts. The first read error
/// of either stream ends the comparison.
pub fn diff_streams<A, B>(a: A, b: B, opts: DiffOptions) -> Result<DiffReport, ScenarioError>
where
    A: IntoIterator<Item = Result<Value, ScenarioError>>,
    B: IntoIterator<Item = Result<Value, ScenarioError>>,
{
    let (mut a, mut b) = (a.into_iter(), b.into_iter());
    let mut report = DiffReport {
        lines: 0,
        first: None,
        divergent_steps: 0,
        lines_a: 0,
        lines_b: 0,
    };
    loop {
        let (la, lb) = match (a.next().transpose()?, b.next().transpose()?) {
            (Some(la), Some(lb)) => (la, lb),
            (Some(_), None) => {
                report.lines_a = report.lines + 1 + count(a)?;
                report.lines_b = report.lines;
                return Ok(report);
            }
            (None, Some(_)) => {
                report.lines_a = report.lines;
                report.lines_b = report.lines + 1 + count(b)?;
                return Ok(report);
            }
            (None, None) => {
                report.lines_a = report.lines;
                report.lines_b = report.lines;
                return Ok(report);
            }
        };
        compare_line(&la, &lb, report.lines, opts, &mut report);
        report.lines += 1;
    }
}

fn count(rest: impl Iterator<Item = Result<Value, ScenarioError>>) -> Result<usize, ScenarioError> {
    let mut n = 0;
    for line in rest {
        line?;
        n += 1;
    }
    Ok(n)
}

fn compare_line(la: &Value, lb: &Value, i: usize, opts: DiffOptions, report: &mut DiffReport) {
    let mut found = None;
    compare(la, lb, String::new(), opts, &mut found);
    if let Some((path, va, vb)) = found {
        report.divergent_steps += 1;
        if report.first.is_none() {
            let step = la.get("step").and_then(Value::as_u64).unwrap_or(i as u64);
            report.first = Some(Divergence {
                step,
                path,
                a: va,
                b: vb,
            });
        }
    }
}

/// Compare two traces. Different line counts are an input error (the traces do not
/// describe the same scenario), reported against `file_b`.
pub fn diff_traces(
    a: &[Value],
    b: &[Value],
    file_a: &str,
    file_b: &str,
    opts: DiffOptions,
) -> Result<DiffReport, ScenarioError> {
    if a.len() != b.len() {
        return Err(ScenarioError::new(
            file_b,
            "",
            format!(
                "has {} lines but {} has {}: the traces cover different step counts",
                b.len(),
                file_a,
                a.len()
            ),
        ));
    }
    let mut report = DiffReport {
        lines: a.len(),
        first: None,
        divergent_steps: 0,
        lines_a: a.len(),
        lines_b: b.len(),
    };
    for (i, (la, lb)) in a.iter().zip(b).enumerate() {
        compare_line(la, lb, i, opts, &mut report);
    }
    Ok(report)
}

type Found = Option<(String, String, String)>;

fn compare(a: &Value, b: &Value, path: String, opts: DiffOptions, found: &mut Found) {
    if found.is_some() {
        return;
    }
    match (a, b) {
        (Value::Object(ma), Value::Object(mb)) => compare_objects(ma, mb, path, opts, found),
        (Value::Array(xa), Value::Array(xb)) => {
            if xa.len() != xb.len() {
                *found = Some((
                    path,
                    format!("{} elements", xa.len()),
                    format!("{} elements", xb.len()),
                ));
                return;
            }
            for (i, (ea, eb)) in xa.iter().zip(xb).enumerate() {
                compare(ea, eb, format!("{path}[{i}]"), opts, found);
                if found.is_some() {
                    return;
                }
            }
        }
        (Value::Number(na), Value::Number(nb)) => {
            if !numbers_equal(na, nb, opts.tolerance) {
                *found = Some((path, na.to_string(), nb.to_string()));
            }
        }
        (Value::String(sa), Value::String(sb)) => {
            let same = if is_hex_id(sa) && is_hex_id(sb) {
                sa.eq_ignore_ascii_case(sb)
            } else {
                sa == sb
            };
            if !same {
                *found = Some((path, a.to_string(), b.to_string()));
            }
        }
        _ => {
            if a != b {
                *found = Some((path, a.to_string(), b.to_string()));
            }
        }
    }
}

fn compare_objects(
    ma: &Map<String, Value>,
    mb: &Map<String, Value>,
    path: String,
    opts: DiffOptions,
    found: &mut Found,
) {
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    for (k, va) in ma {
        match mb.get(k) {
            Some(vb) => compare(va, vb, join(k), opts, found),
            None => *found = Some((join(k), va.to_string(), "(missing)".into())),
        }
        if found.is_some() {
            return;
        }
    }
    if !opts.allow_extra_keys {
        if let Some((k, vb)) = mb.iter().find(|(k, _)| !ma.contains_key(*k)) {
            *found = Some((join(k), "(missing)".into(), vb.to_string()));
        }
    }
}

fn numbers_equal(a: &Number, b: &Number, tol: f64) -> bool {
    if let (Some(x), Some(y)) = (as_int(a), as_int(b)) {
        return x == y;
    }
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => floats_equal(x, y, tol),
        _ => false,
    }
}

fn as_int(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// The float rule of the conformance specs.
pub fn floats_equal(x: f64, y: f64, tol: f64) -> bool {
    if x == y {
        return true;
    }
    let d = (x - y).abs();
    d <= tol || d <= tol * x.abs().max(y.abs())
}

fn is_hex_id(s: &str) -> bool {
    s.len() > 2 && (s.starts_with("0x") || s.starts_with("0X"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::parse_trace;

    fn traces(a: &str, b: &str) -> (Vec<Value>, Vec<Value>) {
        (parse_trace(a, "a").unwrap(), parse_trace(b, "b").unwrap())
    }

    #[test]
    fn first_divergence_names_step_and_path() {
        let (a, b) = traces(
            "{\"step\":0,\"seq\":{\"anims\":[{\"f\":1.0},{\"f\":30.0}]}}\n{\"step\":1,\"x\":1}\n",
            "{\"step\":0,\"seq\":{\"anims\":[{\"f\":1.0},{\"f\":-30.0}]}}\n{\"step\":1,\"x\":2}\n",
        );
        let r = diff_traces(&a, &b, "a", "b", DiffOptions::default()).unwrap();
        assert_eq!(
            r.first.unwrap().to_string(),
            "step 0: seq.anims[1].f: 30.0 vs -30.0"
        );
        assert_eq!(r.divergent_steps, 2);
    }

    #[test]
    fn floats_within_tolerance_are_equal_integers_are_exact() {
        let (a, b) = traces("{\"f\":1000.0,\"i\":5}\n", "{\"f\":1000.09,\"i\":5}\n");
        assert!(diff_traces(&a, &b, "a", "b", DiffOptions::default())
            .unwrap()
            .is_equal());
        let strict = DiffOptions {
            tolerance: 0.0,
            ..DiffOptions::default()
        };
        assert!(!diff_traces(&a, &b, "a", "b", strict).unwrap().is_equal());
        let (a, b) = traces("{\"i\":100000}\n", "{\"i\":100001}\n");
        let r = diff_traces(&a, &b, "a", "b", DiffOptions::default()).unwrap();
        assert_eq!(r.first.unwrap().to_string(), "step 0: i: 100000 vs 100001");
        // absolute part of the rule near zero
        assert!(floats_equal(0.0, 0.00009, 1e-4));
        assert!(!floats_equal(0.0, 0.00011, 1e-4));
    }

    #[test]
    fn ids_compare_case_insensitively_other_strings_exactly() {
        let (a, b) = traces(
            "{\"id\":\"0x0300000A\",\"s\":\"x\"}\n",
            "{\"id\":\"0x0300000a\",\"s\":\"x\"}\n",
        );
        assert!(diff_traces(&a, &b, "a", "b", DiffOptions::default())
            .unwrap()
            .is_equal());
        let (a, b) = traces("{\"s\":\"Run\"}\n", "{\"s\":\"run\"}\n");
        assert!(!diff_traces(&a, &b, "a", "b", DiffOptions::default())
            .unwrap()
            .is_equal());
    }

    #[test]
    fn missing_and_extra_keys() {
        let (a, b) = traces("{\"x\":1,\"y\":2}\n", "{\"x\":1}\n");
        let r = diff_traces(&a, &b, "a", "b", DiffOptions::default()).unwrap();
        assert_eq!(r.first.unwrap().to_string(), "step 0: y: 2 vs (missing)");
        let (a, b) = traces("{\"x\":1}\n", "{\"x\":1,\"extra\":true}\n");
        assert!(!diff_traces(&a, &b, "a", "b", DiffOptions::default())
            .unwrap()
            .is_equal());
        let lax = DiffOptions {
            allow_extra_keys: true,
            ..DiffOptions::default()
        };
        assert!(diff_traces(&a, &b, "a", "b", lax).unwrap().is_equal());
    }

    fn stream(text: &str) -> Vec<Result<Value, ScenarioError>> {
        text.lines()
            .map(|l| Ok(serde_json::from_str(l).unwrap()))
            .collect()
    }

    #[test]
    fn streams_of_different_lengths_compare_the_common_steps_and_count_both() {
        let a = stream("{\"step\":0,\"x\":1}\n{\"step\":1,\"x\":2}\n{\"step\":2,\"x\":3}");
        let b = stream("{\"step\":0,\"x\":1}\n{\"step\":1,\"x\":5}");
        let r = diff_streams(a.clone(), b.clone(), DiffOptions::default()).unwrap();
        assert_eq!(
            (r.lines, r.lines_a, r.lines_b, r.divergent_steps),
            (2, 3, 2, 1)
        );
        assert_eq!(r.first.unwrap().to_string(), "step 1: x: 2 vs 5");
        let r = diff_streams(b, a, DiffOptions::default()).unwrap();
        assert_eq!((r.lines, r.lines_a, r.lines_b), (2, 2, 3));
        assert!(!r.is_equal());
        let r = diff_streams(
            stream("{\"a\":1}"),
            stream("{\"a\":1}\n{\"a\":1}"),
            DiffOptions::default(),
        )
        .unwrap();
        assert!(r.first.is_none() && !r.same_length() && !r.is_equal());
    }

    #[test]
    fn a_read_error_in_either_stream_is_returned() {
        let mut b = stream("{\"a\":1}");
        b.push(Err(ScenarioError::new("b", "line 2", "malformed JSON")));
        let e = diff_streams(stream("{\"a\":1}"), b, DiffOptions::default()).unwrap_err();
        assert_eq!(e.to_string(), "b: line 2: malformed JSON");
    }

    #[test]
    fn tolerance_refuses_nan_infinity_and_negatives() {
        assert_eq!(
            check_tolerance(f64::NAN).unwrap_err(),
            "the tolerance must be a finite number >= 0, not NaN"
        );
        assert!(check_tolerance(f64::INFINITY).is_err());
        assert!(check_tolerance(-1e-9).is_err());
        assert_eq!(check_tolerance(0.0), Ok(0.0));
        assert_eq!(check_tolerance(1e-4), Ok(1e-4));
    }

    #[test]
    fn array_length_and_line_count_mismatch() {
        let (a, b) = traces("{\"l\":[1,2]}\n", "{\"l\":[1]}\n");
        let r = diff_traces(&a, &b, "a", "b", DiffOptions::default()).unwrap();
        assert_eq!(
            r.first.unwrap().to_string(),
            "step 0: l: 2 elements vs 1 elements"
        );
        let (a, b) = traces("{\"l\":1}\n{\"l\":1}\n", "{\"l\":1}\n");
        let e = diff_traces(&a, &b, "a.jsonl", "b.jsonl", DiffOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "b.jsonl: has 1 lines but a.jsonl has 2: the traces cover different step counts"
        );
    }
}
