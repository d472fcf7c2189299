//! Forced requests (A14, A15, C7). Callers have passed the boundary (A16).

use crate::advance::advance;
use crate::arbitration::{accept, Ctx, Outcome};
use crate::error::RunError;
use crate::state::Anim;

/// A forced request: keeps the current group before its exit marker, otherwise
/// restarts from the requested group without consulting pending priority.
pub fn force_request(anim: &mut Anim, cx: Ctx, g: u8, modifier: u8) -> Result<Outcome, RunError> {
    if anim.current == Some(g) && !anim.exit {
        // A14: cursor, countdown and loop count untouched.
        anim.pending = None;
        anim.pending_countdown = None;
        return Ok(Outcome::Kept);
    }
    anim.current = None; // A15
    let result = accept(anim, cx.model, g, modifier);
    // C7: countdown, reload and skip change only at the start.
    anim.cursor = 0;
    anim.direction = 1;
    anim.loop_count = 0;
    anim.breakpoint = false;
    anim.exit = false;
    if anim.pending.is_some() {
        advance(anim, cx, 0)?;
    }
    Ok(result)
}
