//! H81: `.DBM` bitmaps and `.DBA` bitmap arrays (the machines' texture banks
//! `dba\LIGHT.DBA` … `dba\NEWHERCS.DBA`, cockpit art, our samples' textures). Layout
//! (docs/herc-formats.md, "Palettes, bitmaps and materials"):
//!
//! A bitmap record: u32 tag `0x0028000e`, u32 size of what follows up to the padding
//! (13 + image length + 4 × extra count), i16 rows (height), i16 columns (width), u8 bits
//! per pixel, u8 flags, u8 packing (0 raw, 1 RLE, 3 LZH), i32 image length, i16 extra
//! count, the image bytes, extra count × u32, then one zero byte when the record's length
//! is odd.
//!
//! A bitmap array: u32 tag `0x00280001`, u32 size, i16 frame count, i16 a second field
//! whose meaning is not established (kept), then the frames, each a bitmap record.
//!
//! Neither names a palette: DBSIM pairs a machine's bank with the theater palette. Raw
//! 8-bit images decode to palette indices, row by row from the top; packed images are
//! kept verbatim and not decoded.

use retroanim_core::ScenarioError;

use super::{ByteReader, ByteWriter};

/// A bitmap record's tag.
pub const TAG_BITMAP: u32 = 0x0028_000e;
/// A bitmap array's tag.
pub const TAG_BITMAP_ARRAY: u32 = 0x0028_0001;
/// The header fields after the size, in bytes.
const HEADER_BYTES: usize = 13;
/// The bytes of a bitmap record before its image (tag, size, header).
pub const RECORD_HEAD: usize = 8 + HEADER_BYTES;

/// One bitmap (a `.DBM` file or a frame of a `.DBA`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitmap {
    pub rows: i16,
    pub cols: i16,
    pub bits_per_pixel: u8,
    /// Kept whole (HercWorks reads bits 0–3 as a type and bit 4 as "opaque").
    pub flags: u8,
    /// 0 raw, 1 RLE, 3 LZH; only raw images decode.
    pub packing: u8,
    pub image: Vec<u8>,
    /// The extra count as stored (a negative count reads no extras).
    pub extra_count: i16,
    pub extras: Vec<u32>,
}

impl Bitmap {
    /// A raw 8-bit bitmap of `cols` × `rows` palette indices, rows from the top.
    pub fn indexed(cols: i16, rows: i16, indices: Vec<u8>) -> Bitmap {
        Bitmap {
            rows,
            cols,
            bits_per_pixel: 8,
            flags: 0,
            packing: 0,
            image: indices,
            extra_count: 0,
            extras: Vec::new(),
        }
    }

    /// Read one bitmap record at `r`, with its padding byte when the record is odd.
    fn read_record(r: &mut ByteReader) -> Result<Bitmap, ScenarioError> {
        let start = r.offset();
        let tag = r.u32("bitmap tag")?;
        if tag != TAG_BITMAP {
            return Err(r.error_at(
                start,
                format!("not a bitmap: tag {tag:#010x}, expected {TAG_BITMAP:#010x}"),
            ));
        }
        let size = r.u32("bitmap size")? as usize;
        let mut p = r.sub(size, format!("DBM at {start}"))?;
        let rows = p.i16("rows")?;
        let cols = p.i16("columns")?;
        if rows < 0 || cols < 0 {
            return Err(p.error(format!("negative size {cols} × {rows}")));
        }
        let bits_per_pixel = p.u8("bits per pixel")?;
        let flags = p.u8("flags")?;
        let packing = p.u8("packing")?;
        let at = p.offset();
        let len = p.i32("image length")?;
        let len = usize::try_from(len)
            .map_err(|_| p.error_at(at, format!("image length {len} is negative")))?;
        let extra_count = p.i16("extra count")?;
        let image = p.take(len, "image data")?.to_vec();
        let extras = if extra_count > 0 {
            let b = p.take(4 * extra_count as usize, "extra words")?;
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        } else {
            Vec::new()
        };
        if p.remaining() > 0 {
            return Err(p.error(format!(
                "{} bytes after the image and its extra words, inside the declared size",
                p.remaining()
            )));
        }
        if (8 + size) % 2 == 1 && r.remaining() > 0 {
            r.take(1, "padding byte")?;
        }
        Ok(Bitmap {
            rows,
            cols,
            bits_per_pixel,
            flags,
            packing,
            image,
            extra_count,
            extras,
        })
    }

