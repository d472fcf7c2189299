//! `MovementData`: what the server tells clients an object is doing. A type byte
//! (ACE's `MovementType`), a motion-flags byte (0x1 stick to object, 0x2 standing long
//! jump), the style as u16, then one body by type: the interpreted motion state (type
//! 0), a move-to of an object (6) or position (7), a turn to an object (8) or heading (9).

use super::bytes::{Reader, WireError, Writer};
use super::sequences::Sequences;

pub const STICK_TO_OBJECT: u8 = 0x1;
pub const STANDING_LONG_JUMP: u8 = 0x2;

pub const TYPE_INVALID: u8 = 0;
pub const TYPE_MOVE_TO_OBJECT: u8 = 6;
pub const TYPE_MOVE_TO_POSITION: u8 = 7;
pub const TYPE_TURN_TO_OBJECT: u8 = 8;
pub const TYPE_TURN_TO_HEADING: u8 = 9;

// InterpretedMotionState flag bits (the low 7 bits of its packed u32).
pub const IS_CURRENT_STYLE: u32 = 0x1;
pub const IS_FORWARD_COMMAND: u32 = 0x2;
pub const IS_FORWARD_SPEED: u32 = 0x4;
pub const IS_SIDESTEP_COMMAND: u32 = 0x8;
pub const IS_SIDESTEP_SPEED: u32 = 0x10;
pub const IS_TURN_COMMAND: u32 = 0x20;
pub const IS_TURN_SPEED: u32 = 0x40;

/// The full command id whose low 16 bits are `low` (the wire keeps only those), or
/// `low` itself when no command of ACE's list has them.
pub fn widen_command(low: u16) -> u32 {
    super::command_ids::full_command_id(low).unwrap_or(u32::from(low))
}

/// One action of a motion state: command (u16 on the wire), a packed sequence (the
/// action's number in the low 15 bits, bit 15 = autonomous), speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MotionItem {
    pub command: u32,
    pub packed_sequence: u16,
    pub speed: f32,
}

impl MotionItem {
    pub fn new(command: u32, speed: f32, autonomous: bool) -> MotionItem {
        MotionItem {
            command,
            packed_sequence: if autonomous { 0x8000 } else { 0 },
            speed,
        }
    }

    pub fn autonomous(&self) -> bool {
        self.packed_sequence >> 15 == 1
    }

    pub fn sequence(&self) -> u16 {
        self.packed_sequence & 0x7FFF
    }

    pub fn read(r: &mut Reader<'_>) -> Result<MotionItem, WireError> {
        let command = widen_command(r.u16()?);
        Ok(MotionItem {
            command,
            packed_sequence: r.u16()?,
            speed: r.f32()?,
        })
    }

    /// Write with the item's stored sequence.
    pub fn write_stored(&self, w: &mut Writer) {
        w.u16(self.command as u16);
        w.u16(self.packed_sequence);
        w.f32(self.speed);
    }

    /// Write as the server does: the object's next Motion sequence number, with the
    /// autonomous bit.
    pub fn write_numbered(&self, w: &mut Writer, seq: &mut Sequences) {
        let n = seq.motion.advance() | if self.autonomous() { 0x8000 } else { 0 };
        w.u16(self.command as u16);
        w.u16(n);
        w.f32(self.speed);
    }
}

/// The interpreted motion state as sent (ACE's network `InterpretedMotionState`):
/// fields equal to their defaults (command 0, speed 1.0, style 0) are left out.
#[derive(Clone, Debug, PartialEq)]
pub struct InterpretedState {
    pub current_style: u32,
    pub forward_command: u32,
    pub sidestep_command: u32,
    pub turn_command: u32,
    pub forward_speed: f32,
    pub sidestep_speed: f32,
    pub turn_speed: f32,
    pub commands: Vec<MotionItem>,
}

impl Default for InterpretedState {
    /// The state of a `MovementData` built empty: every command 0, speeds 1.0.
    fn default() -> Self {
        InterpretedState {
            current_style: 0,
            forward_command: 0,
            sidestep_command: 0,
            turn_command: 0,
            forward_speed: 1.0,
            sidestep_speed: 1.0,
            turn_speed: 1.0,
            commands: Vec::new(),
        }
    }
}

impl InterpretedState {
    /// `BuildMovementFlags`.
    pub fn flags(&self) -> u32 {
        let mut f = 0;
        if self.current_style & 0xFFFF != 0 {
            f |= IS_CURRENT_STYLE;
        }
        if self.forward_command != 0 {
            f |= IS_FORWARD_COMMAND;
        }
        if self.sidestep_command != 0 {
            f |= IS_SIDESTEP_COMMAND;
        }
        if self.turn_command != 0 {
            f |= IS_TURN_COMMAND;
        }
        if self.forward_speed != 1.0 {
            f |= IS_FORWARD_SPEED;
        }
        if self.sidestep_speed != 1.0 {
            f |= IS_SIDESTEP_SPEED;
        }
        if self.turn_speed != 1.0 {
            f |= IS_TURN_SPEED;
        }
        f
    }

