//! Names of ACE's motion commands (`MotionCommand`) by value, for inspection
//! and for the sample asset source. Commands without a known name are shown by value.

/// (id, name) pairs, ordered by id within each class.
pub const COMMANDS: &[(u32, &str)] = &[
    (0x0000_0000, "Invalid"),
    (0x8500_0001, "HoldRun"),
    (0x8500_0002, "HoldSidestep"),
    (0x4100_0003, "Ready"),
    (0x4000_0004, "Stop"),
    (0x4500_0005, "WalkForward"),
    (0x4500_0006, "WalkBackwards"),
    (0x4400_0007, "RunForward"),
    (0x4000_0008, "Fallen"),
    (0x4000_0009, "Interpolating"),
    (0x4000_000A, "Hover"),
    (0x4000_000B, "On"),
    (0x4000_000C, "Off"),
    (0x6500_000D, "TurnRight"),
    (0x6500_000E, "TurnLeft"),
    (0x6500_000F, "SideStepRight"),
    (0x6500_0010, "SideStepLeft"),
    (0x4000_0011, "Dead"),
    (0x4100_0012, "Crouch"),
    (0x4100_0013, "Sitting"),
    (0x4100_0014, "Sleeping"),
    (0x4000_0015, "Falling"),
    (0x4000_0016, "Reload"),
    (0x4000_0017, "Unload"),
    (0x4000_0018, "Pickup"),
    (0x4000_001E, "AimLevel"),
    (0x4000_0039, "MagicPray"),
    (0x2000_003A, "StopTurning"),
    (0x2500_003B, "Jump"),
    (0x8000_003C, "HandCombat"),
    (0x8000_003D, "NonCombat"),
    (0x8000_003E, "SwordCombat"),
    (0x8000_0049, "Magic"),
    (0x8000_00E8, "BowNoAmmo"),
    (0x8000_00E9, "CrossBowNoAmmo"),
    (0x8000_013B, "AtlatlCombat"),
    (0x8000_013C, "ThrownShieldCombat"),
    (0x1000_006F, "MagicPowerUp01"),
    (0x1000_0078, "MagicPowerUp10"),
    (0x1000_0128, "TripleThrustLow"),
    (0x1000_0131, "MagicPowerUp07Purple"),
    (0x1300_0087, "Wave"),
];

/// The name of a full 32-bit command id, if it has a known name.
pub fn command_name(id: u32) -> Option<&'static str> {
    COMMANDS.iter().find(|(v, _)| *v == id).map(|(_, n)| *n)
}

/// The id of a named command (exact, case-sensitive name).
pub fn command_id(name: &str) -> Option<u32> {
    COMMANDS.iter().find(|(_, n)| *n == name).map(|(v, _)| *v)
}

/// The id of a named command, ignoring ASCII case (`"walkforward"` -> `0x45000005`).
pub fn command_id_ignore_case(name: &str) -> Option<u32> {
    COMMANDS
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(name))
        .map(|(v, _)| *v)
}

/// `0x%08x` plus the name when known: `0x41000003 Ready`.
pub fn describe(id: u32) -> String {
    match command_name(id) {
        Some(n) => format!("0x{id:08x} {n}"),
        None => format!("0x{id:08x}"),
    }
}

/// The name of a table key's command index (the low 24 bits), looked up among the
/// SubState/Modifier/Action commands: `0x003d0005` -> `WalkForward`. Styles are
/// excluded, since their index shares the key's low bits with nothing.
pub fn index_name(index: u32) -> Option<&'static str> {
    let index = index & 0x00FF_FFFF;
    COMMANDS
        .iter()
        .find(|(v, _)| v & 0x00FF_FFFF == index && v & 0x8000_0000 == 0 && *v != 0)
        .map(|(_, n)| *n)
}

/// The style whose low 16 bits are `low16` (`0x003d` -> NonCombat).
pub fn style_name(low16: u32) -> Option<&'static str> {
    COMMANDS
        .iter()
        .find(|(v, _)| v & 0x8000_0000 != 0 && v & 0xFFFF == low16 && v >> 24 == 0x80)
        .map(|(_, n)| *n)
}

/// A cycle/modifier/link-outer key, decoded: `0x003d0005 (NonCombat, WalkForward)`.
pub fn describe_key(key: u32) -> String {
    let style = key >> 16;
    let index = key & 0xFFFF;
    let s = if style == 0 {
        "any style".to_string()
    } else {
        style_name(style).map_or_else(|| format!("style 0x{style:04x}"), str::to_string)
    };
    let m = if index == 0 {
        "any substate".to_string()
    } else {
        index_name(index).map_or_else(|| format!("index 0x{index:04x}"), str::to_string)
    };
    format!("0x{key:08x} ({s}, {m})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_keys() {
        assert_eq!(describe(0x4100_0003), "0x41000003 Ready");
        assert_eq!(describe(0x1234_5678), "0x12345678");
        assert_eq!(command_id("RunForward"), Some(0x4400_0007));
        assert_eq!(
            describe_key(0x003D_0005),
            "0x003d0005 (NonCombat, WalkForward)"
        );
        assert_eq!(
            describe_key(0x0000_000D),
            "0x0000000d (any style, TurnRight)"
        );
        assert_eq!(
            describe_key(0x003E_0000),
            "0x003e0000 (SwordCombat, any substate)"
        );
    }
}
