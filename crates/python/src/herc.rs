//! Earthsiege 2 HERCs: a DTS shape (from asset JSON, a DTS file's bytes or a VOL archive)
//! played by animation threads in the game's 25 Hz fixed-point time.

use crate::door;
use numpy::{PyArray1, PyArray3};
use pyo3::prelude::*;
use retroanim_herc::animated_shape::ThreadId;
use retroanim_herc::{AnimatedShape, Model};

/// A shape with its sequences and transitions.
#[pyclass(frozen, module = "retroanim")]
pub struct HercModel {
    model: Model,
}

fn loaded(r: Result<Model, retroanim_herc::model::LoadError>) -> PyResult<HercModel> {
    r.map(|model| HercModel { model })
        .map_err(|e| door::error(e.to_string()))
}

/// A sequence given as its number or its name in the asset.
#[derive(FromPyObject)]
pub enum SequenceRef {
    Number(i16),
    Name(String),
}

impl HercModel {
    fn sequence(&self, s: &SequenceRef) -> PyResult<i16> {
        match s {
            SequenceRef::Number(n) => Ok(*n),
            SequenceRef::Name(name) => self
                .model
                .sequence_named(name)
                .ok_or_else(|| door::error(format!("sequence: no sequence named '{name}'"))),
        }
    }
}

#[pymethods]
impl HercModel {
    /// Load retroanim's asset JSON (`assets/herc/biped.json`).
    #[staticmethod]
    fn from_json(path: std::path::PathBuf) -> PyResult<Self> {
        loaded(Model::from_json_file(&path))
    }

    /// Load the DTS shape `entry` out of a VOL archive (`SIMVOL0.VOL`, `"HERC0.DTS"`).
    #[staticmethod]
    fn from_vol(path: std::path::PathBuf, entry: &str) -> PyResult<Self> {
        loaded(Model::from_vol(&path, entry))
    }

    /// Load a DTS shape from its bytes; `label` names it in errors.
    #[staticmethod]
    fn from_dts_bytes(data: &[u8], label: &str) -> PyResult<Self> {
        loaded(Model::from_dts_bytes(data, label))
    }

    #[getter]
    fn node_count(&self) -> usize {
        self.model.node_count()
    }

    #[getter]
    fn sequence_count(&self) -> usize {
        self.model.sequence_count()
    }

    /// The number of the sequence named `name`, or None.
    fn sequence_named(&self, name: &str) -> Option<i16> {
        self.model.sequence_named(name)
    }

    /// The sequences' names in order (None where the file has none).
    fn sequence_names(&self) -> Vec<Option<String>> {
        self.model
            .anim_list()
            .sequences()
            .iter()
            .map(|s| s.name.clone())
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "HercModel(nodes={}, sequences={})",
            self.model.node_count(),
            self.model.sequence_count()
        )
    }
}

/// A shape being played: threads, the pose, root motion into the world.
#[pyclass(unsendable, module = "retroanim")]
pub struct HercShape {
    model: Py<HercModel>,
    shape: AnimatedShape,
}

fn control(r: Result<(), retroanim_herc::animated_shape::ControlError>) -> PyResult<()> {
    r.map_err(|e| door::error(e.to_string()))
}

#[pymethods]
impl HercShape {
    #[new]
    fn new(model: Py<HercModel>) -> Self {
        let shape = AnimatedShape::new(&model.get().model);
        HercShape { model, shape }
    }

    /// Add a thread playing `sequence` (number or name); returns its thread number.
    fn add_thread(&mut self, sequence: SequenceRef) -> PyResult<usize> {
        let seq = self.model.get().sequence(&sequence)?;
        self.shape
            .add_thread(seq)
            .map(|t| t.0)
            .map_err(|e| door::error(e.to_string()))
    }

    /// Ask `thread` to go to `sequence` through the model's transitions (at `frame`, or
    /// where they lead); with `stop_on_arrival` it holds there.
    #[pyo3(signature = (thread, sequence, frame=None, stop_on_arrival=false))]
    fn request(
        &mut self,
        thread: usize,
        sequence: SequenceRef,
        frame: Option<i16>,
        stop_on_arrival: bool,
    ) -> PyResult<()> {
        let seq = self.model.get().sequence(&sequence)?;
        control(
            self.shape
                .request(ThreadId(thread), seq, frame, stop_on_arrival),
        )
    }

    /// Jump `thread` to position `pos` of `sequence` (a Q14 fraction: 16384 is its end).
    fn seek(&mut self, thread: usize, sequence: SequenceRef, pos: i32) -> PyResult<()> {
        let seq = self.model.get().sequence(&sequence)?;
        control(self.shape.seek(ThreadId(thread), seq, pos))
    }

    /// Set `thread`'s Q8 rate (256 is normal speed, negative plays backwards).
    fn set_rate(&mut self, thread: usize, rate: i16) -> PyResult<()> {
        control(self.shape.set_rate(ThreadId(thread), rate))
    }

    /// Advance by `ms` milliseconds (the game steps 40 ms, 25 Hz).
    #[pyo3(signature = (ms=40))]
    fn step(&mut self, ms: i64) -> PyResult<()> {
        control(self.shape.step_ms(ms))
    }

    /// The parts' world matrices as the engine holds them: rotation rows in Q14
    /// (16384 = 1.0), int16, shape `(nodes, 3, 3)`.
    fn rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<i16>>> {
        let rows: Vec<Vec<Vec<i16>>> = self
            .shape
            .world()
            .iter()
            .map(|t| t.rows().iter().map(|r| r.to_vec()).collect())
            .collect();
        PyArray3::from_vec3(py, &rows).map_err(|e| door::error(e.to_string()))
    }

    /// The parts' world translations in the game's integer units, int32, shape `(nodes, 3)`.
    fn translations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray2<i32>>> {
        let rows: Vec<Vec<i32>> = self.shape.world().iter().map(|t| t.t.to_vec()).collect();
        numpy::PyArray2::from_vec2(py, &rows).map_err(|e| door::error(e.to_string()))
    }

    /// The machine's place in the world (root motion integrated): int32 `[x, y, z]`.
    #[getter]
    fn position<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        PyArray1::from_slice(py, &self.shape.object().position)
    }

    /// The machine's heading as fixed-point Euler angles: int16 `[x, y, z]`.
    #[getter]
    fn euler<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i16>> {
        PyArray1::from_slice(py, &self.shape.object().euler)
    }
}
