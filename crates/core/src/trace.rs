//! Traces: JSON Lines, one compact object per step.

use crate::error::ScenarioError;
use serde_json::Value;
use std::io::Write;
use std::path::Path;

/// Write lines as compact JSON, each terminated by `\n`.
pub fn write_trace<W: Write>(mut out: W, lines: &[Value]) -> std::io::Result<()> {
    for line in lines {
        out.write_all(line_text(line).as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// One line as compact JSON. Exponents are written without a `+` (`3.4028235e38`), the
/// trace number format; serde_json would write `3.4028235e+38`.
pub fn line_text(line: &Value) -> String {
    let raw = line.to_string();
    if !raw.contains("e+") {
        return raw;
    }
    let mut out = String::with_capacity(raw.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut prev = ' ';
    let mut prev2 = ' ';
    for c in raw.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        } else if c == '+' && prev == 'e' && prev2.is_ascii_digit() {
            prev2 = prev;
            prev = c;
            continue;
        }
        out.push(c);
        prev2 = prev;
        prev = c;
    }
    out
}

/// Render lines as one JSON Lines string.
pub fn to_jsonl(lines: &[Value]) -> String {
    let mut s = String::new();
    for line in lines {
        s.push_str(&line_text(line));
        s.push('\n');
    }
    s
}

/// Read a trace file; every non-empty line must be a JSON object.
pub fn read_trace(path: &Path) -> Result<Vec<Value>, ScenarioError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| ScenarioError::new(&file, "", format!("cannot read: {e}")))?;
    parse_trace(&text, &file)
}

/// Parse JSON Lines text; `file` names it in errors. Blank lines are skipped.
pub fn parse_trace(text: &str, file: &str) -> Result<Vec<Value>, ScenarioError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(raw).map_err(|e| {
            ScenarioError::new(
                file,
                format!("line {}, column {}", i + 1, e.column()),
                "malformed JSON",
            )
        })?;
        if !v.is_object() {
            return Err(ScenarioError::new(
                file,
                format!("line {}", i + 1),
                "a trace line must be a JSON object",
            ));
        }
        lines.push(v);
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_key_order_and_f32_text() {
        let text = "{\"step\":0,\"b\":1.0,\"a\":0.05}\n{\"step\":1,\"b\":-0.0,\"a\":1e-7}\n";
        let lines = parse_trace(text, "t.jsonl").unwrap();
        assert_eq!(to_jsonl(&lines), text);
    }

    #[test]
    fn exponents_are_written_without_a_plus_sign_outside_strings() {
        let v: Value = serde_json::from_str(r#"{"a":3.4028235e38,"s":"1e+5","b":1e-7}"#).unwrap();
        assert_eq!(line_text(&v), r#"{"a":3.4028235e38,"s":"1e+5","b":1e-7}"#);
    }

    #[test]
    fn non_object_line_is_an_error_naming_the_line() {
        let e = parse_trace("{\"step\":0}\n[1,2]\n", "t.jsonl").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.jsonl: line 2: a trace line must be a JSON object"
        );
        let e = parse_trace("{\"step\":0}\n\n{oops\n", "t.jsonl").unwrap_err();
        assert_eq!(e.at, "line 3, column 2");
    }
}