    fn write_record(&self, w: &mut ByteWriter) -> Result<(), String> {
        if self.extras.len() != usize::try_from(self.extra_count).unwrap_or(0) {
            return Err(format!(
                "extra count {} but {} extra words",
                self.extra_count,
                self.extras.len()
            ));
        }
        let size = HEADER_BYTES + self.image.len() + 4 * self.extras.len();
        let size32 = u32::try_from(size).map_err(|_| "bitmap larger than 4 GiB")?;
        let len32 = i32::try_from(self.image.len()).map_err(|_| "image larger than 2 GiB")?;
        w.u32(TAG_BITMAP);
        w.u32(size32);
        w.i16(self.rows);
        w.i16(self.cols);
        w.u8(self.bits_per_pixel);
        w.u8(self.flags);
        w.u8(self.packing);
        w.i32(len32);
        w.i16(self.extra_count);
        w.bytes(&self.image);
        for &x in &self.extras {
            w.u32(x);
        }
        if (8 + size) % 2 == 1 {
            w.u8(0);
        }
        Ok(())
    }

    /// Read a `.DBM` file (loose, or with its VOL entry prefix).
    pub fn read(bytes: &[u8], file: &str) -> Result<Bitmap, ScenarioError> {
        let bytes = super::vol::strip_entry_prefix(bytes);
        let mut r = ByteReader::new(bytes, file, "DBM");
        let b = Bitmap::read_record(&mut r)?;
        if r.remaining() > 0 {
            return Err(r.error(format!("{} bytes after the bitmap", r.remaining())));
        }
        Ok(b)
    }

    /// The `.DBM` file bytes.
    pub fn write(&self) -> Result<Vec<u8>, String> {
        let mut w = ByteWriter::default();
        self.write_record(&mut w)?;
        Ok(w.out)
    }

    /// The image as palette indices, `cols × rows`, rows from the top: only a raw
    /// (packing 0) 8-bit image whose length is exactly that; otherwise why not.
    pub fn indices(&self) -> Result<&[u8], String> {
        if self.packing != 0 {
            return Err(format!(
                "packing {} is not decoded (only raw images are)",
                self.packing
            ));
        }
        if self.bits_per_pixel != 8 {
            return Err(format!(
                "{} bits per pixel is not decoded (only 8)",
                self.bits_per_pixel
            ));
        }
        let want = self.cols.max(0) as usize * self.rows.max(0) as usize;
        if self.image.len() != want {
            return Err(format!(
                "{} image bytes for {} × {} pixels",
                self.image.len(),
                self.cols,
                self.rows
            ));
        }
        Ok(&self.image)
    }
}

/// A `.DBA` file: bitmaps addressed by frame index (a textured polygon's surface value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitmapArray {
    /// The size field as stored.
    pub size_field: u32,
    /// The i16 after the frame count, as stored (meaning not established).
    pub second: i16,
    pub frames: Vec<Bitmap>,
    /// Bytes after the last frame, kept.
    pub trailing: Vec<u8>,
}

impl BitmapArray {
    /// An array of `frames` with the size field the writer computes (the bytes after it).
    pub fn new(frames: Vec<Bitmap>) -> Result<BitmapArray, String> {
        let mut a = BitmapArray {
            size_field: 0,
            second: 0,
            frames,
            trailing: Vec::new(),
        };
        let len = a.write()?.len() - 8;
        a.size_field = u32::try_from(len).map_err(|_| "bitmap array larger than 4 GiB")?;
        Ok(a)
    }

    /// Read a `.DBA` file (loose, or with its VOL entry prefix).
    pub fn read(bytes: &[u8], file: &str) -> Result<BitmapArray, ScenarioError> {
        let bytes = super::vol::strip_entry_prefix(bytes);
        let mut r = ByteReader::new(bytes, file, "DBA");
        let at = r.offset();
        let tag = r.u32("bitmap array tag")?;
        if tag != TAG_BITMAP_ARRAY {
            return Err(r.error_at(
                at,
                format!("not a bitmap array: tag {tag:#010x}, expected {TAG_BITMAP_ARRAY:#010x}"),
            ));
        }
        let size_field = r.u32("bitmap array size")?;
        let n = r.count("frame count", RECORD_HEAD)?;
        let second = r.i16("second field")?;
        let mut frames = Vec::with_capacity(n);
        for k in 0..n {
            r.set_record(format!("DBA frame {k}"));
            frames.push(Bitmap::read_record(&mut r)?);
        }
        Ok(BitmapArray {
            size_field,
            second,
            frames,
            trailing: r.rest().to_vec(),
        })
    }

    /// The file bytes (the size field as stored).
    pub fn write(&self) -> Result<Vec<u8>, String> {
        let mut w = ByteWriter::default();
        w.u32(TAG_BITMAP_ARRAY);
        w.u32(self.size_field);
        w.count(self.frames.len(), "frame count")?;
        w.i16(self.second);
        for f in &self.frames {
            f.write_record(&mut w)?;
        }
        w.bytes(&self.trailing);
        Ok(w.out)
    }
}
