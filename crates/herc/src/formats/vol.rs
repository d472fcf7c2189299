//! F1: the VOL archive (`VOLN`), e.g. SIMVOL0.VOL.
//!
//! Layout (little-endian): "VOLN", u32 program mask, u8 precedence, u8 directory count,
//! u16 directory-list size, the directory names (`name\` + NUL each), u16 entry count,
//! i32 entry-list size, 18-byte entries (13-byte NUL-padded name, u8 directory index, u32
//! offset of the entry prefix). Each entry's data is a 9-byte prefix (u8 compression,
//! i32 content size, u16 DOS date, u16 DOS time), the content and, usually, one trailer
//! byte (DBSIM's tools repeat the content's last byte there).
//!
//! The reader accepts what shipped archives hold and refuses only what cannot be read
//! (docs/herc-formats.md, F1 leniency): the trailer may be absent or hold any value, the
//! compression code is kept as found, and an entry list longer than 18 × count keeps its
//! extra bytes.

use retroanim_core::ScenarioError;

use super::{padded_name, ByteReader, ByteWriter};

/// Compression code of a stored (uncompressed) entry; every retail entry has it.
pub const STORED: u8 = 2;
/// Size of an entry record in the entry list.
pub const ENTRY_RECORD_SIZE: usize = 18;
/// Size of the prefix in front of each entry's content.
pub const PREFIX_SIZE: usize = 9;

/// One archive member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VolEntry {
    /// The 13-byte name field exactly as stored (NUL-padded).
    pub raw_name: [u8; 13],
    /// Index into the directory list.
    pub directory: u8,
    /// Compression code as found (2 = stored, every retail entry). Other codes are kept
    /// and their content is the bytes as stored.
    pub compression: u8,
    pub dos_date: u16,
    pub dos_time: u16,
    /// The content (without prefix and trailer).
    pub content: Vec<u8>,
    /// The trailer byte as stored (normally the content's last byte); `None` when the
    /// content is followed directly by the end of the archive or by another entry's prefix.
    pub trailer: Option<u8>,
}

impl VolEntry {
    /// A stored entry with the trailer DBSIM's tools write.
    pub fn stored(name: &str, directory: u8, content: Vec<u8>) -> Result<VolEntry, String> {
        let padded = super::pad_name(name, 13, true)?;
        let mut raw_name = [0u8; 13];
        raw_name.copy_from_slice(&padded);
        let trailer = Some(content.last().copied().unwrap_or(0));
        Ok(VolEntry {
            raw_name,
            directory,
            compression: STORED,
            dos_date: 0,
            dos_time: 0,
            content,
            trailer,
        })
    }

    /// The name up to its first NUL.
    pub fn name(&self) -> String {
        padded_name(&self.raw_name)
    }

    /// Whether the content is stored as is (compression code 2).
    pub fn is_stored(&self) -> bool {
        self.compression == STORED
    }
}

/// A whole VOL archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VolArchive {
    /// Byte 4 is 1 in DBSIM's archives, byte 5 is 1 in the shell's (read as one u32).
    pub program_mask: u32,
    /// Load precedence: 0x05 in most retail archives, 0x0A in SHELL1.VOL and SIMPATCH.VOL.
    pub precedence: u8,
    /// Directory names without the trailing `\` (e.g. `dat`, `dts`).
    pub directories: Vec<String>,
    pub entries: Vec<VolEntry>,
    /// Bytes of the entry list past the 18 × count records (empty in every archive our
    /// writer makes), kept so such an archive writes back as read.
    pub list_extra: Vec<u8>,
}

