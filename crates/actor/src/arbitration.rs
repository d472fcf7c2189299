//! Ordinary request arbitration with the default group (A4–A12, C4).
//! Callers have already passed the eligibility boundary (A16, see [`crate::world`]).

use crate::advance::advance;
use crate::error::RunError;
use crate::resources::ModelTable;
use crate::state::Anim;
use serde::Serialize;

/// What one advancement works with: the actor's model table and the shared
/// whole-tick increment of this update (A11, A38).
#[derive(Clone, Copy)]
pub struct Ctx<'m> {
    pub model: &'m ModelTable,
    pub ticks: u32,
}

/// The `result` of a request, as the trace names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Accepted,
    Cleared,
    Refused,
    Unchanged,
    Rejected,
    Kept,
}

/// Acceptance with the absent-group fallback and the start countdown (A9, A10).
#[inline]
pub fn accept(anim: &mut Anim, model: &ModelTable, g: u8, modifier: u8) -> Outcome {
    // A found group's number is the number it was looked up by.
    let (number, slot) = match model.slot(g) {
        slot if slot.present() => (g, slot),
        _ => match model.slot(anim.default) {
            slot if slot.present() => (anim.default, slot),
            _ => {
                anim.pending = None;
                anim.pending_countdown = None;
                return Outcome::Cleared;
            }
        },
    };
    anim.pending = Some(number);
    anim.pending_countdown = Some(slot.low.wrapping_add(modifier));
    Outcome::Accepted
}

/// Whether an ordinary request for `g` replaces the pending one (A7, A8): nothing
/// current or nothing pending, or the pending number is not above `g`, or the
/// pending group is the current one.
#[inline(always)]
fn replaces(anim: &Anim, g: u8) -> bool {
    match (anim.current, anim.pending) {
        (None, _) | (_, None) => true,
        (Some(cur), Some(pend)) => pend <= g || pend == cur,
    }
}

/// An ordinary request (A4–A8, A11). Arbitration compares the requested
/// number; the fallback applies only once accepted (C4).
#[inline]
pub fn request(anim: &mut Anim, cx: Ctx, g: u8, modifier: u8) -> Result<Outcome, RunError> {
    if anim.current.is_some() && anim.current == Some(anim.default) {
        if g == anim.default {
            return Ok(Outcome::Unchanged); // A5
        }
        anim.current = None; // A6
    }
    let result = if replaces(anim, g) {
        accept(anim, cx.model, g, modifier) // A7
    } else {
        Outcome::Refused // A8
    };
    if anim.current.is_none() {
        advance(anim, cx, 0)?; // A11
    }
    Ok(result)
}

/// The update's own request for the default group with modifier 0 (A36): [`request`]
/// with `g` = the default, where A6 cannot apply and the fallback group is the
/// requested one.
#[inline(always)]
pub fn request_default(anim: &mut Anim, cx: Ctx) -> Result<(), RunError> {
    let g = anim.default;
    match anim.current {
        Some(cur) => {
            if cur == g {
                return Ok(()); // A5
            }
            if anim.pending == Some(g) {
                // A7 replaces a pending request for the same group: only the start
                // countdown is written again (or both cleared, the group being absent).
                let slot = cx.model.slot(g);
                if slot.present() {
                    anim.pending_countdown = Some(slot.low);
                } else {
                    anim.pending = None;
                    anim.pending_countdown = None;
                }
                return Ok(());
            }
            let replace = match anim.pending {
                None => true,
                Some(pend) => pend <= g || pend == cur,
            };
            if replace {
                accept_default(anim, cx.model); // A7
            }
            Ok(())
        }
        None => {
            accept_default(anim, cx.model); // A7
            advance(anim, cx, 0) // A11
        }
    }
}

/// [`accept`] of the default group with modifier 0.
#[inline(always)]
fn accept_default(anim: &mut Anim, model: &ModelTable) {
    let slot = model.slot(anim.default);
    if slot.present() {
        anim.pending = Some(anim.default);
        anim.pending_countdown = Some(slot.low);
    } else {
        anim.pending = None;
        anim.pending_countdown = None;
    }
}
