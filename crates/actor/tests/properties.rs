//! Property tests: arbitrary request/update sequences never panic or run away;
//! countdowns wrap as bytes; the selected frame always resolves inside the RAAN
//! table; arbitrary groups either load or are rejected, and loaded ones terminate.

mod common;

use common::*;
use proptest::prelude::*;
use retroanim_actor::arbitration::Outcome;
use retroanim_actor::load::load_set;
use retroanim_actor::world::{Switches, World};
use serde_json::{json, Value};

#[derive(Debug, Clone)]
enum Op {
    Request(usize, u8, u8),
    Force(usize, u8, u8),
    Update,
    Scale(u16),
    Reset,
    Exit(usize),
    Default(usize, Option<u8>),
    View(i64, i64),
    Animation(bool),
}

const GROUPS: [u8; 10] = [0, 1, 3, 5, 7, 9, 13, 15, 16, 200];

fn op() -> impl Strategy<Value = Op> {
    let g = prop::sample::select(GROUPS.to_vec());
    prop_oneof![
        (0..4usize, g.clone(), any::<u8>()).prop_map(|(a, g, m)| Op::Request(a, g, m)),
        (0..4usize, g.clone(), any::<u8>()).prop_map(|(a, g, m)| Op::Force(a, g, m)),
        Just(Op::Update),
        Just(Op::Update),
        any::<u16>().prop_map(Op::Scale),
        Just(Op::Reset),
        (0..4usize).prop_map(Op::Exit),
        (0..4usize, prop::option::of(g)).prop_map(|(a, g)| Op::Default(a, g)),
        (-2000..30000i64, -2000..30000i64).prop_map(|(x, y)| Op::View(x, y)),
        any::<bool>().prop_map(Op::Animation),
    ]
}

fn fixture() -> World {
    world(
        json!([
            {"id": "a", "pos": [1000, 1000], "activation": 1, "model": "m", "script": "s", "walk": [1, 1]},
            {"id": "b", "pos": [2660, 2860], "model": "m", "script": "s"},
            {"id": "c", "pos": [8804, 4196], "model": "nodef", "attr113": 1},
            {"id": "d", "pos": [15460, 10340], "model": "m", "static_model": true}
        ]),
        json!([{"name": "s", "commands": [
            {"op": "push_animation", "group": 5, "count": 3},
            {"op": "push_animation", "group": 9, "count": 1},
            {"op": "push_animation", "group": 7, "count": 2},
            {"op": "end", "target": 0}]}]),
    )
}

fn frame_resolves(w: &World) -> bool {
    w.actors()
        .iter()
        .all(|a| match (a.anim.and_then(|x| x.frame), a.model) {
            (None, _) => true,
            (Some([h, i]), Some(m)) => {
                let raan = &w.models[m].raan;
                (0..raan.total_frames()).any(|r| raan.resolve(r) == Ok((h, i)))
            }
            (Some(_), None) => false,
        })
}

fn low_byte(w: &World, model: usize, g: u8) -> Option<u8> {
    w.models[model].group(g).map(|g| g.low_byte())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arbitrary_sequences_never_panic_and_frames_resolve(ops in prop::collection::vec(op(), 1..80)) {
        let mut w = fixture();
        for op in ops {
            match op {
                Op::Request(i, g, m) | Op::Force(i, g, m) => {
                    let forced = matches!(op, Op::Force(..));
                    let out = if forced {
                        w.force_request(i, g, m)
                    } else {
                        w.request(i, g, m)
                    }
                    .unwrap();
                    // An accepted group still pending carries low byte + modifier, wrapped.
                    if out == Outcome::Accepted {
                        let a = w.actors()[i].anim.unwrap();
                        let model = w.actors()[i].model.unwrap();
                        if let Some(p) = a.pending {
                            let low = low_byte(&w, model, p).unwrap();
                            prop_assert_eq!(a.pending_countdown, Some(low.wrapping_add(m)));
                        }
                    }
                }
                Op::Update => w.update().unwrap(),
                Op::Scale(q) => w.timing.scale = q as u32,
                Op::Reset => w.timing.reset(),
                Op::Exit(i) => {
                    if let Some(a) = w.actors_mut()[i].anim.as_mut() {
                        a.exit = true;
                    }
                }
                Op::Default(i, g) => w.actors_mut()[i].state_default = g,
                Op::View(x, y) => w.view = [x, y],
                Op::Animation(on) => w.switches.animation = on,
            }
            prop_assert!(frame_resolves(&w));
            for a in w.actors() {
                if let Some(x) = a.anim {
                    prop_assert_eq!(x.pending.is_none(), x.pending_countdown.is_none());
                    prop_assert_eq!(x.direction, 1);
                }
            }
        }
    }

    #[test]
    fn expired_countdown_reloads_and_wraps_as_a_byte(m in any::<u8>()) {
        let mut w = one();
        ticks(&mut w, 0);
        force(&mut w, 0, 9, m);
        let start = 254u8.wrapping_add(m);
        prop_assert_eq!(anim(&w, 0).reload, start);
        anim_mut(&mut w, 0).countdown = 0;
        ticks(&mut w, 1);
        adv(&mut w, 0);
        prop_assert_eq!(anim(&w, 0).countdown, start.wrapping_sub(1));
        prop_assert_eq!(anim(&w, 0).cursor, 1);
    }

    #[test]
    fn arbitrary_groups_load_or_fail_cleanly_and_never_hang(
        cmds in prop::collection::vec((0..7u8, -2..12i64), 1..10),
        tick_list in prop::collection::vec(0..5u32, 1..20),
    ) {
        let commands: Vec<Value> = cmds.iter().map(|&(k, v)| match k {
            0 | 1 => json!({"op": "show_frame", "ref": v}),
            2 => json!({"op": "go_to_previous", "target": v}),
            3 => json!({"op": "go_to_future", "target": v}),
            4 => json!({"op": "break_point"}),
            5 => json!({"op": "end_animation"}),
            _ => json!({"op": "mystery"}),
        }).collect();
        let doc = json!({"map": {"width": 18, "height": 18},
            "models": [{"name": "p", "raan": [{"model": 2, "frames": 4}, {"model": 3, "frames": 4}],
                        "groups": [{"group": 0, "header": 1, "commands": commands}]}],
            "actors": [{"id": "a", "pos": [0, 0], "activation": 1, "model": "p"}]});
        if let Ok(set) = load_set(&doc) {
            if let Ok(mut w) = World::new(set, [0, 0], 256, Switches::default()) {
                for t in tick_list {
                    w.timing.scale = t * 256;
                    if w.update().is_err() {
                        break;
                    }
                    prop_assert!(frame_resolves(&w));
                }
            }
        }
    }
}
