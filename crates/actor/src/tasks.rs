//! `PushAnimation` tasks (A28–A32; `invoke`, decision C9).

use crate::boundary::{actor_request, Env};
use crate::error::RunError;
use crate::resources::ModelTable;
use crate::state::{Actor, Phase};

/// What an invocation leaves the task as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStatus {
    Active,
    Completed,
}

/// Invoke the actor's task once (the original task handler). The operands are
/// literals here, so "evaluated again on every invocation" (A31) is reading them.
#[inline]
pub fn invoke(actor: &mut Actor, models: &[ModelTable], env: Env) -> Result<TaskStatus, RunError> {
    let Some(task) = actor.task else {
        return Ok(TaskStatus::Completed);
    };
    let current = actor.anim.as_ref().and_then(|a| a.current);
    match task.phase {
        Phase::NotStarted => {
            if current == Some(task.group) {
                // A29 / A30: the count is a finite loop input written into `loop` (A32).
                if let Some(anim) = actor.anim.as_mut() {
                    anim.loop_count = task.count;
                }
                if let Some(t) = actor.task.as_mut() {
                    t.phase = Phase::Started;
                }
            } else {
                // A28: request and stay active; the count is not set even if it started now.
                actor_request(actor, models, env, task.group, 0)?;
            }
            Ok(TaskStatus::Active)
        }
        Phase::Started => {
            if current != Some(task.group) {
                Ok(TaskStatus::Completed) // A31: never re-requests
            } else {
                Ok(TaskStatus::Active)
            }
        }
    }
}
