//! ACE's game-layer helpers on the DAT records (`Dat/FileTypes/MotionTable.cs`). They take no
//! part in the simulation; ACE's game code times actions with them.

use super::types::{AnimRef, Animation, MotionTable};

/// `MotionTable.GetAnimationLength(AnimData)` (DAT side): `HighFrame = -1` counts
/// `NumFrames - LowFrame` frames, an explicit last index one fewer (Q57).
pub fn get_animation_length(anim: &Animation, clip: &AnimRef) -> f32 {
    let frames = anim.num_frames.min(i32::MAX as u32) as i32;
    let mut high = clip.high_frame;
    if high == -1 {
        high = frames;
    }
    if high > frames {
        high = frames;
    }
    high.wrapping_sub(clip.low_frame) as f32 / clip.framerate.abs()
}

/// `MotionTable.GetAnimData(stance, motion, current)`: the link clips from `current` to
/// `motion`, with the game layer's **20-bit** index mask (Q56), falling back to the
/// style-wide links; empty when there is no link.
pub fn get_anim_data(table: &MotionTable, stance: u32, motion: u32, current: u32) -> Vec<AnimRef> {
    let find = |outer: u32| {
        table
            .links
            .iter()
            .find(|(k, _)| *k == outer)
            .and_then(|(_, inner)| inner.iter().find(|(m, _)| *m == motion))
            .map(|(_, md)| md.anims.clone())
    };
    find(stance.wrapping_shl(16) | (current & 0x000F_FFFF))
        .or_else(|| find(stance.wrapping_shl(16)))
        .unwrap_or_default()
}

/// `MotionTable.GetCycleLength(stance, motion)`-style sum over clips: the length of
/// each clip (animations looked up by `anim`; a missing one counts 0 frames).
pub fn clips_length(clips: &[AnimRef], mut anim: impl FnMut(u32) -> Option<Animation>) -> f32 {
    clips
        .iter()
        .map(|c| {
            let a = anim(c.anim_id).unwrap_or_default();
            get_animation_length(&a, c)
        })
        .sum()
}
