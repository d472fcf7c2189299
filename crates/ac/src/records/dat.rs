//! The DAT container (`client_portal.dat`, ACE's `Dat/DatDatabase.cs`): header at 0x140,
//! chained blocks, directory B-tree. [`DatFile`] reads records by id on demand;
//! [`write_dat`] builds small containers (the project ships no game data, so tests build
//! their own).

use super::error::RecordError;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Absolute offset of `DiskFileInfo_t`.
pub const HEADER_OFFSET: u64 = 0x140;
/// Bytes of the header fields read (through `VersionMinor`).
pub const HEADER_SIZE: usize = 0x50;
/// Children per directory node.
pub const BRANCHES: usize = 62;
/// Entries per directory node at most.
pub const MAX_ENTRIES: usize = 61;
/// One directory node: 62 branches, the entry count, 61 entries of 24 bytes.
pub const NODE_SIZE: usize = BRANCHES * 4 + 4 + MAX_ENTRIES * ENTRY_SIZE;
const ENTRY_SIZE: usize = 24;
/// A deeper directory is taken for a cycle.
const MAX_DEPTH: usize = 32;

/// `DiskFileInfo_t`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatHeader {
    pub file_type: u32,
    pub block_size: u32,
    pub file_size: u32,
    pub data_set: u32,
    pub data_subset: u32,
    pub free_head: u32,
    pub free_tail: u32,
    pub free_count: u32,
    pub btree: u32,
    pub new_lru: u32,
    pub old_lru: u32,
    pub use_lru: u32,
    pub master_map_id: u32,
    pub engine_pack_version: u32,
    pub game_pack_version: u32,
    pub version_major: [u8; 16],
    pub version_minor: u32,
}

/// A directory entry (`DatFile` in ACE).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatEntry {
    pub bit_flags: u32,
    pub object_id: u32,
    pub file_offset: u32,
    pub file_size: u32,
    pub date: u32,
    pub iteration: u32,
}

/// An open DAT container.
pub struct DatFile {
    name: String,
    file: File,
    len: u64,
    header: DatHeader,
}

