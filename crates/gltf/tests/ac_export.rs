//! The AC export, checked on the bundled sample records and on small tables built here,
//! with expected values worked out by hand from the records (as `retroanim inspect` prints
//! them) and from ACE's playback rules.

use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::records::{AnimRef, Animation, MotionData, MotionTable, PartFrame, RecordStore};
use retroanim_ac::Loader;
use retroanim_gltf::ac::{export, Error, Options, RootMotion};
use retroanim_gltf::{Clip, Interpolation, Property, Scene};

const SETUP: u32 = 0x0200_0001;
const TABLE: u32 = 0x0900_0001;

fn sample(root_motion: RootMotion) -> Scene {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
    export(
        &mut Loader::from_dir(dir),
        Some(SETUP),
        TABLE,
        &Options { root_motion },
    )
    .unwrap()
}

fn clip<'a>(scene: &'a Scene, name: &str) -> &'a Clip {
    scene
        .clips
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no clip {name}"))
}

/// The keys of `node`'s `property` in `clip`: times and values per key.
fn keys(clip: &Clip, node: usize, property: Property) -> (Vec<f32>, Vec<Vec<f32>>) {
    let c = clip
        .channels
        .iter()
        .find(|c| c.node == node && c.property == property)
        .unwrap_or_else(|| panic!("{}: no {property:?} channel on node {node}", clip.name));
    let width = c.values.len() / c.times.len();
    (
        c.times.clone(),
        c.values.chunks(width).map(<[f32]>::to_vec).collect(),
    )
}

fn close(a: &[f32], b: &[f32], tolerance: f32) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
}

#[test]
fn clips_are_named_from_command_names_one_per_cycle_link_and_modifier() {
    let scene = sample(RootMotion::InPlace);
    let names: Vec<&str> = scene.clips.iter().map(|c| c.name.as_str()).collect();
    // 9 cycles, 16 links (10 NonCombat, 6 SwordCombat), 3 modifiers: the table's file order.
    assert_eq!(
        names,
        [
            "NonCombat.Ready",
            "NonCombat.WalkForward",
            "NonCombat.RunForward",
            "NonCombat.TurnRight",
            "NonCombat.SideStepRight",
            "SwordCombat.Ready",
            "SwordCombat.WalkForward",
            "SwordCombat.RunForward",
            "SwordCombat.TurnRight",
            "NonCombat.Ready→WalkForward",
            "NonCombat.Ready→RunForward",
            "NonCombat.Ready→TurnRight",
            "NonCombat.Ready→SideStepRight",
            "NonCombat.Ready→Wave",
            "NonCombat.Ready→SwordCombat",
            "NonCombat.WalkForward→Ready",
            "NonCombat.WalkForward→RunForward",
            "NonCombat.RunForward→Ready",
            "NonCombat.RunForward→WalkForward",
            "SwordCombat.Ready→WalkForward",
            "SwordCombat.Ready→RunForward",
            "SwordCombat.Ready→TripleThrustLow",
            "SwordCombat.Ready→NonCombat",
            "SwordCombat.WalkForward→Ready",
            "SwordCombat.RunForward→Ready",
            "NonCombat.TurnRight (modifier)",
            "NonCombat.SideStepRight (modifier)",
            "Any.TurnRight (modifier)",
        ]
    );
}

#[test]
fn walk_forward_keys_every_frame_of_its_30_at_30_fps_and_ends_at_one_second() {
    let scene = sample(RootMotion::InPlace);
    let walk = clip(&scene, "NonCombat.WalkForward");
    // Animation 0x03000102: 30 frames, HighFrame -1 played as 0..29 at 30 fps: frame k from
    // k/30 s, and an end key at 30/30 s holding frame 29.
    let (times, _) = keys(walk, 1, Property::Translation);
    assert_eq!(times.len(), 31);
    assert_eq!(times[0], 0.0);
    assert!((times[1] - 1.0 / 30.0).abs() < 1e-6, "{}", times[1]);
    assert!((times[15] - 0.5).abs() < 1e-6, "{}", times[15]);
    assert!((times[30] - 1.0).abs() < 1e-6, "{}", times[30]);
    // Eight parts, translation and rotation each; in place, no root channel.
    assert_eq!(walk.channels.len(), 16);
    assert!(walk.channels.iter().all(|c| c.node != 0));
    assert!(walk
        .channels
        .iter()
        .all(|c| c.interpolation == Interpolation::Step));
}

