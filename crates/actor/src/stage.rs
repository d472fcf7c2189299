//! [`Stage`]: an actor set placed on its map and played — the front door of the
//! interpreter. Load a set, build the stage, send requests, update once per frame,
//! read each actor's selected (model handle, frame index).

use crate::arbitration::Outcome;
use crate::error::LoadFault;
use crate::load::load_set;
use crate::resources::ActorSet;
use crate::state::Actor;
use crate::world::{ActorRunError, Switches, World};
use serde_json::Value;
use std::path::Path;

/// Why an actor set could not be loaded. Every variant names the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetError {
    /// The file could not be read.
    #[error("{file}: cannot read: {message}")]
    Io { file: String, message: String },
    /// The text is not JSON.
    #[error("{file}: line {line}, column {column}: malformed JSON: {message}")]
    Json {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// The set is JSON but breaks a rule: the fault names the JSON path, the model,
    /// group and command index.
    #[error("{file}: {fault}")]
    Rejected { file: String, fault: LoadFault },
}

/// Read and validate an actor set file (the format of `assets/actor/flag2.json`).
pub fn load_set_file(path: impl AsRef<Path>) -> Result<ActorSet, SetError> {
    let file = path.as_ref().display().to_string();
    let text = retroanim_core::input::read_text_kind(
        path.as_ref(),
        retroanim_core::input::FileKind::JsonAsset,
    )
    .map_err(|e| SetError::Io {
        file: file.clone(),
        message: e.reason(),
    })?;
    load_set_str(&text, &file)
}

/// Read and validate an actor set given as JSON text; `label` names it in errors.
pub fn load_set_str(text: &str, label: &str) -> Result<ActorSet, SetError> {
    let value: Value = serde_json::from_str(text).map_err(|e| SetError::Json {
        file: label.to_string(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    load_set(&value).map_err(|fault| SetError::Rejected {
        file: label.to_string(),
        fault,
    })
}

/// A refused stage call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StageError {
    /// No actor has this id.
    #[error("no actor '{0}'")]
    NoSuchActor(String),
    /// An actor's group ran away (see [`crate::error::RunError`]).
    #[error(transparent)]
    Run(#[from] ActorRunError),
}

/// Builds a [`Stage`]. Defaults: view at `[0, 0]`, frame scale 256 (one nominal tick
/// per update), animation and scripts switched on.
pub struct StageBuilder {
    set: ActorSet,
    view: [i64; 2],
    frame_scale: u32,
    switches: Switches,
}

impl StageBuilder {
    /// Where the camera looks (map units); only actors in the window around it update.
    pub fn view(mut self, view: [i64; 2]) -> Self {
        self.view = view;
        self
    }

    /// The Q8 frame scale added per update: 256 = one tick, 512 = two.
    pub fn frame_scale(mut self, q8: u32) -> Self {
        self.frame_scale = q8;
        self
    }

    /// Run the actors' scripts (PushAnimation tasks) or not.
    pub fn scripts(mut self, on: bool) -> Self {
        self.switches.scripts = on;
        self
    }

    /// Place every actor (each makes its placement requests for group 0).
    pub fn build(self) -> Result<Stage, StageError> {
        Ok(Stage {
            world: World::new(self.set, self.view, self.frame_scale, self.switches)?,
        })
    }
}

/// A placed actor set being played.
#[derive(Debug, Clone)]
pub struct Stage {
    world: World,
}

impl Stage {
    /// A builder with the defaults (see [`StageBuilder`]).
    pub fn builder(set: ActorSet) -> StageBuilder {
        StageBuilder {
            set,
            view: [0, 0],
            frame_scale: 256,
            switches: Switches::default(),
        }
    }

    /// A stage with every default.
    pub fn new(set: ActorSet) -> Result<Stage, StageError> {
        Stage::builder(set).build()
    }

    fn index(&self, id: &str) -> Result<usize, StageError> {
        self.world
            .actors()
            .iter()
            .position(|a| a.id == id)
            .ok_or_else(|| StageError::NoSuchActor(id.to_string()))
    }

    fn run(
        &mut self,
        id: &str,
        group: u8,
        modifier: u8,
        forced: bool,
    ) -> Result<Outcome, StageError> {
        let i = self.index(id)?;
        let r = if forced {
            self.world.force_request(i, group, modifier)
        } else {
            self.world.request(i, group, modifier)
        };
        r.map_err(|error| {
            StageError::Run(ActorRunError {
                actor: id.to_string(),
                error,
            })
        })
    }

    /// An ordinary request: actor `id` should play `group` (a running group of higher
    /// priority may refuse it). `modifier` is the request's start-countdown modifier.
    pub fn request(&mut self, id: &str, group: u8, modifier: u8) -> Result<Outcome, StageError> {
        self.run(id, group, modifier, false)
    }

    /// A forced request: replaces whatever plays, whatever its priority.
    pub fn force_request(
        &mut self,
        id: &str,
        group: u8,
        modifier: u8,
    ) -> Result<Outcome, StageError> {
        self.run(id, group, modifier, true)
    }

    /// One frame of the game: the shared clock, the update list, every listed actor.
    pub fn update(&mut self) -> Result<(), StageError> {
        self.world.clear_translations();
        Ok(self.world.update()?)
    }

    /// Move the camera.
    pub fn set_view(&mut self, view: [i64; 2]) {
        self.world.view = view;
    }

    /// Actor `id`'s selected (model handle, frame index): the pose to draw; `None`
    /// before it has selected one, or without animation state.
    pub fn frame(&self, id: &str) -> Result<Option<[u16; 2]>, StageError> {
        let i = self.index(id)?;
        Ok(self.world.actors()[i].anim.and_then(|a| a.frame))
    }

    /// Every actor's id and selected frame, in set order.
    pub fn frames(&self) -> impl Iterator<Item = (&str, Option<[u16; 2]>)> {
        self.world
            .actors()
            .iter()
            .map(|a| (a.id.as_str(), a.anim.and_then(|s| s.frame)))
    }

    /// The group actor `id` is playing.
    pub fn current_group(&self, id: &str) -> Result<Option<u8>, StageError> {
        let i = self.index(id)?;
        Ok(self.world.actors()[i].anim.and_then(|a| a.current))
    }

    /// The whole ticks the last update advanced every actor by.
    pub fn ticks(&self) -> u32 {
        self.world.timing.ticks
    }

    /// Actor `id`'s full state.
    pub fn actor(&self, id: &str) -> Option<&Actor> {
        self.world.actors().iter().find(|a| a.id == id)
    }

    /// The interpreter-shaped world underneath.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world underneath, to drive it step by step as the conformance runner does.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }
}
