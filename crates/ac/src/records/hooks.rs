//! Animation hook types (`AnimationHookType`): names, payload layouts (docs/ac-formats.md)
//! and a field-by-field view of a hook's payload for inspection.

use crate::math::{AFrame, Quat, Vec3};
use serde::Serialize;

pub const NO_OP: u32 = 0;
pub const SOUND: u32 = 1;
pub const SOUND_TABLE: u32 = 2;
pub const ATTACK: u32 = 3;
pub const ANIMATION_DONE: u32 = 4;
pub const REPLACE_OBJECT: u32 = 5;
pub const ETHEREAL: u32 = 6;
pub const TRANSPARENT_PART: u32 = 7;
pub const LUMINOUS: u32 = 8;
pub const LUMINOUS_PART: u32 = 9;
pub const DIFFUSE: u32 = 10;
pub const DIFFUSE_PART: u32 = 11;
pub const SCALE: u32 = 12;
pub const CREATE_PARTICLE: u32 = 13;
pub const DESTROY_PARTICLE: u32 = 14;
pub const STOP_PARTICLE: u32 = 15;
pub const NO_DRAW: u32 = 16;
pub const DEFAULT_SCRIPT: u32 = 17;
pub const DEFAULT_SCRIPT_PART: u32 = 18;
pub const CALL_PES: u32 = 19;
pub const TRANSPARENT: u32 = 20;
pub const SOUND_TWEAKED: u32 = 21;
pub const SET_OMEGA: u32 = 22;
pub const TEXTURE_VELOCITY: u32 = 23;
pub const TEXTURE_VELOCITY_PART: u32 = 24;
pub const SET_LIGHT: u32 = 25;
pub const CREATE_BLOCKING_PARTICLE: u32 = 26;

/// Trace names (the conformance trace's `hooks`): AnimationDone is `anim_done`, every other
/// type its ACE enum name in snake_case. Indexed by hook type.
const NAMES: [&str; 27] = [
    "no_op",
    "sound",
    "sound_table",
    "attack",
    "anim_done",
    "replace_object",
    "ethereal",
    "transparent_part",
    "luminous",
    "luminous_part",
    "diffuse",
    "diffuse_part",
    "scale",
    "create_particle",
    "destroy_particle",
    "stop_particle",
    "no_draw",
    "default_script",
    "default_script_part",
    "call_pes",
    "transparent",
    "sound_tweaked",
    "set_omega",
    "texture_velocity",
    "texture_velocity_part",
    "set_light",
    "create_blocking_particle",
];

/// The trace name of a hook type (`"anim_done"`, `"sound"`, ...); `None` for numbers
/// outside `AnimationHookType`.
pub fn hook_name(hook_type: u32) -> Option<&'static str> {
    NAMES.get(hook_type as usize).copied()
}

/// The type number of a trace name (inverse of [`hook_name`]).
pub fn hook_type_from_name(name: &str) -> Option<u32> {
    NAMES.iter().position(|n| *n == name).map(|i| i as u32)
}

/// One field of a payload, in file order.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FieldValue {
    U16(u16),
    U32(u32),
    I32(i32),
    F32(f32),
    Vec3(Vec3),
    Frame(AFrame),
}

/// Field layout of a payload: what to read, in order.
#[derive(Clone, Copy)]
enum Field {
    U16,
    U32,
    I32,
    F32,
    /// `DataID of known type 0x01000000`: 2 or 4 bytes.
    PackedGfxId,
    Vec3,
    Frame,
}

const PART_START_END_TIME: &[(&str, Field)] = &[
    ("part", Field::U32),
    ("start", Field::F32),
    ("end", Field::F32),
    ("time", Field::F32),
];
const START_END_TIME: &[(&str, Field)] = &[
    ("start", Field::F32),
    ("end", Field::F32),
    ("time", Field::F32),
];
const PARTICLE: &[(&str, Field)] = &[
    ("emitter_info_id", Field::U32),
    ("part_index", Field::U32),
    ("offset", Field::Frame),
    ("emitter_id", Field::U32),
];

