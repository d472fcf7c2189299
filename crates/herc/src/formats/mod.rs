//! Readers and writers for a user's own DBSIM files (F1–F8; palettes, bitmaps and the
//! polygon materials that bind them, H80–H84).
//!
//! The project ships no game data. The writers exist so that tests (and users converting
//! their own assets) can produce files byte-exact to the documented layouts; every reader
//! round-trips what the matching writer produced. Errors are [`ScenarioError`]s whose `at`
//! names the record and the byte offset (`record ANAnimList, byte 52`); no count read from a
//! file allocates more than the bytes that remain could hold.

pub mod bitmap;
pub mod chassis;
pub mod dts;
pub mod group;
pub mod material;
pub mod palette;
pub mod vol;

use retroanim_core::ScenarioError;

/// A little-endian cursor over a byte slice that reports faults with file, record and offset.
pub(crate) struct ByteReader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Offset of `bytes[0]` in the file, so nested readers report file offsets.
    base: usize,
    file: &'a str,
    record: String,
}

impl<'a> ByteReader<'a> {
    pub(crate) fn new(bytes: &'a [u8], file: &'a str, record: impl Into<String>) -> Self {
        ByteReader {
            bytes,
            pos: 0,
            base: 0,
            file,
            record: record.into(),
        }
    }

    /// A reader over `len` bytes starting here, for a chunk payload; advances past them.
    pub(crate) fn sub(
        &mut self,
        len: usize,
        record: impl Into<String>,
    ) -> Result<ByteReader<'a>, ScenarioError> {
        let record = record.into();
        if len > self.remaining() {
            return Err(self.error(format!(
                "{record} declares {len} bytes but only {} remain",
                self.remaining()
            )));
        }
        let sub = ByteReader {
            bytes: &self.bytes[self.pos..self.pos + len],
            pos: 0,
            base: self.base + self.pos,
            file: self.file,
            record,
        };
        self.pos += len;
        Ok(sub)
    }

    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub(crate) fn set_record(&mut self, record: impl Into<String>) {
        self.record = record.into();
    }

    pub(crate) fn error(&self, message: impl Into<String>) -> ScenarioError {
        self.error_at(self.offset(), message)
    }

    pub(crate) fn error_at(&self, offset: usize, message: impl Into<String>) -> ScenarioError {
        ScenarioError::new(
            self.file,
            format!("record {}, byte {}", self.record, offset),
            message,
        )
    }

    pub(crate) fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ScenarioError> {
        if n > self.remaining() {
            return Err(self.error(format!(
                "{what}: needs {n} bytes, only {} remain",
                self.remaining()
            )));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    pub(crate) fn rest(&mut self) -> &'a [u8] {
        let s = &self.bytes[self.pos..];
        self.pos = self.bytes.len();
        s
    }

    pub(crate) fn u8(&mut self, what: &str) -> Result<u8, ScenarioError> {
        Ok(self.take(1, what)?[0])
    }

    pub(crate) fn u16(&mut self, what: &str) -> Result<u16, ScenarioError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub(crate) fn i16(&mut self, what: &str) -> Result<i16, ScenarioError> {
        Ok(self.u16(what)? as i16)
    }

    pub(crate) fn u32(&mut self, what: &str) -> Result<u32, ScenarioError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn i32(&mut self, what: &str) -> Result<i32, ScenarioError> {
        Ok(self.u32(what)? as i32)
    }

    /// An i16 count that must be ≥ 0 and whose `item_size`-byte items must fit in what remains.
    pub(crate) fn count(&mut self, what: &str, item_size: usize) -> Result<usize, ScenarioError> {
        let at = self.offset();
        let n = self.i16(what)?;
        if n < 0 {
            return Err(self.error_at(at, format!("{what} is negative ({n})")));
        }
        let n = n as usize;
        if n.saturating_mul(item_size) > self.remaining() {
            return Err(self.error_at(
                at,
                format!(
                    "{what} {n} needs at least {} bytes, only {} remain",
                    n * item_size,
                    self.remaining()
                ),
            ));
        }
        Ok(n)
    }

    pub(crate) fn i16_vec(&mut self, n: usize, what: &str) -> Result<Vec<i16>, ScenarioError> {
        let b = self.take(n.saturating_mul(2), what)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

/// Little-endian output helpers for the writers.
#[derive(Default)]
pub(crate) struct ByteWriter {
    pub(crate) out: Vec<u8>,
}

impl ByteWriter {
    pub(crate) fn u8(&mut self, v: u8) {
        self.out.push(v);
    }
    pub(crate) fn u16(&mut self, v: u16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn i16(&mut self, v: i16) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn u32(&mut self, v: u32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn bytes(&mut self, v: &[u8]) {
        self.out.extend_from_slice(v);
    }
    /// Write a count as the i16 the formats use; longer lists are refused.
    pub(crate) fn count(&mut self, n: usize, what: &str) -> Result<(), String> {
        let v = i16::try_from(n).map_err(|_| format!("{what} {n} does not fit an i16"))?;
        self.i16(v);
        Ok(())
    }
}

/// A NUL-padded fixed-width name field as text (bytes up to the first NUL, Latin-1).
pub(crate) fn padded_name(bytes: &[u8]) -> String {
    bytes
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| b as char)
        .collect()
}

/// `name` NUL-padded to `width` bytes; refused if it does not fit with at least one NUL
/// (when `need_nul`) or contains a non-Latin-1 character.
pub(crate) fn pad_name(name: &str, width: usize, need_nul: bool) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(width);
    for ch in name.chars() {
        let c = ch as u32;
        if c == 0 || c > 0xff {
            return Err(format!("name {name:?} has a character outside Latin-1"));
        }
        out.push(c as u8);
    }
    let limit = if need_nul { width - 1 } else { width };
    if out.len() > limit {
        return Err(format!("name {name:?} is longer than {limit} bytes"));
    }
    out.resize(width, 0);
    Ok(out)
}
