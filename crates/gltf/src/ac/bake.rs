//! Playing one motion-data entry through the engine's own `Sequence` and writing down what
//! it shows: the part frames, the root offset and the hooks, each at the moment the engine
//! changes them.
//!
//! The sequence shows the part frame of `floor(frame_number)` (ACE's `get_curr_animframe`)
//! and moves the root only when a frame boundary is crossed (pos frame plus velocity and
//! omega over one frame). So between two crossings nothing the engine shows changes, and a
//! clip is exactly a STEP curve keyed at the crossings. The baker asks the engine's own
//! state (its frame number and the playing node's framerate and range) when the next
//! crossing is due, updates the sequence a quarter of the fastest frame past it, and keys
//! what the sequence shows at the crossing's time. HighFrame −1, low/high ranges, the
//! four-step clamp and negative framerates are therefore whatever the engine makes of them.

use retroanim_ac::math::AFrame;
use retroanim_ac::motion_table::add_motion;
use retroanim_ac::records::{AnimHook, MotionData};
use retroanim_ac::sequence::{AnimMap, FiredHook, Sequence, HOOK_ANIMATION_DONE};

/// Keys one clip may have; a longer clip is refused (shipped clips have a few hundred; this
/// is eleven minutes at 30 fps).
pub const MAX_KEYS: usize = 20_000;
/// A motion without clips (a modifier) is baked over this long...
pub const PHYSICS_SECONDS: f64 = 1.0;
/// ...at this many updates a second, ACE's shortest server tick.
pub const PHYSICS_RATE: u32 = 30;

/// What the engine shows from `time` on.
pub struct Key {
    pub time: f64,
    /// The part frames of the frame shown; `None` when the playing animation has none.
    pub parts: Option<Vec<AFrame>>,
    /// The root's accumulated offset from the clip's start.
    pub root: AFrame,
}

/// A hook the engine fired.
pub struct Event {
    pub time: f64,
    pub hook_type: u32,
    pub anim: u32,
    pub frame: i32,
    /// The record's hook, when the frame holds one that fired (AnimationDone has none).
    pub hook: Option<AnimHook>,
}

/// One node of the sequence as the engine plays it (after its clamp).
pub struct Played {
    pub anim: u32,
    pub low: i32,
    pub high: i32,
    pub framerate: f32,
}

pub struct Baked {
    pub keys: Vec<Key>,
    /// When the clip ends (the last node finished, or the physics bake's length).
    pub end: f64,
    /// When the sequence enters the node it loops, if that is not the first.
    pub loop_start: Option<f64>,
    pub events: Vec<Event>,
    pub played: Vec<Played>,
    /// True when the root moves continuously (no clips: velocity and omega alone).
    pub continuous: bool,
}

fn shown(seq: &Sequence) -> Option<Vec<AFrame>> {
    let ci = seq.curr()?;
    seq.nodes()[ci]
        .part_frame(seq.curr_frame_number())
        .map(|f| f.parts.clone())
}

