//! RAGR command groups: the command set, decoding from JSON with the per-command
//! load checks (fault kinds `ref_not_20_bit` … `unknown_op`), and the whole-group checks (C17).

use crate::error::{FaultKind, LoadFault};
use crate::raan::{RaanTable, RefFault, REF_MAX};
use serde_json::Value;

/// One decoded group command. `ShowFrame` already holds the load-time patched
/// (model handle, frame index) pair (A2); targets are command indices in the group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmd {
    ShowFrame {
        handle: u16,
        index: u16,
    },
    /// Opcode 5 in the original: sets the breakpoint marker (A25).
    BreakPoint,
    GoToPrevious {
        target: u16,
    },
    GoToFuture {
        target: u16,
    },
    EndAnimation,
}

/// A group's place in its model's flat command array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    pub number: u8,
    /// u16 header; only the low byte (the field the original names `anim_id`) is used (A24, C20).
    pub header: u16,
    pub start: u32,
    pub len: u16,
}

impl Group {
    /// The frame countdown value the header supplies (A10, A24).
    #[inline]
    pub fn low_byte(&self) -> u8 {
        (self.header & 0xFF) as u8
    }
}

/// Most commands one group may hold (cursor and targets are 16-bit).
pub const MAX_COMMANDS: usize = u16::MAX as usize;

/// Decode and validate one group's commands (RAGR load-time patching). `at` is the
/// JSON path of the group; faults carry the group number and command index.
pub fn decode_group(
    number: u8,
    commands: &[Value],
    raan: &RaanTable,
    at: &str,
) -> Result<Vec<Cmd>, LoadFault> {
    let n = commands.len();
    if n > MAX_COMMANDS {
        return Err(LoadFault::new(
            FaultKind::BadValue,
            format!("{at}.commands"),
            format!("{n} commands; at most {MAX_COMMANDS} fit a group"),
        )
        .in_group(number, None));
    }
    let mut out = Vec::with_capacity(n);
    for (i, raw) in commands.iter().enumerate() {
        let cat = format!("{at}.commands[{i}]");
        let fault = |kind, path: String, msg: String| {
            Err(LoadFault::new(kind, path, msg).in_group(number, Some(i)))
        };
        let op = raw.get("op").and_then(Value::as_str).unwrap_or("");
        let cmd = match op {
            "show_frame" => {
                let r = match raw.get("ref").and_then(Value::as_u64) {
                    Some(r) if r <= REF_MAX => r,
                    _ => {
                        return fault(
                            FaultKind::RefNot20Bit,
                            format!("{cat}.ref"),
                            format!(
                                "{} is not an unsigned 20-bit reference",
                                raw.get("ref").unwrap_or(&Value::Null)
                            ),
                        )
                    }
                };
                match raan.resolve(r) {
                    Ok((handle, index)) => Cmd::ShowFrame { handle, index },
                    Err(RefFault::PastTable { total }) => {
                        return fault(
                            FaultKind::RefPastTable,
                            format!("{cat}.ref"),
                            format!("reference {r} is past the RAAN table ({total} frames)"),
                        )
                    }
                    Err(RefFault::FieldOverflow { handle, index }) => {
                        return fault(
                            FaultKind::FieldOverflow,
                            format!("{cat}.ref"),
                            format!(
                                "reference {r} resolves to ({handle}, {index}), which does not fit 10-bit fields"
                            ),
                        )
                    }
                }
            }
            "break_point" => Cmd::BreakPoint,
            "end_animation" => Cmd::EndAnimation,
            "go_to_previous" | "go_to_future" => {
                let backward = op == "go_to_previous";
                let t = raw.get("target").and_then(Value::as_i64);
                let ok = match t {
                    Some(t) if backward => t >= 0 && (t as u64) < i as u64,
                    Some(t) => t > i as i64 && (t as u64) < n as u64,
                    None => false,
                };
                if !ok {
                    let want = if backward {
                        format!("0 … {}", i as i64 - 1)
                    } else {
                        format!("{} … {}", i + 1, n as i64 - 1)
                    };
                    return fault(
                        FaultKind::BadTarget,
                        format!("{cat}.target"),
                        format!(
                            "{op} target {} is not in {want}",
                            raw.get("target").unwrap_or(&Value::Null)
                        ),
                    );
                }
                let target = t.unwrap_or(0) as u16;
                if backward {
                    Cmd::GoToPrevious { target }
                } else {
                    Cmd::GoToFuture { target }
                }
            }
            _ => {
                return fault(
                    FaultKind::UnknownOp,
                    format!("{cat}.op"),
                    format!("unknown op {}", raw.get("op").unwrap_or(&Value::Null)),
                )
            }
        };
        out.push(cmd);
    }
    check_group(number, &out, at)?;
    Ok(out)
}

/// The whole-group load checks: the last command ends the group, and every
/// backward range holds a `show_frame` (C17).
pub fn check_group(number: u8, cmds: &[Cmd], at: &str) -> Result<(), LoadFault> {
    match cmds.last() {
        Some(Cmd::EndAnimation) => {}
        Some(_) => {
            let last = cmds.len() - 1;
            return Err(LoadFault::new(
                FaultKind::NoEnd,
                format!("{at}.commands[{last}]"),
                "the last command is not end_animation",
            )
            .in_group(number, Some(last)));
        }
        None => {
            return Err(LoadFault::new(
                FaultKind::NoEnd,
                format!("{at}.commands"),
                "a group needs at least its end_animation command",
            )
            .in_group(number, None));
        }
    }
    for (i, c) in cmds.iter().enumerate() {
        if let Cmd::GoToPrevious { target } = *c {
            let range = &cmds[target as usize..i];
            if !range.iter().any(|c| matches!(c, Cmd::ShowFrame { .. })) {
                return Err(LoadFault::new(
                    FaultKind::ControlLoop,
                    format!("{at}.commands[{i}]"),
                    format!("go_to_previous {target} loops over commands without a show_frame"),
                )
                .in_group(number, Some(i)));
            }
        }
    }
    Ok(())
}
