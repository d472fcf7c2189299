//! Asheron's Call: a Setup with its GfxObj meshes and a motion table, exported by playing
//! every cycle, link and modifier of the table through the engine.
//!
//! The scene is a root node (the object: its frame, and root motion when baked) with one
//! child per Setup part. AC's part array is flat: every animation frame places each part
//! in the object's frame directly, so the parts are siblings, not a chain. A part's rest
//! pose is the Setup's default placement, its scale the Setup's default scale, its mesh its
//! GfxObj. Each clip keys every part's translation and rotation (STEP, see [`bake`]) and,
//! with [`RootMotion::Baked`], the root's.
//!
//! Everything is converted to glTF's axes by [`axes`].

pub mod axes;
pub mod bake;
mod mesh;
pub mod names;

use std::collections::HashMap;

use retroanim_ac::math::AFrame;
use retroanim_ac::records::hooks::{decode_payload, hook_name};
use retroanim_ac::records::{read_gfxobj, read_setup, MotionData, RecordError, SetupRecord};
use retroanim_ac::sequence::AnimSource;
use retroanim_ac::{LoadError, Loader, MotionSet};
use serde_json::{json, Map, Value};

use crate::scene::{Channel, Clip, Interpolation, Node, Property, Scene};
use bake::Baked;

/// Parts a Setup may have to be exported (shipped Setups have fewer than 100).
pub const MAX_PARTS: usize = 256;
/// Part poses (keys × parts) one export may hold over all its clips: 2²² poses are about
/// 120 MB of keys; a shipped table with its Setup needs well under a million.
pub const MAX_PART_KEYS: usize = 1 << 22;

/// What the root node does in the clips.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RootMotion {
    /// The root stays put; only the parts move (what a game engine driving the object's
    /// position itself wants). The sidecar still carries each motion's velocity and omega.
    #[default]
    InPlace,
    /// The root follows the engine: each frame's pos frame plus the motion's velocity and
    /// omega, accumulated from the clip's start.
    Baked,
}

/// How to export.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    pub root_motion: RootMotion,
}

/// Why an AC export failed; each names the record and, for bad bytes, the offset.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The motion table or an animation it names could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The Setup or a GfxObj could not be read.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The records are readable but cannot be exported as they are.
    #[error("{at}: {what}")]
    Invalid { at: String, what: String },
}

impl Error {
    fn invalid(at: impl Into<String>, what: impl Into<String>) -> Self {
        Error::Invalid {
            at: at.into(),
            what: what.into(),
        }
    }
}

/// `0x%08x`.
fn hex(id: u32) -> String {
    format!("0x{id:08x}")
}