fn le(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl DatFile {
    /// Open a container and check its header.
    pub fn open(path: &Path) -> Result<DatFile, RecordError> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| RecordError::Container {
            file: name.clone(),
            message: format!("cannot open: {e}"),
        })?;
        let len = file
            .metadata()
            .map_err(|e| RecordError::Container {
                file: name.clone(),
                message: format!("cannot read: {e}"),
            })?
            .len();
        let mut dat = DatFile {
            name,
            file,
            len,
            header: DatHeader::default(),
        };
        if len < HEADER_OFFSET + HEADER_SIZE as u64 {
            return Err(dat.err(format!(
                "{len} bytes is too short for a DAT header (needs {})",
                HEADER_OFFSET + HEADER_SIZE as u64
            )));
        }
        let mut h = [0u8; HEADER_SIZE];
        dat.read_at(HEADER_OFFSET, &mut h)?;
        let mut version_major = [0u8; 16];
        version_major.copy_from_slice(&h[0x3C..0x4C]);
        dat.header = DatHeader {
            file_type: le(&h, 0x00),
            block_size: le(&h, 0x04),
            file_size: le(&h, 0x08),
            data_set: le(&h, 0x0C),
            data_subset: le(&h, 0x10),
            free_head: le(&h, 0x14),
            free_tail: le(&h, 0x18),
            free_count: le(&h, 0x1C),
            btree: le(&h, 0x20),
            new_lru: le(&h, 0x24),
            old_lru: le(&h, 0x28),
            use_lru: le(&h, 0x2C),
            master_map_id: le(&h, 0x30),
            engine_pack_version: le(&h, 0x34),
            game_pack_version: le(&h, 0x38),
            version_major,
            version_minor: le(&h, 0x4C),
        };
        if dat.header.block_size < 8 {
            return Err(dat.err(format!(
                "header at 0x140: block size {} is too small (at least 8)",
                dat.header.block_size
            )));
        }
        if dat.header.btree == 0 || u64::from(dat.header.btree) >= len {
            return Err(dat.err(format!(
                "header at 0x140: directory root offset 0x{:x} is outside the file",
                dat.header.btree
            )));
        }
        Ok(dat)
    }

    /// The file name used in errors.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The container header.
    pub fn header(&self) -> &DatHeader {
        &self.header
    }

    fn err(&self, message: String) -> RecordError {
        RecordError::Container {
            file: self.name.clone(),
            message,
        }
    }

    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), RecordError> {
        if offset
            .checked_add(buf.len() as u64)
            .is_none_or(|end| end > self.len)
        {
            return Err(self.err(format!(
                "read of {} bytes at offset 0x{offset:x} runs past the end of the file ({} bytes)",
                buf.len(),
                self.len
            )));
        }
        let r = self
            .file
            .seek(SeekFrom::Start(offset))
            .and_then(|_| self.file.read_exact(buf));
        r.map_err(|e| self.err(format!("cannot read at offset 0x{offset:x}: {e}")))
    }

    /// `DatReader.ReadDat`: the `size` payload bytes of the object whose first block is
    /// at `offset`, following the block chain (`DatReader.ReadDat`), bounded by the chain and the file.
    pub fn read_object(&mut self, offset: u32, size: u32) -> Result<Vec<u8>, RecordError> {
        if u64::from(size) > self.len {
            return Err(self.err(format!(
                "object at 0x{offset:x}: size {size} exceeds the file size {}",
                self.len
            )));
        }
        let payload = (self.header.block_size - 4) as usize;
        let mut buf = vec![0u8; size as usize];
        let mut pos = 0usize;
        let mut block = u64::from(offset);
        while pos < buf.len() {
            let mut next = [0u8; 4];
            self.read_at(block, &mut next)?;
            let next = u32::from_le_bytes(next);
            let want = (buf.len() - pos).min(payload);
            if next == 0 && want < buf.len() - pos {
                return Err(self.err(format!(
                    "object at 0x{offset:x}: block chain ends at 0x{block:x} with {} of {size} bytes still unread",
                    buf.len() - pos
                )));
            }
            self.read_at(block + 4, &mut buf[pos..pos + want])?;
            pos += want;
            block = u64::from(next);
        }
        Ok(buf)
    }

    /// The directory node at `offset`: its branches and entries.
    fn read_node(&mut self, offset: u32) -> Result<(Vec<u32>, Vec<DatEntry>), RecordError> {
        let b = self.read_object(offset, NODE_SIZE as u32)?;
        let branches: Vec<u32> = (0..BRANCHES).map(|i| le(&b, i * 4)).collect();
        let count = le(&b, BRANCHES * 4) as usize;
        if count > MAX_ENTRIES {
            return Err(self.err(format!(
                "directory node at 0x{offset:x}: {count} entries (at most {MAX_ENTRIES})"
            )));
        }
        let base = BRANCHES * 4 + 4;
        let entries = (0..count)
            .map(|i| {
                let e = base + i * ENTRY_SIZE;
                DatEntry {
                    bit_flags: le(&b, e),
                    object_id: le(&b, e + 4),
                    file_offset: le(&b, e + 8),
                    file_size: le(&b, e + 12),
                    date: le(&b, e + 16),
                    iteration: le(&b, e + 20),
                }
            })
            .collect();
        Ok((branches, entries))
    }

    /// The directory entry of `id`: the on-demand B-tree search of `DatDirectory`.
    pub fn find(&mut self, id: u32) -> Result<Option<DatEntry>, RecordError> {
        let mut node = self.header.btree;
        for _ in 0..MAX_DEPTH {
            let (branches, entries) = self.read_node(node)?;
            if let Some(e) = entries.iter().find(|e| e.object_id == id) {
                return Ok(Some(*e));
            }
            if branches[0] == 0 {
                return Ok(None);
            }
            let i = entries.iter().filter(|e| e.object_id < id).count();
            node = branches[i];
            if node == 0 {
                return Ok(None);
            }
        }
        Err(self.err(format!(
            "directory deeper than {MAX_DEPTH} levels (a cycle?)"
        )))
    }

    /// Every entry of the directory, in key order (a depth-first walk).
    pub fn entries(&mut self) -> Result<Vec<DatEntry>, RecordError> {
        let mut out = Vec::new();
        let root = self.header.btree;
        self.walk(root, 0, &mut out)?;
        out.sort_by_key(|e| e.object_id);
        Ok(out)
    }

    fn walk(
        &mut self,
        node: u32,
        depth: usize,
        out: &mut Vec<DatEntry>,
    ) -> Result<(), RecordError> {
        if depth >= MAX_DEPTH {
            return Err(self.err(format!(
                "directory deeper than {MAX_DEPTH} levels (a cycle?)"
            )));
        }
        let (branches, entries) = self.read_node(node)?;
        if branches[0] != 0 {
            for &child in &branches[..=entries.len()] {
                if child != 0 {
                    self.walk(child, depth + 1, out)?;
                }
            }
        }
        out.extend(entries);
        Ok(())
    }

    /// `ReadFromDat`'s byte part: the record's bytes, or `NotFound`.
    pub fn read_record(&mut self, id: u32) -> Result<Vec<u8>, RecordError> {
        match self.find(id)? {
            Some(e) => self.read_object(e.file_offset, e.file_size),
            None => Err(RecordError::NotFound {
                file: self.name.clone(),
                id,
            }),
        }
    }
}

