//! `MoveToState` (client to server, game action 0xF61C): the raw motion state, the
//! client's position, four sequence numbers and the contact / standing-long-jump byte.

use super::bytes::{Reader, WireError, Writer};
use super::raw_motion_state::RawMotionState;
use crate::interpolation::Position;
use crate::math::{AFrame, Quat, Vec3};

#[derive(Clone, Debug, PartialEq)]
pub struct MoveToState {
    pub raw: RawMotionState,
    /// Cell id, origin and orientation (`w, x, y, z` on the wire).
    pub position: Position,
    pub instance_sequence: u16,
    pub server_control_sequence: u16,
    pub teleport_sequence: u16,
    pub force_position_sequence: u16,
    /// Bit 0: contact; bit 1: standing long jump.
    pub contact_long_jump: u8,
    /// How many of the packet's actions the reader dropped (Q108).
    pub rejected_actions: usize,
}

impl MoveToState {
    pub fn contact(&self) -> bool {
        self.contact_long_jump & 1 != 0
    }

    pub fn standing_long_jump(&self) -> bool {
        self.contact_long_jump & 2 != 0
    }

    /// Whether ACE's server broadcasts this state: not when the packet announced actions
    /// and the reader dropped every one of them (Q109; `Player.BroadcastMovement` then
    /// reads the first action of an empty list and the handler throws).
    pub fn broadcast_by_ace(&self) -> bool {
        self.rejected_actions == 0 || !self.raw.commands.is_empty()
    }

    /// Read as ACE's server does: actions other than soul emotes at speed 1.0 are
    /// dropped from the raw state (Q108); [`RawMotionState::read`] keeps them all.
    pub fn read(r: &mut Reader<'_>) -> Result<MoveToState, WireError> {
        let mut raw = RawMotionState::read(r)?;
        let sent = raw.commands.len();
        raw.commands
            .retain(|c| super::soul_emotes::accepted_in_move_to_state(c.command, c.speed));
        let rejected_actions = sent - raw.commands.len();
        let position = read_position(r)?;
        let s = MoveToState {
            raw,
            position,
            instance_sequence: r.u16()?,
            server_control_sequence: r.u16()?,
            teleport_sequence: r.u16()?,
            force_position_sequence: r.u16()?,
            contact_long_jump: r.u8()?,
            rejected_actions,
        };
        r.align();
        Ok(s)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<MoveToState, WireError> {
        MoveToState::read(&mut Reader::new(bytes))
    }

    pub fn write(&self, w: &mut Writer) {
        self.raw.write(w);
        write_position(w, &self.position);
        w.u16(self.instance_sequence);
        w.u16(self.server_control_sequence);
        w.u16(self.teleport_sequence);
        w.u16(self.force_position_sequence);
        w.u8(self.contact_long_jump);
        w.align();
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        self.write(&mut w);
        w.bytes
    }
}

/// A full position: u32 cell, origin, then the orientation `w, x, y, z`.
pub fn read_position(r: &mut Reader<'_>) -> Result<Position, WireError> {
    let cell = r.u32()?;
    let o = r.vec3()?;
    let (qw, qx, qy, qz) = (r.f32()?, r.f32()?, r.f32()?, r.f32()?);
    Ok(Position::new(
        cell,
        AFrame::new(Vec3::new(o[0], o[1], o[2]), Quat::new(qw, qx, qy, qz)),
    ))
}

pub fn write_position(w: &mut Writer, p: &Position) {
    w.u32(p.cell);
    let o = p.frame.origin;
    w.vec3([o.x, o.y, o.z]);
    let q = p.frame.orientation;
    w.f32(q.w);
    w.f32(q.x);
    w.f32(q.y);
    w.f32(q.z);
}
