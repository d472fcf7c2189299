//! H80: `.DPL` palettes (the theater palettes `dpl\WORLD<n>.DPL`, `COCKPIT.DPL`, a shape's
//! palette in our own samples). Layout (docs/herc-formats.md, "Palettes, bitmaps and
//! materials"):
//!
//! u32 tag `0x0028000f` (bytes `0F 00 28 00`), u32 size of what follows, i32 colour
//! count, then per colour four bytes `[red, green, blue, flag]` with 6-bit VGA channels;
//! then, in the theater palettes, the shade-ramp table (H83): i32 ramp count, per ramp an
//! i16 length and that many i16 palette indices, darkest first. A palette of colours only
//! (every shell palette) ends after the colours.
//!
//! The reader keeps the size field and any bytes after the table as read, so
//! [`Palette::write`] gives the file back byte for byte.

use retroanim_core::ScenarioError;

use super::{ByteReader, ByteWriter};

/// The tag every Earthsiege palette starts with.
pub const TAG_PALETTE: u32 = 0x0028_000f;
/// A second tag Siege Studio reads as the same layout (earlier Dynamix titles); accepted
/// and kept.
pub const TAG_PALETTE_ALT: u32 = 0x0028_0002;
/// A palette addresses at most this many colours (indices are bytes).
pub const MAX_COLORS: usize = 256;
/// At most this many ramps: DBSIM masks a ramp number with `& 0xff`.
pub const MAX_RAMPS: usize = 256;

/// One palette entry as stored: 6-bit channels and the flag byte (1 in retail entries).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PaletteEntry {
    pub red: u8,
    pub green: u8,
    pub blue: u8,
    pub flag: u8,
}

impl PaletteEntry {
    /// An entry from 6-bit channels (values above 63 are kept as given).
    pub const fn vga(red: u8, green: u8, blue: u8) -> PaletteEntry {
        PaletteEntry {
            red,
            green,
            blue,
            flag: 1,
        }
    }

    /// The 8-bit colour: each channel times 4, capped at 255 (as the VGA DAC scales it).
    pub fn rgb(&self) -> [u8; 3] {
        let up = |c: u8| (u16::from(c) * 4).min(255) as u8;
        [up(self.red), up(self.green), up(self.blue)]
    }
}

/// A `.DPL` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    pub tag: u32,
    /// The size field as stored (the bytes after it, in every file seen).
    pub size_field: u32,
    pub entries: Vec<PaletteEntry>,
    /// The shade-ramp table (H83), `None` when the file ends after the colours.
    pub ramps: Option<Vec<Vec<i16>>>,
    /// Bytes after the ramp table, kept for the round trip.
    pub trailing: Vec<u8>,
}

impl Palette {
    /// A palette of `entries` (at most 256) and optional ramps, with the size field the
    /// writer computes.
    pub fn new(entries: Vec<PaletteEntry>, ramps: Option<Vec<Vec<i16>>>) -> Palette {
        let mut p = Palette {
            tag: TAG_PALETTE,
            size_field: 0,
            entries,
            ramps,
            trailing: Vec::new(),
        };
        p.size_field = p.body_len() as u32;
        p
    }

    fn body_len(&self) -> usize {
        let ramps = self
            .ramps
            .as_ref()
            .map_or(0, |r| 4 + r.iter().map(|x| 2 + 2 * x.len()).sum::<usize>());
        4 + 4 * self.entries.len() + ramps + self.trailing.len()
    }