/// Exports motion table `table`, drawn with Setup `setup` (none: bare part nodes sized by
/// the table's animations), from the records `loader` reads.
pub fn export(
    loader: &mut Loader,
    setup: Option<u32>,
    table: u32,
    options: &Options,
) -> Result<Scene, Error> {
    let motions = loader.load(table)?;
    let records = loader.store().motion_table(table)?;
    let setup = match setup {
        Some(id) => {
            let (bytes, file) = loader.store().raw(id)?;
            Some(read_setup(&bytes, &file)?)
        }
        None => None,
    };
    let mut scene = Scene {
        name: setup.as_ref().map_or_else(
            || format!("motion table {}", hex(table)),
            |s| format!("Setup {} with motion table {}", hex(s.id), hex(table)),
        ),
        ..Scene::default()
    };
    let parts = match &setup {
        Some(s) => s.parts.len(),
        None => widest_animation(&motions, &records),
    };
    if parts > MAX_PARTS {
        return Err(Error::invalid(
            setup
                .as_ref()
                .map_or_else(|| hex(table), |s| format!("Setup {}", hex(s.id))),
            format!("{parts} parts (at most {MAX_PARTS} are exported)"),
        ));
    }
    let rest = rest_frames(setup.as_ref(), parts);
    scene.nodes.push(Node::new(
        setup.as_ref().map_or_else(|| hex(table), |s| hex(s.id)),
        None,
    ));
    let mut mesh_of: HashMap<u32, Option<usize>> = HashMap::new();
    for (i, frame) in rest.iter().enumerate() {
        let mut node = Node::new(format!("part{i}"), Some(0));
        node.translation = axes::vec(frame.origin);
        node.rotation = axes::quat(frame.orientation);
        if let Some(s) = &setup {
            if let Some(scale) = s.default_scale.get(i) {
                node.scale = axes::scale(*scale);
            }
            let gfx = s.parts[i];
            node.mesh = match mesh_of.get(&gfx) {
                Some(m) => *m,
                None => {
                    let (bytes, file) = loader.store().raw(gfx)?;
                    let g = read_gfxobj(&bytes, &file)?;
                    let m = mesh::gfxobj_mesh(&g)?.map(|m| {
                        scene.meshes.push(m);
                        scene.meshes.len() - 1
                    });
                    mesh_of.insert(gfx, m);
                    m
                }
            };
        }
        scene.nodes.push(node);
    }

    let mut sidecar = Sidecar::new(&records.style_defaults, records.default_style);
    let anims = &*motions.anims;
    let mut budget = MAX_PART_KEYS;
    let mut clip = |name: String, md: &MotionData, kind: &str, entry: Map<String, Value>| {
        let per_key = parts.max(1);
        let baked = bake::bake(md, anims, kind == "cycles", budget / per_key).map_err(|what| {
            Error::invalid(
                format!("clip \"{name}\""),
                format!("{what} (an export holds at most {MAX_PART_KEYS} part poses)"),
            )
        })?;
        budget = budget.saturating_sub(baked.keys.len() * per_key);
        let name = sidecar.unique(name);
        scene
            .clips
            .push(clip_of(&name, &baked, &rest, options.root_motion));
        sidecar.add(kind, &name, md, &baked, entry);
        Ok::<(), Error>(())
    };
    for (key, md) in &records.cycles {
        let entry = keyed(*key);
        clip(names::cycle(*key), md, "cycles", entry)?;
    }
    for (outer, inner) in &records.links {
        for (to, md) in inner {
            let mut entry = Map::new();
            entry.insert("style".into(), json!(names::style(*outer)));
            entry.insert("from".into(), json!(names::motion_index(*outer)));
            entry.insert("to".into(), json!(names::command(*to)));
            entry.insert("from_key".into(), json!(hex(*outer)));
            entry.insert("to_id".into(), json!(hex(*to)));
            clip(names::link(*outer, *to), md, "links", entry)?;
        }
    }
    for (key, md) in &records.modifiers {
        clip(names::modifier(*key), md, "modifiers", keyed(*key))?;
    }
    let mut value = sidecar.finish();
    value["setup"] = setup.as_ref().map_or(Value::Null, |s| json!(hex(s.id)));
    value["motion_table"] = json!(hex(table));
    value["root_motion"] = json!(match options.root_motion {
        RootMotion::InPlace => "in-place",
        RootMotion::Baked => "baked",
    });
    scene.sidecar = value;
    Ok(scene)
}

fn keyed(key: u32) -> Map<String, Value> {
    let mut entry = Map::new();
    entry.insert("style".into(), json!(names::style(key)));
    entry.insert("motion".into(), json!(names::motion_index(key)));
    entry.insert("key".into(), json!(hex(key)));
    entry
}

/// With no Setup: as many parts as the widest animation the table plays.
fn widest_animation(motions: &MotionSet, records: &retroanim_ac::records::MotionTable) -> usize {
    retroanim_ac::inspect::drawing::all_data(records)
        .flat_map(|md| md.anims.iter())
        .map(|a| motions.anims.animation(a.anim_id).num_parts as usize)
        .max()
        .unwrap_or(0)
}

/// The Setup's default placement (key 0, else its first), identity where it has none.
fn rest_frames(setup: Option<&SetupRecord>, parts: usize) -> Vec<AFrame> {
    let placement = setup.and_then(|s| {
        s.placement_frames
            .iter()
            .find(|p| p.key == 0)
            .or(s.placement_frames.first())
    });
    (0..parts)
        .map(|i| {
            placement
                .and_then(|p| p.frames.get(i))
                .copied()
                .unwrap_or(AFrame::IDENTITY)
        })
        .collect()
}

/// A baked motion as glTF channels: every part's translation and rotation, and the root's
/// when baked (or held still, for a motion that moves no part, since a clip needs a channel).
fn clip_of(name: &str, baked: &Baked, rest: &[AFrame], root_motion: RootMotion) -> Clip {
    let times: Vec<f32> = baked.keys.iter().map(|k| k.time as f32).collect();
    let interpolation = if baked.continuous {
        Interpolation::Linear
    } else {
        Interpolation::Step
    };
    let mut channels = Vec::new();
    let animates_parts = baked.keys.iter().any(|k| k.parts.is_some());
    if animates_parts {
        for (i, rest_frame) in rest.iter().enumerate() {
            let mut held = *rest_frame;
            let mut translation = Vec::with_capacity(times.len() * 3);
            let mut rotation = Vec::with_capacity(times.len() * 4);
            for key in &baked.keys {
                // A frame with fewer parts leaves the others where they were (ACE's
                // UpdateParts stops at the shorter of the two lists).
                if let Some(f) = key.parts.as_ref().and_then(|p| p.get(i)) {
                    held = *f;
                }
                translation.extend(axes::vec(held.origin));
                rotation.extend(axes::quat(held.orientation));
            }
            for (property, values) in [
                (Property::Translation, translation),
                (Property::Rotation, rotation),
            ] {
                channels.push(Channel {
                    node: i + 1,
                    property,
                    interpolation,
                    times: times.clone(),
                    values,
                });
            }
        }
    }
    if root_motion == RootMotion::Baked {
        let translation = baked
            .keys
            .iter()
            .flat_map(|k| axes::vec(k.root.origin))
            .collect();
        let rotation = baked
            .keys
            .iter()
            .flat_map(|k| axes::quat(k.root.orientation))
            .collect();
        channels.push(Channel {
            node: 0,
            property: Property::Translation,
            interpolation,
            times: times.clone(),
            values: translation,
        });
        channels.push(Channel {
            node: 0,
            property: Property::Rotation,
            interpolation,
            times,
            values: rotation,
        });
    } else if channels.is_empty() {
        let end = (baked.end as f32).max(f32::MIN_POSITIVE);
        channels.push(Channel {
            node: 0,
            property: Property::Translation,
            interpolation: Interpolation::Step,
            times: vec![0.0, end],
            values: vec![0.0; 6],
        });
    }
    Clip {
        name: name.to_string(),
        channels,
    }
}