/// The payload layout of a hook type; `None` for numbers outside `AnimationHookType`
/// (Q53: by default such a record is refused; see [`UnknownHooks`]).
fn layout(hook_type: u32) -> Option<&'static [(&'static str, Field)]> {
    Some(match hook_type {
        SOUND => &[("sound_id", Field::U32)],
        SOUND_TABLE => &[("sound_type", Field::U32)],
        ATTACK => &[
            ("part_index", Field::U32),
            ("left_x", Field::F32),
            ("left_y", Field::F32),
            ("right_x", Field::F32),
            ("right_y", Field::F32),
            ("radius", Field::F32),
            ("height", Field::F32),
        ],
        // The retail client reads no payload for NoOp (nor for AnimationDone or DefaultScript).
        NO_OP | ANIMATION_DONE | DEFAULT_SCRIPT => &[],
        REPLACE_OBJECT => &[("part_index", Field::U16), ("part_id", Field::PackedGfxId)],
        ETHEREAL => &[("ethereal", Field::I32)],
        TRANSPARENT_PART | LUMINOUS_PART | DIFFUSE_PART => PART_START_END_TIME,
        LUMINOUS | DIFFUSE | TRANSPARENT => START_END_TIME,
        SCALE => &[("end", Field::F32), ("time", Field::F32)],
        CREATE_PARTICLE | CREATE_BLOCKING_PARTICLE => PARTICLE,
        DESTROY_PARTICLE | STOP_PARTICLE => &[("emitter_id", Field::U32)],
        NO_DRAW => &[("no_draw", Field::U32)],
        DEFAULT_SCRIPT_PART => &[("part_index", Field::U32)],
        CALL_PES => &[("pes_id", Field::U32), ("pause", Field::F32)],
        // Shipped data settles the order of the two middle floats: the first is ≤ 1.0 in all
        // 541 retail hooks and the second reaches 3.0, so the first is the probability.
        // ACE names them the other way round (docs/ac-formats.md, SoundTweaked).
        SOUND_TWEAKED => &[
            ("sound_id", Field::U32),
            ("probability", Field::F32),
            ("priority", Field::F32),
            ("volume", Field::F32),
        ],
        SET_OMEGA => &[("axis", Field::Vec3)],
        TEXTURE_VELOCITY => &[("u_speed", Field::F32), ("v_speed", Field::F32)],
        TEXTURE_VELOCITY_PART => &[
            ("part_index", Field::U32),
            ("u_speed", Field::F32),
            ("v_speed", Field::F32),
        ],
        SET_LIGHT => &[("lights_on", Field::I32)],
        _ => return None,
    })
}

/// Why a payload could not be measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayloadError {
    /// No payload layout is known for this type (Q53: the parse cannot continue).
    UnknownType,
    /// The bytes end inside the payload; `needed` bytes were required.
    Truncated { needed: usize },
}

/// Which reading of ReplaceObject's payload a reader follows (docs/ac-formats.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReplaceObjectForm {
    /// ACE's `ReplaceObjectHook`: u16 part index, packed id (2 or 4 bytes): 4 or 6 bytes.
    /// The default: the committed sample records and every conformance trace use it.
    #[default]
    Ace,
    /// The retail client: u8 part index, packed id, padding to 4: 4 or 8 bytes.
    Retail,
}

/// What a reader does with a hook type outside `AnimationHookType` (27 and above).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnknownHooks {
    /// Refuse the record at the hook's offset (Q53's decision; the default).
    #[default]
    Refuse,
    /// The retail client: read no payload and go on with the next bytes.
    NoPayload,
}

/// The choices a record reader makes where shipped readers disagree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HookReading {
    pub replace_object: ReplaceObjectForm,
    pub unknown: UnknownHooks,
}

/// The payload length of a hook of `hook_type` whose payload starts at `rest[0]`, in ACE's
/// ReplaceObject form (4 or 6 bytes for ReplaceObject).
pub fn payload_len(hook_type: u32, rest: &[u8]) -> Result<usize, PayloadError> {
    payload_len_with(hook_type, rest, HookReading::default())
}

