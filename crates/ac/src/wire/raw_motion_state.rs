//! `RawMotionState`: the keys a client holds, as it sends them inside `MoveToState`.
//! A packed u32 (11 flag bits, then the action count from bit 11) and the flagged
//! fields in flag order; commands and hold keys are u32 here, unlike the u16 of the
//! server's messages.

use super::bytes::{Reader, WireError, Writer};
use super::movement_data::MotionItem;

pub const CURRENT_HOLD_KEY: u32 = 0x1;
pub const CURRENT_STYLE: u32 = 0x2;
pub const FORWARD_COMMAND: u32 = 0x4;
pub const FORWARD_HOLD_KEY: u32 = 0x8;
pub const FORWARD_SPEED: u32 = 0x10;
pub const SIDESTEP_COMMAND: u32 = 0x20;
pub const SIDESTEP_HOLD_KEY: u32 = 0x40;
pub const SIDESTEP_SPEED: u32 = 0x80;
pub const TURN_COMMAND: u32 = 0x100;
pub const TURN_HOLD_KEY: u32 = 0x200;
pub const TURN_SPEED: u32 = 0x400;

/// The parsed state: fields whose flag is unset read as 0 (hold keys 0 = Invalid),
/// exactly as ACE's reader leaves them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawMotionState {
    /// The 11 flag bits.
    pub flags: u32,
    pub current_hold_key: u32,
    pub current_style: u32,
    pub forward_command: u32,
    pub forward_hold_key: u32,
    pub forward_speed: f32,
    pub sidestep_command: u32,
    pub sidestep_hold_key: u32,
    pub sidestep_speed: f32,
    pub turn_command: u32,
    pub turn_hold_key: u32,
    pub turn_speed: f32,
    /// The action list (each item's command is the low 16 bits, widened to the full
    /// command id when it names one).
    pub commands: Vec<MotionItem>,
}

impl RawMotionState {
    pub fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    /// Read one state at the reader's position.
    pub fn read(r: &mut Reader<'_>) -> Result<RawMotionState, WireError> {
        let packed = r.u32()?;
        let mut s = RawMotionState {
            flags: packed & 0x7FF,
            ..RawMotionState::default()
        };
        let count = (packed >> 11) as u16;
        if s.has(CURRENT_HOLD_KEY) {
            s.current_hold_key = r.u32()?;
        }
        if s.has(CURRENT_STYLE) {
            s.current_style = r.u32()?;
        }
        if s.has(FORWARD_COMMAND) {
            s.forward_command = r.u32()?;
        }
        if s.has(FORWARD_HOLD_KEY) {
            s.forward_hold_key = r.u32()?;
        }
        if s.has(FORWARD_SPEED) {
            s.forward_speed = r.f32()?;
        }
        if s.has(SIDESTEP_COMMAND) {
            s.sidestep_command = r.u32()?;
        }
        if s.has(SIDESTEP_HOLD_KEY) {
            s.sidestep_hold_key = r.u32()?;
        }
        if s.has(SIDESTEP_SPEED) {
            s.sidestep_speed = r.f32()?;
        }
        if s.has(TURN_COMMAND) {
            s.turn_command = r.u32()?;
        }
        if s.has(TURN_HOLD_KEY) {
            s.turn_hold_key = r.u32()?;
        }
        if s.has(TURN_SPEED) {
            s.turn_speed = r.f32()?;
        }
        for _ in 0..count {
            s.commands.push(MotionItem::read(r)?);
        }
        Ok(s)
    }

    /// Write in the layout [`RawMotionState::read`] reads (the action count is taken
    /// from the list; action items carry their stored sequence numbers).
    pub fn write(&self, w: &mut Writer) {
        w.u32((self.flags & 0x7FF) | ((self.commands.len() as u32) << 11));
        let pairs: [(u32, u32); 11] = [
            (CURRENT_HOLD_KEY, self.current_hold_key),
            (CURRENT_STYLE, self.current_style),
            (FORWARD_COMMAND, self.forward_command),
            (FORWARD_HOLD_KEY, self.forward_hold_key),
            (FORWARD_SPEED, self.forward_speed.to_bits()),
            (SIDESTEP_COMMAND, self.sidestep_command),
            (SIDESTEP_HOLD_KEY, self.sidestep_hold_key),
            (SIDESTEP_SPEED, self.sidestep_speed.to_bits()),
            (TURN_COMMAND, self.turn_command),
            (TURN_HOLD_KEY, self.turn_hold_key),
            (TURN_SPEED, self.turn_speed.to_bits()),
        ];
        for (flag, v) in pairs {
            if self.has(flag) {
                w.u32(v);
            }
        }
        for c in &self.commands {
            c.write_stored(w);
        }
    }
}