/// The state graph and events, gathered clip by clip.
struct Sidecar {
    value: Value,
    names: HashMap<String, u32>,
}

impl Sidecar {
    fn new(style_defaults: &[(u32, u32)], default_style: u32) -> Self {
        let defaults: Map<String, Value> = style_defaults
            .iter()
            .map(|(style, sub)| (names::command(*style), json!(names::command(*sub))))
            .collect();
        Sidecar {
            value: json!({
                "format": "retroanim-gltf-sidecar",
                "version": 1,
                "engine": "ac",
                "axes": "glTF: +Y up, +Z forward, +X left; AC (x, y, z) is glTF (-x, z, y)",
                "default_style": names::command(default_style),
                "style_defaults": defaults,
                "cycles": [],
                "links": [],
                "modifiers": [],
                "events": [],
            }),
            names: HashMap::new(),
        }
    }

    /// `name`, or `name #2`, `#3`... when an earlier clip has it (two keys the command
    /// names cannot tell apart).
    fn unique(&mut self, name: String) -> String {
        let seen = self.names.entry(name.clone()).or_insert(0);
        *seen += 1;
        if *seen == 1 {
            name
        } else {
            format!("{name} #{seen}")
        }
    }

    fn add(
        &mut self,
        kind: &str,
        clip: &str,
        md: &MotionData,
        baked: &Baked,
        mut entry: Map<String, Value>,
    ) {
        let mut out = Map::new();
        out.insert("clip".into(), json!(clip));
        out.append(&mut entry);
        out.insert("exclusive".into(), json!(md.bitfield & 1 != 0));
        out.insert("restricted".into(), json!(md.bitfield & 2 != 0));
        out.insert("velocity".into(), json!(axes::vec(md.velocity)));
        out.insert("omega".into(), json!(axes::vec(md.omega)));
        out.insert(
            "velocity_ac".into(),
            json!([md.velocity.x, md.velocity.y, md.velocity.z]),
        );
        out.insert(
            "omega_ac".into(),
            json!([md.omega.x, md.omega.y, md.omega.z]),
        );
        out.insert("duration".into(), json!(baked.end as f32));
        out.insert(
            "loop_start".into(),
            json!(baked.loop_start.unwrap_or(0.0) as f32),
        );
        out.insert(
            "anims".into(),
            md.anims
                .iter()
                .map(|a| {
                    json!({"anim": hex(a.anim_id), "low_frame": a.low_frame,
                           "high_frame": a.high_frame, "framerate": a.framerate})
                })
                .collect(),
        );
        out.insert(
            "played".into(),
            baked
                .played
                .iter()
                .map(|p| {
                    json!({"anim": hex(p.anim), "low_frame": p.low,
                           "high_frame": p.high, "framerate": p.framerate})
                })
                .collect(),
        );
        if let Some(list) = self.value[kind].as_array_mut() {
            list.push(Value::Object(out));
        }
        if let Some(events) = self.value["events"].as_array_mut() {
            for e in &baked.events {
                let mut event = json!({
                    "clip": clip,
                    "time": e.time as f32,
                    "hook": hook_name(e.hook_type).map_or_else(|| e.hook_type.to_string(), str::to_string),
                    "anim": hex(e.anim),
                    "frame": e.frame,
                });
                if let Some(h) = &e.hook {
                    event["direction"] = json!(match h.direction {
                        1 => "forward",
                        -1 => "backward",
                        _ => "both",
                    });
                    if let Some(fields) = decode_payload(h.hook_type, &h.payload) {
                        event["fields"] = fields
                            .into_iter()
                            .map(|(k, v)| (k.to_string(), json!(v)))
                            .collect::<Map<_, _>>()
                            .into();
                    }
                }
                events.push(event);
            }
        }
    }

    fn finish(self) -> Value {
        self.value
    }
}
