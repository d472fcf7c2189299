//! How long the engine plays a motion table entry: a cycle at a speed, the link from
//! one motion to another, and the clips of an action (ACE's `GetAnimationLength` /
//! `GetCycleLength` family, which ACE's game code uses to time attacks and emotes).
//!
//! The lengths are what the sequence takes to play the clips (each clip's frames after
//! the node's clamp, Q54, over its framerate at that speed). ACE's game-layer helper
//! counts one frame fewer for a clip with an explicit last frame (Q57,
//! [`crate::records::lengths::get_animation_length`]); the two agree for clips that run
//! to the last frame (`high_frame` -1).

use crate::motion_table::{key, MotionTableData};
use crate::records::MotionData;
use crate::sequence::{AnimData, AnimSource, SeqNode};

/// The time the sequence takes to play `md`'s clips once at `speed` (0 when `md` is
/// none; infinite when a clip's framerate is 0, since such a clip never ends).
pub fn clips_play_time(md: Option<&MotionData>, speed: f32, anims: &dyn AnimSource) -> f32 {
    let Some(md) = md else { return 0.0 };
    md.anims
        .iter()
        .map(|a| {
            let node = SeqNode::new(
                AnimData {
                    anim_id: a.anim_id,
                    low_frame: a.low_frame,
                    high_frame: a.high_frame,
                    framerate: a.framerate * speed,
                },
                anims,
            );
            let frames = (node.high_frame - node.low_frame + 1) as f32;
            frames / node.framerate.abs()
        })
        .sum()
}

/// One pass of the cycle `motion` of `style` at `speed` (`GetCycleLength`); 0 when the
/// table has no such cycle.
pub fn cycle_length(
    table: &MotionTableData,
    anims: &dyn AnimSource,
    style: u32,
    motion: u32,
    speed: f32,
) -> f32 {
    clips_play_time(table.cycles().get(&key(style, motion)), speed, anims)
}

/// The link the table plays from substate `from` to `to` in `style` at `speed` (the
/// lookup the motion table manager makes, its style-wide fallback included); 0 when
/// there is no link.
pub fn link_length(
    table: &MotionTableData,
    anims: &dyn AnimSource,
    style: u32,
    from: u32,
    to: u32,
    speed: f32,
) -> f32 {
    clips_play_time(table.get_link(style, from, 1.0, to, speed), speed, anims)
}

/// An action or motion started from `style`'s default substate (`GetAnimationLength`
/// with no current motion): the link from that substate to `motion`.
pub fn animation_length(
    table: &MotionTableData,
    anims: &dyn AnimSource,
    style: u32,
    motion: u32,
    speed: f32,
) -> f32 {
    let from = table.sd(style);
    link_length(table, anims, style, from, motion, speed)
}
