//! Property tests: reversibility of playback (H1, H9, H14) and totality (no input panics or
//! overflows; the test profile has overflow checks on, so an accidental overflow would panic).

use proptest::prelude::*;
use retroanim_herc::anim_list::{AnimList, Frame, Node, SeqClass, Sequence, Transition};
use retroanim_herc::object::SimObject;
use retroanim_herc::scenario::{HercSim, Step};
use retroanim_herc::thread::AnimationThread;
use serde_json::Value;

const BIPED: &str = include_str!("conformance/assets/biped.json");
const EDGE: &str = include_str!("conformance/assets/edge.json");
const EXAMPLE: &str = include_str!("conformance/assets/example.json");

fn load(text: &str) -> AnimList {
    let v: Value = serde_json::from_str(text).unwrap();
    AnimList::from_json_value(&v, "t.json", "").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Forward by N ticks then backward by N ticks returns to the same frame and time, and
    /// (for the translation-only ground movement of walk and run) the same root, when no
    /// transition is armed and no one-shot end intervenes.
    #[test]
    fn forward_then_reverse_returns(
        seq in prop::sample::select(vec![0i16, 1, 2, 3, 5, 6, 7]),
        start in 0u16..2000,
        deltas in prop::collection::vec(1i16..300, 1..8),
    ) {
        let list = load(BIPED);
        let mut t = AnimationThread::new(&list);
        t.set_sequence(&list, seq, 0, 0);
        t.set_rate(&list, 256);
        let total = list.sequences()[seq as usize].total_duration() as u16;
        t.advance(&list, (start % total) as i16);
        let before = t;
        for &d in &deltas {
            t.advance(&list, d);
        }
        t.set_rate(&list, -256);
        for &d in deltas.iter().rev() {
            t.advance(&list, d);
        }
        prop_assert_eq!((t.seq, t.frame, t.next_seq, t.next_frame, t.acc, t.dur),
            (before.seq, before.frame, before.next_seq, before.next_frame, before.acc, before.dur));
        if seq == 1 || seq == 2 {
            prop_assert_eq!(t.root, before.root);
        }
    }

    /// Any step sequence on the sample assets either applies or returns an error; it never
    /// panics or overflows.
    #[test]
    fn any_steps_never_panic(
        asset in 0usize..3,
        ops in prop::collection::vec(step_strategy(), 1..40),
    ) {
        let list = load([BIPED, EDGE, EXAMPLE][asset]);
        let mut sim = HercSim::new(list, &[(0, 256), (0, -77)], SimObject::default()).unwrap();
        for (i, op) in ops.iter().enumerate() {
            let _ = sim.apply_step(i + 1, op, "steps[i]");
        }
    }

    /// Random (often invalid) models are either rejected or play any steps without panicking.
    #[test]
    fn random_models_never_panic(
        model in model_strategy(),
        ops in prop::collection::vec(step_strategy(), 1..30),
    ) {
        let (nodes, keyframes, sequences, transitions) = model;
        if let Ok(list) = AnimList::new(nodes, keyframes, sequences, transitions) {
            let mut sim = HercSim::new(list, &[(0, 256)], SimObject::default()).unwrap();
            for (i, op) in ops.iter().enumerate() {
                let _ = sim.apply_step(i + 1, op, "steps[i]");
            }
        }
    }

    /// Arbitrary JSON never panics the asset loader.
    #[test]
    fn loader_never_panics(text in "[\\[\\]{}:,\"a-z0-9 -]{0,200}") {
        if let Ok(v) = serde_json::from_str::<Value>(&text) {
            let _ = AnimList::from_json_value(&v, "t.json", "");
        }
    }
}

fn any_i16() -> impl Strategy<Value = i16> {
    prop_oneof![
        -3i16..40,
        Just(i16::MIN),
        Just(i16::MAX),
        Just(-1),
        any::<i16>()
    ]
}

fn step_strategy() -> impl Strategy<Value = Step> {
    let th = 0usize..4;
    prop_oneof![
        (0i64..300).prop_map(|ms| Step::StepMs { ms }),
        Just(Step::StepMs { ms: 1_000_000 }),
        (th.clone(), any_i16()).prop_map(|(thread, delta)| Step::Advance { thread, delta }),
        (th.clone(), -1i16..9, -1i16..7, any_i16()).prop_map(|(thread, seq, frame, acc)| {
            Step::SetSequence {
                thread,
                seq,
                frame,
                acc,
            }
        }),
        (th.clone(), -1i16..9, -10i32..17000).prop_map(|(thread, seq, pos)| Step::Seek {
            thread,
            seq,
            pos
        }),
        (th.clone(), any_i16(), any_i16(), any::<bool>()).prop_map(
            |(thread, seq, frame, stop_on_arrival)| Step::Request {
                thread,
                seq,
                frame,
                stop_on_arrival
            }
        ),
        (th.clone(), any_i16()).prop_map(|(thread, rate)| Step::SetRate { thread, rate }),
        th.clone().prop_map(|thread| Step::DropRequest { thread }),
        (-1i16..9).prop_map(|seq| Step::AddThread { seq }),
        (th, any::<[i16; 3]>(), any::<[i32; 3]>()).prop_map(|(thread, euler, t)| Step::WriteRoot {
            thread,
            euler,
            t
        }),
    ]
}