/// Builds a DAT container holding `records` (id, bytes) with blocks of `block_size`
/// bytes (at least 8) and directory nodes of at most `max_entries` entries (1..=61;
/// small values give deep trees for tests). Duplicate ids keep the last bytes given.
pub fn write_dat(records: &[(u32, Vec<u8>)], block_size: u32, max_entries: usize) -> Vec<u8> {
    let block_size = block_size.max(8);
    let max_entries = max_entries.clamp(1, MAX_ENTRIES);
    let mut w = DatWriter {
        out: vec![0u8; HEADER_OFFSET as usize + HEADER_SIZE],
        block_size: block_size as usize,
    };
    w.pad_to_block();
    let mut sorted: Vec<(u32, &[u8])> = Vec::new();
    for (id, bytes) in records {
        match sorted.iter_mut().find(|(k, _)| k == id) {
            Some(slot) => slot.1 = bytes,
            None => sorted.push((*id, bytes)),
        }
    }
    sorted.sort_by_key(|(id, _)| *id);
    let entries: Vec<DatEntry> = sorted
        .iter()
        .map(|(id, bytes)| DatEntry {
            bit_flags: 0,
            object_id: *id,
            file_offset: w.store(bytes),
            file_size: bytes.len() as u32,
            date: 0,
            iteration: 0,
        })
        .collect();
    let root = w.node(&entries, max_entries);
    let file_size = w.out.len() as u32;
    let h = HEADER_OFFSET as usize;
    let put = |out: &mut Vec<u8>, at: usize, v: u32| {
        out[h + at..h + at + 4].copy_from_slice(&v.to_le_bytes())
    };
    put(&mut w.out, 0x00, 0x5442); // "BT": the B-tree file type
    put(&mut w.out, 0x04, block_size);
    put(&mut w.out, 0x08, file_size);
    put(&mut w.out, 0x0C, 1);
    put(&mut w.out, 0x20, root);
    w.out
}

struct DatWriter {
    out: Vec<u8>,
    block_size: usize,
}

impl DatWriter {
    fn pad_to_block(&mut self) {
        let n = self.out.len().div_ceil(self.block_size) * self.block_size;
        self.out.resize(n, 0);
    }

    /// Append `bytes` as a chain of blocks; returns the first block's offset.
    fn store(&mut self, bytes: &[u8]) -> u32 {
        let payload = self.block_size - 4;
        let first = self.out.len();
        let chunks: Vec<&[u8]> = if bytes.is_empty() {
            vec![&[][..]]
        } else {
            bytes.chunks(payload).collect()
        };
        for (i, chunk) in chunks.iter().enumerate() {
            let start = self.out.len();
            let next = if i + 1 < chunks.len() {
                (start + self.block_size) as u32
            } else {
                0
            };
            self.out.extend_from_slice(&next.to_le_bytes());
            self.out.extend_from_slice(chunk);
            self.out.resize(start + self.block_size, 0);
        }
        first as u32
    }

    /// Write the subtree holding `entries` (sorted); returns its node's offset.
    fn node(&mut self, entries: &[DatEntry], max_entries: usize) -> u32 {
        let mut branches = [0u32; BRANCHES];
        let own: Vec<DatEntry> = if entries.len() <= max_entries {
            entries.to_vec()
        } else {
            let children = entries
                .len()
                .div_ceil(max_entries + 1)
                .clamp(2, max_entries + 1);
            let in_children = entries.len() - (children - 1);
            let mut own = Vec::with_capacity(children - 1);
            let mut at = 0usize;
            for (c, branch) in branches.iter_mut().enumerate().take(children) {
                let size = in_children / children + usize::from(c < in_children % children);
                *branch = self.node(&entries[at..at + size], max_entries);
                at += size;
                if c + 1 < children {
                    own.push(entries[at]);
                    at += 1;
                }
            }
            own
        };
        let mut b = Vec::with_capacity(NODE_SIZE);
        for br in branches {
            b.extend_from_slice(&br.to_le_bytes());
        }
        b.extend_from_slice(&(own.len() as u32).to_le_bytes());
        for e in &own {
            for v in [
                e.bit_flags,
                e.object_id,
                e.file_offset,
                e.file_size,
                e.date,
                e.iteration,
            ] {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        b.resize(NODE_SIZE, 0);
        self.store(&b)
    }
}
