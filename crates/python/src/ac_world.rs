//! Several AC creatures in one world (`retroanim_ac::World`), moved to each other by id,
//! with the host-physics two-phase tick: the engine proposes each moved creature's new
//! frame, Python accepts, corrects or refuses it, the engine commits
//! (docs/embedding.md "Host physics").

use crate::ac::{AcMotionSet, Command};
use crate::door;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use retroanim_ac::commands::MovementParameters;
use retroanim_ac::host_physics::{Correction, Proposal};
use retroanim_ac::interpolation::Position;
use retroanim_ac::landblock;
use retroanim_ac::math::AFrame;
use retroanim_ac::scenario::check_target;
use retroanim_ac::{Creature, World};

/// `(cell, origin, orientation)` as Python receives it.
type PositionOut<'py> = (u32, Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<f32>>);

/// AC creatures in one world, named by object id. Not shared between threads.
#[pyclass(unsendable, module = "retroanim")]
pub struct AcWorld {
    world: World,
}

fn host_error(e: impl std::fmt::Display) -> PyErr {
    door::error(e.to_string())
}

fn position_dict<'py>(
    py: Python<'py>,
    p: &Position,
    d: &Bound<'py, PyDict>,
    key: &str,
) -> PyResult<()> {
    let o = p.frame.origin;
    let q = p.frame.orientation;
    d.set_item(format!("{key}_cell"), p.cell)?;
    d.set_item(
        format!("{key}_origin"),
        PyArray1::from_slice(py, &[o.x, o.y, o.z]),
    )?;
    d.set_item(
        format!("{key}_orientation"),
        PyArray1::from_slice(py, &[q.w, q.x, q.y, q.z]),
    )?;
    Ok(())
}

fn proposals_out<'py>(py: Python<'py>, ps: &[Proposal]) -> PyResult<Vec<Bound<'py, PyDict>>> {
    ps.iter()
        .map(|p| {
            let d = PyDict::new(py);
            d.set_item("id", p.id)?;
            position_dict(py, &p.from, &d, "from")?;
            position_dict(py, &p.to, &d, "to")?;
            Ok(d)
        })
        .collect()
}

impl AcWorld {
    fn obj(&self, id: u32) -> PyResult<&retroanim_ac::physics_obj::PhysicsObj> {
        self.world
            .get(id)
            .ok_or_else(|| door::error(format!("no creature with id {id:#x} in this world")))
    }

    fn not_open(&self) -> PyResult<()> {
        if self.world.tick_open() {
            return Err(door::error(
                "a two-phase tick is open: commit it (ra_ac_world_tick_commit) before ticking again",
            ));
        }
        Ok(())
    }
}

#[pymethods]
impl AcWorld {
    /// An empty world whose clock reads `clock` seconds.
    #[new]
    #[pyo3(signature = (clock=100.0))]
    fn new(clock: f64) -> PyResult<Self> {
        if !clock.is_finite() {
            return Err(door::error(format!("clock {clock} is NaN or infinite")));
        }
        Ok(AcWorld {
            world: World::new(clock),
        })
    }