    fn write_fields(&self, w: &mut Writer) -> u32 {
        let f = self.flags();
        w.u32(f | ((self.commands.len() as u32) << 7));
        let ids = [
            (IS_CURRENT_STYLE, self.current_style),
            (IS_FORWARD_COMMAND, self.forward_command),
            (IS_SIDESTEP_COMMAND, self.sidestep_command),
            (IS_TURN_COMMAND, self.turn_command),
        ];
        for (flag, v) in ids {
            if f & flag != 0 {
                w.u16(v as u16);
            }
        }
        let speeds = [
            (IS_FORWARD_SPEED, self.forward_speed),
            (IS_SIDESTEP_SPEED, self.sidestep_speed),
            (IS_TURN_SPEED, self.turn_speed),
        ];
        for (flag, v) in speeds {
            if f & flag != 0 {
                w.f32(v);
            }
        }
        f
    }

    /// Write as the server does (action items numbered from `seq`).
    pub fn write(&self, w: &mut Writer, seq: &mut Sequences) {
        self.write_fields(w);
        for c in &self.commands {
            c.write_numbered(w, seq);
        }
        w.align();
    }

    /// Write with the items' stored sequence numbers (a round trip of a read state).
    pub fn write_stored(&self, w: &mut Writer) {
        self.write_fields(w);
        for c in &self.commands {
            c.write_stored(w);
        }
        w.align();
    }

    pub fn read(r: &mut Reader<'_>) -> Result<InterpretedState, WireError> {
        let packed = r.u32()?;
        let f = packed & 0x7F;
        let n = packed >> 7;
        let mut s = InterpretedState::default();
        if f & IS_CURRENT_STYLE != 0 {
            s.current_style = widen_command(r.u16()?);
        }
        if f & IS_FORWARD_COMMAND != 0 {
            s.forward_command = widen_command(r.u16()?);
        }
        if f & IS_SIDESTEP_COMMAND != 0 {
            s.sidestep_command = widen_command(r.u16()?);
        }
        if f & IS_TURN_COMMAND != 0 {
            s.turn_command = widen_command(r.u16()?);
        }
        if f & IS_FORWARD_SPEED != 0 {
            s.forward_speed = r.f32()?;
        }
        if f & IS_SIDESTEP_SPEED != 0 {
            s.sidestep_speed = r.f32()?;
        }
        if f & IS_TURN_SPEED != 0 {
            s.turn_speed = r.f32()?;
        }
        if n as usize > r.remaining() / 8 {
            return Err(WireError::Truncated {
                at: r.position(),
                need: n as usize * 8,
                len: r.position() + r.remaining(),
            });
        }
        for _ in 0..n {
            s.commands.push(MotionItem::read(r)?);
        }
        r.align();
        Ok(s)
    }
}

/// `MoveToParameters`: the packed `MovementParams` flags and six f32.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveToParameters {
    pub flags: u32,
    pub distance_to_object: f32,
    pub min_distance: f32,
    pub fail_distance: f32,
    pub speed: f32,
    pub walk_run_threshold: f32,
    pub desired_heading: f32,
}

impl MoveToParameters {
    pub fn write(&self, w: &mut Writer) {
        w.u32(self.flags);
        w.f32(self.distance_to_object);
        w.f32(self.min_distance);
        w.f32(self.fail_distance);
        w.f32(self.speed);
        w.f32(self.walk_run_threshold);
        w.f32(self.desired_heading);
    }

    pub fn read(r: &mut Reader<'_>) -> Result<MoveToParameters, WireError> {
        Ok(MoveToParameters {
            flags: r.u32()?,
            distance_to_object: r.f32()?,
            min_distance: r.f32()?,
            fail_distance: r.f32()?,
            speed: r.f32()?,
            walk_run_threshold: r.f32()?,
            desired_heading: r.f32()?,
        })
    }
}

/// `TurnToParameters`: flags, speed, desired heading.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnToParameters {
    pub flags: u32,
    pub speed: f32,
    pub desired_heading: f32,
}

impl TurnToParameters {
    pub fn write(&self, w: &mut Writer) {
        w.u32(self.flags);
        w.f32(self.speed);
        w.f32(self.desired_heading);
    }

    pub fn read(r: &mut Reader<'_>) -> Result<TurnToParameters, WireError> {
        Ok(TurnToParameters {
            flags: r.u32()?,
            speed: r.f32()?,
            desired_heading: r.f32()?,
        })
    }
}

/// A cell id and origin (no orientation): ACE's `Origin`.
pub type Origin = (u32, [f32; 3]);

fn write_origin(w: &mut Writer, o: &Origin) {
    w.u32(o.0);
    w.vec3(o.1);
}

fn read_origin(r: &mut Reader<'_>) -> Result<Origin, WireError> {
    Ok((r.u32()?, r.vec3()?))
}

