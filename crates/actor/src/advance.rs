//! Animation advancement: default request, group start and the byte frame
//! countdown (A12, A17–A20, A24; decisions C1–C3, C5).

use crate::arbitration::{accept, Ctx};
use crate::error::RunError;
use crate::interpreter::{interpret, Flow};
use crate::state::Anim;

/// Deepest chain of `end_animation` restarts one advancement may make (more is a run-time runaway, C17).
pub const MAX_END_CHAIN: u8 = 16;

/// One advancement with the shared ticks of `cx`. `depth` counts the
/// `end_animation` restarts that led here; each restart is the same advancement
/// again with `current` cleared (A13).
#[inline(always)]
pub fn advance(anim: &mut Anim, cx: Ctx, depth: u8) -> Result<(), RunError> {
    let mut depth = depth;
    loop {
        if anim.current.is_none() {
            if anim.pending.is_none() {
                accept(anim, cx.model, anim.default, 0); // A12, C5: acceptance only
            }
            if anim.pending.is_none() {
                return Ok(()); // no default group: nothing plays
            }
            start(anim);
        }
        if cx.ticks > 0 {
            if anim.countdown == 0 {
                // A19: the expired countdown moves the cursor and turns spare ticks into skips.
                anim.cursor = anim.cursor.wrapping_add(1);
                anim.countdown = anim.reload;
                anim.skip = cx.ticks - 1;
                anim.breakpoint = false;
            }
            anim.countdown = anim.countdown.wrapping_sub(1); // A19 / A20
        }
        match interpret(anim, cx.model)? {
            Flow::Done => return Ok(()),
            Flow::End(group) => {
                anim.current = None;
                if depth >= MAX_END_CHAIN {
                    return Err(RunError::EndChain { group });
                }
                depth += 1;
            }
        }
    }
}

/// Start the pending request (A17, C2): cursor 0 and countdown = reload = the
/// start value it carries.
#[inline]
pub fn start(anim: &mut Anim) {
    anim.current = anim.pending;
    let value = anim.pending_countdown.unwrap_or(0);
    anim.countdown = value;
    anim.reload = value;
    anim.pending = None;
    anim.pending_countdown = None;
    anim.cursor = 0;
    anim.direction = 1;
    anim.skip = 0;
    anim.loop_count = 0;
    anim.breakpoint = false;
    anim.exit = false;
}
