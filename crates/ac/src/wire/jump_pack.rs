//! `JumpPack` (client to server, game action 0xF61B): the charge, the local launch
//! velocity and four sequence numbers; the action then carries an object guid and a
//! spell id.

use super::bytes::{Reader, WireError, Writer};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct JumpPack {
    /// Jump charge, 0..1 as the client sends it (unclamped here).
    pub extent: f32,
    /// Object-local launch velocity.
    pub velocity: [f32; 3],
    pub instance_sequence: u16,
    pub server_control_sequence: u16,
    pub teleport_sequence: u16,
    pub force_position_sequence: u16,
}

impl JumpPack {
    pub const LEN: usize = 24;

    pub fn read(r: &mut Reader<'_>) -> Result<JumpPack, WireError> {
        Ok(JumpPack {
            extent: r.f32()?,
            velocity: r.vec3()?,
            instance_sequence: r.u16()?,
            server_control_sequence: r.u16()?,
            teleport_sequence: r.u16()?,
            force_position_sequence: r.u16()?,
        })
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<JumpPack, WireError> {
        JumpPack::read(&mut Reader::new(bytes))
    }

    pub fn write(&self, w: &mut Writer) {
        w.f32(self.extent);
        w.vec3(self.velocity);
        w.u16(self.instance_sequence);
        w.u16(self.server_control_sequence);
        w.u16(self.teleport_sequence);
        w.u16(self.force_position_sequence);
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        self.write(&mut w);
        w.bytes
    }
}