#[test]
fn part_poses_at_keys_are_the_engines_part_frames_in_gltf_axes() {
    let scene = sample(RootMotion::InPlace);
    let walk = clip(&scene, "NonCombat.WalkForward");
    // Frame 0, part 0: origin (0, 0, 1), identity -> glTF (-0, 1, 0).
    let (_, t0) = keys(walk, 1, Property::Translation);
    assert_eq!(t0[0], [0.0, 1.0, 0.0]);
    // Part 3 (left arm) at frame 0: origin (-0.25, 0, 1.5), [w 0.9848077, x 0.17364818]
    // -> translation (0.25, 1.5, 0), rotation [x -0.17364818, y 0, z 0, w 0.9848077].
    let (_, t3) = keys(walk, 4, Property::Translation);
    let (_, r3) = keys(walk, 4, Property::Rotation);
    assert_eq!(t3[0], [0.25, 1.5, 0.0]);
    assert_eq!(r3[0], [-0.173_648_18, 0.0, 0.0, 0.984_807_7]);
    // Frame 1: [w 0.9885817, x 0.15068571].
    assert_eq!(r3[1], [-0.150_685_71, 0.0, 0.0, 0.988_581_7]);
    // The end key holds frame 29, the last one shown.
    assert_eq!(r3[30], r3[29]);
}

#[test]
fn baked_root_motion_adds_the_walks_pos_frame_of_0_104_forward_per_frame() {
    let scene = sample(RootMotion::Baked);
    let walk = clip(&scene, "NonCombat.WalkForward");
    let (times, root) = keys(walk, 0, Property::Translation);
    assert_eq!(times.len(), 31);
    // AC forward (+Y) is glTF +Z. Leaving frame k adds its pos frame (0, 0.104, 0).
    assert_eq!(root[0], [0.0, 0.0, 0.0]);
    assert!(close(&root[1], &[0.0, 0.0, 0.104], 1e-7), "{:?}", root[1]);
    // 30 frames a loop: 3.12 units a second (the sample's documented walk speed).
    assert!(close(&root[30], &[0.0, 0.0, 3.12], 1e-5), "{:?}", root[30]);
}

#[test]
fn the_turn_modifier_turns_the_root_1_5_radians_clockwise_in_its_second() {
    let scene = sample(RootMotion::Baked);
    let turn = clip(&scene, "NonCombat.TurnRight (modifier)");
    let (times, rotation) = keys(turn, 0, Property::Rotation);
    // No clips: the root turns continuously at omega (0, 0, -1.5) rad/s, sampled at 30 Hz.
    assert_eq!(times.len(), 31);
    assert!(turn
        .channels
        .iter()
        .all(|c| c.interpolation == Interpolation::Linear));
    // About AC -Z = glTF -Y by 1.5 rad: [0, -sin 0.75, 0, cos 0.75].
    let expected = [0.0, -0.681_638_8, 0.0, 0.731_688_9];
    assert!(close(&rotation[30], &expected, 1e-5), "{:?}", rotation[30]);
}

#[test]
fn in_place_modifiers_keep_a_still_root_channel() {
    let scene = sample(RootMotion::InPlace);
    let turn = clip(&scene, "Any.TurnRight (modifier)");
    assert_eq!(turn.channels.len(), 1);
    let (times, values) = keys(turn, 0, Property::Translation);
    assert_eq!(times, [0.0, 1.0]);
    assert_eq!(values, [[0.0; 3], [0.0; 3]]);
}

