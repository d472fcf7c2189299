//! Actor export: each model's RAAN frames as the morph targets of one mesh, and one clip
//! per RAGR group whose weights follow the interpreter's (model handle, frame index)
//! selection, update by update.
//!
//! The interpreter never blends: at each update an actor shows one whole frame. A clip is
//! therefore a STEP channel of weights with one key per update, the selected frame's target
//! at 1 and every other at 0. It is baked by running the interpreter: one actor of the
//! model, alone on the map in front of the camera, scripts off, is forced onto the group
//! and updated once per key, at the model browser's 25 updates a second (the interpreter
//! counts updates, not time; [`Options::updates_per_second`] changes the rate). The bake
//! stops when the actor's animation state repeats one it had (the clip then loops from
//! there; `loop_from` in the sidecar says where) or when the group ends.
//!
//! The runner does not read vertices: the mesh comes from the set's informative keys
//! (`faces` on a model, `vertices` per RAAN entry and frame, `name` per group), the keys
//! the model browser draws. Their axes are kept (the sample flag is +Y up, like glTF).

use crate::scene::{Channel, Clip, Interpolation, Mesh, MorphTarget, Node, Property, Scene};
use retroanim_actor::resources::{ActorFlags, ActorSpec};
use retroanim_actor::state::Anim;
use retroanim_actor::{ActorSet, SetError, Stage, StageError};
use serde_json::{json, Value};

/// The default size of one actor unit: a centimetre (the sample flag is 1.2 m wide).
pub const METRES_PER_UNIT: f64 = 0.01;
/// The most updates one clip is baked for when its state never repeats.
pub const MAX_UPDATES: usize = 4096;
/// The most weights (keys × morph targets, summed over the clips) an export may hold, so
/// that a hostile set cannot ask for gigabytes.
pub const MAX_WEIGHTS: usize = 20_000_000;
/// The id of the one actor each bake places.
const ACTOR: &str = "export";

/// How to export.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The size of one unit in metres.
    pub metres_per_unit: f64,
    /// Updates (keys) per second.
    pub updates_per_second: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            metres_per_unit: METRES_PER_UNIT,
            updates_per_second: 25.0,
        }
    }
}

/// Why an actor set could not be exported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Load(#[from] SetError),
    /// The informative mesh keys are missing or do not fit the frame table.
    #[error("{file}: {at}: {message}")]
    Mesh {
        file: String,
        at: String,
        message: String,
    },
    /// The clips would hold more than [`MAX_WEIGHTS`] weights.
    #[error("{file}: more than {MAX_WEIGHTS} morph weights in all")]
    TooLarge { file: String },
    /// The interpreter refused the bake (a group that runs away).
    #[error("model {model}, group {group}: {error}")]
    Run {
        model: String,
        group: u8,
        error: StageError,
    },
}

/// One model's drawing: its faces and, per RAAN frame, the vertices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelMesh {
    pub faces: Vec<Vec<u32>>,
    /// `(model handle, frame index, vertices)` in frame-table order.
    pub frames: Vec<(u16, u16, Vec<[i32; 3]>)>,
    /// Group number → name.
    pub group_names: Vec<(u8, String)>,
}

/// An actor set and its models' drawings.
#[derive(Clone, Debug)]
pub struct ActorAsset {
    /// The scene's name.
    pub name: String,
    pub set: ActorSet,
    /// One per model of the set.
    pub meshes: Vec<ModelMesh>,
}