/// [`payload_len`] under a chosen [`HookReading`].
pub fn payload_len_with(
    hook_type: u32,
    rest: &[u8],
    reading: HookReading,
) -> Result<usize, PayloadError> {
    if hook_type == REPLACE_OBJECT && reading.replace_object == ReplaceObjectForm::Retail {
        let head = rest
            .get(1..3)
            .ok_or(PayloadError::Truncated { needed: 3 })?;
        let id_len = if u16::from_le_bytes([head[0], head[1]]) & 0x8000 != 0 {
            4
        } else {
            2
        };
        let len = (1 + id_len + 3) & !3;
        return if rest.len() < len {
            Err(PayloadError::Truncated { needed: len })
        } else {
            Ok(len)
        };
    }
    let Some(fields) = layout(hook_type) else {
        return match reading.unknown {
            UnknownHooks::Refuse => Err(PayloadError::UnknownType),
            UnknownHooks::NoPayload => Ok(0),
        };
    };
    let mut len = 0usize;
    for (_, f) in fields {
        let need = match f {
            Field::U16 => 2,
            Field::U32 | Field::I32 | Field::F32 => 4,
            Field::Vec3 => 12,
            Field::Frame => 28,
            Field::PackedGfxId => {
                let head = rest
                    .get(len..len + 2)
                    .ok_or(PayloadError::Truncated { needed: len + 2 })?;
                if u16::from_le_bytes([head[0], head[1]]) & 0x8000 != 0 {
                    4
                } else {
                    2
                }
            }
        };
        len += need;
        if rest.len() < len {
            return Err(PayloadError::Truncated { needed: len });
        }
    }
    Ok(len)
}