#[test]
fn the_figure_has_a_root_and_eight_parts_at_the_default_placement_with_box_meshes() {
    let scene = sample(RootMotion::InPlace);
    assert_eq!(scene.nodes.len(), 9);
    assert_eq!(scene.nodes[0].name, "0x02000001");
    assert_eq!(scene.nodes[0].parent, None);
    assert!(scene.nodes[1..].iter().all(|n| n.parent == Some(0)));
    // Part 1 (torso) rests at (0, 0, 1.3) in AC: glTF (0, 1.3, 0).
    assert_eq!(scene.nodes[2].translation, [0.0, 1.3, 0.0]);
    // Eight distinct box GfxObjs: 6 quads, 4 corners each, 2 triangles per quad.
    assert_eq!(scene.meshes.len(), 8);
    assert_eq!(scene.meshes[0].name, "0x01000101");
    assert_eq!(scene.meshes[0].positions.len(), 24);
    assert_eq!(scene.meshes[0].indices.len(), 36);
}

#[test]
fn hooks_are_timed_events_at_the_crossing_that_fires_them() {
    let scene = sample(RootMotion::InPlace);
    let events = scene.sidecar["events"].as_array().unwrap();
    let walk: Vec<_> = events
        .iter()
        .filter(|e| e["clip"] == "NonCombat.WalkForward")
        .collect();
    // The walk's footsteps sit on frames 7 and 22 (direction both); the engine fires a
    // frame's hooks when it leaves the frame: at 8/30 and 23/30 s.
    assert_eq!(walk.len(), 2);
    assert_eq!(walk[0]["hook"], "sound");
    assert_eq!(walk[0]["frame"], 7);
    assert!((walk[0]["time"].as_f64().unwrap() - 8.0 / 30.0).abs() < 1e-6);
    assert_eq!(walk[1]["frame"], 22);
    assert!((walk[1]["time"].as_f64().unwrap() - 23.0 / 30.0).abs() < 1e-6);
}

#[test]
fn the_sidecar_lists_cycles_links_and_modifiers_with_their_speeds() {
    let scene = sample(RootMotion::InPlace);
    let s = &scene.sidecar;
    assert_eq!(s["engine"], "ac");
    assert_eq!(s["default_style"], "NonCombat");
    assert_eq!(s["cycles"].as_array().unwrap().len(), 9);
    assert_eq!(s["links"].as_array().unwrap().len(), 16);
    assert_eq!(s["modifiers"].as_array().unwrap().len(), 3);
    let side = &s["cycles"][4];
    assert_eq!(side["clip"], "NonCombat.SideStepRight");
    assert_eq!(side["restricted"], true);
    // velocity (1.25, 0, 0) in AC: to the right, glTF -X.
    assert_eq!(side["velocity_ac"], serde_json::json!([1.25, 0.0, 0.0]));
    assert_eq!(side["velocity"], serde_json::json!([-1.25, 0.0, 0.0]));
    // Animation 0x03000105 has 15 frames: HighFrame -1 plays to 14, half a second.
    assert_eq!(side["played"][0]["high_frame"], 14);
    assert_eq!(side["duration"], 0.5);
    let link = &s["links"][0];
    assert_eq!(link["from"], "Ready");
    assert_eq!(link["to"], "WalkForward");
    assert_eq!(link["to_id"], "0x45000005");
}

/// A one-part animation whose part sits at x = frame number, ten frames.
fn counting_anim(id: u32) -> Animation {
    Animation {
        id,
        flags: 0,
        num_parts: 1,
        num_frames: 10,
        pos_frames: Vec::new(),
        part_frames: (0..10)
            .map(|k| PartFrame {
                parts: vec![AFrame::new(Vec3::new(k as f32, 0.0, 0.0), Quat::IDENTITY)],
                hooks: Vec::new(),
            })
            .collect(),
    }
}

fn table_with_cycle(anims: Vec<AnimRef>) -> Scene {
    let table = MotionTable {
        id: 0x0900_0100,
        default_style: 0x8000_003d,
        style_defaults: vec![(0x8000_003d, 0x4100_0003)],
        cycles: vec![(
            0x003d_0003,
            MotionData {
                anims,
                ..MotionData::default()
            },
        )],
        ..MotionTable::default()
    };
    let store = RecordStore::from_records([table], [counting_anim(0x0300_0100)]);
    export(
        &mut Loader::from_store(store),
        None,
        0x0900_0100,
        &Options::default(),
    )
    .unwrap()
}

