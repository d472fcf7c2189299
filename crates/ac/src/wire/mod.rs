//! Motion on the wire: the byte formats ACE's server reads from clients (`MoveToState`
//! with its `RawMotionState`, `JumpPack`) and writes to them (`UpdateMotion` carrying
//! `MovementData`, `VectorUpdate`). Little-endian throughout; every reader reports the
//! byte offset at which input ran out and never panics.
//!
//! ACE has readers but no writers for the client-to-server messages; the writers here
//! produce exactly the layout those readers expect.

pub mod bytes;
pub mod command_ids;
pub mod jump_pack;
pub mod move_to_state;
pub mod movement_data;
pub mod raw_motion_state;
pub mod sequences;
pub mod soul_emotes;
pub mod update_motion;

pub use bytes::{Reader, WireError, Writer};
pub use jump_pack::JumpPack;
pub use move_to_state::MoveToState;
pub use movement_data::{
    InterpretedState, MotionItem, MoveToParameters, MovementBody, MovementData, TurnToParameters,
};
pub use raw_motion_state::RawMotionState;
pub use sequences::Sequences;
pub use update_motion::{UpdateMotion, VectorUpdate, OPCODE_UPDATE_MOTION, OPCODE_VECTOR_UPDATE};

/// Lowercase hex of `bytes` (how traces print messages).
pub fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Bytes of a hex string (any case, even length).
pub fn from_hex(hex: &str) -> Result<Vec<u8>, WireError> {
    let h = hex.as_bytes();
    if !h.len().is_multiple_of(2) {
        return Err(WireError::BadHex { at: h.len() });
    }
    let digit = |i: usize| -> Result<u8, WireError> {
        (h[i] as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or(WireError::BadHex { at: i })
    };
    (0..h.len() / 2)
        .map(|k| Ok((digit(2 * k)? << 4) | digit(2 * k + 1)?))
        .collect()
}
