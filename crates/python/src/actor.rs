//! RAAN/RAGR actors: an actor set on a stage, requests, and the (model, frame) each
//! actor shows after every update.

use crate::door;
use pyo3::prelude::*;
use retroanim_actor::stage::{load_set_file, load_set_str, Stage};

/// A stage of actors around a camera.
#[pyclass(unsendable, module = "retroanim")]
pub struct ActorStage {
    stage: Stage,
}

fn stage_error(e: retroanim_actor::stage::StageError) -> PyErr {
    door::error(e.to_string())
}

fn outcome(o: retroanim_actor::arbitration::Outcome) -> String {
    format!("{o:?}").to_lowercase()
}

#[pymethods]
impl ActorStage {
    /// Build a stage from an actor set file (`assets/actor/flag2.json`), or from its text
    /// with `text=` (`path` then only labels errors). `view` is the camera's `[x, y]`;
    /// `frame_scale` the Q8 frame scale (256 = one tick per update).
    #[new]
    #[pyo3(signature = (path, view=None, frame_scale=None, scripts=false, text=None))]
    fn new(
        path: std::path::PathBuf,
        view: Option<[i64; 2]>,
        frame_scale: Option<u32>,
        scripts: bool,
        text: Option<&str>,
    ) -> PyResult<Self> {
        let set = match text {
            Some(t) => load_set_str(t, &path.display().to_string()),
            None => load_set_file(&path),
        }
        .map_err(|e| door::error(e.to_string()))?;
        let mut b = Stage::builder(set).scripts(scripts);
        if let Some(v) = view {
            b = b.view(v);
        }
        if let Some(q8) = frame_scale {
            b = b.frame_scale(q8);
        }
        Ok(ActorStage {
            stage: b.build().map_err(stage_error)?,
        })
    }

    /// An ordinary request for `group`; returns the arbitration's outcome
    /// (`"accepted"`, `"refused"`, ...).
    #[pyo3(signature = (actor, group, modifier=0))]
    fn request(&mut self, actor: &str, group: u8, modifier: u8) -> PyResult<String> {
        self.stage
            .request(actor, group, modifier)
            .map(outcome)
            .map_err(stage_error)
    }

    /// A forced request: replaces whatever plays.
    #[pyo3(signature = (actor, group, modifier=0))]
    fn force_request(&mut self, actor: &str, group: u8, modifier: u8) -> PyResult<String> {
        self.stage
            .force_request(actor, group, modifier)
            .map(outcome)
            .map_err(stage_error)
    }

    /// One frame of the game.
    fn update(&mut self) -> PyResult<()> {
        self.stage.update().map_err(stage_error)
    }

    /// Move the camera.
    fn set_view(&mut self, view: [i64; 2]) {
        self.stage.set_view(view);
    }

    /// `actor`'s selected `(model, frame)`, or None before it selected one.
    fn frame(&self, actor: &str) -> PyResult<Option<(u16, u16)>> {
        self.stage
            .frame(actor)
            .map(|f| f.map(|[m, i]| (m, i)))
            .map_err(stage_error)
    }

    /// Every actor's id with its `(model, frame)` (or None), in set order.
    fn frames(&self) -> Vec<(String, Option<(u16, u16)>)> {
        self.stage
            .frames()
            .map(|(id, f)| (id.to_owned(), f.map(|[m, i]| (m, i))))
            .collect()
    }

    /// The group `actor` plays, or None.
    fn current_group(&self, actor: &str) -> PyResult<Option<u8>> {
        self.stage.current_group(actor).map_err(stage_error)
    }

    /// Ticks the shared clock has counted.
    #[getter]
    fn ticks(&self) -> u32 {
        self.stage.ticks()
    }
}