impl ActorAsset {
    /// An actor set file's text (the form of `assets/actor/flag2.json`); `label` names it in
    /// errors and, without its folders and extension, the scene.
    pub fn from_json(text: &str, label: &str) -> Result<ActorAsset, ExportError> {
        let set = retroanim_actor::load_set_str(text, label)?;
        // The loader accepted the text, so it is JSON.
        let doc: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let fault = |at: String, message: String| ExportError::Mesh {
            file: label.to_string(),
            at,
            message,
        };
        let mut meshes = Vec::with_capacity(set.models.len());
        for (m, table) in set.models.iter().enumerate() {
            let at = format!("models[{m}]");
            let model = &doc["models"][m];
            let faces: Vec<Vec<u32>> = match model.get("faces") {
                Some(v) => serde_json::from_value(v.clone())
                    .map_err(|e| fault(format!("{at}.faces"), e.to_string()))?,
                None => Vec::new(),
            };
            let mut frames = Vec::new();
            let mut count = None;
            for (e, entry) in table.raan.entries.iter().enumerate() {
                let at = format!("{at}.raan[{e}].vertices");
                let Some(v) = model["raan"][e].get("vertices") else {
                    return Err(fault(at, "no vertices: the model cannot be drawn".into()));
                };
                let per_frame: Vec<Vec<[i32; 3]>> = serde_json::from_value(v.clone())
                    .map_err(|err| fault(at.clone(), err.to_string()))?;
                if per_frame.len() as u64 != entry.frames {
                    return Err(fault(
                        at,
                        format!(
                            "{} frames of vertices for {} frames",
                            per_frame.len(),
                            entry.frames
                        ),
                    ));
                }
                for (f, vertices) in per_frame.into_iter().enumerate() {
                    let n = *count.get_or_insert(vertices.len());
                    if vertices.len() != n {
                        return Err(fault(
                            format!("{at}[{f}]"),
                            format!("{} vertices, frame 0 has {n}", vertices.len()),
                        ));
                    }
                    // Handles and indices are 10-bit (the loader checked), so they fit.
                    frames.push((entry.model as u16, f as u16, vertices));
                }
            }
            let n = count.unwrap_or(0);
            if let Some((i, _)) = faces
                .iter()
                .enumerate()
                .find(|(_, f)| f.iter().any(|&v| v as usize >= n))
            {
                return Err(fault(
                    format!("{at}.faces[{i}]"),
                    format!("a vertex index past the {n} vertices"),
                ));
            }
            let group_names = table
                .groups()
                .iter()
                .map(|g| {
                    let name = model["groups"]
                        .as_array()
                        .and_then(|gs| gs.iter().find(|x| x["group"] == g.number))
                        .and_then(|x| x["name"].as_str())
                        .map_or_else(|| format!("group {}", g.number), str::to_string);
                    (g.number, name)
                })
                .collect();
            meshes.push(ModelMesh {
                faces,
                frames,
                group_names,
            });
        }
        let name = std::path::Path::new(label)
            .file_stem()
            .map_or_else(|| label.to_string(), |s| s.to_string_lossy().into_owned());
        Ok(ActorAsset { name, set, meshes })
    }
}

/// Forces one actor of `model` onto `group` and records its animation state after the
/// request and after each update, until a state repeats (returned: the key its loop starts
/// from) or the group ends.
fn bake(
    asset: &ActorAsset,
    model: usize,
    group: u8,
) -> Result<(Vec<Anim>, Option<usize>), StageError> {
    let mut set = asset.set.clone();
    let centre = [set.width * 256, set.height * 256];
    set.actors = vec![ActorSpec {
        id: ACTOR.to_string(),
        pos: centre,
        activation: 0,
        attr113: 0,
        attr44: 0,
        state_default: None,
        model: Some(model),
        script: None,
        static_model: false,
        walk: None,
        flags: ActorFlags::default(),
    }];
    let mut stage = Stage::builder(set).view(centre).scripts(false).build()?;
    stage.force_request(ACTOR, group, 0)?;
    let state = |s: &Stage| s.actor(ACTOR).and_then(|a| a.anim).unwrap_or_default();
    let mut keys = vec![state(&stage)];
    let mut loop_from = None;
    while keys.len() < MAX_UPDATES {
        stage.update()?;
        let now = state(&stage);
        if now.current != Some(group) {
            break;
        }
        let seen = keys.iter().position(|k| *k == now);
        keys.push(now);
        if seen.is_some() {
            loop_from = seen;
            break;
        }
    }
    Ok((keys, loop_from))
}

