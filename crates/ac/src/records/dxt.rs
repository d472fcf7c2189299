//! Block-compressed pixels (DXT1, DXT3, DXT5), decoded here rather than through a crate:
//! the three decoders are a few dozen lines and the rounding is then ours to document.
//!
//! Every 4×4 block has a colour part of 8 bytes: two RGB565 end colours `c0`, `c1` and
//! sixteen 2-bit selectors, row by row from the top left, low bits first. 565 widens to
//! 888 by repeating the high bits (`r8 = r5 << 3 | r5 >> 2`, `g8 = g6 << 2 | g6 >> 4`).
//! The two middle colours are `(2·c0 + c1) / 3` and `(c0 + 2·c1) / 3` per channel,
//! truncated; DXT1 with `c0 <= c1` instead has `(c0 + c1) / 2` and transparent black.
//! DXT3 puts 8 bytes of 4-bit alphas (times 17) before the colour part; DXT5 puts two
//! alpha end values and sixteen 3-bit selectors there (eight steps when `a0 > a1`, else
//! six steps plus 0 and 255).

/// The block-compressed formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dxt {
    Dxt1,
    Dxt3,
    Dxt5,
}

impl Dxt {
    /// Bytes per 4×4 block.
    pub fn block_bytes(self) -> usize {
        match self {
            Dxt::Dxt1 => 8,
            Dxt::Dxt3 | Dxt::Dxt5 => 16,
        }
    }

    /// Bytes of a `width`×`height` image (partial blocks count whole).
    pub fn image_bytes(self, width: usize, height: usize) -> usize {
        width.div_ceil(4) * height.div_ceil(4) * self.block_bytes()
    }
}

fn widen565(c: u16) -> [u8; 3] {
    let r = (c >> 11) & 0x1F;
    let g = (c >> 5) & 0x3F;
    let b = c & 0x1F;
    [
        ((r << 3) | (r >> 2)) as u8,
        ((g << 2) | (g >> 4)) as u8,
        ((b << 3) | (b >> 2)) as u8,
    ]
}

fn mix(a: [u8; 3], b: [u8; 3], wa: u16, wb: u16) -> [u8; 4] {
    let d = wa + wb;
    let f = |i: usize| ((wa * u16::from(a[i]) + wb * u16::from(b[i])) / d) as u8;
    [f(0), f(1), f(2), 255]
}

/// The four colours of a colour part; `three_colour` allows DXT1's transparent mode.
fn palette4(block: &[u8], three_colour: bool) -> [[u8; 4]; 4] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let (a, b) = (widen565(c0), widen565(c1));
    let solid = |c: [u8; 3]| [c[0], c[1], c[2], 255];
    if c0 > c1 || !three_colour {
        [solid(a), solid(b), mix(a, b, 2, 1), mix(a, b, 1, 2)]
    } else {
        [solid(a), solid(b), mix(a, b, 1, 1), [0, 0, 0, 0]]
    }
}

fn alphas_dxt5(block: &[u8]) -> [u8; 16] {
    let (a0, a1) = (u16::from(block[0]), u16::from(block[1]));
    let mut steps = [0u8; 8];
    steps[0] = a0 as u8;
    steps[1] = a1 as u8;
    if a0 > a1 {
        for i in 1..7u16 {
            steps[i as usize + 1] = (((7 - i) * a0 + i * a1) / 7) as u8;
        }
    } else {
        for i in 1..5u16 {
            steps[i as usize + 1] = (((5 - i) * a0 + i * a1) / 5) as u8;
        }
        steps[6] = 0;
        steps[7] = 255;
    }
    let mut bits = 0u64;
    for (i, b) in block[2..8].iter().enumerate() {
        bits |= u64::from(*b) << (8 * i);
    }
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        *o = steps[((bits >> (3 * i)) & 7) as usize];
    }
    out
}

fn alphas_dxt3(block: &[u8]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, o) in out.iter_mut().enumerate() {
        let nibble = (block[i / 2] >> (4 * (i % 2))) & 0xF;
        *o = nibble * 17;
    }
    out
}

/// Decode `data` (at least [`Dxt::image_bytes`] long; the caller checks) into RGBA rows,
/// top row first.
pub fn decode(kind: Dxt, data: &[u8], width: usize, height: usize) -> Vec<u8> {
    let mut out = vec![0u8; width * height * 4];
    let bw = width.div_ceil(4);
    let size = kind.block_bytes();
    for (n, block) in data
        .chunks_exact(size)
        .take(kind.image_bytes(width, height) / size)
        .enumerate()
    {
        let (bx, by) = (n % bw * 4, n / bw * 4);
        let (alpha, colour) = match kind {
            Dxt::Dxt1 => (None, block),
            Dxt::Dxt3 => (Some(alphas_dxt3(&block[..8])), &block[8..]),
            Dxt::Dxt5 => (Some(alphas_dxt5(&block[..8])), &block[8..]),
        };
        let colours = palette4(colour, kind == Dxt::Dxt1);
        let sel = u32::from_le_bytes([colour[4], colour[5], colour[6], colour[7]]);
        for i in 0..16 {
            let (x, y) = (bx + i % 4, by + i / 4);
            if x >= width || y >= height {
                continue;
            }
            let mut px = colours[((sel >> (2 * i)) & 3) as usize];
            if let Some(a) = alpha {
                px[3] = a[i];
            }
            let at = (y * width + x) * 4;
            out[at..at + 4].copy_from_slice(&px);
        }
    }
    out
}
