//! The two-phase tick: the engine proposes the frame each moved object would take, the
//! host accepts, corrects or refuses it (its collision, cell and landblock rules), then
//! the engine commits and runs the object's managers from the committed frame.
//!
//! In ACE this is `PhysicsObj.UpdateObjectInternal`: `UpdatePositionInternal` makes the
//! new frame, `transition(Position, newPos)` finds where the object may go, and
//! `SetPositionInternal(transition)` takes it before `HandleTargetting`,
//! `MovementManager.UseTime` and `PositionManager.UseTime` run (Q113–Q115 in
//! docs/ac.md). Here the transition is the host's.
//!
//! ```text
//! world.propose(dt)?;
//! loop {
//!     for p in world.proposals() { /* world.correct(p.id, ...)? */ }
//!     if world.commit()? { break; }   // true: the tick is complete
//! }
//! ```
//!
//! Proposals come in batches so that a host that changes nothing gets exactly the plain
//! [`World::tick`], bit for bit: objects that neither watch, chase nor stick to another
//! (nor are watched) only touch themselves, so a run of them is proposed together; an
//! object linked to others is proposed alone, after everything before it has committed,
//! as the plain tick orders it. A world of independent walkers is one batch.

use crate::interpolation::Position;
use crate::landblock;
use crate::math::{AFrame, Vec3};
use crate::physics_obj::PhysicsObj;
use crate::scenario::MIN_ORIENTATION_LENGTH_SQ;
use crate::world::{manager_steps, position_step, Registry, World};

/// The frame one object would take this tick (`newPos` of `UpdateObjectInternal`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proposal {
    /// Its object id.
    pub id: u32,
    /// Where it was before the tick's position step.
    pub from: Position,
    /// Where the step would put it: the new frame, in the cell it is in (the engine
    /// never changes a cell by itself).
    pub to: Position,
}

/// The host's answer to a [`Proposal`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Correction {
    /// Take the proposed frame (what a host that does nothing gets).
    Accept,
    /// Put the object here instead: a frame pushed back by a wall, a new cell or
    /// landblock (`SetPositionInternal` with the transition's `CurPos`).
    MoveTo(Position),
    /// Refuse the move: the origin stays, the new orientation is kept (a failed
    /// transition, Q115).
    Stay,
}

/// A refused call of the two-phase tick; nothing was changed by it unless it says so.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HostPhysicsError {
    #[error("no two-phase tick is open: call propose first")]
    NotOpen,
    #[error("a two-phase tick is already open: commit it before proposing or ticking again")]
    AlreadyOpen,
    #[error("object {0:#x} has no proposal in the current batch")]
    NotProposed(u32),
    #[error("correction of object {id:#x}: {what}")]
    Invalid { id: u32, what: String },
    #[error("the world's objects changed between propose and commit (an object was added, removed or moved away); the rest of the tick was abandoned")]
    WorldChanged,
}

/// One stepped object of the current batch.
#[derive(Clone, Copy, Debug)]
struct Stepped {
    index: usize,
    id: u32,
    /// Its proposal's place in `proposals`, when its origin moved.
    proposal: Option<usize>,
}

/// The state of a two-phase tick between its calls (reused from tick to tick, so a
/// steady two-phase tick allocates nothing).
#[derive(Default)]
pub struct HostTick {
    open: bool,
    dt: f64,
    /// The first object not yet proposed.
    next: usize,
    /// How many objects the world held when the tick began.
    count: usize,
    stepped: Vec<Stepped>,
    proposals: Vec<Proposal>,
    corrections: Vec<Correction>,
}

/// Whether the object's update can read or change another object: it watches or is
/// watched (target manager), sticks or interpolates (position manager), or has requests
/// waiting for others.
fn linked(o: &PhysicsObj) -> bool {
    o.target_manager.is_some() || o.position_manager.is_some() || !o.outbox.is_empty()
}

