//! The binary container: a 12-byte header, a JSON chunk and an optional BIN chunk.

use crate::Error;

const MAGIC: &[u8; 4] = b"glTF";
const VERSION: u32 = 2;
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// Frames `json` and `bin` as a .glb. Chunks start on 4-byte boundaries: the JSON chunk is
/// padded with spaces (still valid JSON), the BIN chunk with zeros.
pub(crate) fn frame(json: &[u8], bin: &[u8]) -> Result<Vec<u8>, Error> {
    let json_len = padded(json.len());
    let bin_len = padded(bin.len());
    let total = 12
        + 8
        + json_len as u64
        + if bin.is_empty() {
            0
        } else {
            8 + bin_len as u64
        };
    let total32 = u32::try_from(total).map_err(|_| Error::TooLarge { bytes: total })?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&total32.to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(&CHUNK_JSON.to_le_bytes());
    out.extend_from_slice(json);
    out.resize(out.len() + json_len - json.len(), b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&(bin_len as u32).to_le_bytes());
        out.extend_from_slice(&CHUNK_BIN.to_le_bytes());
        out.extend_from_slice(bin);
        out.resize(out.len() + bin_len - bin.len(), 0);
    }
    Ok(out)
}

fn padded(len: usize) -> usize {
    len.div_ceil(4) * 4
}

/// The JSON and BIN chunks of a .glb, for tests and for tools that read back what was written.
pub fn chunks(glb: &[u8]) -> Option<(&[u8], &[u8])> {
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(glb.get(at..at + 4)?.try_into().ok()?))
    };
    if glb.get(0..4)? != MAGIC || word(4)? != VERSION || word(8)? as usize != glb.len() {
        return None;
    }
    let json_len = word(12)? as usize;
    if word(16)? != CHUNK_JSON {
        return None;
    }
    let json = glb.get(20..20 + json_len)?;
    let rest = 20 + json_len;
    if rest == glb.len() {
        return Some((json, &[]));
    }
    let bin_len = word(rest)? as usize;
    if word(rest + 4)? != CHUNK_BIN {
        return None;
    }
    Some((json, glb.get(rest + 8..rest + 8 + bin_len)?))
}