impl VolArchive {
    /// Parse an archive. `file` names it in errors.
    pub fn read(bytes: &[u8], file: &str) -> Result<VolArchive, ScenarioError> {
        let mut r = ByteReader::new(bytes, file, "VOL header");
        let magic = r.take(4, "magic")?;
        if magic != b"VOLN" {
            return Err(r.error_at(0, format!("magic is {magic:?}, expected \"VOLN\"")));
        }
        let program_mask = r.u32("program mask")?;
        let precedence = r.u8("precedence")?;
        let dir_count = r.u8("directory count")? as usize;
        let dir_size = r.u16("directory-list size")? as usize;
        let mut dr = r.sub(dir_size, "directory list")?;
        let mut directories = Vec::with_capacity(dir_count.min(dir_size / 2));
        for d in 0..dir_count {
            let at = dr.offset();
            let mut name = Vec::new();
            loop {
                let b = dr.u8(&format!("directory {d} name"))?;
                if b == 0 {
                    break;
                }
                name.push(b);
            }
            match name.pop() {
                Some(b'\\') => {}
                _ => {
                    return Err(dr.error_at(at, format!("directory {d} name does not end in '\\'")))
                }
            }
            directories.push(name.iter().map(|&b| b as char).collect());
        }
        if dr.remaining() != 0 {
            return Err(dr.error(format!(
                "{} bytes left after {dir_count} directory names",
                dr.remaining()
            )));
        }
        r.set_record("entry list");
        let entry_count = r.u16("entry count")? as usize;
        let at = r.offset();
        let list_size = r.i32("entry-list size")?;
        if list_size < 0 || (list_size as usize) < entry_count * ENTRY_RECORD_SIZE {
            return Err(r.error_at(
                at,
                format!(
                    "entry-list size {list_size} cannot hold {entry_count} entries of {ENTRY_RECORD_SIZE} bytes"
                ),
            ));
        }
        let mut lr = r.sub(list_size as usize, "entry list")?;
        // An entry without a trailer is followed directly by the next entry's prefix, so
        // the offsets tell which entries have one.
        let mut prefix_offsets = Vec::with_capacity(entry_count);
        {
            let list = &bytes[lr.offset()..lr.offset() + entry_count * ENTRY_RECORD_SIZE];
            for rec in list.chunks_exact(ENTRY_RECORD_SIZE) {
                prefix_offsets
                    .push(u32::from_le_bytes([rec[14], rec[15], rec[16], rec[17]]) as usize);
            }
        }
        let mut entries = Vec::with_capacity(entry_count);
        for e in 0..entry_count {
            lr.set_record(format!("entry {e}"));
            let mut raw_name = [0u8; 13];
            raw_name.copy_from_slice(lr.take(13, "name")?);
            let at = lr.offset();
            let directory = lr.u8("directory index")?;
            if directory as usize >= directories.len() {
                return Err(lr.error_at(
                    at,
                    format!(
                        "directory index {directory} past the {} directories",
                        directories.len()
                    ),
                ));
            }
            let offset = lr.u32("offset")? as usize;
            let name = padded_name(&raw_name);
            let mut er = ByteReader::new(bytes, file, format!("entry {e} ({name})"));
            if offset > bytes.len() {
                return Err(lr.error_at(
                    at + 1,
                    format!("offset {offset} is past the end ({})", bytes.len()),
                ));
            }
            er.take(offset, "seek")?;
            let compression = er.u8("compression")?;
            let size_at = er.offset();
            let size = er.i32("content size")?;
            let dos_date = er.u16("DOS date")?;
            let dos_time = er.u16("DOS time")?;
            if size < 0 {
                return Err(er.error_at(size_at, format!("content size {size} is negative")));
            }
            let content = er.take(size as usize, "content")?.to_vec();
            let end = er.offset();
            let trailer = if end < bytes.len() && !prefix_offsets.contains(&end) {
                Some(bytes[end])
            } else {
                None
            };
            entries.push(VolEntry {
                raw_name,
                directory,
                compression,
                dos_date,
                dos_time,
                content,
                trailer,
            });
        }
        let list_extra = lr.rest().to_vec();
        Ok(VolArchive {
            program_mask,
            precedence,
            directories,
            entries,
            list_extra,
        })
    }

