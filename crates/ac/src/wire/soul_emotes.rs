//! The soul emotes: the only actions ACE's server accepts inside a client's
//! `MoveToState` (the emote commands a player can type as `*wave*`, `*bow*`, …).
//!
//! ACE's `RawMotionState` reader keeps an action of the list only when its command is
//! one of these and its speed is exactly 1.0; any other action (an attack, a command
//! id it does not know, an emote at another speed) is dropped while reading, so it
//! never reaches the broadcast `UpdateMotion` (quirk Q108).

/// The commands of ACE's `SoulEmote.SoulEmotes`, ascending.
pub const SOUL_EMOTES: [u32; 74] = [
    0x1200_009b,
    0x1300_004c,
    0x1300_0079,
    0x1300_007a,
    0x1300_007b,
    0x1300_007c,
    0x1300_007e,
    0x1300_007f,
    0x1300_0080,
    0x1300_0081,
    0x1300_0082,
    0x1300_0083,
    0x1300_0085,
    0x1300_0086,
    0x1300_0087,
    0x1300_0089,
    0x1300_008b,
    0x1300_008c,
    0x1300_008e,
    0x1300_008f,
    0x1300_0090,
    0x1300_0091,
    0x1300_0094,
    0x1300_0095,
    0x1300_0097,
    0x1300_00cb,
    0x1300_00cc,
    0x1300_0119,
    0x1300_0135,
    0x1300_014a,
    0x1300_014b,
    0x1300_014c,
    0x1300_014d,
    0x1300_014e,
    0x1300_014f,
    0x1300_0150,
    0x1300_0151,
    0x1300_0152,
    0x4200_00f9,
    0x4300_00ea,
    0x4300_00eb,
    0x4300_00ec,
    0x4300_00ed,
    0x4300_00ee,
    0x4300_00f0,
    0x4300_00f1,
    0x4300_00f2,
    0x4300_00f3,
    0x4300_00f4,
    0x4300_00f5,
    0x4300_00f6,
    0x4300_00f7,
    0x4300_00f8,
    0x4300_00fa,
    0x4300_00fb,
    0x4300_00fc,
    0x4300_00fd,
    0x4300_0118,
    0x4300_011a,
    0x4300_011b,
    0x4300_011c,
    0x4300_013d,
    0x4300_013e,
    0x4300_013f,
    0x4300_0140,
    0x4300_0141,
    0x4300_0142,
    0x4300_0143,
    0x4300_0144,
    0x4300_0145,
    0x4300_0146,
    0x4300_0147,
    0x4300_0148,
    0x4300_0149,
];

/// Whether an action of a client's raw state survives ACE's reader: a soul emote at
/// speed 1.0. The wire carries only the low 16 bits of the command, and these are
/// distinct across ACE's command list, so they decide.
pub fn accepted_in_move_to_state(command: u32, speed: f32) -> bool {
    speed == 1.0
        && SOUL_EMOTES
            .iter()
            .any(|e| (e & 0xFFFF) == (command & 0xFFFF))
}

/// The full command id of a soul emote from the low 16 bits the wire carries (the
/// value itself when it names none).
pub fn full_command(command: u32) -> u32 {
    SOUL_EMOTES
        .iter()
        .copied()
        .find(|e| (e & 0xFFFF) == (command & 0xFFFF))
        .unwrap_or(command)
}