    /// Read a palette file (loose, or extracted with its VOL entry prefix).
    pub fn read(bytes: &[u8], file: &str) -> Result<Palette, ScenarioError> {
        let bytes = super::vol::strip_entry_prefix(bytes);
        let mut r = ByteReader::new(bytes, file, "DPL");
        let at = r.offset();
        let tag = r.u32("palette tag")?;
        if tag != TAG_PALETTE && tag != TAG_PALETTE_ALT {
            return Err(r.error_at(
                at,
                format!("not a palette: tag {tag:#010x}, expected {TAG_PALETTE:#010x}"),
            ));
        }
        let size_field = r.u32("palette size")?;
        let at = r.offset();
        let count = r.i32("colour count")?;
        let n = usize::try_from(count)
            .ok()
            .filter(|&n| n <= MAX_COLORS)
            .ok_or_else(|| {
                r.error_at(
                    at,
                    format!("colour count {count} is outside 0..={MAX_COLORS}"),
                )
            })?;
        let raw = r.take(4 * n, "colour entries")?;
        let entries = raw
            .chunks_exact(4)
            .map(|c| PaletteEntry {
                red: c[0],
                green: c[1],
                blue: c[2],
                flag: c[3],
            })
            .collect();
        let ramps = if r.remaining() >= 4 {
            r.set_record("DPL shade ramps");
            let at = r.offset();
            let count = r.i32("ramp count")?;
            let m = usize::try_from(count)
                .ok()
                .filter(|&m| m <= MAX_RAMPS)
                .ok_or_else(|| {
                    r.error_at(at, format!("ramp count {count} is outside 0..={MAX_RAMPS}"))
                })?;
            let mut ramps = Vec::with_capacity(m.min(r.remaining() / 2));
            for k in 0..m {
                let len = r.count(&format!("ramp {k} length"), 2)?;
                ramps.push(r.i16_vec(len, &format!("ramp {k} indices"))?);
            }
            Some(ramps)
        } else {
            None
        };
        Ok(Palette {
            tag,
            size_field,
            entries,
            ramps,
            trailing: r.rest().to_vec(),
        })
    }

    /// The file bytes (the size field as stored).
    pub fn write(&self) -> Result<Vec<u8>, String> {
        if self.entries.len() > MAX_COLORS {
            return Err(format!(
                "{} colours: a palette holds at most {MAX_COLORS}",
                self.entries.len()
            ));
        }
        let mut w = ByteWriter::default();
        w.u32(self.tag);
        w.u32(self.size_field);
        w.i32(self.entries.len() as i32);
        for e in &self.entries {
            w.bytes(&[e.red, e.green, e.blue, e.flag]);
        }
        if let Some(ramps) = &self.ramps {
            if ramps.len() > MAX_RAMPS {
                return Err(format!(
                    "{} ramps: a palette holds at most {MAX_RAMPS}",
                    ramps.len()
                ));
            }
            w.i32(ramps.len() as i32);
            for (k, ramp) in ramps.iter().enumerate() {
                w.count(ramp.len(), &format!("ramp {k} length"))?;
                for &i in ramp {
                    w.i16(i);
                }
            }
        }
        w.bytes(&self.trailing);
        Ok(w.out)
    }

    /// The 8-bit colour of palette index `i`, `None` past the palette's end.
    pub fn rgb(&self, i: usize) -> Option<[u8; 3]> {
        self.entries.get(i).map(PaletteEntry::rgb)
    }

    /// H83: the palette index a shaded face of ramp number `value` takes at light level
    /// `shade` (0 dark … 255 bright), as DBSIM's ramp lookup does: the ramp is
    /// `value & 0xff`, ramp 0 when that is past the table; the step is
    /// `(shade · length) >> 8`, the last step when that reaches the length. `None` when
    /// the palette has no ramp table or the ramp is empty or names no palette entry.
    pub fn ramp_index(&self, value: i16, shade: u8) -> Option<usize> {
        let ramps = self.ramps.as_ref()?;
        let idx = usize::from(value as u16 & 0xff);
        let ramp = ramps.get(idx).or_else(|| ramps.first())?;
        let len = ramp.len();
        if len == 0 {
            return None;
        }
        let pos = ((usize::from(shade) * len) >> 8).min(len - 1);
        usize::try_from(ramp[pos])
            .ok()
            .filter(|&i| i < self.entries.len())
    }
}
