//! `UpdateMotion` (0xF74C) and `VectorUpdate` (0xF74E), server to client: the game
//! message bytes from the opcode on (no packet or fragment framing).

use super::bytes::{Reader, WireError, Writer};
use super::movement_data::MovementData;
use super::sequences::Sequences;

pub const OPCODE_UPDATE_MOTION: u32 = 0xF74C;
pub const OPCODE_VECTOR_UPDATE: u32 = 0xF74E;

/// A parsed `UpdateMotion`.
#[derive(Clone, Debug, PartialEq)]
pub struct UpdateMotion {
    pub guid: u32,
    pub instance_sequence: u16,
    pub movement_sequence: u16,
    pub server_control_sequence: u16,
    pub data: MovementData,
}

impl UpdateMotion {
    /// The message as the server writes it for object `guid`: the instance sequence as
    /// it stands, the next movement sequence, the server-control sequence (current when
    /// the movement is autonomous, else the next), the autonomous byte, alignment, then
    /// the movement body.
    pub fn write(guid: u32, data: &MovementData, seq: &mut Sequences) -> Vec<u8> {
        let mut w = Writer::new();
        w.u32(OPCODE_UPDATE_MOTION);
        w.u32(guid);
        w.u16(seq.instance.current);
        w.u16(seq.movement.advance());
        let sc = if data.autonomous {
            seq.server_control.current
        } else {
            seq.server_control.advance()
        };
        w.u16(sc);
        w.u8(u8::from(data.autonomous));
        w.align();
        data.write(&mut w, seq);
        w.bytes
    }

    /// Write a parsed message back with its stored sequence numbers.
    pub fn write_stored(&self) -> Vec<u8> {
        let mut w = Writer::new();
        w.u32(OPCODE_UPDATE_MOTION);
        w.u32(self.guid);
        w.u16(self.instance_sequence);
        w.u16(self.movement_sequence);
        w.u16(self.server_control_sequence);
        w.u8(u8::from(self.data.autonomous));
        w.align();
        self.data.write_stored(&mut w);
        w.bytes
    }

    pub fn read(bytes: &[u8]) -> Result<UpdateMotion, WireError> {
        let mut r = Reader::new(bytes);
        let at = r.position();
        let op = r.u32()?;
        if op != OPCODE_UPDATE_MOTION {
            return Err(WireError::BadValue {
                at,
                what: "opcode",
                value: op,
            });
        }
        let guid = r.u32()?;
        let instance_sequence = r.u16()?;
        let movement_sequence = r.u16()?;
        let server_control_sequence = r.u16()?;
        let autonomous = r.u8()? != 0;
        r.align();
        let mut data = MovementData::read(&mut r)?;
        data.autonomous = autonomous;
        Ok(UpdateMotion {
            guid,
            instance_sequence,
            movement_sequence,
            server_control_sequence,
            data,
        })
    }
}

/// A parsed `VectorUpdate`: guid, velocity, omega, instance and vector sequences.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorUpdate {
    pub guid: u32,
    pub velocity: [f32; 3],
    pub omega: [f32; 3],
    pub instance_sequence: u16,
    pub vector_sequence: u16,
}

impl VectorUpdate {
    /// The message as the server writes it (the vector sequence advances).
    pub fn write(guid: u32, velocity: [f32; 3], omega: [f32; 3], seq: &mut Sequences) -> Vec<u8> {
        let v = VectorUpdate {
            guid,
            velocity,
            omega,
            instance_sequence: seq.instance.current,
            vector_sequence: seq.vector.advance(),
        };
        v.to_bytes()
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        w.u32(OPCODE_VECTOR_UPDATE);
        w.u32(self.guid);
        w.vec3(self.velocity);
        w.vec3(self.omega);
        w.u16(self.instance_sequence);
        w.u16(self.vector_sequence);
        w.bytes
    }

    pub fn read(bytes: &[u8]) -> Result<VectorUpdate, WireError> {
        let mut r = Reader::new(bytes);
        let op = r.u32()?;
        if op != OPCODE_VECTOR_UPDATE {
            return Err(WireError::BadValue {
                at: 0,
                what: "opcode",
                value: op,
            });
        }
        Ok(VectorUpdate {
            guid: r.u32()?,
            velocity: r.vec3()?,
            omega: r.vec3()?,
            instance_sequence: r.u16()?,
            vector_sequence: r.u16()?,
        })
    }
}
