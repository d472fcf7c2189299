//! Asheron's Call creatures: a motion table loaded from records or a DAT, and creatures
//! that take motion commands and tick as ACE's server ticks them.

use crate::door;
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use retroanim_ac::commands::{HoldKey, MovementParameters};
use retroanim_ac::records::command_names;
use retroanim_ac::{Creature, Loader, MotionSet};

/// A command given as its id (`0x45000005`) or its ACE name (`"WalkForward"`).
#[derive(FromPyObject)]
pub enum Command {
    Id(u32),
    Name(String),
}

impl Command {
    pub(crate) fn id(&self) -> PyResult<u32> {
        match self {
            Command::Id(id) => Ok(*id),
            Command::Name(name) => command_names::command_id_ignore_case(name)
                .ok_or_else(|| door::error(format!("motion: '{name}' is no AC motion command"))),
        }
    }
}

/// The id of an AC motion command from its ACE name (`"WalkForward"` → `0x45000005`).
#[pyfunction]
pub fn command_id(name: &str) -> PyResult<u32> {
    Command::Name(name.to_owned()).id()
}

/// ACE's name of an AC motion command id, or None for an unknown id.
#[pyfunction]
pub fn command_name(id: u32) -> Option<&'static str> {
    command_names::command_name(id)
}

/// A motion table with every animation it can play.
#[pyclass(frozen, module = "retroanim")]
pub struct AcMotionSet {
    set: MotionSet,
}

impl AcMotionSet {
    pub(crate) fn set(&self) -> &MotionSet {
        &self.set
    }
}

fn load(mut loader: Loader, table: u32) -> PyResult<AcMotionSet> {
    loader
        .load(table)
        .map(|set| AcMotionSet { set })
        .map_err(|e| door::error(e.to_string()))
}

#[pymethods]
impl AcMotionSet {
    /// Load motion table `table` (`0x09……`) from a folder of `<id>.bin` records.
    #[staticmethod]
    fn from_dir(path: std::path::PathBuf, table: u32) -> PyResult<Self> {
        if !path.is_dir() {
            return Err(door::error(format!(
                "{}: not a folder of records",
                path.display()
            )));
        }
        load(Loader::from_dir(&path), table)
    }

    /// Load motion table `table` from a portal DAT (`client_portal.dat`), read in place.
    #[staticmethod]
    fn from_dat(path: std::path::PathBuf, table: u32) -> PyResult<Self> {
        let loader = Loader::from_dat(&path).map_err(|e| door::error(e.to_string()))?;
        load(loader, table)
    }

    /// The motion table's id.
    #[getter]
    fn table_id(&self) -> u32 {
        self.set.table_id()
    }

    /// How many animations the table can play.
    #[getter]
    fn animation_count(&self) -> usize {
        self.set.animation_count()
    }

    fn __repr__(&self) -> String {
        format!(
            "AcMotionSet(table=0x{:08X}, animations={})",
            self.set.table_id(),
            self.set.animation_count()
        )
    }
}

/// An animated creature. Not shared between threads: each Python thread makes its own.
#[pyclass(unsendable, module = "retroanim")]
pub struct AcCreature {
    creature: Creature,
}

fn motion_result(r: Result<(), retroanim_ac::MotionError>) -> PyResult<()> {
    r.map_err(|e| door::error(e.to_string()))
}

fn params(speed: f32, hold_run: Option<bool>) -> PyResult<MovementParameters> {
    let mut p = MovementParameters {
        speed: door::finite(speed, "speed")?,
        ..MovementParameters::default()
    };
    if let Some(run) = hold_run {
        p.hold_key_to_apply = if run { HoldKey::Run } else { HoldKey::None };
    }
    Ok(p)
}

#[pymethods]
impl AcCreature {
    /// A creature playing `motions`, standing on walkable ground unless `airborne`.
    /// `orientation` is `[w, x, y, z]`.
    #[new]
    #[pyo3(signature = (motions, origin=[0.0, 0.0, 0.0], orientation=[1.0, 0.0, 0.0, 0.0], cell=None, run_rate=1.0, creature_weenie=true, airborne=false))]
    fn new(
        motions: &AcMotionSet,
        origin: [f32; 3],
        orientation: [f32; 4],
        cell: Option<u32>,
        run_rate: f32,
        creature_weenie: bool,
        airborne: bool,
    ) -> PyResult<Self> {
        let mut b = Creature::builder(&motions.set)
            .origin(door::vec3(origin, "origin")?)
            .orientation(door::orientation(orientation, "orientation")?)
            .run_rate(door::finite(run_rate, "run_rate")?)
            .creature_weenie(creature_weenie);
        if let Some(cell) = cell {
            b = b.cell(cell);
        }
        if airborne {
            b = b.airborne();
        }
        Ok(AcCreature {
            creature: b.build(),
        })
    }