/// The packed `DataID of known type` decoding with base 0x01000000.
fn packed_id(bytes: &[u8]) -> u32 {
    let v = u16::from_le_bytes([bytes[0], bytes[1]]) as u32;
    if v & 0x8000 != 0 && bytes.len() >= 4 {
        let lo = u16::from_le_bytes([bytes[2], bytes[3]]) as u32;
        0x0100_0000u32.wrapping_add(((v & 0x3FFF) << 16) | lo)
    } else {
        0x0100_0000u32.wrapping_add(v)
    }
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// ReplaceObject read the retail way: u8 part index, the packed id from byte 1, padding.
/// `None` unless the payload has the retail length (4 or 8).
pub fn decode_replace_object_retail(payload: &[u8]) -> Option<(u8, u32)> {
    let reading = HookReading {
        replace_object: ReplaceObjectForm::Retail,
        ..HookReading::default()
    };
    if payload_len_with(REPLACE_OBJECT, payload, reading).ok()? != payload.len() {
        return None;
    }
    let long = u16::from_le_bytes([payload[1], payload[2]]) & 0x8000 != 0;
    Some((payload[0], packed_id(&payload[1..if long { 5 } else { 3 }])))
}

/// The payload's fields by name, in file order; `None` when the type is unknown or the
/// payload does not have the type's length (ReplaceObject in ACE's form).
pub fn decode_payload(hook_type: u32, payload: &[u8]) -> Option<Vec<(&'static str, FieldValue)>> {
    let fields = layout(hook_type)?;
    if payload_len(hook_type, payload).ok()? != payload.len() {
        return None;
    }
    let mut out = Vec::with_capacity(fields.len());
    let mut at = 0usize;
    for (name, f) in fields {
        let b = &payload[at..];
        let (value, size) = match f {
            Field::U16 => (FieldValue::U16(u16::from_le_bytes([b[0], b[1]])), 2),
            Field::U32 => (
                FieldValue::U32(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                4,
            ),
            Field::I32 => (
                FieldValue::I32(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                4,
            ),
            Field::F32 => (FieldValue::F32(f32_at(b, 0)), 4),
            Field::PackedGfxId => {
                let size = if u16::from_le_bytes([b[0], b[1]]) & 0x8000 != 0 {
                    4
                } else {
                    2
                };
                (FieldValue::U32(packed_id(&b[..size])), size)
            }
            Field::Vec3 => (
                FieldValue::Vec3(Vec3::new(f32_at(b, 0), f32_at(b, 4), f32_at(b, 8))),
                12,
            ),
            Field::Frame => (
                FieldValue::Frame(AFrame {
                    origin: Vec3::new(f32_at(b, 0), f32_at(b, 4), f32_at(b, 8)),
                    orientation: Quat::new(
                        f32_at(b, 12),
                        f32_at(b, 16),
                        f32_at(b, 20),
                        f32_at(b, 24),
                    ),
                }),
                28,
            ),
        };
        out.push((*name, value));
        at += size;
    }
    Some(out)
}

/// The payload field names of a hook type, in file order (`None` for unknown types).
pub fn field_names(hook_type: u32) -> Option<Vec<&'static str>> {
    layout(hook_type).map(|f| f.iter().map(|(n, _)| *n).collect())
}

/// Encode a payload from named values (the inverse of [`decode_payload`]); a field
/// missing from `get` is zero. `Vec3` fields take `[x, y, z]`, `Frame` fields take
/// origin followed by `[w, x, y, z]` (7 numbers); integer fields take integral values.
pub fn encode_payload(
    hook_type: u32,
    mut get: impl FnMut(&str) -> Option<Vec<f64>>,
) -> Result<Vec<u8>, String> {
    let fields = layout(hook_type).ok_or_else(|| format!("unknown hook type {hook_type}"))?;
    let mut out = Vec::new();
    for (name, f) in fields {
        let (need, default) = match f {
            Field::Vec3 => (3, vec![0.0; 3]),
            Field::Frame => (7, vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]),
            _ => (1, vec![0.0]),
        };
        let v = get(name).unwrap_or(default);
        if v.len() != need {
            return Err(format!(
                "field {name}: expected {need} numbers, got {}",
                v.len()
            ));
        }
        let int = |x: f64, lo: f64, hi: f64| -> Result<i64, String> {
            if x.fract() != 0.0 || x < lo || x > hi {
                Err(format!(
                    "field {name}: {x} is not an integer in {lo}..={hi}"
                ))
            } else {
                Ok(x as i64)
            }
        };
        match f {
            Field::U16 => out.extend_from_slice(&(int(v[0], 0.0, 65535.0)? as u16).to_le_bytes()),
            Field::U32 => {
                out.extend_from_slice(&(int(v[0], 0.0, u32::MAX as f64)? as u32).to_le_bytes())
            }
            Field::I32 => out.extend_from_slice(
                &(int(v[0], i32::MIN as f64, i32::MAX as f64)? as i32).to_le_bytes(),
            ),
            Field::PackedGfxId => {
                let id = int(v[0], 0.0, u32::MAX as f64)? as u32;
                let rel = id.wrapping_sub(0x0100_0000);
                if rel < 0x8000 {
                    out.extend_from_slice(&(rel as u16).to_le_bytes());
                } else if rel <= 0x3FFF_FFFF {
                    out.extend_from_slice(&(((rel >> 16) as u16) | 0x8000).to_le_bytes());
                    out.extend_from_slice(&((rel & 0xFFFF) as u16).to_le_bytes());
                } else {
                    return Err(format!("field {name}: 0x{id:08x} cannot be packed"));
                }
            }
            Field::F32 | Field::Vec3 | Field::Frame => {
                for x in v {
                    out.extend_from_slice(&(x as f32).to_le_bytes());
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_lengths_follow_the_table() {
        let zeros = [0u8; 64];
        let expect: [(u32, usize); 26] = [
            (1, 4),
            (2, 4),
            (3, 28),
            (4, 0),
            (5, 4),
            (6, 4),
            (7, 16),
            (8, 12),
            (9, 16),
            (10, 12),
            (11, 16),
            (12, 8),
            (13, 40),
            (14, 4),
            (15, 4),
            (16, 4),
            (17, 0),
            (18, 4),
            (19, 8),
            (20, 12),
            (21, 16),
            (22, 12),
            (23, 8),
            (24, 12),
            (25, 4),
            (26, 40),
        ];
        for (t, n) in expect {
            assert_eq!(payload_len(t, &zeros), Ok(n), "hook type {t}");
        }
        assert_eq!(payload_len(0, &zeros), Ok(0));
        assert_eq!(payload_len(27, &zeros), Err(PayloadError::UnknownType));
    }

    #[test]
    fn replace_object_packed_id_takes_two_or_four_bytes() {
        assert_eq!(payload_len(5, &[1, 0, 0x34, 0x12]), Ok(4));
        assert_eq!(payload_len(5, &[1, 0, 0x01, 0x80, 0x02, 0x00]), Ok(6));
        assert_eq!(
            payload_len(5, &[1, 0, 0x01, 0x80]),
            Err(PayloadError::Truncated { needed: 6 })
        );
        let f = decode_payload(5, &[1, 0, 0x01, 0x80, 0x02, 0x00]).unwrap();
        assert_eq!(f[0], ("part_index", FieldValue::U16(1)));
        assert_eq!(f[1], ("part_id", FieldValue::U32(0x0101_0002)));
        let f = decode_payload(5, &[1, 0, 0x34, 0x12]).unwrap();
        assert_eq!(f[1], ("part_id", FieldValue::U32(0x0100_1234)));
    }

    #[test]
    fn names_match_the_trace_format() {
        assert_eq!(hook_name(4), Some("anim_done"));
        assert_eq!(hook_name(19), Some("call_pes"));
        assert_eq!(hook_name(26), Some("create_blocking_particle"));
        assert_eq!(hook_name(27), None);
        assert_eq!(hook_type_from_name("sound"), Some(1));
    }
}