fn anim_ref(low_frame: i32, high_frame: i32, framerate: f32) -> AnimRef {
    AnimRef {
        anim_id: 0x0300_0100,
        low_frame,
        high_frame,
        framerate,
    }
}

#[test]
fn a_negative_framerate_plays_the_range_backwards_from_just_below_high_plus_one() {
    // Frames 2..5 at -10 fps: the engine starts at 6 - 0.0002 (frame 5 shown) and shows
    // 4, 3, 2 as the frame number drops below 5, 4, 3; it finishes below 2. Crossings at
    // (1 - 0.0002)/10 + k/10 s.
    let scene = table_with_cycle(vec![anim_ref(2, 5, -10.0)]);
    let (times, x) = keys(&scene.clips[0], 1, Property::Translation);
    let expected_times = [0.0, 0.099_98, 0.199_98, 0.299_98, 0.399_98];
    assert!(close(&times, &expected_times, 1e-6), "{times:?}");
    // AC x = frame number; glTF x = -AC x.
    let xs: Vec<f32> = x.iter().map(|v| v[0]).collect();
    assert_eq!(xs, [-5.0, -4.0, -3.0, -2.0, -2.0]);
}

#[test]
fn high_frame_minus_one_plays_to_the_last_frame_from_low() {
    // Frames 7..9 (HighFrame -1 = 9) at 20 fps: 0, 0.05, 0.1, end 0.15.
    let scene = table_with_cycle(vec![anim_ref(7, -1, 20.0)]);
    let (times, x) = keys(&scene.clips[0], 1, Property::Translation);
    assert!(close(&times, &[0.0, 0.05, 0.1, 0.15], 1e-6), "{times:?}");
    let xs: Vec<f32> = x.iter().map(|v| v[0]).collect();
    assert_eq!(xs, [-7.0, -8.0, -9.0, -9.0]);
    assert_eq!(scene.sidecar["cycles"][0]["played"][0]["high_frame"], 9);
}

#[test]
fn a_low_frame_past_the_end_is_clamped_to_the_last_frame() {
    // LowFrame 12 of 10 frames: HighFrame -1 -> 9, LowFrame >= 10 -> 9: one frame, 1/10 s.
    let scene = table_with_cycle(vec![anim_ref(12, -1, 10.0)]);
    let (times, x) = keys(&scene.clips[0], 1, Property::Translation);
    assert!(close(&times, &[0.0, 0.1], 1e-6), "{times:?}");
    assert_eq!(x[0][0], -9.0);
    assert_eq!(scene.sidecar["cycles"][0]["played"][0]["low_frame"], 9);
}

#[test]
fn a_cycle_of_two_clips_plays_both_and_loops_from_the_second() {
    // Frames 0..1 at 10 fps, then 5..6 at 10 fps: the sequence loops its last node, so
    // the loop starts at 0.2 s, where the second clip begins.
    let scene = table_with_cycle(vec![anim_ref(0, 1, 10.0), anim_ref(5, 6, 10.0)]);
    let (times, x) = keys(&scene.clips[0], 1, Property::Translation);
    assert!(close(&times, &[0.0, 0.1, 0.2, 0.3, 0.4], 1e-6), "{times:?}");
    let xs: Vec<f32> = x.iter().map(|v| v[0]).collect();
    assert_eq!(xs, [0.0, -1.0, -5.0, -6.0, -6.0]);
    let loop_start = scene.sidecar["cycles"][0]["loop_start"].as_f64().unwrap();
    assert!((loop_start - 0.2).abs() < 1e-6, "{loop_start}");
}

#[test]
fn without_a_setup_the_parts_come_from_the_animations() {
    let scene = table_with_cycle(vec![anim_ref(0, -1, 30.0)]);
    assert_eq!(scene.nodes.len(), 2);
    assert_eq!(scene.nodes[0].name, "0x09000100");
    assert_eq!(scene.nodes[1].name, "part0");
    assert!(scene.meshes.is_empty());
}