/// Check a host's position: finite, an orientation the engine can normalise, a cell.
fn checked(id: u32, p: &Position) -> Result<Position, HostPhysicsError> {
    let bad = |what: String| HostPhysicsError::Invalid { id, what };
    let o = p.frame.origin;
    let q = p.frame.orientation;
    for (name, v) in [("x", o.x), ("y", o.y), ("z", o.z)] {
        if !v.is_finite() {
            return Err(bad(format!("frame.origin.{name} is NaN or infinite")));
        }
    }
    for (name, v) in [("w", q.w), ("x", q.x), ("y", q.y), ("z", q.z)] {
        if !v.is_finite() {
            return Err(bad(format!("frame.orientation.{name} is NaN or infinite")));
        }
    }
    let len_sq = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if len_sq < MIN_ORIENTATION_LENGTH_SQ {
        return Err(bad(format!(
            "frame.orientation: [{}, {}, {}, {}] is too close to zero length to be an orientation (its squared length must be at least 1e-12)",
            q.w, q.x, q.y, q.z
        )));
    }
    if p.cell == 0 {
        return Err(bad("cell 0 names no cell".to_string()));
    }
    Ok(*p)
}

/// Take the host's answer for a proposal on the object (the frame step of
/// `UpdateObjectInternal` after its transition).
fn apply(o: &mut PhysicsObj, p: &Proposal, c: Correction, q: f64) {
    match c {
        Correction::Accept => {}
        Correction::MoveTo(to) => {
            // Q114: `CachedVelocity = Position.GetOffset(CurPos) / quantum`, the landblock
            // step included.
            o.cached_velocity = p.from.get_offset(&to).div(q as f32);
            o.frame = to.frame;
            o.cell = to.cell;
        }
        Correction::Stay => {
            // Q115: the origin goes back, the turn stays, and nothing moved.
            o.frame.origin = p.from.frame.origin;
            o.cached_velocity = Vec3::ZERO;
        }
    }
}

impl World {
    /// Begin a two-phase tick of `dt` seconds: the clock advances and the logs are
    /// cleared as [`World::tick`] does, then objects take their position step up to the
    /// first batch that holds a proposal ([`World::proposals`]; empty when nothing
    /// moved). The tick stays open until [`World::commit`] says it is complete. Refused
    /// while a two-phase tick is open.
    pub fn propose(&mut self, dt: f64) -> Result<&[Proposal], HostPhysicsError> {
        if self.host.open {
            return Err(HostPhysicsError::AlreadyOpen);
        }
        self.start_tick(dt);
        self.host.open = true;
        self.host.dt = dt;
        self.host.next = 0;
        self.host.count = self.objects.len();
        self.next_batch();
        Ok(&self.host.proposals)
    }

    /// Whether a two-phase tick is open (between [`World::propose`] and the
    /// [`World::commit`] that completes it).
    pub fn tick_open(&self) -> bool {
        self.host.open
    }

    /// The current batch's proposals, in update order (empty when no tick is open).
    pub fn proposals(&self) -> &[Proposal] {
        &self.host.proposals
    }

    /// Answer object `id`'s proposal in the current batch (the last answer counts). A
    /// [`Correction::MoveTo`] is checked first: finite numbers, an orientation whose
    /// squared length is at least 1e-12 (taken as given otherwise), a cell other than 0.
    pub fn correct(&mut self, id: u32, correction: Correction) -> Result<(), HostPhysicsError> {
        if !self.host.open {
            return Err(HostPhysicsError::NotOpen);
        }
        let k = self
            .host
            .proposals
            .iter()
            .position(|p| p.id == id)
            .ok_or(HostPhysicsError::NotProposed(id))?;
        let c = match correction {
            Correction::MoveTo(p) => Correction::MoveTo(checked(id, &p)?),
            c => c,
        };
        self.host.corrections[k] = c;
        Ok(())
    }

    /// ACE's outdoor rule on every proposal of the current batch that is in an outdoor
    /// cell ([`landblock::adjust_to_outside`]): the cell and landblock its proposed
    /// origin lies in, the origin brought into that landblock; a move past the map's
    /// edge is refused ([`Correction::Stay`]), as ACE's transition collides there. Indoor
    /// proposals are left to the host. Replaces earlier corrections of those proposals.
    pub fn apply_outdoor_rule(&mut self) -> Result<(), HostPhysicsError> {
        if !self.host.open {
            return Err(HostPhysicsError::NotOpen);
        }
        let h = &mut self.host;
        for (p, c) in h.proposals.iter().zip(h.corrections.iter_mut()) {
            if !landblock::is_outdoor(p.to.cell) {
                continue;
            }
            *c = match landblock::adjust_to_outside(p.to.cell, p.to.frame.origin) {
                None => Correction::Stay,
                Some((cell, origin)) => {
                    let to = Position::new(cell, AFrame::new(origin, p.to.frame.orientation));
                    if cell == p.to.cell && origin == p.to.frame.origin {
                        Correction::Accept
                    } else {
                        Correction::MoveTo(to)
                    }
                }
            };
        }
        Ok(())
    }

