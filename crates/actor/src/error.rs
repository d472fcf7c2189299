//! Load faults (the seven fixed kinds and the extension kinds) and run-time faults (the runaway bounds).

use serde::Serialize;
use std::fmt;

/// Which fault rejected an actor set. The first seven are the fixed kinds the
/// conformance traces name; the rest are the extension kinds for other malformed input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// `ref` is not an integer in 0 … 2²⁰−1 (A1).
    #[serde(rename = "ref_not_20_bit")]
    RefNot20Bit,
    /// `ref` ≥ the total frame count of the RAAN table (D3).
    RefPastTable,
    /// The resolved model handle or frame index does not fit 10 bits (A2, D3).
    FieldOverflow,
    /// A jump target outside the group or pointing the wrong way.
    BadTarget,
    /// The group's last command is not `end_animation` (C17).
    NoEnd,
    /// A `go_to_previous` whose backward range holds no `show_frame` (C17).
    ControlLoop,
    /// An opcode this interpreter does not know.
    UnknownOp,
    /// A value of the wrong type or out of range (extension kind).
    BadValue,
    /// Two models, scripts or actors share a name, or a group number repeats (extension kind).
    DuplicateName,
    /// An actor names a model the set does not define (extension kind).
    UnknownModel,
    /// An actor names a script the set does not define (extension kind).
    UnknownScript,
    /// An actor is placed off the map (extension kind).
    PositionOffMap,
    /// A script command is malformed or the script does not end with `end` (extension kind).
    BadScript,
}

impl FaultKind {
    /// True for the seven kinds fixed by the conformance trace format.
    pub fn is_conformance_kind(self) -> bool {
        matches!(
            self,
            FaultKind::RefNot20Bit
                | FaultKind::RefPastTable
                | FaultKind::FieldOverflow
                | FaultKind::BadTarget
                | FaultKind::NoEnd
                | FaultKind::ControlLoop
                | FaultKind::UnknownOp
        )
    }

    /// The snake_case name used in traces.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::RefNot20Bit => "ref_not_20_bit",
            FaultKind::RefPastTable => "ref_past_table",
            FaultKind::FieldOverflow => "field_overflow",
            FaultKind::BadTarget => "bad_target",
            FaultKind::NoEnd => "no_end",
            FaultKind::ControlLoop => "control_loop",
            FaultKind::UnknownOp => "unknown_op",
            FaultKind::BadValue => "bad_value",
            FaultKind::DuplicateName => "duplicate_name",
            FaultKind::UnknownModel => "unknown_model",
            FaultKind::UnknownScript => "unknown_script",
            FaultKind::PositionOffMap => "position_off_map",
            FaultKind::BadScript => "bad_script",
        }
    }
}

/// The first fault of a rejected actor set: what, in which model (or script) and
/// group, at which command index, and the JSON path inside the set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadFault {
    pub kind: FaultKind,
    /// The model name (the script name for script faults), when there is one.
    pub model: Option<String>,
    pub group: Option<u8>,
    pub command: Option<usize>,
    /// JSON path inside the actor set (`models[0].groups[1].commands[3].ref`).
    pub at: String,
    pub message: String,
}

impl LoadFault {
    pub(crate) fn new(kind: FaultKind, at: impl Into<String>, message: impl Into<String>) -> Self {
        LoadFault {
            kind,
            model: None,
            group: None,
            command: None,
            at: at.into(),
            message: message.into(),
        }
    }

    pub(crate) fn in_model(mut self, name: &str) -> Self {
        self.model = Some(name.to_string());
        self
    }

    pub(crate) fn in_group(mut self, group: u8, command: Option<usize>) -> Self {
        self.group = Some(group);
        self.command = command;
        self
    }
}

impl fmt::Display for LoadFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.kind.name())?;
        if let Some(m) = &self.model {
            write!(f, " in '{m}'")?;
        }
        if let Some(g) = self.group {
            write!(f, ", group {g}")?;
        }
        if let Some(c) = self.command {
            write!(f, ", command {c}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// A run-time runaway: the bounds that keep interpretation from hanging on a group
/// the load checks let through (docs/actor.md, "Scenario JSON and trace").
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// More than 16 nested `end_animation` restarts inside one advancement.
    #[error("runaway: more than 16 end_animation restarts in one advancement (group {group})")]
    EndChain { group: u8 },
    /// The countdown moved the cursor past the group's last command.
    #[error("the cursor ran past the last command of group {group}")]
    CursorPastEnd { group: u8 },
    /// Interpretation went round a loop without selecting a frame.
    #[error("runaway: group {group} loops without selecting a frame")]
    ControlLoop { group: u8 },
}
