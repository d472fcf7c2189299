//! Traces: JSON Lines, one compact object per step.
//!
//! [`TraceWriter`] writes each line as the runner makes it and [`TraceReader`] reads one
//! line at a time, so neither holds a whole trace.

use crate::error::ScenarioError;
use crate::input::open_regular;
use crate::sim::TraceSink;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

/// Longest trace line a reader accepts by default. Engines write lines of a few
/// kilobytes; a longer one is not a trace.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// A [`TraceSink`] writing compact JSON lines to `W`.
pub struct TraceWriter<W: Write> {
    out: W,
    lines: usize,
}

impl<W: Write> TraceWriter<W> {
    pub fn new(out: W) -> Self {
        TraceWriter { out, lines: 0 }
    }
    /// Lines written so far.
    pub fn lines(&self) -> usize {
        self.lines
    }
    /// Flush and hand back the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> TraceSink for TraceWriter<W> {
    fn line(&mut self, line: &Value) -> std::io::Result<()> {
        write_line(&mut self.out, line)?;
        self.out.write_all(b"\n")?;
        self.lines += 1;
        Ok(())
    }
}

/// Reads a trace one line at a time: an iterator of parsed lines (blank lines skipped),
/// each a JSON object, with errors naming the file and line.
pub struct TraceReader<R: BufRead> {
    input: R,
    file: String,
    line_no: usize,
    max_line: usize,
    buf: Vec<u8>,
    done: bool,
}

impl TraceReader<BufReader<std::io::Take<std::fs::File>>> {
    /// Open a trace file: a regular file of at most `max_bytes` bytes, lines of at most
    /// `max_line` bytes.
    pub fn open(path: &Path, max_bytes: u64, max_line: usize) -> Result<Self, ScenarioError> {
        let file = path.display().to_string();
        let reader = open_regular(path, max_bytes).map_err(|e| e.at(&file))?;
        Ok(TraceReader::new(
            BufReader::with_capacity(64 << 10, reader),
            &file,
            max_line,
        ))
    }
}

impl<R: BufRead> TraceReader<R> {
    pub fn new(input: R, file: &str, max_line: usize) -> Self {
        TraceReader {
            input,
            file: file.to_string(),
            line_no: 0,
            max_line,
            buf: Vec::new(),
            done: false,
        }
    }

    /// Read the next raw line into `buf` (without its terminator); false at the end.
    fn next_raw(&mut self) -> Result<bool, ScenarioError> {
        self.buf.clear();
        let limit = self.max_line as u64 + 1;
        let n = (&mut self.input)
            .take(limit)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| {
                ScenarioError::new(
                    &self.file,
                    format!("line {}", self.line_no + 1),
                    format!("cannot read: {e}"),
                )
            })?;
        if n == 0 {
            return Ok(false);
        }
        self.line_no += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if n as u64 == limit {
            return Err(ScenarioError::new(
                &self.file,
                format!("line {}", self.line_no),
                format!("longer than the {}-byte line limit", self.max_line),
            ));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(true)
    }
}

impl<R: BufRead> Iterator for TraceReader<R> {
    type Item = Result<Value, ScenarioError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
            match self.next_raw() {
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
                Ok(true) => {}
            }
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let parsed = parse_line(&self.buf, &self.file, self.line_no);
            if parsed.is_err() {
                self.done = true;
            }
            return Some(parsed);
        }
    }
}

fn parse_line(raw: &[u8], file: &str, line_no: usize) -> Result<Value, ScenarioError> {
    let v: Value = serde_json::from_slice(raw).map_err(|e| {
        ScenarioError::new(
            file,
            format!("line {line_no}, column {}", e.column()),
            "malformed JSON",
        )
    })?;
    if !v.is_object() {
        return Err(ScenarioError::new(
            file,
            format!("line {line_no}"),
            "a trace line must be a JSON object",
        ));
    }
    Ok(v)
}

