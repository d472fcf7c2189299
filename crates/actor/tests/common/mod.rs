//! Shared fixtures for the rule tests: one hand-written model table whose frames and
//! groups every expectation below is computed from.
#![allow(dead_code)]

use retroanim_actor::arbitration::Outcome;
use retroanim_actor::load::load_set;
use retroanim_actor::world::{Switches, World};
use retroanim_actor::Anim;
use serde_json::{json, Value};

/// Model `m`: RAAN `[(3, 2 frames), (4, 3 frames)]`, so references 0–1 are model 3
/// frames 0–1 and references 2–4 are model 4 frames 0–2.
///
/// | group | header | low | commands |
/// |---|---|---|---|
/// | 0 | 0x0102 | 2 | show 0, show 1, gtp 0, end |
/// | 1 | 0x0001 | 1 | show 4, end |
/// | 5 | 0x0003 | 3 | break, show 2, show 3, gtp 1, show 4, end |
/// | 7 | 0x0002 | 2 | show 0, gtf 3, show 1, show 2, end |
/// | 9 | 0x01FE | 254 | show 3, show 4, end |
/// | 13 | 0x0001 | 1 | show 0, break, show 1, show 2, end |
/// | 15 | 0x0001 | 1 | show 0, break, gtp 0, end |
/// | 16 | 0x0001 | 1 | show 0, break, gtf 3, show 1, end |
///
/// Model `nodef`: RAAN `[(8, 2)]`, only group 5 (header 1): show 0, show 1, end.
pub fn models() -> Value {
    let s = |r: u64| json!({"op": "show_frame", "ref": r});
    let gtp = |t: u64| json!({"op": "go_to_previous", "target": t});
    let gtf = |t: u64| json!({"op": "go_to_future", "target": t});
    let brk = json!({"op": "break_point"});
    let end = json!({"op": "end_animation"});
    json!([
        {"name": "m", "raan": [{"model": 3, "frames": 2}, {"model": 4, "frames": 3}],
         "groups": [
            {"group": 0, "header": 0x0102, "commands": [s(0), s(1), gtp(0), end]},
            {"group": 1, "header": 0x0001, "commands": [s(4), end]},
            {"group": 5, "header": 0x0003, "commands": [brk, s(2), s(3), gtp(1), s(4), end]},
            {"group": 7, "header": 0x0002, "commands": [s(0), gtf(3), s(1), s(2), end]},
            {"group": 9, "header": 0x01FE, "commands": [s(3), s(4), end]},
            {"group": 13, "header": 0x0001, "commands": [s(0), brk, s(1), s(2), end]},
            {"group": 15, "header": 0x0001, "commands": [s(0), brk, gtp(0), end]},
            {"group": 16, "header": 0x0001, "commands": [s(0), brk, gtf(3), s(1), end]}
         ]},
        {"name": "nodef", "raan": [{"model": 8, "frames": 2}],
         "groups": [{"group": 5, "header": 1, "commands": [s(0), s(1), end]}]}
    ])
}

/// A 48×40 world with the given actors and scripts, view [0, 0], scale 256.
pub fn world(actors: Value, scripts: Value) -> World {
    let doc = json!({"map": {"width": 48, "height": 40}, "models": models(),
                     "scripts": scripts, "actors": actors});
    let set = load_set(&doc).unwrap_or_else(|f| panic!("{f}"));
    World::new(set, [0, 0], 256, Switches::default()).unwrap()
}

/// One persistent actor `a` with model `m`, no script.
pub fn one() -> World {
    world(
        json!([{"id": "a", "pos": [1000, 1000], "activation": 1, "model": "m"}]),
        json!([]),
    )
}

pub fn anim(w: &World, i: usize) -> Anim {
    w.actors()[i].anim.expect("actor has animation state")
}

pub fn anim_mut(w: &mut World, i: usize) -> &mut Anim {
    w.actors_mut()[i]
        .anim
        .as_mut()
        .expect("actor has animation state")
}

pub fn req(w: &mut World, i: usize, g: u8, m: u8) -> Outcome {
    w.request(i, g, m).unwrap()
}

pub fn force(w: &mut World, i: usize, g: u8, m: u8) -> Outcome {
    w.force_request(i, g, m).unwrap()
}

pub fn adv(w: &mut World, i: usize) {
    w.advance(i).unwrap();
}

/// Set the shared tick increment directly (what the last update produced).
pub fn ticks(w: &mut World, t: u32) {
    w.timing.ticks = t;
}

pub fn update(w: &mut World) {
    w.update().unwrap();
}
