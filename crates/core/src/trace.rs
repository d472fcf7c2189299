//! Traces: JSON Lines, one compact object per step.

use crate::error::ScenarioError;
use serde_json::Value;
use std::io::Write;
use std::path::Path;

/// Write lines as compact JSON, each terminated by `\n`.
pub fn write_trace<W: Write>(mut out: W, lines: &[Value]) -> std::io::Result<()> {
    for line in lines {
        serde_json::to_writer(&mut out, line)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// Render lines as one JSON Lines string.
pub fn to_jsonl(lines: &[Value]) -> String {
    let mut s = String::new();
    for line in lines {
        s.push_str(&line.to_string());
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
