//! The DAT container (`client_portal.dat`, ACE's `Dat/DatDatabase.cs`): a block allocator
//! with a free list and a B-tree directory from file id to the first block of a chain.
//! Two layouts shipped (docs/ac-formats.md section 3): the Throne of Destiny layout (June
//! 2005 on; magic at 0x140, 24-byte entries, 1716-byte directory nodes) and the older one
//! (magic at 0x12C, 12-byte entries, 984-byte nodes). [`DatFile`] reads both, by id, on
//! demand; [`write_dat`] / [`write_dat_with`] build small containers of either layout for
//! tests and tools (the project ships no game data).

use super::error::RecordError;
use retroanim_core::input::{self, FileKind};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The container magic (`"BT"`), `DiskFileInfo_t.FileType`.
pub const MAGIC: u32 = 0x5442;
/// Absolute offset of the header of the current layout.
pub const HEADER_OFFSET: u64 = 0x140;
/// Absolute offset of the header of the pre-June-2005 layout.
pub const PRE_TOD_HEADER_OFFSET: u64 = 0x12C;
/// Bytes of the current header read (through `VersionMinor`).
pub const HEADER_SIZE: usize = 0x50;
/// Bytes of the pre-June-2005 header (magic through three trailing zero words).
pub const PRE_TOD_HEADER_SIZE: usize = 0x2C;
/// Where the transaction record (`DiskTransactInfo`) starts: after the 256-byte version
/// string, before the header.
pub const TRANSACTION_OFFSET: usize = 0x100;
/// The first bytes of the transaction record in retail files (the writer puts them in
/// either layout; the reader ignores them).
pub const RETAIL_TRANSACTION: [u8; 4] = [0x00, 0x50, 0x4C, 0x00];
/// Where the data area (the first block) starts in shipped files.
pub const FIRST_BLOCK: usize = 0x400;
/// Children per directory node.
pub const BRANCHES: usize = 62;
/// Entries per directory node at most.
pub const MAX_ENTRIES: usize = 61;
/// One directory node of the current layout: 62 branches, the count, 61 entries of 24 bytes.
pub const NODE_SIZE: usize = BRANCHES * 4 + 4 + MAX_ENTRIES * ENTRY_SIZE;
/// One directory node of the pre-June-2005 layout: 61 entries of 12 bytes.
pub const PRE_TOD_NODE_SIZE: usize = BRANCHES * 4 + 4 + MAX_ENTRIES * PRE_TOD_ENTRY_SIZE;
const ENTRY_SIZE: usize = 24;
const PRE_TOD_ENTRY_SIZE: usize = 12;
/// Bit 31 of a block link marks a free block.
pub const FREE_BIT: u32 = 0x8000_0000;
/// Entry flag bit 0: the payload is `[u32 uncompressed size][zlib stream]`.
pub const FLAG_COMPRESSED: u32 = 1;
/// A deeper directory is taken for a cycle.
const MAX_DEPTH: usize = 32;
/// A compressed record may not claim more than this many bytes once inflated.
pub const MAX_INFLATED: u32 = 64 << 20;

/// Which of the two shipped layouts a container has (told by where its magic sits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DatLayout {
    /// Throne of Destiny and later: header at 0x140.
    #[default]
    Current,
    /// Before June 2005 (`portal.dat`, `cell.dat`): header at 0x12C.
    PreTod,
}

impl DatLayout {
    pub fn header_offset(self) -> u64 {
        match self {
            DatLayout::Current => HEADER_OFFSET,
            DatLayout::PreTod => PRE_TOD_HEADER_OFFSET,
        }
    }
    pub fn node_size(self) -> usize {
        match self {
            DatLayout::Current => NODE_SIZE,
            DatLayout::PreTod => PRE_TOD_NODE_SIZE,
        }
    }
    fn entry_size(self) -> usize {
        match self {
            DatLayout::Current => ENTRY_SIZE,
            DatLayout::PreTod => PRE_TOD_ENTRY_SIZE,
        }
    }
}

