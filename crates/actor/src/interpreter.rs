//! The forward command interpreter (A3, A13, A21–A23, A25, A26, C18).

use crate::advance::{advance, MAX_END_CHAIN};
use crate::arbitration::Ctx;
use crate::error::RunError;
use crate::ragr::Cmd;
use crate::state::Anim;

/// Interpret the current group from the cursor until a frame is selected or
/// `end_animation` hands over to a new advancement.
#[inline]
pub fn interpret(anim: &mut Anim, cx: Ctx, depth: u8) -> Result<(), RunError> {
    let Some(number) = anim.current else {
        return Ok(());
    };
    let Some(group) = cx.model.group(number) else {
        return Ok(());
    };
    let cmds = cx.model.commands(group);
    // Every legitimate pass selects a frame or consumes a skip within one sweep of
    // the group (the load checks guarantee a show_frame in every backward range);
    // only taken go_to_future jumps can cycle without one, so this bounds runaways.
    let mut budget = (anim.skip as u64 + 3).saturating_mul(cmds.len() as u64 + 1);
    loop {
        let Some(&cmd) = cmds.get(anim.cursor as usize) else {
            return Err(RunError::CursorPastEnd { group: number });
        };
        budget = match budget.checked_sub(1) {
            Some(b) => b,
            None => return Err(RunError::ControlLoop { group: number }),
        };
        match cmd {
            Cmd::ShowFrame { handle, index } => {
                if anim.skip > 0 {
                    // A21: a skipped frame is passed and clears the marker (A26).
                    anim.skip -= 1;
                    anim.breakpoint = false;
                    anim.cursor += 1;
                } else {
                    anim.frame = Some([handle, index]); // A3
                    return Ok(());
                }
            }
            Cmd::BreakPoint => {
                anim.breakpoint = true; // A25
                anim.cursor += 1;
            }
            Cmd::GoToPrevious { target } => {
                // A22
                if anim.loop_count > 0 {
                    anim.loop_count -= 1;
                    if anim.loop_count == 0 {
                        anim.cursor += 1;
                    } else {
                        anim.cursor = target;
                        anim.breakpoint = false;
                    }
                } else {
                    anim.cursor = target;
                    anim.breakpoint = false;
                }
            }
            Cmd::GoToFuture { target } => {
                // A23
                if anim.loop_count == 0 && (anim.pending.is_some() || anim.exit) {
                    anim.cursor = target;
                    anim.breakpoint = false;
                } else {
                    anim.cursor += 1;
                }
            }
            Cmd::EndAnimation => {
                // A13: End is not a stop.
                anim.current = None;
                if depth >= MAX_END_CHAIN {
                    return Err(RunError::EndChain { group: number });
                }
                return advance(anim, cx, depth + 1);
            }
        }
    }
}