#[test]
fn missing_records_are_located_errors() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
    let e = export(
        &mut Loader::from_dir(dir),
        Some(SETUP),
        0x0900_0777,
        &Options::default(),
    )
    .unwrap_err();
    assert!(matches!(e, Error::Load(_)));
    assert!(e.to_string().contains("09000777.bin"), "{e}");
    let e = export(
        &mut Loader::from_dir(dir),
        Some(0x0200_0777),
        TABLE,
        &Options::default(),
    )
    .unwrap_err();
    assert!(matches!(e, Error::Record(_)));
    assert!(e.to_string().contains("02000777.bin"), "{e}");
}

/// The clip's pose at `t`: the last key at or before `t` (STEP), per part node.
fn pose_at(clip: &Clip, parts: usize, t: f32) -> Vec<(Vec<f32>, Vec<f32>)> {
    (1..=parts)
        .map(|node| {
            let (times, translation) = keys(clip, node, Property::Translation);
            let (_, rotation) = keys(clip, node, Property::Rotation);
            let k = times.iter().rposition(|&k| k <= t).unwrap();
            (translation[k].clone(), rotation[k].clone())
        })
        .collect()
}

#[test]
fn a_creature_ticked_by_the_engine_shows_the_clips_pose_at_the_same_time() {
    use retroanim_ac::Creature;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
    let motions = Loader::from_dir(dir).load(TABLE).unwrap();
    let scene = sample(RootMotion::InPlace);
    let walk_link = clip(&scene, "NonCombat.Ready→WalkForward");
    let walk = clip(&scene, "NonCombat.WalkForward");
    // A fresh creature stands in Ready; WalkForward queues the Ready→WalkForward link
    // (6 frames, 0.2 s at 30 fps) and then the walk cycle. Ticks of 0.031 s cross 0.93
    // frames each and land on no frame boundary within 3 s, so both sides show one frame.
    let mut creature = Creature::new(&motions);
    creature
        .do_motion(retroanim_ac::commands::WALK_FORWARD)
        .unwrap();
    for tick in 1..=40 {
        creature.tick(0.031);
        let t = tick as f32 * 0.031;
        // The walk loops each second after the link.
        let (clip, at) = if t < 0.2 {
            (walk_link, t)
        } else {
            (walk, (t - 0.2) % 1.0)
        };
        let engine: Vec<(Vec<f32>, Vec<f32>)> = creature
            .part_frames()
            .iter()
            .map(|f| {
                let o = f.origin;
                let q = f.orientation;
                (vec![0.0 - o.x, o.z, o.y], vec![0.0 - q.x, q.z, q.y, q.w])
            })
            .collect();
        assert_eq!(engine.len(), 8);
        assert_eq!(
            pose_at(clip, 8, at),
            engine,
            "tick {tick} ({} at {at} s)",
            clip.name
        );
    }
}

#[test]
fn a_creature_walks_as_far_as_the_baked_root_motion_says() {
    use retroanim_ac::Creature;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
    let motions = Loader::from_dir(dir).load(TABLE).unwrap();
    let scene = sample(RootMotion::Baked);
    let (_, link_root) = keys(
        clip(&scene, "NonCombat.Ready→WalkForward"),
        0,
        Property::Translation,
    );
    let (walk_times, walk_root) = keys(
        clip(&scene, "NonCombat.WalkForward"),
        0,
        Property::Translation,
    );
    let link_end = link_root.last().unwrap()[2];
    // The link has 6 frames with pos frames of 0.05; leaving frames 0..4 adds five of them,
    // and the last frame's never counts (the node ends by clamping to it, crossing nothing).
    assert!((link_end - 0.25).abs() < 1e-6, "{link_end}");
    // Entering the walk adds its first pos frame, 0.104, at once (advance_to_next_animation);
    // the cycle clip keys that entry at its end, where its next loop begins, so during the
    // first loop the engine is one entry ahead of the clip.
    let entry = 0.104;
    let mut creature = Creature::new(&motions);
    creature
        .do_motion(retroanim_ac::commands::WALK_FORWARD)
        .unwrap();
    // A looping player adds the clip's end value once per loop completed.
    let per_loop = walk_root.last().unwrap()[2];
    for tick in 1..=60 {
        creature.tick(0.031);
        let t = tick as f32 * 0.031;
        if t < 0.2 {
            continue;
        }
        let loops = ((t - 0.2) / 1.0).floor();
        let k = walk_times
            .iter()
            .rposition(|&k| k <= (t - 0.2) % 1.0)
            .unwrap();
        // AC +Y (forward) is glTF +Z.
        let baked = link_end + entry + loops * per_loop + walk_root[k][2];
        let walked = creature.origin().y;
        assert!(
            (baked - walked).abs() < 1e-5,
            "tick {tick}: baked {baked}, engine {walked}"
        );
    }
}