/// Write lines as compact JSON, each terminated by `\n`.
pub fn write_trace<W: Write>(mut out: W, lines: &[Value]) -> std::io::Result<()> {
    for line in lines {
        write_line(&mut out, line)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// One line as compact JSON. Exponents are written without a `+` (`3.4028235e38`), the
/// trace number format; serde_json would write `3.4028235e+38`.
pub fn line_text(line: &Value) -> String {
    let mut buf = Vec::new();
    write_line(&mut buf, line).expect("writing to a Vec cannot fail");
    String::from_utf8(buf).expect("serde_json writes UTF-8")
}

/// Write one line as compact JSON in the trace number format (see [`line_text`]),
/// without the trailing newline.
pub fn write_line<W: Write + ?Sized>(out: &mut W, line: &Value) -> std::io::Result<()> {
    use serde::Serialize;
    let mut ser = serde_json::Serializer::with_formatter(out, TraceNumbers);
    line.serialize(&mut ser).map_err(std::io::Error::from)
}

/// serde_json's compact output, but exponents without a `+`.
struct TraceNumbers;

impl serde_json::ser::Formatter for TraceNumbers {
    fn write_f64<W: ?Sized + Write>(&mut self, w: &mut W, v: f64) -> std::io::Result<()> {
        write_exponent_plain(w, ryu::Buffer::new().format_finite(v))
    }
    fn write_f32<W: ?Sized + Write>(&mut self, w: &mut W, v: f32) -> std::io::Result<()> {
        write_exponent_plain(w, ryu::Buffer::new().format_finite(v))
    }
}

fn write_exponent_plain<W: ?Sized + Write>(w: &mut W, s: &str) -> std::io::Result<()> {
    match s.find("e+") {
        Some(i) => {
            w.write_all(&s.as_bytes()[..=i])?;
            w.write_all(&s.as_bytes()[i + 2..])
        }
        None => w.write_all(s.as_bytes()),
    }
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
    TraceReader::open(
        path,
        crate::input::DEFAULT_MAX_STREAMED_BYTES,
        DEFAULT_MAX_LINE_BYTES,
    )?
    .collect()
}

/// Parse JSON Lines text; `file` names it in errors. Blank lines are skipped.
pub fn parse_trace(text: &str, file: &str) -> Result<Vec<Value>, ScenarioError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        lines.push(parse_line(raw.as_bytes(), file, i + 1)?);
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

    fn read_all(text: &str, max_line: usize) -> Vec<Result<Value, ScenarioError>> {
        TraceReader::new(text.as_bytes(), "t.jsonl", max_line).collect()
    }

    #[test]
    fn reader_streams_the_same_lines_as_the_whole_file_parser() {
        let text = "{\"step\":0}\r\n\n  \n{\"step\":1,\"a\":0.05}";
        let got: Vec<Value> = read_all(text, 100)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(to_jsonl(&got), "{\"step\":0}\n{\"step\":1,\"a\":0.05}\n");
        let errs = read_all("{\"step\":0}\n\n{oops\n{}\n", 100);
        assert_eq!(errs.len(), 2, "the reader stops at the first error");
        assert_eq!(errs[1].as_ref().unwrap_err().at, "line 3, column 2");
    }

    #[test]
    fn line_over_the_line_limit_is_refused_with_its_number() {
        let errs = read_all("{\"a\":1}\n{\"a\":12345}\n", 10);
        assert!(errs[0].is_ok());
        assert_eq!(
            errs[1].as_ref().unwrap_err().to_string(),
            "t.jsonl: line 2: longer than the 10-byte line limit"
        );
        // exactly at the limit (without the newline) is fine
        assert!(read_all("{\"a\":1234}\n", 10)[0].is_ok());
    }

    #[test]
    fn writer_output_equals_write_trace() {
        let lines = parse_trace("{\"b\":1.0,\"a\":[1,-0.0]}\n{\"x\":\"0x0A\"}\n", "t").unwrap();
        let mut w = TraceWriter::new(Vec::new());
        for l in &lines {
            w.line(l).unwrap();
        }
        assert_eq!(w.lines(), 2);
        let mut old = Vec::new();
        write_trace(&mut old, &lines).unwrap();
        assert_eq!(w.finish().unwrap(), old);
    }
}