type Model = (Vec<Node>, Vec<[i16; 6]>, Vec<Sequence>, Vec<Transition>);

fn model_strategy() -> impl Strategy<Value = Model> {
    let nodes = prop::collection::vec((-2i16..4, -1i16..5), 1..5).prop_map(|v| {
        v.into_iter()
            .map(|(parent, rest)| Node { parent, rest })
            .collect()
    });
    let keys = prop::collection::vec(any::<[i16; 6]>(), 1..6);
    let frame =
        (prop_oneof![0i16..30, Just(i16::MAX)], 0i16..3, 0i16..3).prop_map(|(d, f, c)| Frame {
            duration: d,
            first_transition: f,
            transition_count: c,
        });
    let seq = (
        any::<bool>(),
        any::<i16>(),
        any::<bool>(),
        prop::collection::vec(0i16..4, 1..4),
        prop::collection::vec(frame, 1..5),
        prop::collection::vec(-1i16..6, 0..20),
    )
        .prop_map(|(cyc, priority, ground, columns, frames, keys)| {
            let mut keys = keys;
            keys.resize(frames.len() * columns.len(), 0);
            Sequence {
                name: None,
                class: if cyc {
                    SeqClass::Cyclic
                } else {
                    SeqClass::OneShot
                },
                priority,
                ground,
                columns,
                frames,
                keys,
            }
        });
    let tr = (any::<i16>(), -1i16..3, -1i16..5, -1i16..6).prop_map(
        |(duration, dest_seq, dest_frame, key)| Transition {
            duration: duration.abs().max(0),
            dest_seq,
            dest_frame,
            key,
        },
    );
    (
        nodes,
        keys,
        prop::collection::vec(seq, 1..4),
        prop::collection::vec(tr, 0..5),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// D1/D7: any acyclic hierarchy loads and is ordered parent-first (a permutation of the
    /// nodes, each parent before its children); closing any parent chain into a loop is
    /// rejected at a `nodes[n].parent` path.
    #[test]
    fn hierarchy_order_and_cycles(
        links in prop::collection::vec((any::<prop::sample::Index>(), any::<bool>()), 1..12),
        perm_seed in any::<prop::sample::Index>(),
        close in any::<prop::sample::Index>(),
    ) {
        let n = links.len() + 1;
        // Build an acyclic forest over a shuffled id order (node 0 stays a root).
        let mut order: Vec<usize> = (1..n).collect();
        let k = perm_seed.index(order.len().max(1));
        order.rotate_left(k);
        order.insert(0, 0);
        let mut parent = vec![-1i16; n];
        for (i, (pick, root)) in links.iter().enumerate() {
            let child = order[i + 1];
            if !root {
                parent[child] = order[pick.index(i + 1)] as i16;
            }
        }
        let mk = |parent: &[i16]| {
            let nodes = parent.iter().map(|&p| Node { parent: p, rest: 0 }).collect();
            let seq = Sequence {
                name: None,
                class: SeqClass::Cyclic,
                priority: 0,
                ground: false,
                columns: vec![0],
                frames: vec![Frame { duration: 1, first_transition: 0, transition_count: 0 }],
                keys: vec![0],
            };
            AnimList::new(nodes, vec![[0; 6]], vec![seq], vec![])
        };
        let list = mk(&parent).unwrap();
        let pf: Vec<usize> = list.parent_first().iter().map(|&x| x as usize).collect();
        let mut sorted = pf.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..n).collect::<Vec<_>>());
        let pos = |x: usize| pf.iter().position(|&y| y == x).unwrap();
        for (c, &p) in parent.iter().enumerate() {
            if p >= 0 {
                prop_assert!(pos(p as usize) < pos(c));
            }
        }
        // Close a loop: some non-zero node's chain back to itself.
        if n > 1 {
            let a = 1 + close.index(n - 1);
            let mut cyc = parent.clone();
            // Walk up from a to its top ancestor, then hang that ancestor under a.
            let mut top = a;
            while cyc[top] >= 0 {
                top = cyc[top] as usize;
            }
            if top != 0 {
                cyc[top] = a as i16;
                let e = mk(&cyc).unwrap_err();
                prop_assert!(e.at.starts_with("nodes[") && e.at.ends_with("].parent"), "{}", e.at);
                prop_assert!(e.message.contains("cycle"));
            }
        }
    }
}