    /// Add a creature playing `motions` under object id `id` (not 0, not taken), with
    /// its Setup `radius` and `height`. `orientation` is `[w, x, y, z]`.
    #[pyo3(signature = (motions, id, origin=[0.0, 0.0, 0.0], orientation=[1.0, 0.0, 0.0, 0.0], cell=None, radius=0.0, height=0.0))]
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        motions: &AcMotionSet,
        id: u32,
        origin: [f32; 3],
        orientation: [f32; 4],
        cell: Option<u32>,
        radius: f32,
        height: f32,
    ) -> PyResult<()> {
        let mut b = Creature::builder(motions.set())
            .origin(door::vec3(origin, "origin")?)
            .orientation(door::orientation(orientation, "orientation")?);
        if let Some(cell) = cell {
            b = b.cell(cell);
        }
        let (r, h) = (
            door::finite(radius, "radius")?,
            door::finite(height, "height")?,
        );
        if id == 0 || self.world.get(id).is_some() {
            return Err(door::error(format!(
                "id {id:#x} is 0 or already taken in this world"
            )));
        }
        self.world.add_creature(id, r, h, b.build());
        Ok(())
    }

    /// `DoMotion` on creature `id`.
    #[pyo3(signature = (id, motion, speed=1.0))]
    fn do_motion(&mut self, id: u32, motion: Command, speed: f32) -> PyResult<()> {
        let p = MovementParameters {
            speed: door::finite(speed, "speed")?,
            ..MovementParameters::default()
        };
        let m = motion.id()?;
        self.obj(id)?;
        let o = self.world.get_mut(id).expect("checked");
        retroanim_ac::MotionError::check(o.do_motion(m, &p)).map_err(host_error)
    }

    /// Creature `mover` walks or runs to creature `target` (ACE's MoveToObject).
    fn move_to_object(&mut self, mover: u32, target: u32) -> PyResult<()> {
        self.obj(mover)?;
        check_target(mover, target).map_err(|e| door::error(format!("target: {e}")))?;
        self.world
            .move_to_object(mover, target, MovementParameters::default());
        Ok(())
    }

    /// The plain tick: the clock advances by `dt` and every creature moves, its
    /// proposal accepted (a host that does nothing).
    fn tick(&mut self, dt: f64) -> PyResult<()> {
        let dt = door::quantum(dt)?;
        self.not_open()?;
        self.world.tick(dt);
        Ok(())
    }

    /// Creature `id`'s `(cell, origin, orientation)`.
    fn position<'py>(&self, py: Python<'py>, id: u32) -> PyResult<PositionOut<'py>> {
        let p = self.obj(id)?.position();
        let (o, q) = (p.frame.origin, p.frame.orientation);
        Ok((
            p.cell,
            PyArray1::from_slice(py, &[o.x, o.y, o.z]),
            PyArray1::from_slice(py, &[q.w, q.x, q.y, q.z]),
        ))
    }

    /// The velocity creature `id`'s last tick moved it at, `[x, y, z]`.
    fn velocity<'py>(&self, py: Python<'py>, id: u32) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let v = self.obj(id)?.cached_velocity();
        Ok(PyArray1::from_slice(py, &[v.x, v.y, v.z]))
    }

    /// Begin a two-phase tick of `dt` seconds: the first batch of proposals, each a dict
    /// with `id`, `from_cell`, `from_origin`, `from_orientation`, `to_cell`, `to_origin`,
    /// `to_orientation` (empty when nothing moved: `commit()` once to complete the tick).
    fn propose<'py>(&mut self, py: Python<'py>, dt: f64) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let dt = door::quantum(dt)?;
        let ps = self.world.propose(dt).map_err(host_error)?;
        proposals_out(py, ps)
    }

    /// The current batch's proposals (as `propose` returns them).
    fn proposals<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        proposals_out(py, self.world.proposals())
    }

    /// Put creature `id` at `cell`, `origin`, `orientation` (`[w, x, y, z]`) instead of
    /// its proposal; checked as the C door checks it.
    #[pyo3(signature = (id, cell, origin, orientation=[1.0, 0.0, 0.0, 0.0]))]
    fn correct(
        &mut self,
        id: u32,
        cell: u32,
        origin: [f32; 3],
        orientation: [f32; 4],
    ) -> PyResult<()> {
        let o = door::vec3(origin, "to.frame")?;
        let q = door::orientation(orientation, "to.frame.orientation")?;
        if cell == 0 {
            return Err(door::error("to.cell: cell 0 names no cell"));
        }
        let to = Position::new(cell, AFrame::new(o, q));
        self.world
            .correct(id, Correction::MoveTo(to))
            .map_err(host_error)
    }

    /// Refuse creature `id`'s move: its origin stays, its new orientation is kept.
    fn refuse(&mut self, id: u32) -> PyResult<()> {
        self.world.correct(id, Correction::Stay).map_err(host_error)
    }

    /// ACE's outdoor landblock rule on every outdoor proposal of the batch.
    fn apply_outdoor_rule(&mut self) -> PyResult<()> {
        self.world.apply_outdoor_rule().map_err(host_error)
    }

    /// Commit the current batch; True when the tick is complete, False when the next
    /// batch waits in `proposals()`.
    fn commit(&mut self) -> PyResult<bool> {
        self.world.commit().map_err(host_error)
    }

    fn __repr__(&self) -> String {
        format!(
            "AcWorld(creatures={}, clock={})",
            self.world.objects.len(),
            self.world.clock()
        )
    }
}

/// ACE's `LandDefs.AdjustToOutside`: `(cell, origin)` of the outdoor cell `origin` (in
/// `cell`'s landblock coordinates) lies in, or None past the map's edge.
#[pyfunction]
pub fn adjust_to_outside<'py>(
    py: Python<'py>,
    cell: u32,
    origin: [f32; 3],
) -> PyResult<Option<(u32, Bound<'py, PyArray1<f32>>)>> {
    let o = door::vec3(origin, "origin")?;
    Ok(landblock::adjust_to_outside(cell, o)
        .map(|(c, v)| (c, PyArray1::from_slice(py, &[v.x, v.y, v.z]))))
}