    /// Serialize: header, directory list, entry list, then each entry's data in entry order.
    pub fn write(&self) -> Result<Vec<u8>, String> {
        if self.directories.len() > 255 {
            return Err(format!(
                "{} directories; at most 255",
                self.directories.len()
            ));
        }
        if self.entries.len() > u16::MAX as usize {
            return Err(format!("{} entries; at most 65535", self.entries.len()));
        }
        let mut dirs = ByteWriter::default();
        for d in &self.directories {
            dirs.bytes(&super::pad_name(d, d.chars().count(), false)?);
            dirs.bytes(b"\\\0");
        }
        let dir_size =
            u16::try_from(dirs.out.len()).map_err(|_| "directory list longer than 65535 bytes")?;
        let mut w = ByteWriter::default();
        w.bytes(b"VOLN");
        w.u32(self.program_mask);
        w.u8(self.precedence);
        w.u8(self.directories.len() as u8);
        w.u16(dir_size);
        w.bytes(&dirs.out);
        w.u16(self.entries.len() as u16);
        let list_size = self.entries.len() * ENTRY_RECORD_SIZE + self.list_extra.len();
        w.i32(i32::try_from(list_size).map_err(|_| "entry list longer than 2 GiB")?);
        let mut offset = w.out.len() + list_size;
        for e in &self.entries {
            if e.directory as usize >= self.directories.len() {
                return Err(format!(
                    "entry {} names directory {}",
                    e.name(),
                    e.directory
                ));
            }
            w.bytes(&e.raw_name);
            w.u8(e.directory);
            w.u32(u32::try_from(offset).map_err(|_| "archive larger than 4 GiB")?);
            offset += PREFIX_SIZE + e.content.len() + usize::from(e.trailer.is_some());
        }
        w.bytes(&self.list_extra);
        for e in &self.entries {
            w.u8(e.compression);
            w.i32(i32::try_from(e.content.len()).map_err(|_| "entry larger than 2 GiB")?);
            w.u16(e.dos_date);
            w.u16(e.dos_time);
            w.bytes(&e.content);
            if let Some(t) = e.trailer {
                w.u8(t);
            }
        }
        Ok(w.out)
    }

    /// The entry at `dir\NAME` (case-insensitive, `\` or `/`), e.g. `dat\BIPED.DAT`.
    pub fn find(&self, path: &str) -> Option<&VolEntry> {
        let path = path.replace('/', "\\");
        let (dir, name) = path.rsplit_once('\\').unwrap_or(("", path.as_str()));
        self.entries.iter().find(|e| {
            e.name().eq_ignore_ascii_case(name)
                && self
                    .directories
                    .get(e.directory as usize)
                    .is_some_and(|d| d.eq_ignore_ascii_case(dir) || dir.is_empty())
        })
    }
}

/// The content of a file that is either loose (no prefix) or extracted with its 9-byte
/// stored prefix, with or without a trailer byte of any value (F1: such files are 9 or 10
/// bytes longer than the content the prefix's size field names).
pub fn strip_entry_prefix(bytes: &[u8]) -> &[u8] {
    if bytes.len() >= PREFIX_SIZE && bytes[0] == STORED {
        let size = i32::from_le_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]);
        if size >= 0 {
            let size = size as usize;
            let after = bytes.len() - PREFIX_SIZE;
            if after == size || after == size + 1 {
                return &bytes[PREFIX_SIZE..PREFIX_SIZE + size];
            }
        }
    }
    bytes
}

/// Wrap content in the 9-byte prefix and trailer, as extraction tools write it.
pub fn with_entry_prefix(content: &[u8], dos_date: u16, dos_time: u16) -> Vec<u8> {
    let mut w = ByteWriter::default();
    w.u8(STORED);
    w.i32(content.len() as i32);
    w.u16(dos_date);
    w.u16(dos_time);
    w.bytes(content);
    w.u8(content.last().copied().unwrap_or(0));
    w.out
}