#[test]
fn a_clip_longer_than_the_key_limit_is_a_located_error() {
    let frames = 25_000;
    let anim = Animation {
        num_frames: frames,
        part_frames: vec![
            PartFrame {
                parts: vec![AFrame::IDENTITY],
                hooks: Vec::new(),
            };
            frames as usize
        ],
        ..counting_anim(0x0300_0100)
    };
    let table = MotionTable {
        id: 0x0900_0100,
        default_style: 0x8000_003d,
        style_defaults: vec![(0x8000_003d, 0x4100_0003)],
        cycles: vec![(
            0x003d_0003,
            MotionData {
                anims: vec![anim_ref(0, -1, 30.0)],
                ..MotionData::default()
            },
        )],
        ..MotionTable::default()
    };
    let store = RecordStore::from_records([table], [anim]);
    let e = export(
        &mut Loader::from_store(store),
        None,
        0x0900_0100,
        &Options::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "clip \"NonCombat.Ready\": the clip needs more than 20000 keys (an export holds at \
         most 4194304 part poses)"
    );
}

#[test]
fn any_frame_range_and_framerate_exports_or_fails_cleanly_and_exports_write() {
    // Ranges and rates a user's table may hold, each combination baked and written: the
    // result is a scene the writer accepts, or a located error; never a panic or a hang.
    let lows = [-3, 0, 2, 9, 12];
    let highs = [-1, 0, 5, 9, 40];
    let rates = [
        30.0,
        -30.0,
        0.0,
        -0.0,
        1e-3,
        -7.5,
        1e6,
        f32::NAN,
        f32::INFINITY,
        f32::MIN_POSITIVE,
    ];
    for &low in &lows {
        for &high in &highs {
            for &rate in &rates {
                let case = format!("low {low} high {high} rate {rate}");
                let table = MotionTable {
                    id: 0x0900_0100,
                    default_style: 0x8000_003d,
                    style_defaults: vec![(0x8000_003d, 0x4100_0003)],
                    cycles: vec![(
                        0x003d_0003,
                        MotionData {
                            anims: vec![anim_ref(low, high, rate), anim_ref(0, -1, 30.0)],
                            ..MotionData::default()
                        },
                    )],
                    links: vec![(
                        0x003d_0003,
                        vec![(
                            0x4500_0005,
                            MotionData {
                                anims: vec![anim_ref(low, high, rate)],
                                ..MotionData::default()
                            },
                        )],
                    )],
                    ..MotionTable::default()
                };
                let store = RecordStore::from_records([table], [counting_anim(0x0300_0100)]);
                let result = export(
                    &mut Loader::from_store(store),
                    None,
                    0x0900_0100,
                    &Options {
                        root_motion: RootMotion::Baked,
                    },
                );
                match result {
                    Ok(scene) => {
                        if let Err(e) = retroanim_gltf::write_glb(
                            &scene,
                            &retroanim_gltf::WriteOptions::default(),
                        ) {
                            assert!(e.to_string().starts_with("clip \""), "{case}: {e}");
                        }
                    }
                    Err(e) => assert!(e.to_string().starts_with("clip \""), "{case}: {e}"),
                }
            }
        }
    }
}