    /// `DoMotion`: start a substate, style, turn, sidestep, action or modifier, by id or
    /// ACE name, at `speed`; `hold_run` applies that hold key with it.
    #[pyo3(signature = (motion, speed=1.0, hold_run=None))]
    fn do_motion(&mut self, motion: Command, speed: f32, hold_run: Option<bool>) -> PyResult<()> {
        let p = params(speed, hold_run)?;
        motion_result(self.creature.do_motion_with(motion.id()?, &p))
    }

    /// `StopMotion`.
    fn stop_motion(&mut self, motion: Command) -> PyResult<()> {
        motion_result(self.creature.stop_motion(motion.id()?))
    }

    /// `StopCompletely`: back to the style's default substate.
    fn stop_completely(&mut self) -> PyResult<()> {
        motion_result(self.creature.stop_completely())
    }

    /// Hold (or release) the Run key.
    fn set_hold_run(&mut self, run: bool) {
        self.creature.set_hold_run(run);
    }

    /// Put the creature on (or off) walkable ground.
    fn set_contact(&mut self, contact: bool, on_walkable: bool) {
        self.creature.set_contact(contact, on_walkable);
    }

    /// Advance by one physics quantum of `dt` seconds (within ±2 s, ACE's HugeQuantum).
    fn tick(&mut self, dt: f64) -> PyResult<()> {
        self.creature.tick(door::quantum(dt)?);
        Ok(())
    }

    /// Advance by `n` quanta of `dt` seconds each.
    fn run(&mut self, n: usize, dt: f64) -> PyResult<()> {
        let dt = door::quantum(dt)?;
        for _ in 0..n {
            self.creature.tick(dt);
        }
        Ok(())
    }

    /// Where it stands: `[x, y, z]` (float32).
    #[getter]
    fn origin<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let o = self.creature.origin();
        PyArray1::from_slice(py, &[o.x, o.y, o.z])
    }

    /// Which way it faces: `[w, x, y, z]` (float32).
    #[getter]
    fn orientation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let q = self.creature.orientation();
        PyArray1::from_slice(py, &[q.w, q.x, q.y, q.z])
    }

    /// The velocity its motion gives it, `[x, y, z]`.
    #[getter]
    fn velocity<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let v = self.creature.velocity();
        PyArray1::from_slice(py, &[v.x, v.y, v.z])
    }

    /// The current style (`NonCombat`, ...) as its command id.
    #[getter]
    fn style(&self) -> u32 {
        self.creature.style()
    }

    /// The current motion (substate) as its command id.
    #[getter]
    fn motion(&self) -> u32 {
        self.creature.motion()
    }

    /// The id of the animation playing, or None.
    #[getter]
    fn animation(&self) -> Option<u32> {
        self.creature.animation()
    }

    /// The (fractional) frame number inside that animation.
    #[getter]
    fn frame_number(&self) -> f32 {
        self.creature.frame_number()
    }

    /// The part frames shown now, one row per part: `[x, y, z, qw, qx, qy, qz]`
    /// (float32, shape `(parts, 7)`), in each part's parent coordinates.
    fn part_frames<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let rows: Vec<Vec<f32>> = self
            .creature
            .part_frames()
            .iter()
            .map(|f| {
                let (o, q) = (f.origin, f.orientation);
                vec![o.x, o.y, o.z, q.w, q.x, q.y, q.z]
            })
            .collect();
        if rows.is_empty() {
            return Ok(numpy::PyArray2::zeros(py, [0, 7], false));
        }
        PyArray2::from_vec2(py, &rows).map_err(|e| door::error(e.to_string()))
    }

    /// Hook types the last call fired, in order.
    fn hooks(&self) -> Vec<u32> {
        self.creature.hooks().to_vec()
    }

    /// Motions the last call completed: `(motion, success)` pairs.
    fn motions_done(&self) -> Vec<(u32, bool)> {
        self.creature.motions_done().to_vec()
    }

    fn __repr__(&self) -> String {
        let o = self.creature.origin();
        format!(
            "AcCreature(motion={}, origin=[{}, {}, {}])",
            command_names::describe(self.creature.motion()),
            o.x,
            o.y,
            o.z
        )
    }
}