/// `DiskFileInfo_t`. Fields a layout does not have are zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DatHeader {
    pub layout: DatLayout,
    /// The magic, 0x5442 (checked on open).
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
    /// One byte; the three bytes after it are padding (0xCD in shipped files).
    pub use_lru: u8,
    pub use_lru_padding: [u8; 3],
    pub master_map_id: u32,
    pub engine_pack_version: u32,
    pub game_pack_version: u32,
    pub version_major: [u8; 16],
    pub version_minor: u32,
    /// Pre-June-2005 layout only: the whole file's iteration.
    pub iteration: u32,
}

/// A directory entry (`DatFile` in ACE). In the pre-June-2005 layout only `object_id`,
/// `file_offset` and `file_size` exist; the rest read as zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatEntry {
    /// Bit 0: compressed; bits 16–31: the object pack version.
    pub bit_flags: u32,
    pub object_id: u32,
    pub file_offset: u32,
    /// Bytes stored: the compressed size when bit 0 of `bit_flags` is set.
    pub file_size: u32,
    pub date: u32,
    pub iteration: u32,
}

impl DatEntry {
    /// Whether the payload is stored zlib-compressed (flag bit 0).
    pub fn is_compressed(&self) -> bool {
        self.bit_flags & FLAG_COMPRESSED != 0
    }
    /// The object pack version (flag bits 16–31).
    pub fn pack_version(&self) -> u16 {
        (self.bit_flags >> 16) as u16
    }
}

/// Where a container's bytes come from: "read `buf.len()` bytes at `offset`". A native
/// file is one; the WebAssembly page reads the user's file in slices through the browser
/// ([`DatFile::from_source`]), so that a container is never held whole.
pub trait ReadAt {
    /// Fill `buf` from `offset`; the message says why not (the container adds the file
    /// name and offset).
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), String>;
}

impl ReadAt for File {
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> Result<(), String> {
        self.seek(SeekFrom::Start(offset))
            .and_then(|_| self.read_exact(buf))
            .map_err(|e| e.to_string())
    }
}

/// An open DAT container.
pub struct DatFile {
    name: String,
    file: Box<dyn ReadAt + Send>,
    len: u64,
    header: DatHeader,
}