/// The body selected by the movement type.
#[derive(Clone, Debug, PartialEq)]
pub enum MovementBody {
    /// Type 0: the interpreted state, then the sticky object's guid when the motion
    /// flags have STICK_TO_OBJECT.
    Invalid {
        state: InterpretedState,
        sticky_object: u32,
    },
    MoveToObject {
        target: u32,
        origin: Origin,
        params: MoveToParameters,
        run_rate: f32,
    },
    MoveToPosition {
        origin: Origin,
        params: MoveToParameters,
        run_rate: f32,
    },
    TurnToObject {
        target: u32,
        desired_heading: f32,
        params: TurnToParameters,
    },
    TurnToHeading {
        params: TurnToParameters,
    },
}

impl MovementBody {
    pub fn movement_type(&self) -> u8 {
        match self {
            MovementBody::Invalid { .. } => TYPE_INVALID,
            MovementBody::MoveToObject { .. } => TYPE_MOVE_TO_OBJECT,
            MovementBody::MoveToPosition { .. } => TYPE_MOVE_TO_POSITION,
            MovementBody::TurnToObject { .. } => TYPE_TURN_TO_OBJECT,
            MovementBody::TurnToHeading { .. } => TYPE_TURN_TO_HEADING,
        }
    }
}

/// `MovementData` without its sequence header (ACE's `Serialize()` form, also the
/// tail of `UpdateMotion`).
#[derive(Clone, Debug, PartialEq)]
pub struct MovementData {
    pub autonomous: bool,
    pub motion_flags: u8,
    /// The style (a `MotionStance`; only its low 16 bits travel).
    pub style: u32,
    pub body: MovementBody,
}

impl MovementData {
    /// Write the body as the server does (action items numbered from `seq`).
    pub fn write(&self, w: &mut Writer, seq: &mut Sequences) {
        self.write_with(w, Some(seq));
    }

    /// Write the body with stored action numbers.
    pub fn write_stored(&self, w: &mut Writer) {
        self.write_with(w, None);
    }

    fn write_with(&self, w: &mut Writer, seq: Option<&mut Sequences>) {
        w.u8(self.body.movement_type());
        w.u8(self.motion_flags);
        w.u16(self.style as u16);
        match &self.body {
            MovementBody::Invalid {
                state,
                sticky_object,
            } => {
                match seq {
                    Some(s) => state.write(w, s),
                    None => state.write_stored(w),
                }
                if self.motion_flags & STICK_TO_OBJECT != 0 {
                    w.u32(*sticky_object);
                }
            }
            MovementBody::MoveToObject {
                target,
                origin,
                params,
                run_rate,
            } => {
                w.u32(*target);
                write_origin(w, origin);
                params.write(w);
                w.f32(*run_rate);
            }
            MovementBody::MoveToPosition {
                origin,
                params,
                run_rate,
            } => {
                write_origin(w, origin);
                params.write(w);
                w.f32(*run_rate);
            }
            MovementBody::TurnToObject {
                target,
                desired_heading,
                params,
            } => {
                w.u32(*target);
                w.f32(*desired_heading);
                params.write(w);
            }
            MovementBody::TurnToHeading { params } => params.write(w),
        }
    }

    /// Read a body (`autonomous` is not part of it and reads as false).
    pub fn read(r: &mut Reader<'_>) -> Result<MovementData, WireError> {
        let at = r.position();
        let kind = r.u8()?;
        let motion_flags = r.u8()?;
        let style = widen_command(r.u16()?);
        let body = match kind {
            TYPE_INVALID => {
                let state = InterpretedState::read(r)?;
                let sticky_object = if motion_flags & STICK_TO_OBJECT != 0 {
                    r.u32()?
                } else {
                    0
                };
                MovementBody::Invalid {
                    state,
                    sticky_object,
                }
            }
            TYPE_MOVE_TO_OBJECT => MovementBody::MoveToObject {
                target: r.u32()?,
                origin: read_origin(r)?,
                params: MoveToParameters::read(r)?,
                run_rate: r.f32()?,
            },
            TYPE_MOVE_TO_POSITION => MovementBody::MoveToPosition {
                origin: read_origin(r)?,
                params: MoveToParameters::read(r)?,
                run_rate: r.f32()?,
            },
            TYPE_TURN_TO_OBJECT => MovementBody::TurnToObject {
                target: r.u32()?,
                desired_heading: r.f32()?,
                params: TurnToParameters::read(r)?,
            },
            TYPE_TURN_TO_HEADING => MovementBody::TurnToHeading {
                params: TurnToParameters::read(r)?,
            },
            other => {
                return Err(WireError::BadValue {
                    at,
                    what: "movement type",
                    value: other as u32,
                })
            }
        };
        Ok(MovementData {
            autonomous: false,
            motion_flags,
            style,
            body,
        })
    }

    /// The body alone (`header: false`), numbered from `seq`.
    pub fn to_bytes(&self, seq: &mut Sequences) -> Vec<u8> {
        let mut w = Writer::new();
        self.write(&mut w, seq);
        w.bytes
    }
}
