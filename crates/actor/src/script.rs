//! The minimal main script stage (A36, A40, D2; decisions C9, C10):
//! `PushAnimation(group, count)` creates a task, `End(target)` ends the invocation.

use crate::boundary::Env;
use crate::error::RunError;
use crate::resources::{ModelTable, Script, ScriptCmd};
use crate::state::{Actor, Phase, Task};
use crate::tasks::{invoke, TaskStatus};

/// The script stage of an actor whose stage is enabled, with script index `i`
/// (an index outside `scripts` means no stage) and `current`, the actor's current
/// group (`None` without animation state). A started task that is still active
/// (A31: its group is current) blocks the body; that check comes first, before the
/// script is even looked up.
#[inline(always)]
pub(crate) fn script_stage_of(
    actor: &mut Actor,
    models: &[ModelTable],
    scripts: &[Script],
    i: usize,
    env: Env,
    current: Option<u8>,
) -> Result<(), RunError> {
    if let Some(task) = actor.task {
        if task.phase == Phase::Started && current == Some(task.group) {
            return Ok(());
        }
    }
    match scripts.get(i) {
        Some(script) => script_stage(actor, models, script, env),
        None => Ok(()),
    }
}

/// One script stage for an actor whose stage is enabled: existing task first, then
/// (if it completed or there was none) one step of the body. The stage's entry work
/// exists in the original but is not modelled.
#[inline(never)]
pub fn script_stage(
    actor: &mut Actor,
    models: &[ModelTable],
    script: &Script,
    env: Env,
) -> Result<(), RunError> {
    if let Some(task) = actor.task {
        // A started task only watches for its group to stop being current (A31): the
        // check of `invoke` without its request path.
        let active = if task.phase == Phase::Started {
            actor.anim.as_ref().and_then(|a| a.current) == Some(task.group)
        } else {
            invoke(actor, models, env)? == TaskStatus::Active
        };
        if active {
            return Ok(()); // the body stays blocked
        }
        actor.task = None; // completed: the body may continue in this update
    }
    match script.cmds.get(actor.pc as usize) {
        Some(&ScriptCmd::PushAnimation { group, count }) => {
            // C9: creation only; the first invocation is in the next stage.
            actor.task = Some(Task {
                group,
                count,
                phase: Phase::NotStarted,
            });
            actor.pc += 1;
        }
        Some(&ScriptCmd::End { target }) => actor.pc = target, // C10
        None => actor.pc = 0,
    }
    Ok(())
}