fn le(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl DatFile {
    /// Open a container, tell its layout by where the magic sits, and check its header.
    pub fn open(path: &Path) -> Result<DatFile, RecordError> {
        let name = path.display().to_string();
        // Read by offset, never whole: the handle passed the regular-file, non-blocking
        // open and the container cap.
        let file =
            input::open_kind(path, FileKind::Container).map_err(|e| RecordError::Container {
                file: name.clone(),
                message: format!("cannot open: {}", e.reason()),
            })?;
        let len = file
            .metadata()
            .map_err(|e| RecordError::Container {
                file: name.clone(),
                message: format!("cannot read: {e}"),
            })?
            .len();
        DatFile::from_source(name, len, Box::new(file))
    }

    /// A container read through `source`, `len` bytes long, reported as `name`: the
    /// same header checks, guards and messages as [`DatFile::open`].
    pub fn from_source(
        name: String,
        len: u64,
        source: Box<dyn ReadAt + Send>,
    ) -> Result<DatFile, RecordError> {
        let mut dat = DatFile {
            name,
            file: source,
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
        let mut old = [0u8; PRE_TOD_HEADER_SIZE];
        dat.read_at(PRE_TOD_HEADER_OFFSET, &mut old)?;
        let magic = le(&h, 0);
        let old_magic = le(&old, 0);
        dat.header = if magic == MAGIC {
            let mut version_major = [0u8; 16];
            version_major.copy_from_slice(&h[0x3C..0x4C]);
            DatHeader {
                layout: DatLayout::Current,
                file_type: magic,
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
                use_lru: h[0x2C],
                use_lru_padding: [h[0x2D], h[0x2E], h[0x2F]],
                master_map_id: le(&h, 0x30),
                engine_pack_version: le(&h, 0x34),
                game_pack_version: le(&h, 0x38),
                version_major,
                version_minor: le(&h, 0x4C),
                iteration: 0,
            }
        } else if old_magic == MAGIC {
            DatHeader {
                layout: DatLayout::PreTod,
                file_type: old_magic,
                block_size: le(&old, 0x04),
                file_size: le(&old, 0x08),
                iteration: le(&old, 0x0C),
                free_head: le(&old, 0x10),
                free_tail: le(&old, 0x14),
                free_count: le(&old, 0x18),
                btree: le(&old, 0x1C),
                ..DatHeader::default()
            }
        } else {
            return Err(dat.err(format!(
                "not a DAT container: magic at 0x140 is 0x{magic:08x} and at 0x12c (the pre-2005 layout) is 0x{old_magic:08x}, expected 0x{MAGIC:08x}"
            )));
        };
        let at = dat.header.layout.header_offset();
        if dat.header.block_size < 8 {
            return Err(dat.err(format!(
                "header at 0x{at:x}: block size {} is too small (at least 8)",
                dat.header.block_size
            )));
        }
        if dat.header.btree == 0 || u64::from(dat.header.btree) >= len {
            return Err(dat.err(format!(
                "header at 0x{at:x}: directory root offset 0x{:x} is outside the file",
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
        let r = self.file.read_at(offset, buf);
        r.map_err(|e| self.err(format!("cannot read at offset 0x{offset:x}: {e}")))
    }

    /// `DatReader.ReadDat`: the `size` payload bytes of the object whose first block is
    /// at `offset`, following the block chain, bounded by the chain and the file. A link
    /// with bit 31 set that would be followed (bytes remain) means the chain walked into
    /// the free list: an error naming the block. The final block's link is never followed,
    /// so whatever it holds is ignored, as ACE and DatReaderWriter do.
    pub fn read_object(&mut self, offset: u32, size: u32) -> Result<Vec<u8>, RecordError> {
        if u64::from(size) > self.len {
            return Err(self.err(format!(
                "object at 0x{offset:x}: size {size} exceeds the file size {}",
                self.len
            )));
        }
        if u64::from(size) > input::MAX_RECORD_BYTES {
            return Err(self.err(format!(
                "object at 0x{offset:x}: size {size} is over the {} bytes a record may have",
                input::MAX_RECORD_BYTES
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
            let more = want < buf.len() - pos;
            if more && next & FREE_BIT != 0 {
                return Err(self.err(format!(
                    "object at 0x{offset:x}: block 0x{block:x} is a free block (link 0x{next:08x} has bit 31 set), {} of {size} bytes still unread",
                    buf.len() - pos
                )));
            }
            if more && next == 0 {
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

    /// The free list from `free_head`: the offsets of its blocks (bit 31 masked off the
    /// links), at most `free_count` of them; a block whose link lacks bit 31 is an error.
    pub fn free_blocks(&mut self) -> Result<Vec<u32>, RecordError> {
        let mut out = Vec::new();
        let mut block = self.header.free_head;
        let limit = self.header.free_count.min((self.len / 8) as u32);
        while block != 0 && (out.len() as u32) < limit {
            let mut link = [0u8; 4];
            self.read_at(u64::from(block), &mut link)?;
            let link = u32::from_le_bytes(link);
            if link & FREE_BIT == 0 {
                return Err(self.err(format!(
                    "free list: block 0x{block:x} has link 0x{link:08x} without bit 31"
                )));
            }
            out.push(block);
            block = link & !FREE_BIT;
        }
        Ok(out)
    }

    /// The directory node at `offset`: its branches and entries.
    fn read_node(&mut self, offset: u32) -> Result<(Vec<u32>, Vec<DatEntry>), RecordError> {
        let layout = self.header.layout;
        let b = self.read_object(offset, layout.node_size() as u32)?;
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
                let e = base + i * layout.entry_size();
                match layout {
                    DatLayout::Current => DatEntry {
                        bit_flags: le(&b, e),
                        object_id: le(&b, e + 4),
                        file_offset: le(&b, e + 8),
                        file_size: le(&b, e + 12),
                        date: le(&b, e + 16),
                        iteration: le(&b, e + 20),
                    },
                    DatLayout::PreTod => DatEntry {
                        object_id: le(&b, e),
                        file_offset: le(&b, e + 4),
                        file_size: le(&b, e + 8),
                        ..DatEntry::default()
                    },
                }
            })
            .collect();
        Ok((branches, entries))
    }

    /// The directory entry of `id`: the on-demand B-tree search of `DatDirectory`.
    pub fn find(&mut self, id: u32) -> Result<Option<DatEntry>, RecordError> {
        let mut node = self.header.btree;
        let mut path: Vec<u32> = Vec::with_capacity(MAX_DEPTH);
        loop {
            if path.len() >= MAX_DEPTH {
                return Err(self.too_deep(node, path.last().copied()));
            }
            path.push(node);
            let (branches, entries) = self.read_node(node)?;
            if let Some(e) = entries.iter().find(|e| e.object_id == id) {
                return Ok(Some(*e));
            }
            if branches[0] == 0 {
                return Ok(None);
            }
            let i = entries.iter().filter(|e| e.object_id < id).count();
            let child = branches[i];
            if child == 0 {
                return Ok(None);
            }
            if path.contains(&child) {
                return Err(self.cycle(node, i, child));
            }
            node = child;
        }
    }

    /// A branch that leads back to a node already visited.
    fn cycle(&self, node: u32, branch: usize, child: u32) -> RecordError {
        self.err(format!(
            "directory node at 0x{node:x}: branch {branch} leads back to node 0x{child:x}, already visited (a cycle)"
        ))
    }

    /// A node past the depth limit, with the node whose branch led to it.
    fn too_deep(&self, node: u32, parent: Option<u32>) -> RecordError {
        let from = parent.map_or(String::new(), |p| format!(" (a branch of node 0x{p:x})"));
        self.err(format!(
            "directory node at 0x{node:x}{from} is deeper than {MAX_DEPTH} levels"
        ))
    }

    /// Every entry of the directory, in key order (a depth-first walk).
    pub fn entries(&mut self) -> Result<Vec<DatEntry>, RecordError> {
        let mut out = Vec::new();
        let root = self.header.btree;
        let mut seen = std::collections::HashSet::new();
        seen.insert(root);
        self.walk(root, None, 0, &mut seen, &mut out)?;
        out.sort_by_key(|e| e.object_id);
        Ok(out)
    }

    // A B-tree reaches each node once: a node met a second time (a cycle, or two
    // branches sharing a subtree, which would make the walk exponential) is refused.
    fn walk(
        &mut self,
        node: u32,
        parent: Option<u32>,
        depth: usize,
        seen: &mut std::collections::HashSet<u32>,
        out: &mut Vec<DatEntry>,
    ) -> Result<(), RecordError> {
        if depth >= MAX_DEPTH {
            return Err(self.too_deep(node, parent));
        }
        let (branches, entries) = self.read_node(node)?;
        if branches[0] != 0 {
            for (i, &child) in branches[..=entries.len()].iter().enumerate() {
                if child != 0 {
                    if !seen.insert(child) {
                        return Err(self.cycle(node, i, child));
                    }
                    self.walk(child, Some(node), depth + 1, seen, out)?;
                }
            }
        }
        out.extend(entries);
        Ok(())
    }

    /// The stored bytes of entry `e`, inflated when its compressed flag is set
    /// (`DatDatabase.TryGetFileBytes` of DatReaderWriter).
    pub fn read_entry(&mut self, e: &DatEntry) -> Result<Vec<u8>, RecordError> {
        let stored = self.read_object(e.file_offset, e.file_size)?;
        if e.is_compressed() {
            inflate_record(&stored).map_err(|m| {
                self.err(format!(
                    "record 0x{:08x} (compressed, {} bytes at 0x{:x}): {m}",
                    e.object_id, e.file_size, e.file_offset
                ))
            })
        } else {
            Ok(stored)
        }
    }

    /// `ReadFromDat`'s byte part: the record's bytes (inflated if compressed), or `NotFound`.
    pub fn read_record(&mut self, id: u32) -> Result<Vec<u8>, RecordError> {
        match self.find(id)? {
            Some(e) => self.read_entry(&e),
            None => Err(RecordError::NotFound {
                file: self.name.clone(),
                id,
            }),
        }
    }
}

/// A compressed payload, `[u32 uncompressed size][zlib stream]`, inflated to exactly the
/// size it names (bounded by [`MAX_INFLATED`]).
pub fn inflate_record(stored: &[u8]) -> Result<Vec<u8>, String> {
    let Some(head) = stored.get(..4) else {
        return Err(format!(
            "{} bytes cannot hold the uncompressed size",
            stored.len()
        ));
    };
    let size = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    if size > MAX_INFLATED {
        return Err(format!(
            "uncompressed size {size} is larger than {MAX_INFLATED}"
        ));
    }
    // The size word is only a claim: grow with the stream rather than trusting it up front.
    let mut out = Vec::with_capacity((size as usize).min(1 << 20));
    let mut z = flate2::read::ZlibDecoder::new(&stored[4..]).take(u64::from(size) + 1);
    z.read_to_end(&mut out)
        .map_err(|e| format!("zlib stream at byte 4: {e}"))?;
    if out.len() != size as usize {
        return Err(format!(
            "zlib stream inflates to {} bytes, the header says {size}",
            out.len()
        ));
    }
    Ok(out)
}

/// `[u32 size][zlib stream]` of `bytes` (the writer's side of [`inflate_record`]).
pub fn deflate_record(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut out = (bytes.len() as u32).to_le_bytes().to_vec();
    let mut z = flate2::write::ZlibEncoder::new(out.split_off(4), flate2::Compression::best());
    // Writing into a Vec cannot fail.
    let _ = z.write_all(bytes);
    let stream = z.finish().unwrap_or_default();
    out.extend_from_slice(&stream);
    out
}

/// One record to write: its id and bytes, whether to store it compressed, and the pack
/// version for flag bits 16–31 (the current layout only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatRecord {
    pub id: u32,
    pub bytes: Vec<u8>,
    pub compressed: bool,
    pub pack_version: u16,
}

impl DatRecord {
    /// A plain record with pack version 2 (a file never patched).
    pub fn new(id: u32, bytes: Vec<u8>) -> DatRecord {
        DatRecord {
            id,
            bytes,
            compressed: false,
            pack_version: 2,
        }
    }
}

/// How [`write_dat_with`] lays a container out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatWriteOptions {
    pub layout: DatLayout,
    /// Bytes per block including the 4-byte link (at least 8).
    pub block_size: u32,
    /// Entries per directory node, 1..=61 (small values give deep trees).
    pub max_entries: usize,
    /// Free blocks appended after the data, chained with bit 31 set.
    pub free_blocks: usize,
    /// The three bytes after `use_lru` (shipped files hold 0xCD 0xCD 0xCD).
    pub use_lru_padding: [u8; 3],
    /// Current layout: engine pack version, version minor. Pre-2005: the file iteration.
    pub engine_pack_version: u32,
    pub version_minor: u32,
    pub iteration: u32,
}

impl Default for DatWriteOptions {
    fn default() -> Self {
        DatWriteOptions {
            layout: DatLayout::Current,
            block_size: 1024,
            max_entries: MAX_ENTRIES,
            free_blocks: 0,
            use_lru_padding: [0; 3],
            engine_pack_version: 0,
            version_minor: 0,
            iteration: 0,
        }
    }
}

/// Builds a current-layout DAT container holding `records` (id, bytes) with blocks of
/// `block_size` bytes (at least 8) and directory nodes of at most `max_entries` entries
/// (1..=61), every entry plain with pack version 2 as in a retail file never patched.
/// Duplicate ids keep the last bytes given.
pub fn write_dat(records: &[(u32, Vec<u8>)], block_size: u32, max_entries: usize) -> Vec<u8> {
    let recs: Vec<DatRecord> = records
        .iter()
        .map(|(id, b)| DatRecord::new(*id, b.clone()))
        .collect();
    write_dat_with(
        &recs,
        &DatWriteOptions {
            block_size,
            max_entries,
            ..DatWriteOptions::default()
        },
    )
}

/// Builds a container of either layout: the prologue (zero but for the retail transaction
/// bytes `00 50 4C 00` at 0x100), the header at 0x140 (or 0x12C), the
/// data area from 0x400 (records as block chains, then a balanced B-tree written children
/// first, then the free blocks). Compressed records are stored deflated with flag bit 0.
/// Compression is only representable in the current layout; the pre-2005 writer stores
/// every record plain.
pub fn write_dat_with(records: &[DatRecord], opts: &DatWriteOptions) -> Vec<u8> {
    let block_size = opts.block_size.max(8);
    let max_entries = opts.max_entries.clamp(1, MAX_ENTRIES);
    let mut w = DatWriter {
        out: vec![0u8; FIRST_BLOCK],
        block_size: block_size as usize,
        layout: opts.layout,
    };
    let mut sorted: Vec<&DatRecord> = Vec::new();
    for r in records {
        match sorted.iter_mut().find(|k| k.id == r.id) {
            Some(slot) => *slot = r,
            None => sorted.push(r),
        }
    }
    sorted.sort_by_key(|r| r.id);
    let entries: Vec<DatEntry> = sorted
        .iter()
        .map(|r| {
            let compressed = r.compressed && opts.layout == DatLayout::Current;
            let stored = if compressed {
                deflate_record(&r.bytes)
            } else {
                r.bytes.clone()
            };
            DatEntry {
                bit_flags: (u32::from(r.pack_version) << 16) | u32::from(compressed),
                object_id: r.id,
                file_offset: w.store(&stored),
                file_size: stored.len() as u32,
                date: 0,
                iteration: 0,
            }
        })
        .collect();
    let root = w.node(&entries, max_entries);
    let mut free: Vec<u32> = Vec::new();
    for _ in 0..opts.free_blocks {
        free.push(w.out.len() as u32);
        w.out.resize(w.out.len() + w.block_size, 0);
    }
    for (i, &b) in free.iter().enumerate() {
        let next = free.get(i + 1).copied().unwrap_or(0) | FREE_BIT;
        w.out[b as usize..b as usize + 4].copy_from_slice(&next.to_le_bytes());
    }
    let file_size = w.out.len() as u32;
    w.out[TRANSACTION_OFFSET..TRANSACTION_OFFSET + 4].copy_from_slice(&RETAIL_TRANSACTION);
    let h = opts.layout.header_offset() as usize;
    let put = |out: &mut Vec<u8>, at: usize, v: u32| {
        out[h + at..h + at + 4].copy_from_slice(&v.to_le_bytes())
    };
    let (head, tail) = (
        free.first().copied().unwrap_or(0),
        free.last().copied().unwrap_or(0),
    );
    put(&mut w.out, 0x00, MAGIC);
    put(&mut w.out, 0x04, block_size);
    put(&mut w.out, 0x08, file_size);
    match opts.layout {
        DatLayout::Current => {
            put(&mut w.out, 0x0C, 1);
            put(&mut w.out, 0x14, head);
            put(&mut w.out, 0x18, tail);
            put(&mut w.out, 0x1C, free.len() as u32);
            put(&mut w.out, 0x20, root);
            w.out[h + 0x2D..h + 0x30].copy_from_slice(&opts.use_lru_padding);
            put(&mut w.out, 0x34, opts.engine_pack_version);
            put(&mut w.out, 0x4C, opts.version_minor);
        }
        DatLayout::PreTod => {
            put(&mut w.out, 0x0C, opts.iteration);
            put(&mut w.out, 0x10, head);
            put(&mut w.out, 0x14, tail);
            put(&mut w.out, 0x18, free.len() as u32);
            put(&mut w.out, 0x1C, root);
        }
    }
    w.out
}

struct DatWriter {
    out: Vec<u8>,
    block_size: usize,
    layout: DatLayout,
}

impl DatWriter {
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
        let mut b = Vec::with_capacity(self.layout.node_size());
        for br in branches {
            b.extend_from_slice(&br.to_le_bytes());
        }
        b.extend_from_slice(&(own.len() as u32).to_le_bytes());
        for e in &own {
            let words: &[u32] = match self.layout {
                DatLayout::Current => &[
                    e.bit_flags,
                    e.object_id,
                    e.file_offset,
                    e.file_size,
                    e.date,
                    e.iteration,
                ],
                DatLayout::PreTod => &[e.object_id, e.file_offset, e.file_size],
            };
            for v in words {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        b.resize(self.layout.node_size(), 0);
        self.store(&b)
    }
}
