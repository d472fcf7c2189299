//! [`AcRefSim`]: the conformance runner with the plain tick path.

use crate::scenario::{AcSim, Line, Step, TickPath};
use retroanim_core::{Scenario, ScenarioError, Simulation};

/// An ac scenario played through the reference tick ([`super::physics_obj`] for a lone
/// object, [`super::world`] with `setup.objects`); every other step, every check and
/// every trace line is [`AcSim`]'s. Same `Step` and `Line` types as [`AcSim`], so a
/// runner takes either.
pub struct AcRefSim {
    sim: AcSim,
}

impl AcRefSim {
    /// Play `sim` from its current state on through the reference tick.
    pub fn from_sim(mut sim: AcSim) -> AcRefSim {
        sim.path = TickPath::Reference;
        AcRefSim { sim }
    }

    /// The runner and its objects.
    pub fn sim(&self) -> &AcSim {
        &self.sim
    }

    /// The runner and its objects, to change between steps.
    pub fn sim_mut(&mut self) -> &mut AcSim {
        &mut self.sim
    }

    /// The runner back, still on the reference tick.
    pub fn into_inner(self) -> AcSim {
        self.sim
    }
}

impl Simulation for AcRefSim {
    type Step = Step;
    type Line = Line;

    fn load(scenario: &Scenario) -> Result<Self, ScenarioError> {
        AcSim::load(scenario).map(AcRefSim::from_sim)
    }

    fn snapshot(&self) -> Line {
        self.sim.snapshot()
    }

    fn apply(&mut self, index: usize, step: &Step, at: &str) -> Result<Line, ScenarioError> {
        self.sim.apply(index, step, at)
    }
}
