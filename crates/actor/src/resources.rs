//! Loaded animation resources: model tables (RAAN + RAGR, pre-decoded into one flat
//! command array per model), scripts, and the placed actors of a set (D2).

use crate::raan::RaanTable;
use crate::ragr::{Cmd, Group};

/// Marks an absent group in [`ModelTable::slots`].
const NO_GROUP: u16 = u16::MAX;

/// What an advancement needs of one group number, in one load: where its commands
/// are and the countdown its header supplies. Absent numbers hold `index == NO_GROUP`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    /// First command in [`ModelTable::cmds`].
    pub start: u32,
    pub len: u16,
    /// Index into [`ModelTable::groups`].
    index: u16,
    /// The header's low byte (A10, A24).
    pub low: u8,
}

impl Slot {
    const ABSENT: Slot = Slot {
        start: 0,
        len: 0,
        index: NO_GROUP,
        low: 0,
    };

    /// True when the table has this group.
    #[inline]
    pub fn present(self) -> bool {
        self.index != NO_GROUP
    }
}

/// One model's animation table: its RAAN frame table and its RAGR command groups
/// (pre-decoded into one flat command array), which the actors that name the model play.
#[derive(Debug, Clone)]
pub struct ModelTable {
    pub name: String,
    pub raan: RaanTable,
    /// Group number → the group's place and countdown ([`Slot::ABSENT`] when absent):
    /// copies of what `groups` says, so `groups` and `cmds` change only through
    /// [`ModelTable::add_group`].
    slots: Box<[Slot; 256]>,
    groups: Vec<Group>,
    /// Every group's commands, back to back.
    pub(crate) cmds: Vec<Cmd>,
}

impl ModelTable {
    /// An empty table (no groups).
    pub fn new(name: impl Into<String>, raan: RaanTable) -> ModelTable {
        ModelTable {
            name: name.into(),
            raan,
            slots: Box::new([Slot::ABSENT; 256]),
            groups: Vec::new(),
            cmds: Vec::new(),
        }
    }

    /// Add a decoded group; returns false when the number is already taken.
    pub fn add_group(&mut self, number: u8, header: u16, cmds: &[Cmd]) -> bool {
        if self.slots[number as usize].present() {
            return false;
        }
        let group = Group {
            number,
            header,
            start: self.cmds.len() as u32,
            len: cmds.len() as u16,
        };
        self.slots[number as usize] = Slot {
            start: group.start,
            len: group.len,
            index: self.groups.len() as u16,
            low: group.low_byte(),
        };
        self.groups.push(group);
        self.cmds.extend_from_slice(cmds);
        true
    }

    /// The groups, in the order they were added.
    #[inline]
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Every group's commands, back to back (a group's `start` and `len` index them).
    #[inline]
    pub fn cmds(&self) -> &[Cmd] {
        &self.cmds
    }

    /// The group numbered `g`, if the table has it.
    #[inline]
    pub fn group(&self, g: u8) -> Option<&Group> {
        let slot = self.slots[g as usize];
        if slot.present() {
            self.groups.get(slot.index as usize)
        } else {
            None
        }
    }

    /// The group numbered `g` as the advancement reads it (absent: `!present()`).
    #[inline]
    pub(crate) fn slot(&self, g: u8) -> Slot {
        self.slots[g as usize]
    }

    /// The commands of a group.
    #[inline]
    pub fn commands(&self, group: &Group) -> &[Cmd] {
        let start = group.start as usize;
        &self.cmds[start..start + group.len as usize]
    }
}

/// A script command (D2: only the two the FLAG2 program needs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptCmd {
    PushAnimation { group: u8, count: u8 },
    End { target: u16 },
}

/// A main script: its commands; the last one is always `End`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    pub name: String,
    pub cmds: Vec<ScriptCmd>,
}

/// Runtime flags of an actor (C16).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ActorFlags {
    /// Runtime exclusion or pause: in the list but not updated.
    pub excluded: bool,
    /// The animation-update exclusion of A36.
    pub anim_update_excluded: bool,
    /// The actor flag suppressing the script stage.
    pub script_suppressed: bool,
}

/// A placed actor as the set describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActorSpec {
    pub id: String,
    pub pos: [i64; 2],
    pub activation: u8,
    pub attr113: u8,
    pub attr44: u8,
    pub state_default: Option<u8>,
    /// Index into [`ActorSet::models`]; `None` = no animation state.
    pub model: Option<usize>,
    /// Index into [`ActorSet::scripts`]; `None` = no script stage.
    pub script: Option<usize>,
    pub static_model: bool,
    pub walk: Option<[i64; 2]>,
    pub flags: ActorFlags,
}

/// A validated actor set: map size in 512-unit cells, models, scripts, actors.
#[derive(Debug, Clone)]
pub struct ActorSet {
    pub width: i64,
    pub height: i64,
    pub models: Vec<ModelTable>,
    pub scripts: Vec<Script>,
    pub actors: Vec<ActorSpec>,
}