    /// Commit the current batch: each stepped object takes its answer (a proposal never
    /// answered is accepted), then its managers run, in update order. Then the tick goes
    /// on to the next batch with a proposal. `Ok(true)` when the tick is complete,
    /// `Ok(false)` when [`World::proposals`] holds the next batch.
    pub fn commit(&mut self) -> Result<bool, HostPhysicsError> {
        if !self.host.open {
            return Err(HostPhysicsError::NotOpen);
        }
        self.commit_batch()?;
        if self.host.next < self.objects.len() {
            self.next_batch();
            if !self.host.proposals.is_empty() {
                return Ok(false);
            }
        }
        self.host.open = false;
        self.host.stepped.clear();
        Ok(true)
    }

    /// A whole two-phase tick with the host's answers given by `host` (called once per
    /// proposal, in update order). An answer [`World::correct`] refuses stops it there
    /// with the error, the tick still open: [`World::commit`] until it is complete.
    pub fn tick_hosted(
        &mut self,
        dt: f64,
        mut host: impl FnMut(&Proposal) -> Correction,
    ) -> Result<(), HostPhysicsError> {
        self.propose(dt)?;
        loop {
            for k in 0..self.host.proposals.len() {
                let c = host(&self.host.proposals[k]);
                let id = self.host.proposals[k].id;
                self.correct(id, c)?;
            }
            if self.commit()? {
                return Ok(());
            }
        }
    }

    /// Step objects from `next` on until a batch holds a proposal or every object has
    /// stepped; batches without a proposal commit at once (the tick stays open for the
    /// host's last [`World::commit`]).
    fn next_batch(&mut self) {
        loop {
            let h = &mut self.host;
            h.stepped.clear();
            h.proposals.clear();
            h.corrections.clear();
            let dt = h.dt;
            let start = h.next;
            let n = self.objects.len();
            while self.host.next < n {
                let i = self.host.next;
                let is_linked = linked(&self.objects[i]);
                if is_linked && i > start {
                    break;
                }
                let from = self.objects[i].position();
                let stepped = position_step(&mut self.objects, i, dt);
                self.host.next += 1;
                if stepped {
                    let o = &self.objects[i];
                    let moved = !o.frame.ace_equals(&from.frame);
                    let proposal = moved.then(|| {
                        self.host.proposals.push(Proposal {
                            id: o.id,
                            from,
                            to: o.position(),
                        });
                        self.host.corrections.push(Correction::Accept);
                        self.host.proposals.len() - 1
                    });
                    self.host.stepped.push(Stepped {
                        index: i,
                        id: o.id,
                        proposal,
                    });
                }
                if is_linked {
                    break;
                }
            }
            if !self.host.proposals.is_empty() {
                return;
            }
            // Nothing for the host to answer: commit (cannot fail, nothing changed in
            // between) and go on.
            let _ = self.commit_batch();
            self.host.stepped.clear();
            if self.host.next >= n {
                return;
            }
        }
    }

    /// Each stepped object of the batch takes its answer, then runs its managers.
    fn commit_batch(&mut self) -> Result<(), HostPhysicsError> {
        let h = &mut self.host;
        let unchanged = self.objects.len() == h.count
            && h.stepped
                .iter()
                .all(|s| self.objects.find(s.id) == Some(s.index));
        if !unchanged {
            h.open = false;
            h.stepped.clear();
            h.proposals.clear();
            h.corrections.clear();
            return Err(HostPhysicsError::WorldChanged);
        }
        let dt = h.dt;
        for k in 0..self.host.stepped.len() {
            let s = self.host.stepped[k];
            if let Some(pk) = s.proposal {
                let (p, c) = (self.host.proposals[pk], self.host.corrections[pk]);
                apply(&mut self.objects[s.index], &p, c, dt);
            }
            manager_steps(&mut self.objects, s.index);
        }
        Ok(())
    }
}