/// The exported scene: a node per model with its morph-target mesh, a clip per group.
pub fn export(asset: &ActorAsset, options: &Options) -> Result<Scene, ExportError> {
    let scale = options.metres_per_unit;
    let metres = |v: &[i32; 3]| v.map(|c| (f64::from(c) * scale) as f32);
    let single = asset.set.models.len() == 1;
    let mut scene = Scene {
        name: asset.name.clone(),
        ..Scene::default()
    };
    let mut models_sidecar = Vec::new();
    let mut weights = 0usize;
    // Clip names as viewers look them up: a repeated group name gets ` #2`, ` #3`…
    let mut used: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (m, (table, drawing)) in asset.set.models.iter().zip(&asset.meshes).enumerate() {
        let Some((_, _, base)) = drawing.frames.first() else {
            continue;
        };
        let mut indices = Vec::new();
        for f in &drawing.faces {
            for k in 1..f.len().saturating_sub(1) {
                indices.extend([f[0], f[k], f[k + 1]]);
            }
        }
        let morph_targets = drawing
            .frames
            .iter()
            .map(|(handle, index, vertices)| MorphTarget {
                name: format!("model {handle} frame {index}"),
                position_offsets: vertices
                    .iter()
                    .zip(base)
                    .map(|(v, b)| {
                        let (v, b) = (metres(v), metres(b));
                        [v[0] - b[0], v[1] - b[1], v[2] - b[2]]
                    })
                    .collect(),
            })
            .collect();
        scene.meshes.push(Mesh {
            name: table.name.clone(),
            positions: base.iter().map(metres).collect(),
            indices,
            base_color: [0.6, 0.12, 0.12, 1.0],
            morph_targets,
            ..Mesh::default()
        });
        let node = scene.nodes.len();
        let mut n = Node::new(table.name.clone(), None);
        n.mesh = Some(scene.meshes.len() - 1);
        scene.nodes.push(n);

        let target_of = |frame: Option<[u16; 2]>| {
            frame.and_then(|[h, i]| {
                drawing
                    .frames
                    .iter()
                    .position(|(fh, fi, _)| (*fh, *fi) == (h, i))
            })
        };
        let mut groups_sidecar = Vec::new();
        for (number, name) in &drawing.group_names {
            let (keys, loop_from) = bake(asset, m, *number).map_err(|error| ExportError::Run {
                model: table.name.clone(),
                group: *number,
                error,
            })?;
            let seconds = |k: usize| k as f64 / options.updates_per_second;
            let times: Vec<f32> = (0..keys.len()).map(|k| seconds(k) as f32).collect();
            let targets = drawing.frames.len();
            weights = weights.saturating_add(keys.len().saturating_mul(targets));
            if weights > MAX_WEIGHTS {
                return Err(ExportError::TooLarge {
                    file: asset.name.clone(),
                });
            }
            let mut values = vec![0.0f32; keys.len() * targets];
            for (k, key) in keys.iter().enumerate() {
                if let Some(t) = target_of(key.frame) {
                    values[k * targets + t] = 1.0;
                }
            }
            let clip = if single {
                name.clone()
            } else {
                format!("{}.{name}", table.name)
            };
            let count = used.entry(clip.clone()).or_insert(0);
            *count += 1;
            let clip = if *count == 1 {
                clip
            } else {
                format!("{clip} #{count}")
            };
            let events: Vec<Value> = keys
                .iter()
                .enumerate()
                .filter(|(_, k)| k.breakpoint)
                .map(|(k, _)| json!({"time": seconds(k), "event": "breakpoint"}))
                .collect();
            groups_sidecar.push(json!({
                "clip": clip,
                "group": number,
                "header": table.group(*number).map(|g| g.header),
                "updates": keys.len(),
                "frames": keys.iter().map(|k| k.frame).collect::<Vec<_>>(),
                "loop_from": loop_from.map(seconds),
                "ends": loop_from.is_none(),
                "events": events,
            }));
            scene.clips.push(Clip {
                name: clip,
                channels: vec![Channel {
                    node,
                    property: Property::Weights,
                    interpolation: Interpolation::Step,
                    times,
                    values,
                }],
            });
        }
        models_sidecar.push(json!({
            "model": table.name,
            "node": node,
            "targets": drawing.frames.iter().map(|(h, i, _)| json!([h, i])).collect::<Vec<_>>(),
            "groups": groups_sidecar,
        }));
    }
    scene.sidecar = json!({
        "engine": "actor",
        "set": asset.name,
        "metres_per_unit": options.metres_per_unit,
        "updates_per_second": options.updates_per_second,
        "interpolation": "STEP",
        "models": models_sidecar,
    });
    Ok(scene)
}
