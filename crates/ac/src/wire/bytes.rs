//! The little-endian cursor and buffer the message formats share.

use std::fmt;

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    /// `need` more bytes were wanted at byte offset `at` of the input (`len` bytes long).
    Truncated { at: usize, need: usize, len: usize },
    /// A hex string with a non-hex digit (or odd length) at character `at`.
    BadHex { at: usize },
    /// A field at byte offset `at` holds a value the format does not allow.
    BadValue {
        at: usize,
        what: &'static str,
        value: u32,
    },
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Truncated { at, need, len } => write!(
                f,
                "truncated at byte offset {at}: {need} more byte(s) needed, the input has {len}"
            ),
            WireError::BadHex { at } => write!(f, "not a hex byte string (character {at})"),
            WireError::BadValue { at, what, value } => {
                write!(f, "byte offset {at}: {what} 0x{value:x} is not allowed")
            }
        }
    }
}

impl std::error::Error for WireError {}

/// A cursor over a message's bytes.
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { data, pos: 0 }
    }

    /// The byte offset of the next read.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos.min(self.data.len())
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if self.remaining() < n {
            return Err(WireError::Truncated {
                at: self.pos,
                need: n,
                len: self.data.len(),
            });
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    pub fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.take(1)?[0])
    }

    pub fn u16(&mut self) -> Result<u16, WireError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn u32(&mut self) -> Result<u32, WireError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn f32(&mut self) -> Result<f32, WireError> {
        Ok(f32::from_bits(self.u32()?))
    }

    pub fn vec3(&mut self) -> Result<[f32; 3], WireError> {
        Ok([self.f32()?, self.f32()?, self.f32()?])
    }

    /// Skip to the next multiple of 4 from the start. Padding is not data: input that
    /// ends inside it is accepted (the reader skips, it does not read).
    pub fn align(&mut self) {
        self.pos = self.pos.div_ceil(4) * 4;
    }
}

/// A growing little-endian buffer; alignment is counted from its start.
#[derive(Default, Clone, Debug)]
pub struct Writer {
    pub bytes: Vec<u8>,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    pub fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    pub fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    pub fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }

    pub fn vec3(&mut self, v: [f32; 3]) {
        v.iter().for_each(|&c| self.f32(c));
    }

    /// Zero bytes up to the next multiple of 4.
    pub fn align(&mut self) {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
    }
}
