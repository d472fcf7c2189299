//! An object's state as raw words, for comparing two tick paths bit for bit (a float's
//! bits, not its value: the sign of a zero and every last ulp count).

use crate::math::{AFrame, Vec3};
use crate::physics_obj::PhysicsObj;

/// Every field the tick reads or writes, the sequence's playlist included, as words
/// appended to `out`. Two objects ticked by different paths agree bit for bit exactly
/// when their words are equal (memos, which hold no state of the simulation, are left
/// out; the managers' state reaches the trace line, which a comparison checks beside).
pub fn state_words(obj: &PhysicsObj, out: &mut Vec<u32>) {
    let vec = |out: &mut Vec<u32>, v: Vec3| out.extend([v.x, v.y, v.z].map(f32::to_bits));
    let frame = |out: &mut Vec<u32>, f: &AFrame| {
        vec(out, f.origin);
        let q = f.orientation;
        out.extend([q.w, q.x, q.y, q.z].map(f32::to_bits));
    };
    let f64_words = |out: &mut Vec<u32>, x: f64| {
        let b = x.to_bits();
        out.extend([b as u32, (b >> 32) as u32]);
    };
    out.extend([obj.id, obj.cell]);
    frame(out, &obj.frame);
    out.push(
        [
            obj.gravity,
            obj.hidden,
            obj.contact(),
            obj.on_walkable(),
            obj.is_active(),
            obj.in_cell(),
            obj.is_animating,
            obj.has_movement_manager(),
            obj.last_move_was_autonomous,
        ]
        .iter()
        .enumerate()
        .fold(0, |w, (i, &b)| w | (u32::from(b) << i)),
    );
    for v in [
        obj.velocity,
        obj.acceleration,
        obj.omega,
        obj.cached_velocity,
        obj.contact_normal,
    ] {
        vec(out, v);
    }
    out.extend([obj.scale, obj.friction, obj.player_distance].map(f32::to_bits));
    f64_words(out, obj.update_time);
    f64_words(out, obj.now);

    let seq = &obj.sequence;
    let handle = |h: Option<usize>| h.map_or(u32::MAX, |i| i as u32);
    out.extend([
        seq.nodes.len() as u32,
        handle(seq.first_cyclic),
        handle(seq.curr),
        seq.frame_number.to_bits(),
        seq.overrun.map_or(0, |l| l as u32 + 1),
    ]);
    vec(out, seq.velocity);
    vec(out, seq.omega);
    for n in &seq.nodes {
        out.extend([
            n.anim.id,
            n.framerate.to_bits(),
            n.low_frame as u32,
            n.high_frame as u32,
        ]);
    }

    out.push(obj.anim_hooks.len() as u32);
    out.push(obj.hook_log.len() as u32);
    out.extend(obj.hook_log.iter().copied());
    out.push(obj.motions_done.len() as u32);
    out.extend(
        obj.motions_done
            .iter()
            .flat_map(|&(m, ok)| [m, u32::from(ok)]),
    );
    out.push(obj.move_completions.len() as u32);
    out.extend(obj.move_completions.iter().map(|&e| e as u32));
    out.push(obj.last_move_completion.map_or(u32::MAX, |e| e as u32));
    out.push(obj.minterp.pending_motions.len() as u32);
    if let Some(tm) = &obj.table_manager {
        out.extend([tm.animation_counter, tm.pending.len() as u32]);
    }
    out.extend([
        obj.outbox.len() as u32,
        u32::from(
            obj.position_manager
                .as_ref()
                .is_some_and(|p| p.sticky_live.is_some()),
        ),
        obj.sticky_object,
        u32::from(obj.position_manager.is_some()),
        u32::from(obj.target_manager.is_some()),
    ]);
}
