//! Progress on stderr for long runs and benches.
//!
//! Shown only when stderr is a terminal, and only once the work has lasted
//! [`SHOW_AFTER`]: a short run prints exactly what it printed before, and nothing
//! extra ever reaches a pipe or a log file.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use retroanim_core::TraceSink;
use serde_json::Value;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How long work runs before a bar appears.
pub const SHOW_AFTER: Duration = Duration::from_secs(2);

/// Whether progress may be drawn: stderr is a terminal, and when the trace goes to
/// standard output, that is not the same terminal (the bar would tear the lines).
pub fn allowed(trace_on_stdout: bool) -> bool {
    std::io::stderr().is_terminal() && !(trace_on_stdout && std::io::stdout().is_terminal())
}

/// A bar that appears after [`SHOW_AFTER`] and is cleared when dropped.
pub struct Progress {
    enabled: bool,
    start: Instant,
    total: u64,
    unit: &'static str,
    bar: Option<ProgressBar>,
}

impl Progress {
    pub fn new(enabled: bool, total: u64, unit: &'static str) -> Self {
        Progress {
            enabled,
            start: Instant::now(),
            total,
            unit,
            bar: None,
        }
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Report `done` units of work.
    pub fn set(&mut self, done: u64) {
        if !self.enabled {
            return;
        }
        if self.bar.is_none() && self.start.elapsed() >= SHOW_AFTER {
            let bar = ProgressBar::with_draw_target(Some(self.total), ProgressDrawTarget::stderr())
                .with_elapsed(self.start.elapsed());
            let template = format!(
                "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {} ({{eta}} left)",
                self.unit
            );
            if let Ok(style) = ProgressStyle::with_template(&template) {
                bar.set_style(style.progress_chars("=> "));
            }
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// A trace sink that reports each line to a [`Progress`] (every 256th, to keep the
/// clock reads off the hot path).
pub struct ProgressSink<'a> {
    pub inner: &'a mut dyn TraceSink,
    pub progress: Progress,
    lines: u64,
}

impl<'a> ProgressSink<'a> {
    pub fn new(inner: &'a mut dyn TraceSink, progress: Progress) -> Self {
        ProgressSink {
            inner,
            progress,
            lines: 0,
        }
    }
}

impl TraceSink for ProgressSink<'_> {
    fn line(&mut self, line: &Value) -> std::io::Result<()> {
        self.inner.line(line)?;
        self.lines += 1;
        if self.progress.enabled() && self.lines & 0xff == 0 {
            self.progress.set(self.lines);
        }
        Ok(())
    }
}