/// Plays `md` at speed 1 from a fresh sequence until its last node finishes.
///
/// When a node finishes, the engine moves the root only by what entering the next node
/// adds (ACE's `advance_to_next_animation`: the next node's first pos frame and one frame of
/// velocity and omega). A cycle's next node is its own loop, so its end key includes that
/// entry, and a looping player moves the root by one whole loop of the engine per loop
/// (`looping`). A link is followed by whatever comes next, so its end key leaves the entry
/// out.
///
/// At most `max_keys` keys are made (the caller's share of the export's budget); a clip
/// needing more is refused.
pub fn bake(
    md: &MotionData,
    anims: &AnimMap,
    looping: bool,
    max_keys: usize,
) -> Result<Baked, String> {
    let max_keys = max_keys.min(MAX_KEYS);
    let mut seq = Sequence::new();
    add_motion(&mut seq, Some(md), 1.0, anims);
    if !seq.has_anims() {
        return Ok(bake_physics(seq));
    }
    let played: Vec<Played> = seq
        .nodes()
        .iter()
        .map(|n| Played {
            anim: n.anim.id,
            low: n.low_frame,
            high: n.high_frame,
            framerate: n.framerate,
        })
        .collect();
    if let Some(p) = played.iter().find(|p| !p.framerate.is_finite()) {
        return Err(format!(
            "animation 0x{:08x} plays at framerate {}",
            p.anim, p.framerate
        ));
    }
    let fastest = played
        .iter()
        .map(|p| p.framerate.abs())
        .fold(0.0f32, f32::max);
    let mut keys = vec![Key {
        time: 0.0,
        parts: shown(&seq),
        root: AFrame::IDENTITY,
    }];
    let mut baked = Baked {
        keys: Vec::new(),
        end: 0.0,
        loop_start: None,
        events: Vec::new(),
        played,
        continuous: false,
    };
    if fastest == 0.0 {
        // Nothing advances: the engine shows the first frame for ever.
        baked.keys = keys;
        return Ok(baked);
    }
    let overshoot = 0.25 / f64::from(fastest);
    let mut time = 0.0f64;
    let mut root = AFrame::IDENTITY;
    let mut hooks: Vec<FiredHook> = Vec::new();
    // Updates that cross nothing (f32 landing a hair short of a boundary) are bounded too.
    let mut updates_left = max_keys * 4;
    while let Some(ci) = seq.curr() {
        updates_left = updates_left
            .checked_sub(1)
            .filter(|_| keys.len() <= max_keys)
            .ok_or_else(|| format!("the clip needs more than {max_keys} keys"))?;
        let len = seq.nodes().len();
        let node = &seq.nodes()[ci];
        let (fr, low, high, anim) = (
            node.framerate,
            node.low_frame,
            node.high_frame,
            node.anim.id,
        );
        let frame = seq.curr_frame_number();
        let frame_hooks = node
            .part_frame(frame)
            .map(|f| f.hooks.clone())
            .unwrap_or_default();
        let number = seq.frame_number();
        if fr == 0.0 {
            // A node at rate 0 never finishes: the clip ends where it stalls.
            baked.end = time;
            break;
        }
        let floor = f64::from(number).floor();
        let (to_crossing, ends_node) = if fr > 0.0 {
            (
                (floor + 1.0 - f64::from(number)) / f64::from(fr),
                floor + 1.0 > f64::from(high),
            )
        } else {
            (
                (f64::from(number) - floor) / f64::from(-fr),
                floor <= f64::from(low),
            )
        };
        let crossing = time + to_crossing;
        let dt = (to_crossing + overshoot) as f32;
        let mut offset = AFrame::IDENTITY;
        hooks.clear();
        seq.update(dt, Some(&mut offset), &mut hooks);
        if let Some(limit) = seq.overrun() {
            return Err(format!("the engine stopped at its work limit {limit:?}"));
        }
        time += f64::from(dt);
        let root_before = root;
        root = AFrame::combine(&root, &offset);
        // Inside a node the engine only adds `fr · dt` to the frame number; anything else
        // means the node finished (even when the next one shows the same frame number).
        let same_node = seq.nodes().len() == len
            && seq.curr() == Some(ci)
            && seq.frame_number().to_bits() == (number + fr * dt).to_bits();
        if same_node && seq.curr_frame_number() == frame {
            continue; // landed short of the boundary: update again
        }
        record_events(
            &mut baked.events,
            &hooks,
            &frame_hooks,
            crossing,
            anim,
            frame,
            fr,
        );
        if !same_node && ends_node && ci == len - 1 {
            baked.end = crossing;
            // The end key holds the last frame shown, so the clip lasts as long as the
            // engine plays it.
            let parts = keys.last().and_then(|k| k.parts.clone());
            keys.push(Key {
                time: crossing,
                parts,
                root: if looping { root } else { root_before },
            });
            break;
        }
        if !same_node && seq.curr() == seq.first_cyclic() {
            baked.loop_start.get_or_insert(crossing);
        }
        keys.push(Key {
            time: crossing,
            parts: shown(&seq),
            root,
        });
    }
    baked.keys = keys;
    Ok(baked)
}

/// Matches the hooks the engine fired at a crossing with the record's hooks of the frame
/// it left (in order, those whose direction fired), to carry their payloads.
fn record_events(
    events: &mut Vec<Event>,
    fired: &[FiredHook],
    frame_hooks: &[AnimHook],
    time: f64,
    anim: u32,
    frame: i32,
    fr: f32,
) {
    let dir = if fr > 0.0 { 1 } else { -1 };
    let mut record = frame_hooks
        .iter()
        .filter(|h| h.direction == 0 || h.direction == dir)
        .cloned();
    for h in fired {
        let hook = if h.hook_type == HOOK_ANIMATION_DONE {
            None
        } else {
            record.next()
        };
        events.push(Event {
            time,
            hook_type: h.hook_type,
            anim,
            frame,
            hook,
        });
    }
}

/// A motion without clips: the sequence only moves the root by its velocity and omega,
/// continuously, so it is sampled at ticks and played back linearly.
fn bake_physics(mut seq: Sequence) -> Baked {
    let ticks = (PHYSICS_SECONDS * f64::from(PHYSICS_RATE)) as u32;
    let dt = 1.0 / PHYSICS_RATE as f32;
    let mut root = AFrame::IDENTITY;
    let mut keys = vec![Key {
        time: 0.0,
        parts: None,
        root,
    }];
    let mut hooks = Vec::new();
    for k in 1..=ticks {
        let mut offset = AFrame::IDENTITY;
        seq.update(dt, Some(&mut offset), &mut hooks);
        root = AFrame::combine(&root, &offset);
        keys.push(Key {
            time: f64::from(k) / f64::from(PHYSICS_RATE),
            parts: None,
            root,
        });
    }
    Baked {
        keys,
        end: PHYSICS_SECONDS,
        loop_start: None,
        events: Vec::new(),
        played: Vec::new(),
        continuous: true,
    }
}
