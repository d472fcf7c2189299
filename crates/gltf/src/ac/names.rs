//! Clip names from the motion table's keys, in ACE's command names.

use retroanim_ac::records::command_names::{command_name, index_name, style_name};

/// The style of a cycle, modifier or link key (`key >> 16`), `Any` for 0.
pub fn style(key: u32) -> String {
    let low16 = key >> 16;
    if low16 == 0 {
        return "Any".to_string();
    }
    style_name(low16).map_or_else(|| format!("0x{low16:04x}"), str::to_string)
}

/// The substate or modifier of a key (its low 24 bits), `Any` for 0.
pub fn motion_index(key: u32) -> String {
    let index = key & 0xFFFF;
    if index == 0 {
        return "Any".to_string();
    }
    index_name(index).map_or_else(|| format!("0x{index:04x}"), str::to_string)
}

/// A full command id (a link's target).
pub fn command(id: u32) -> String {
    command_name(id).map_or_else(|| format!("0x{id:08x}"), str::to_string)
}

/// `NonCombat.WalkForward`.
pub fn cycle(key: u32) -> String {
    format!("{}.{}", style(key), motion_index(key))
}

/// `NonCombat.Ready→WalkForward`.
pub fn link(outer: u32, to: u32) -> String {
    format!("{}.{}→{}", style(outer), motion_index(outer), command(to))
}

/// `NonCombat.TurnRight (modifier)`: modifiers share their keys with cycles.
pub fn modifier(key: u32) -> String {
    format!("{} (modifier)", cycle(key))
}
