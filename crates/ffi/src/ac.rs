//! AC worlds: motion tables loaded from a record source, and creatures on them that
//! move to each other by id (the `World` of retroanim-ac).

use crate::args;
use crate::handle::{self, Own, Table};
use crate::record_cache::RecordSource;
use crate::status::{guard, Error, RaStatus, Result};
use retroanim_ac::commands::{HoldKey, MovementParameters, WeenieError, NON_COMBAT, READY};
use retroanim_ac::interpolation::Position;
use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::motion_interp::motion_allows_jump;
use retroanim_ac::physics_obj::{PhysicsObj, DEFAULT_CELL};
use retroanim_ac::scenario::{check_dt, check_target, MIN_ORIENTATION_LENGTH_SQ};
use retroanim_ac::scenario_world::DEFAULT_CLOCK;
use retroanim_ac::target_manager::TargetStatus;
use retroanim_ac::wire::{
    JumpPack, MoveToState, MovementData, Reader, Sequences, UpdateMotion, WireError,
};
use retroanim_ac::world::{self, Registry};
use retroanim_ac::{Creature, Loader, MotionError, MotionSet, World};
use std::collections::HashMap;
use std::ffi::c_char;
use std::sync::{Arc, Mutex};

/// An AC world, with its own lock (calls on different worlds run in parallel). 0 is the
/// null handle. Creatures inside it are numbered 0, 1, 2, ... in the order they were
/// added (or moved in) and live until removed, moved away or the world is freed; an
/// index is never reused. Each also has an object id (by default its index + 1), which
/// is how move-to calls name their target.
pub type RaAcWorld = u64;

/// A vector (units, or units per second).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaVec3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// A unit quaternion, w first as in ACE.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaQuat {
    pub w: f32,
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// An origin and an orientation: a creature in its cell, or one part in its parent's
/// coordinates.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaAcFrame {
    pub origin: RaVec3,
    pub orientation: RaQuat,
}

/// Where a creature is: its cell and its frame in that cell.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaAcPosition {
    pub cell: u32,
    pub frame: RaAcFrame,
}

/// How a new creature starts. Fill it with `ra_ac_creature_desc_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaAcCreatureDesc {
    pub cell: u32,
    pub frame: RaAcFrame,
    /// What `InqRunRate` reports (1.0 by default).
    pub run_rate: f32,
    /// 1: a creature weenie (walk turns into run when holding Run); 0: not.
    pub creature_weenie: u8,
    /// 1: starts in the air (no contact); 0: on walkable ground.
    pub airborne: u8,
    /// 1: starts outside any cell; 0: in its cell.
    pub outside_cell: u8,
    /// Its object id, unique in the world; 0 (the default) means index + 1.
    pub id: u32,
    /// Its Setup radius and height, which others' move-to and sticky distances use
    /// (0 by default).
    pub radius: f32,
    pub height: f32,
}

/// Parameters of a move-to or turn-to (ACE's `MovementParameters`, every field). Fill
/// it with `ra_ac_move_params_default` first. Flags are 1 (set) or 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaAcMoveParams {
    /// Arrive this close (units; between the cylinders when `use_spheres`).
    pub distance_to_object: f32,
    /// With `move_away`: keep at least this far.
    pub min_distance: f32,
    /// Give up (`YouChargedTooFar`) once this far from the start.
    pub fail_distance: f32,
    pub speed: f32,
    /// Farther than this, a mover that may run runs.
    pub walk_run_threshold: f32,
    /// Heading in degrees for `ra_ac_turn_to_heading` (and the final turn with
    /// `use_final_heading`).
    pub desired_heading: f32,
    /// `HoldKey`: 0 invalid, 1 none, 2 run.
    pub hold_key_to_apply: u32,
    pub context_id: i32,
    pub action_stamp: i32,
    pub can_walk: u8,
    pub can_run: u8,
    pub can_sidestep: u8,
    pub can_walk_backwards: u8,
    pub can_charge: u8,
    pub fail_walk: u8,
    pub use_final_heading: u8,
    pub sticky: u8,
    pub move_away: u8,
    pub move_towards: u8,
    pub use_spheres: u8,
    pub set_hold_key: u8,
    pub modify_raw_state: u8,
    pub modify_interpreted_state: u8,
    pub cancel_moveto: u8,
    pub stop_completely: u8,
    pub autonomous: u8,
    pub disable_jump_during_link: u8,
}

/// One creature's move-to state: what it is moving or turning to, its managers, and
/// how its moves ended (`ra_ac_moveto_info`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaAcMoveToInfo {
    /// Its object id.
    pub id: u32,
    /// 1 while a move-to or turn-to is in progress.
    pub moving_to: u8,
    /// ACE's `MovementType` of that move: 6 MoveToObject, 7 MoveToPosition,
    /// 8 TurnToObject, 9 TurnToHeading; 0 when none.
    pub movement_type: u32,
    /// The motion the move is driving now (`WALK_FORWARD`, a turn, ...), 0 when none.
    pub current_command: u32,
    /// The turn it runs beside the forward motion, 0 when none.
    pub aux_command: u32,
    /// Movement nodes still queued (turn, move, final turn).
    pub node_count: u32,
    /// The object it moves or turns to, 0 when none.
    pub sought_object: u32,
    /// Where it is heading now (the target's last reported position, or the point).
    pub target_position: RaAcPosition,
    /// 1 while moving away from the target (`move_away`).
    pub moving_away: u8,
    /// The object its target manager watches (shared by move-to and sticky), 0 when none.
    pub watching: u32,
    /// How many objects watch it (its voyeurs).
    pub voyeur_count: u32,
    /// The object it sticks to, 0 when none.
    pub sticky_target: u32,
    /// 1 while constrained (`ra_ac_constrain_to`).
    pub constrained: u8,
    /// How many moves ended during the last call (tick or command) on it.
    pub completions: u32,
    /// 1 once a move has ended; `last_completion` is then its `WeenieError`
    /// (0 = arrived).
    pub has_completed: u8,
    pub last_completion: u32,
}

/// Parameters of a motion command (ACE's `MovementParameters`, the fields hosts set).
/// Fill it with `ra_ac_motion_params_default` first.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaAcMotionParams {
    pub speed: f32,
    /// `HoldKey`: 0 invalid, 1 none, 2 run.
    pub hold_key_to_apply: u32,
    pub set_hold_key: u8,
    pub autonomous: u8,
    pub action_stamp: i32,
}

/// A client's raw motion state for `ra_ac_move_to_state`, as ACE's
/// `OnMoveToState_ServerMethod` receives it. 0 means "absent": style NON_COMBAT,
/// forward READY, speed 1.0, hold key invalid.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaAcRawState {
    pub current_style: u32,
    pub forward_command: u32,
    pub forward_speed: f32,
    pub forward_hold_key: u32,
    pub sidestep_command: u32,
    pub sidestep_speed: f32,
    pub sidestep_hold_key: u32,
    pub turn_command: u32,
    pub turn_speed: f32,
    pub turn_hold_key: u32,
    pub current_hold_key: u32,
}

/// One creature's state.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RaAcState {
    pub position: RaAcPosition,
    /// The velocity the last tick moved it at (animation and physics; world axes).
    pub velocity: RaVec3,
    /// The interpreter's style and forward motion (command ids).
    pub style: u32,
    pub motion: u32,
    /// The substate the motion table plays (lags `motion` while a link plays).
    pub table_substate: u32,
    /// The animation id playing, 0 when none.
    pub animation: u32,
    pub frame_number: f32,
    /// How many part frames `ra_ac_part_frames` returns now.
    pub part_count: u32,
    pub active: u8,
}

pub(crate) struct AcWorld {
    /// Where its records come from, shared with the other worlds opened on the same
    /// folder or DAT (the `record_cache` module); read with the world unlocked.
    pub(crate) records: Arc<RecordSource>,
    /// The motion sets its creatures were added with, by first use.
    pub(crate) tables: Vec<MotionSet>,
    pub(crate) world: World,
    /// Creature index `i` is the object with id `slots[i]`; 0 marks a creature removed
    /// or moved to another world. Indices are never reused, so an index a host still
    /// holds never names another creature.
    pub(crate) slots: Vec<u32>,
    /// The index of each creature in the world, by id.
    pub(crate) index_of: HashMap<u32, u32>,
    /// Each creature's message sequence counters, by id (made when first written).
    pub(crate) seqs: HashMap<u32, Sequences>,
    /// Whether creatures record events for `ra_ac_world_events` (off by default).
    pub(crate) events: bool,
}

impl AcWorld {
    /// The id of creature index `i`.
    pub(crate) fn id(&self, i: u32) -> Result<u32> {
        let n = self.slots.len();
        match self.slots.get(i as usize) {
            None => Err(Error::invalid(format!(
                "creature {i} does not exist (the world has {n})"
            ))),
            Some(0) => Err(Error::invalid(format!(
                "creature {i} was removed from this world or moved to another"
            ))),
            Some(&id) => Ok(id),
        }
    }

    /// Where creature index `i` sits in the world's update order.
    pub(crate) fn index(&self, i: u32) -> Result<usize> {
        let id = self.id(i)?;
        self.world
            .objects
            .find(id)
            .ok_or_else(|| Error::new(RaStatus::Internal, format!("creature {i} is lost")))
    }

    pub(crate) fn creature(&mut self, i: u32) -> Result<&mut PhysicsObj> {
        let i = self.index(i)?;
        Ok(&mut self.world.objects[i])
    }

    /// Register an object already in `world` under the next index.
    fn push_slot(&mut self, id: u32) -> u32 {
        let index = self.slots.len() as u32;
        self.slots.push(id);
        self.index_of.insert(id, index);
        index
    }

    /// The next index, refused once indices have run out.
    fn next_index(&self) -> Result<u32> {
        u32::try_from(self.slots.len())
            .ok()
            .filter(|i| *i < u32::MAX)
            .ok_or_else(|| Error::invalid("the world has issued every creature index"))
    }

    /// Take creature index `i` out of the world; its index stays retired.
    fn take(&mut self, i: u32) -> Result<Box<PhysicsObj>> {
        let id = self.id(i)?;
        let obj = self
            .world
            .take(id)
            .ok_or_else(|| Error::new(RaStatus::Internal, format!("creature {i} is lost")))?;
        self.slots[i as usize] = 0;
        self.index_of.remove(&id);
        self.seqs.remove(&id);
        Ok(obj)
    }
}

/// Each world has its own lock; this table's lock is held only to look a handle up.
pub(crate) static WORLDS: Mutex<Table<Own<AcWorld>>> = Mutex::new(Table::new(2, "AC world"));

pub(crate) fn v3(v: Vec3) -> RaVec3 {
    RaVec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    }
}

pub(crate) fn frame_out(f: &AFrame) -> RaAcFrame {
    let q = f.orientation;
    RaAcFrame {
        origin: v3(f.origin),
        orientation: RaQuat {
            w: q.w,
            x: q.x,
            y: q.y,
            z: q.z,
        },
    }
}

pub(crate) fn frame_in(f: &RaAcFrame, what: &str) -> Result<AFrame> {
    let o = f.origin;
    let q = f.orientation;
    if ![o.x, o.y, o.z, q.w, q.x, q.y, q.z]
        .iter()
        .all(|v| v.is_finite())
    {
        return Err(Error::invalid(format!("{what}: NaN or infinite component")));
    }
    // Accepted as given (the engine normalises where ACE does), as the scenario runner
    // does; only a length normalising cannot divide by is refused.
    let len_sq = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if len_sq < MIN_ORIENTATION_LENGTH_SQ {
        return Err(Error::invalid(format!(
            "{what}.orientation: [{}, {}, {}, {}] is too close to zero length to be an orientation (its squared length must be at least 1e-12)",
            q.w, q.x, q.y, q.z
        )));
    }
    Ok(AFrame {
        origin: Vec3::new(o.x, o.y, o.z),
        orientation: Quat::new(q.w, q.x, q.y, q.z),
    })
}

fn hold_key(v: u32, what: &str) -> Result<HoldKey> {
    match v {
        0 => Ok(HoldKey::Invalid),
        1 => Ok(HoldKey::None),
        2 => Ok(HoldKey::Run),
        _ => Err(Error::invalid(format!(
            "{what}: hold key {v} (expected 0, 1 or 2)"
        ))),
    }
}

/// A C flag: 0 or 1, anything else refused (a host passing 7 most likely passed the
/// wrong argument).
pub(crate) fn flag(v: u8, what: &str) -> Result<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Error::invalid(format!("{what}: {v} (expected 0 or 1)"))),
    }
}

/// A move-to, turn-to or stick target: neither the mover itself nor id 0, which no
/// object has (such a move would wait forever).
fn target_of(mover: u32, target: u32) -> Result<u32> {
    check_target(mover, target).map_err(|e| Error::invalid(format!("target: {e}")))
}

pub(crate) fn finite(v: f32, what: &str) -> Result<f32> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::invalid(format!("{what} is NaN or infinite")))
    }
}

fn motion(r: std::result::Result<(), MotionError>) -> Result<()> {
    r.map_err(|e| Error {
        status: RaStatus::Refused,
        message: format!("{e} (WeenieError {:#x})", e.code()),
        code: e.code(),
    })
}

fn params(p: Option<&RaAcMotionParams>) -> Result<MovementParameters> {
    let d = MovementParameters::default();
    let Some(p) = p else { return Ok(d) };
    Ok(MovementParameters {
        speed: finite(p.speed, "params.speed")?,
        hold_key_to_apply: hold_key(p.hold_key_to_apply, "params.hold_key_to_apply")?,
        set_hold_key: flag(p.set_hold_key, "params.set_hold_key")?,
        autonomous: flag(p.autonomous, "params.autonomous")?,
        action_stamp: p.action_stamp,
        ..d
    })
}

pub(crate) fn on(world: RaAcWorld, f: impl FnOnce(&mut AcWorld) -> Result<()>) -> RaStatus {
    guard(|| handle::with_own(&WORLDS, world, f))
}

/// Run `f` on creature `c` (its logs cleared first, so they tell what this call did),
/// then carry out what it asked of other objects.
pub(crate) fn on_creature(
    world: RaAcWorld,
    c: u32,
    f: impl FnOnce(&mut PhysicsObj) -> Result<()>,
) -> RaStatus {
    on(world, |w| {
        let i = w.index(c)?;
        let obj = &mut w.world.objects[i];
        obj.clear_logs();
        let r = f(obj);
        world::flush(&mut w.world.objects, i);
        r
    })
}

fn create(records: Arc<RecordSource>, out: *mut RaAcWorld) -> Result<()> {
    let h = handle::insert_own(
        &WORLDS,
        AcWorld {
            records,
            tables: Vec::new(),
            world: World::new(DEFAULT_CLOCK),
            slots: Vec::new(),
            index_of: HashMap::new(),
            seqs: HashMap::new(),
            events: false,
        },
    )?;
    // SAFETY: every caller passes its own caller's `out`, under the same guarantee.
    unsafe { args::put(out, h, "out") }
}

/// A world reading records from a folder of `<id>.bin` files (hex id, as the bundled
/// sample records). Records are read when a creature first needs them, and shared
/// with every other world open on the same folder (docs/embedding.md, "Record cache").
///
/// Ownership: `*out` receives a new handle; free it with `ra_ac_world_free`.
///
/// # Safety
/// `dir` is NUL-terminated UTF-8; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_new_dir(dir: *const c_char, out: *mut RaAcWorld) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantee for `dir`.
        let dir = unsafe { args::text(dir, "dir")? };
        create(RecordSource::open_dir(dir), out)
    })
}

/// A world reading records from a DAT container file, sharing the records it parses
/// with every other world open on the same, unchanged file.
///
/// Ownership: `*out` receives a new handle; free it with `ra_ac_world_free`.
///
/// # Safety
/// `path` is NUL-terminated UTF-8; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_new_dat(path: *const c_char, out: *mut RaAcWorld) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantee for `path`.
        let path = unsafe { args::text(path, "path")? };
        create(RecordSource::open_dat(path).map_err(Error::load)?, out)
    })
}

/// A world on records given as bytes: `count` records, record `i` being `lens[i]`
/// bytes at `records[i]` (MotionTables and Animations, told apart by their ids). The
/// first bad record fails the call and nothing is created.
///
/// Ownership: the bytes are copied; `*out` receives a new handle; free it with
/// `ra_ac_world_free`.
///
/// # Safety
/// `records` and `lens` point to `count` entries each; each record pointer points to
/// `lens[i]` readable bytes; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_new_records(
    records: *const *const u8,
    lens: *const usize,
    count: usize,
    out: *mut RaAcWorld,
) -> RaStatus {
    guard(|| {
        if count > 0 && (records.is_null() || lens.is_null()) {
            return Err(Error::null("records or lens"));
        }
        if count > isize::MAX as usize / 8 {
            return Err(Error::invalid("count is too large"));
        }
        let (ptrs, sizes): (&[*const u8], &[usize]) = if count == 0 {
            (&[], &[])
        } else {
            // SAFETY: both non-null and, by the caller's guarantee, `count` entries long.
            unsafe {
                (
                    std::slice::from_raw_parts(records, count),
                    std::slice::from_raw_parts(lens, count),
                )
            }
        };
        let mut slices = Vec::with_capacity(count);
        for (i, (p, n)) in ptrs.iter().zip(sizes).enumerate() {
            // SAFETY: the caller guarantees record `i` holds `lens[i]` readable bytes.
            slices.push(unsafe { args::bytes(*p, *n, &format!("records[{i}]"))? });
        }
        let loader = Loader::from_bytes("<records>", slices).map_err(Error::load)?;
        create(RecordSource::private(loader), out)
    })
}

/// Free a world and its creatures. 0 is accepted and does nothing.
#[no_mangle]
pub extern "C" fn ra_ac_world_free(world: RaAcWorld) -> RaStatus {
    guard(|| handle::free_own(&WORLDS, world))
}

/// The defaults of a new creature: cell 0x7D640013, at the origin, identity
/// orientation, run rate 1, a creature weenie on walkable ground in its cell, id
/// index + 1, radius and height 0.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_creature_desc_default(out: *mut RaAcCreatureDesc) -> RaStatus {
    guard(|| {
        let d = RaAcCreatureDesc {
            cell: DEFAULT_CELL,
            frame: frame_out(&AFrame::IDENTITY),
            run_rate: 1.0,
            creature_weenie: 1,
            airborne: 0,
            outside_cell: 0,
            id: 0,
            radius: 0.0,
            height: 0.0,
        };
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, d, "out") }
    })
}

/// The defaults of a motion command (speed 1, hold key invalid, ...).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_motion_params_default(out: *mut RaAcMotionParams) -> RaStatus {
    guard(|| {
        let d = MovementParameters::default();
        let p = RaAcMotionParams {
            speed: d.speed,
            hold_key_to_apply: d.hold_key_to_apply as u32,
            set_hold_key: u8::from(d.set_hold_key),
            autonomous: u8::from(d.autonomous),
            action_stamp: d.action_stamp,
        };
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, p, "out") }
    })
}

/// Add a creature on motion table `table_id` (loaded from the world's records on
/// first use, with its animations). `desc` may be null for every default. `*out`
/// (nullable) receives the creature's index. An id already in the world is refused
/// with `RA_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `desc` is null or valid; `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_add_creature(
    world: RaAcWorld,
    table_id: u32,
    desc: *const RaAcCreatureDesc,
    out: *mut u32,
) -> RaStatus {
    guard(|| {
        // SAFETY: the caller's guarantee for `desc`.
        let desc = unsafe { args::optional(desc) };
        let (radius, height) = match desc {
            Some(d) => (
                finite(d.radius, "desc.radius")?,
                finite(d.height, "desc.height")?,
            ),
            None => (0.0, 0.0),
        };
        // Records are read with the world unlocked: a slow folder or DAT holds up
        // nothing but this call.
        let (cached, records) = handle::with_own(&WORLDS, world, |w| {
            let cached = w.tables.iter().find(|t| t.table_id() == table_id).cloned();
            Ok((cached, Arc::clone(&w.records)))
        })?;
        let set = match cached {
            Some(t) => t,
            None => records.motion_set(table_id).map_err(Error::load)?,
        };
        let mut b = Creature::builder(&set);
        if let Some(d) = desc {
            b = b
                .cell(d.cell)
                .origin(frame_in(&d.frame, "desc.frame")?.origin)
                .orientation(frame_in(&d.frame, "desc.frame")?.orientation)
                .run_rate(finite(d.run_rate, "desc.run_rate")?)
                .creature_weenie(flag(d.creature_weenie, "desc.creature_weenie")?);
            if flag(d.airborne, "desc.airborne")? {
                b = b.airborne();
            }
            if flag(d.outside_cell, "desc.outside_cell")? {
                b = b.outside_cell();
            }
        }
        let creature = b.build();
        let index = handle::with_own(&WORLDS, world, |w| {
            let index = w.next_index()?;
            let id = desc.map_or(0, |d| d.id);
            let id = if id == 0 { index + 1 } else { id };
            if w.world.objects.find(id).is_some() {
                return Err(Error::invalid(format!(
                    "id {id:#x} is already taken in this world"
                )));
            }
            if !w.tables.iter().any(|t| t.table_id() == table_id) {
                w.tables.push(set.clone());
            }
            w.world.add_creature(id, radius, height, creature);
            if w.events {
                if let Some(o) = w.world.get_mut(id) {
                    o.enable_events();
                }
            }
            Ok(w.push_slot(id))
        })?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put_optional(out, index) };
        Ok(())
    })
}

/// How many creature indices the world has issued: the creatures added or moved in,
/// those since removed or moved away included (their indices stay retired).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_creature_count(world: RaAcWorld, out: *mut u32) -> RaStatus {
    on(world, |w| {
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, w.slots.len() as u32, "out") }
    })
}

/// `DoMotion`: start a substate, a style, a turn, a sidestep, an action or a modifier.
/// `params` may be null for the defaults. A refusal returns `RA_STATUS_REFUSED` with
/// ACE's `WeenieError` in `ra_last_error_code`.
///
/// # Safety
/// `params` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_do_motion(
    world: RaAcWorld,
    creature: u32,
    command: u32,
    params: *const RaAcMotionParams,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `params`.
    let p = unsafe { args::optional(params) }.copied();
    on_creature(world, creature, |c| {
        motion(MotionError::check(
            c.do_motion(command, &self::params(p.as_ref())?),
        ))
    })
}

/// `StopMotion`. `params` may be null for the defaults.
///
/// # Safety
/// `params` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_stop_motion(
    world: RaAcWorld,
    creature: u32,
    command: u32,
    params: *const RaAcMotionParams,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `params`.
    let p = unsafe { args::optional(params) }.copied();
    on_creature(world, creature, |c| {
        motion(MotionError::check(
            c.stop_motion(command, &self::params(p.as_ref())?),
        ))
    })
}

/// `StopCompletely`: back to the style's default substate.
#[no_mangle]
pub extern "C" fn ra_ac_stop_completely(world: RaAcWorld, creature: u32) -> RaStatus {
    on_creature(world, creature, |c| {
        motion(MotionError::check(c.stop_completely()))
    })
}

/// Hold (1) or release (0) the Run key.
#[no_mangle]
pub extern "C" fn ra_ac_set_hold_run(world: RaAcWorld, creature: u32, run: u8) -> RaStatus {
    on_creature(world, creature, |c| {
        c.mi_set_hold_run(i32::from(flag(run, "run")?), true);
        Ok(())
    })
}

/// `OnMoveToState` (the server applying a client's raw motion state); with
/// `standing_long_jump` the forward and sidestep commands are dropped first.
///
/// # Safety
/// `raw` is valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_move_to_state(
    world: RaAcWorld,
    creature: u32,
    raw: *const RaAcRawState,
    standing_long_jump: u8,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `raw`.
    let raw = unsafe { args::optional(raw) }.copied();
    on_creature(world, creature, |c| {
        let raw = raw.ok_or_else(|| Error::null("raw"))?;
        let or = |v: u32, d: u32| if v == 0 { d } else { v };
        let speed = |v: f32, what: &str| finite(v, what).map(|s| if s == 0.0 { 1.0 } else { s });
        let (fs, ss, ts) = (
            speed(raw.forward_speed, "raw.forward_speed")?,
            speed(raw.sidestep_speed, "raw.sidestep_speed")?,
            speed(raw.turn_speed, "raw.turn_speed")?,
        );
        let keys = [
            hold_key(raw.current_hold_key, "raw.current_hold_key")?,
            hold_key(raw.forward_hold_key, "raw.forward_hold_key")?,
            hold_key(raw.sidestep_hold_key, "raw.sidestep_hold_key")?,
            hold_key(raw.turn_hold_key, "raw.turn_hold_key")?,
        ];
        let obj = c;
        let r = &mut obj.minterp_mut().raw;
        r.current_hold_key = keys[0];
        r.current_style = or(raw.current_style, NON_COMBAT);
        r.forward_command = or(raw.forward_command, READY);
        r.forward_hold_key = keys[1];
        r.forward_speed = fs;
        r.sidestep_command = raw.sidestep_command;
        r.sidestep_hold_key = keys[2];
        r.sidestep_speed = ss;
        r.turn_command = raw.turn_command;
        r.turn_hold_key = keys[3];
        r.turn_speed = ts;
        if flag(standing_long_jump, "standing_long_jump")? {
            r.forward_command = READY;
            r.sidestep_command = 0;
        }
        let allow_jump = motion_allows_jump(obj.minterp().interpreted.forward_command)
            == retroanim_ac::commands::WeenieError::None;
        obj.mi_apply_raw_movement(true, allow_jump);
        Ok(())
    })
}

/// Change contact, walkable ground and cell membership: each of `contact`,
/// `on_walkable`, `in_cell` is 1 (set), 0 (clear) or -1 (keep).
#[no_mangle]
pub extern "C" fn ra_ac_set_state(
    world: RaAcWorld,
    creature: u32,
    contact: i8,
    on_walkable: i8,
    in_cell: i8,
) -> RaStatus {
    on_creature(world, creature, |c| {
        let flag = |v: i8, what: &str| match v {
            -1 => Ok(None),
            0 => Ok(Some(false)),
            1 => Ok(Some(true)),
            _ => Err(Error::invalid(format!("{what}: {v} (expected -1, 0 or 1)"))),
        };
        let (contact, walkable, in_cell) = (
            flag(contact, "contact")?,
            flag(on_walkable, "on_walkable")?,
            flag(in_cell, "in_cell")?,
        );
        let obj = c;
        if let Some(v) = in_cell {
            obj.set_in_cell(v);
        }
        if contact.is_some() || walkable.is_some() {
            let (c0, w0) = (obj.contact(), obj.on_walkable());
            obj.apply_contact(contact.unwrap_or(c0), walkable.unwrap_or(w0));
        }
        Ok(())
    })
}

/// `InterpolateTo`: a server correction the creature glides to.
///
/// # Safety
/// `frame` is valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_interpolate_to(
    world: RaAcWorld,
    creature: u32,
    frame: *const RaAcFrame,
    keep_heading: u8,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `frame`.
    let frame = unsafe { args::optional(frame) }.copied();
    on_creature(world, creature, |c| {
        let f = frame_in(&frame.ok_or_else(|| Error::null("frame"))?, "frame")?;
        c.interpolate_to(f, flag(keep_heading, "keep_heading")?);
        Ok(())
    })
}

/// `MoveOrTeleport`: a position update; `player_distance` below 0 (or NaN) means "no
/// player near". `*moved` (nullable) receives 1 when the update was taken.
///
/// # Safety
/// `frame` is valid; `moved` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_move_or_teleport(
    world: RaAcWorld,
    creature: u32,
    frame: *const RaAcFrame,
    timestamp: i32,
    contact: u8,
    player_distance: f32,
    moved: *mut u8,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `frame`.
    let frame = unsafe { args::optional(frame) }.copied();
    on_creature(world, creature, |c| {
        let f = frame_in(&frame.ok_or_else(|| Error::null("frame"))?, "frame")?;
        let obj = c;
        obj.set_player_distance(if player_distance >= 0.0 && player_distance.is_finite() {
            player_distance
        } else {
            f32::MAX
        });
        let ok = obj.move_or_teleport(f, timestamp, flag(contact, "contact")?);
        // SAFETY: the caller's guarantee for `moved`.
        unsafe { args::put_optional(moved, u8::from(ok)) };
        Ok(())
    })
}

/// Change what `InqRunRate` reports; takes effect at the next command.
#[no_mangle]
pub extern "C" fn ra_ac_set_run_rate(world: RaAcWorld, creature: u32, rate: f32) -> RaStatus {
    on_creature(world, creature, |c| {
        c.weenie_mut().run_rate = finite(rate, "rate")?;
        Ok(())
    })
}

/// One physics quantum of `quantum` seconds for one creature, with its managers and
/// its reports to others as in a world tick. The world clock, which move-to timing
/// reads, advances only with `ra_ac_world_tick`.
#[no_mangle]
pub extern "C" fn ra_ac_tick(world: RaAcWorld, creature: u32, quantum: f64) -> RaStatus {
    on(world, |w| {
        check_quantum(quantum)?;
        refuse_while_two_phase(w)?;
        let i = w.index(creature)?;
        let obj = &mut w.world.objects[i];
        obj.clear_logs();
        world::update_object(&mut w.world.objects, i, quantum);
        Ok(())
    })
}

/// A tick while a two-phase tick is open would update creatures twice in one tick.
fn refuse_while_two_phase(w: &AcWorld) -> Result<()> {
    if w.world.tick_open() {
        return Err(Error::invalid(
            "a two-phase tick is open: commit it (ra_ac_world_tick_commit) before ticking again",
        ));
    }
    Ok(())
}

/// A quantum: the scenario runner's rule (finite, within ±2 s, ACE's `HugeQuantum`)
/// with its message, so that this door and the runner accept the same ticks.
pub(crate) fn check_quantum(q: f64) -> Result<()> {
    check_dt(q)
        .map(|_| ())
        .map_err(|e| Error::invalid(format!("quantum: {e}")))
}

/// The batch call: the world clock advances by `quantum` seconds, then every creature
/// moves one quantum, in index order, its move-to, target and sticky managers included.
/// `quantum` lies within ±2 s (ACE's `HugeQuantum`), as the scenario runner's `tick`
/// requires (a negative one plays backwards there and here); outside, or NaN, it is
/// refused with `RA_STATUS_INVALID_ARGUMENT` (docs/limits.md lists every rule of this
/// door).
#[no_mangle]
pub extern "C" fn ra_ac_world_tick(world: RaAcWorld, quantum: f64) -> RaStatus {
    on(world, |w| {
        check_quantum(quantum)?;
        refuse_while_two_phase(w)?;
        w.world.tick(quantum);
        Ok(())
    })
}

/// The world clock in seconds (it starts at 100, as the conformance scenarios' does).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_clock(world: RaAcWorld, out: *mut f64) -> RaStatus {
    on(world, |w| {
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, w.world.clock(), "out") }
    })
}

/// One creature's state.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_state(
    world: RaAcWorld,
    creature: u32,
    out: *mut RaAcState,
) -> RaStatus {
    on(world, |w| {
        let c: &PhysicsObj = w.creature(creature)?;
        let p = c.position();
        let s = RaAcState {
            position: RaAcPosition {
                cell: p.cell,
                frame: frame_out(&p.frame),
            },
            velocity: v3(c.cached_velocity()),
            style: c.minterp().interpreted.current_style,
            motion: c.minterp().interpreted.forward_command,
            table_substate: c.table_manager().map_or(0, |t| t.state.substate),
            animation: animation(c).unwrap_or(0),
            frame_number: c.sequence().frame_number(),
            part_count: part_frames(c).len() as u32,
            active: u8::from(c.is_active()),
        };
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, s, "out") }
    })
}

/// The batch read: every creature's position into the caller's array `out` of `cap`
/// entries, in index order; `*count` receives the creature count (see
/// `RA_STATUS_BUFFER_TOO_SMALL`). A removed or moved-away creature's entry is all
/// zeros (cell 0).
///
/// # Safety
/// `out` points to `cap` writable entries (or is null with `cap == 0`); `count` is
/// writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_positions(
    world: RaAcWorld,
    out: *mut RaAcPosition,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    on(world, |w| {
        let at = |c: &PhysicsObj| {
            let p = c.position();
            RaAcPosition {
                cell: p.cell,
                frame: frame_out(&p.frame),
            }
        };
        let n = w.slots.len();
        if n == w.world.objects.len() {
            // Nothing ever left: the update order is the index order.
            let items = w.world.objects.iter().map(at);
            // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
            unsafe { args::fill(out, cap, count, n, items) }
        } else {
            let world = &w.world;
            let items = w
                .slots
                .iter()
                .map(|&id| world.get(id).map_or(RaAcPosition::default(), at));
            // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
            unsafe { args::fill(out, cap, count, n, items) }
        }
    })
}

/// The part frames one creature's animation shows now (one per part, in the part's
/// parent coordinates) into the caller's array; `*count` receives the part count.
///
/// # Safety
/// As for `ra_ac_world_positions`.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_part_frames(
    world: RaAcWorld,
    creature: u32,
    out: *mut RaAcFrame,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    on(world, |w| {
        let parts = part_frames(w.creature(creature)?);
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, parts.len(), parts.iter().map(frame_out)) }
    })
}

/// The id of the animation the sequence plays (as `Creature::animation`).
fn animation(c: &PhysicsObj) -> Option<u32> {
    let s = c.sequence();
    s.curr().map(|i| s.nodes()[i].anim.id)
}

/// The part frames the sequence shows now (as `Creature::part_frames`).
fn part_frames(c: &PhysicsObj) -> &[AFrame] {
    let s = c.sequence();
    s.curr()
        .and_then(|i| s.nodes()[i].part_frame(s.curr_frame_number()))
        .map_or(&[], |pf| pf.parts.as_slice())
}

// ---- several objects: move-to, sticky, constraints, targets ----

/// The defaults of a move-to (ACE's `MovementParameters()`): distance_to_object 0.6,
/// min_distance 0, fail_distance FLT_MAX, speed 1, walk_run_threshold 1,
/// desired_heading 0, hold key invalid; can_walk, can_run, can_sidestep,
/// can_walk_backwards, can_charge, move_towards, use_spheres, set_hold_key,
/// modify_raw_state, modify_interpreted_state, cancel_moveto and stop_completely set.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_move_params_default(out: *mut RaAcMoveParams) -> RaStatus {
    guard(|| {
        let d = MovementParameters::default();
        let b = u8::from;
        let p = RaAcMoveParams {
            distance_to_object: d.distance_to_object,
            min_distance: d.min_distance,
            fail_distance: d.fail_distance,
            speed: d.speed,
            walk_run_threshold: d.walk_run_threshold,
            desired_heading: d.desired_heading,
            hold_key_to_apply: d.hold_key_to_apply as u32,
            context_id: d.context_id,
            action_stamp: d.action_stamp,
            can_walk: b(d.can_walk),
            can_run: b(d.can_run),
            can_sidestep: b(d.can_sidestep),
            can_walk_backwards: b(d.can_walk_backwards),
            can_charge: b(d.can_charge),
            fail_walk: b(d.fail_walk),
            use_final_heading: b(d.use_final_heading),
            sticky: b(d.sticky),
            move_away: b(d.move_away),
            move_towards: b(d.move_towards),
            use_spheres: b(d.use_spheres),
            set_hold_key: b(d.set_hold_key),
            modify_raw_state: b(d.modify_raw_state),
            modify_interpreted_state: b(d.modify_interpreted_state),
            cancel_moveto: b(d.cancel_moveto),
            stop_completely: b(d.stop_completely),
            autonomous: b(d.autonomous),
            disable_jump_during_link: b(d.disable_jump_during_link),
        };
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, p, "out") }
    })
}

fn move_params(p: Option<&RaAcMoveParams>) -> Result<MovementParameters> {
    let d = MovementParameters::default();
    let Some(p) = p else { return Ok(d) };
    let flag = |v: u8, what: &str| match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Error::invalid(format!(
            "params.{what}: {v} (expected 0 or 1)"
        ))),
    };
    // fail_distance may be FLT_MAX; only NaN and infinities are refused.
    Ok(MovementParameters {
        distance_to_object: finite(p.distance_to_object, "params.distance_to_object")?,
        min_distance: finite(p.min_distance, "params.min_distance")?,
        fail_distance: finite(p.fail_distance, "params.fail_distance")?,
        speed: finite(p.speed, "params.speed")?,
        walk_run_threshold: finite(p.walk_run_threshold, "params.walk_run_threshold")?,
        desired_heading: finite(p.desired_heading, "params.desired_heading")?,
        hold_key_to_apply: hold_key(p.hold_key_to_apply, "params.hold_key_to_apply")?,
        context_id: p.context_id,
        action_stamp: p.action_stamp,
        can_walk: flag(p.can_walk, "can_walk")?,
        can_run: flag(p.can_run, "can_run")?,
        can_sidestep: flag(p.can_sidestep, "can_sidestep")?,
        can_walk_backwards: flag(p.can_walk_backwards, "can_walk_backwards")?,
        can_charge: flag(p.can_charge, "can_charge")?,
        fail_walk: flag(p.fail_walk, "fail_walk")?,
        use_final_heading: flag(p.use_final_heading, "use_final_heading")?,
        sticky: flag(p.sticky, "sticky")?,
        move_away: flag(p.move_away, "move_away")?,
        move_towards: flag(p.move_towards, "move_towards")?,
        use_spheres: flag(p.use_spheres, "use_spheres")?,
        set_hold_key: flag(p.set_hold_key, "set_hold_key")?,
        modify_raw_state: flag(p.modify_raw_state, "modify_raw_state")?,
        modify_interpreted_state: flag(p.modify_interpreted_state, "modify_interpreted_state")?,
        cancel_moveto: flag(p.cancel_moveto, "cancel_moveto")?,
        stop_completely: flag(p.stop_completely, "stop_completely")?,
        autonomous: flag(p.autonomous, "autonomous")?,
        disable_jump_during_link: flag(p.disable_jump_during_link, "disable_jump_during_link")?,
    })
}

/// A move's result: `WeenieError::None` is success, anything else a refusal.
fn moved(r: Option<WeenieError>) -> Result<()> {
    match r {
        None | Some(WeenieError::None) => Ok(()),
        Some(e) => Err(Error {
            status: RaStatus::Refused,
            message: format!("the move was refused: {} ({:#x})", e.name(), e as u32),
            code: e as u32,
        }),
    }
}

/// Run a front-door call on creature `c` of the world, by its id, with every object's
/// per-call logs cleared first (so `ra_ac_moveto_info` tells what this call did).
fn on_mover(world: RaAcWorld, c: u32, f: impl FnOnce(&mut World, u32) -> Result<()>) -> RaStatus {
    on(world, |w| {
        let id = w.id(c)?;
        for o in &mut w.world.objects {
            o.clear_move_completions();
        }
        f(&mut w.world, id)
    })
}

/// `MoveToObject`: `creature` walks or runs to the object with id `target` (with that
/// object's radius and height). `params` may be null for the defaults. A target that is
/// not in the world is waited for, as ACE does. A refusal returns `RA_STATUS_REFUSED`
/// with ACE's `WeenieError` in `ra_last_error_code`; how the move ends is read with
/// `ra_ac_moveto_info`.
///
/// # Safety
/// `params` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_move_to_object(
    world: RaAcWorld,
    creature: u32,
    target: u32,
    params: *const RaAcMoveParams,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `params`.
    let p = unsafe { args::optional(params) }.copied();
    on_mover(world, creature, |w, id| {
        let p = move_params(p.as_ref())?;
        moved(w.move_to_object(id, target_of(id, target)?, p))
    })
}

/// `MoveToPosition`: `creature` walks or runs to `frame` in its own cell (the
/// orientation matters with `use_final_heading`). `params` may be null.
///
/// # Safety
/// `frame` is valid; `params` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_move_to_position(
    world: RaAcWorld,
    creature: u32,
    frame: *const RaAcFrame,
    params: *const RaAcMoveParams,
) -> RaStatus {
    // SAFETY: the caller's guarantees for `frame` and `params`.
    let (f, p) = unsafe {
        (
            args::optional(frame).copied(),
            args::optional(params).copied(),
        )
    };
    on_mover(world, creature, |w, id| {
        let f = frame_in(&f.ok_or_else(|| Error::null("frame"))?, "frame")?;
        let p = move_params(p.as_ref())?;
        moved(w.move_to_position(id, f, p))
    })
}

/// `TurnToObject`: `creature` turns to face the object with id `target`.
///
/// # Safety
/// `params` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_turn_to_object(
    world: RaAcWorld,
    creature: u32,
    target: u32,
    params: *const RaAcMoveParams,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `params`.
    let p = unsafe { args::optional(params) }.copied();
    on_mover(world, creature, |w, id| {
        let p = move_params(p.as_ref())?;
        moved(w.turn_to_object(id, target_of(id, target)?, p))
    })
}

/// `TurnToHeading`: `creature` turns to `params->desired_heading` (degrees; 0 faces +y,
/// 90 faces +x). `params` is required.
///
/// # Safety
/// `params` is valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_turn_to_heading(
    world: RaAcWorld,
    creature: u32,
    params: *const RaAcMoveParams,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `params`.
    let p = unsafe { args::optional(params) }.copied();
    on_mover(world, creature, |w, id| {
        let p = p.ok_or_else(|| Error::null("params"))?;
        moved(w.turn_to_heading(id, move_params(Some(&p))?))
    })
}

/// `CancelMoveTo(error)`: end `creature`'s move-to with the `WeenieError` code `error`
/// (0x36 ActionCancelled is what a server usually sends); it is reported as the move's
/// completion if a move was in progress. An unknown code is refused.
#[no_mangle]
pub extern "C" fn ra_ac_cancel_moveto(world: RaAcWorld, creature: u32, error: u32) -> RaStatus {
    on_mover(world, creature, |w, id| {
        let e = WeenieError::ALL
            .into_iter()
            .find(|e| *e as u32 == error)
            .ok_or_else(|| Error::invalid(format!("error {error:#x} is not a WeenieError")))?;
        w.cancel_moveto(id, e);
        Ok(())
    })
}

/// `StickToObject`: `creature` keeps itself next to the object with id `target` for a
/// second (renewed by each report of the target).
#[no_mangle]
pub extern "C" fn ra_ac_stick_to(world: RaAcWorld, creature: u32, target: u32) -> RaStatus {
    on_mover(world, creature, |w, id| {
        w.stick_to(id, target_of(id, target)?);
        Ok(())
    })
}

/// `UnStick`: `creature` stops sticking.
#[no_mangle]
pub extern "C" fn ra_ac_unstick(world: RaAcWorld, creature: u32) -> RaStatus {
    on_mover(world, creature, |w, id| {
        w.unstick(id);
        Ok(())
    })
}

/// `ConstrainTo`: `creature` is slowed from `start` units away from `frame` (in its own
/// cell) and held within `max`.
///
/// # Safety
/// `frame` is valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_constrain_to(
    world: RaAcWorld,
    creature: u32,
    frame: *const RaAcFrame,
    start: f32,
    max: f32,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `frame`.
    let f = unsafe { args::optional(frame) }.copied();
    on_mover(world, creature, |w, id| {
        let f = frame_in(&f.ok_or_else(|| Error::null("frame"))?, "frame")?;
        w.constrain_to(id, f, finite(start, "start")?, finite(max, "max")?);
        Ok(())
    })
}

/// `UnConstrain`: lift `creature`'s constraint.
#[no_mangle]
pub extern "C" fn ra_ac_unconstrain(world: RaAcWorld, creature: u32) -> RaStatus {
    on_mover(world, creature, |w, id| {
        w.unconstrain(id);
        Ok(())
    })
}

/// Put `creature` at `frame` at once (a server teleporting or correcting it), with the
/// velocity its watchers extrapolate from when `velocity` (nullable) is given. Its
/// watchers hear of it at its next `HandleTargetting` (a world tick, or
/// `ra_ac_handle_targetting`).
///
/// # Safety
/// `frame` is valid; `velocity` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_move_object(
    world: RaAcWorld,
    creature: u32,
    frame: *const RaAcFrame,
    velocity: *const RaVec3,
) -> RaStatus {
    // SAFETY: the caller's guarantees for `frame` and `velocity`.
    let (f, v) = unsafe {
        (
            args::optional(frame).copied(),
            args::optional(velocity).copied(),
        )
    };
    on_mover(world, creature, |w, id| {
        let f = frame_in(&f.ok_or_else(|| Error::null("frame"))?, "frame")?;
        let v = match v {
            Some(v) => Some(Vec3::new(
                finite(v.x, "velocity.x")?,
                finite(v.y, "velocity.y")?,
                finite(v.z, "velocity.z")?,
            )),
            None => None,
        };
        w.move_object(id, f, v);
        Ok(())
    })
}

/// `HandleTargetting` of `creature` now: each watcher its predicted position has drifted
/// from by more than the watcher's radius gets a report (at most every 0.5 s of world
/// clock; a world tick runs it for every moving creature).
#[no_mangle]
pub extern "C" fn ra_ac_handle_targetting(world: RaAcWorld, creature: u32) -> RaStatus {
    on_mover(world, creature, |w, id| {
        w.handle_targetting(id);
        Ok(())
    })
}

/// `NotifyVoyeurOfEvent(status)`: every watcher of `creature` gets a report with ACE's
/// `TargetStatus` `status` (1 OK, 2 ExitWorld, 3 Teleported, 4 Contained, 5 Parented,
/// 6 TimedOut; 0 Undefined).
#[no_mangle]
pub extern "C" fn ra_ac_notify_voyeurs(world: RaAcWorld, creature: u32, status: u32) -> RaStatus {
    on_mover(world, creature, |w, id| {
        let s = match status {
            0 => TargetStatus::Undefined,
            1 => TargetStatus::Ok,
            2 => TargetStatus::ExitWorld,
            3 => TargetStatus::Teleported,
            4 => TargetStatus::Contained,
            5 => TargetStatus::Parented,
            6 => TargetStatus::TimedOut,
            _ => {
                return Err(Error::invalid(format!(
                    "status {status} is not a TargetStatus (0 to 6)"
                )))
            }
        };
        w.notify_voyeurs(id, s);
        Ok(())
    })
}

/// The index of the creature with object id `id`; `RA_STATUS_INVALID_ARGUMENT` when no
/// creature has it.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_find(world: RaAcWorld, id: u32, out: *mut u32) -> RaStatus {
    on(world, |w| {
        let i = *w
            .index_of
            .get(&id)
            .ok_or_else(|| Error::invalid(format!("no creature has id {id:#x}")))?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, i, "out") }
    })
}

/// Remove creature `creature` and free its state. Its index is retired: every later
/// call naming it returns `RA_STATUS_INVALID_ARGUMENT` ("was removed"), and no other
/// creature ever gets it. Its id is free again. The most recently added creature
/// takes its place in the update order; nothing is reported to other creatures (a
/// move-to or watcher aiming at its id waits for it, as for any id not in the world).
#[no_mangle]
pub extern "C" fn ra_ac_world_remove(world: RaAcWorld, creature: u32) -> RaStatus {
    guard(|| {
        let obj = handle::with_own(&WORLDS, world, |w| w.take(creature))?;
        // Freed after the world is unlocked.
        drop(obj);
        Ok(())
    })
}

/// Move creature `creature` of world `from`, with its whole state (motion, move-to,
/// sticky and target managers), to world `to`, where it gets a new index (`*out`,
/// nullable) and keeps its id and everything else; its index in `from` is retired as
/// by `ra_ac_world_remove`. Its clock reads `to`'s from then on. Refused with
/// `RA_STATUS_INVALID_ARGUMENT`, nothing changed, when its id is taken in `to` or both
/// handles name one world. The two worlds are locked together, in an order that two
/// threads transferring in opposite directions cannot deadlock on.
///
/// # Safety
/// `out` is null or writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_transfer(
    from: RaAcWorld,
    creature: u32,
    to: RaAcWorld,
    out: *mut u32,
) -> RaStatus {
    guard(|| {
        let index = handle::with_two_own(&WORLDS, from, to, |src, dst| {
            let id = src.id(creature)?;
            let index = dst.next_index()?;
            if dst.world.get(id).is_some() {
                return Err(Error::invalid(format!(
                    "id {id:#x} is already taken in the destination world"
                )));
            }
            let seq = src.seqs.get(&id).copied();
            let obj = src.take(creature)?;
            if dst.world.insert(obj).is_err() {
                return Err(Error::new(RaStatus::Internal, "the transfer was refused"));
            }
            if let Some(o) = dst.world.get_mut(id) {
                if dst.events {
                    o.enable_events();
                } else {
                    o.disable_events();
                }
            }
            if let Some(seq) = seq {
                dst.seqs.insert(id, seq);
            }
            debug_assert_eq!(dst.next_index().ok(), Some(index));
            Ok(dst.push_slot(id))
        })?;
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put_optional(out, index) };
        Ok(())
    })
}

/// One creature's move-to state.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_moveto_info(
    world: RaAcWorld,
    creature: u32,
    out: *mut RaAcMoveToInfo,
) -> RaStatus {
    on(world, |w| {
        let c: &PhysicsObj = w.creature(creature)?;
        let m = &c.moveto();
        let moving = c.has_movement_manager() && m.is_moving_to();
        let p = m.current_target_position;
        let tm = c.target_manager();
        let pm = c.position_manager();
        let s = RaAcMoveToInfo {
            id: c.id(),
            moving_to: u8::from(moving),
            movement_type: if moving { m.movement_type as u32 } else { 0 },
            current_command: m.current_command,
            aux_command: m.aux_command,
            node_count: m.pending_actions.len() as u32,
            sought_object: m.sought_object_id,
            target_position: RaAcPosition {
                cell: p.cell,
                frame: frame_out(&p.frame),
            },
            moving_away: u8::from(m.moving_away),
            watching: tm
                .and_then(|t| t.target_info.as_ref())
                .map_or(0, |i| i.object_id),
            voyeur_count: tm
                .and_then(|t| t.voyeurs.as_ref())
                .map_or(0, |v| v.iter().count() as u32),
            sticky_target: pm
                .and_then(|p| p.sticky.as_ref())
                .map_or(0, |s| s.target_id),
            constrained: u8::from(
                pm.and_then(|p| p.constraint.as_ref())
                    .is_some_and(|c| c.is_constrained),
            ),
            completions: c.move_completions().len() as u32,
            has_completed: u8::from(c.last_move_completion().is_some()),
            last_completion: c.last_move_completion().map_or(0, |e| e as u32),
        };
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, s, "out") }
    })
}

/// A creature's `WeenieError` answer: `None` is success, anything else a refusal with
/// the error's value in `ra_last_error_code`.
pub(crate) fn weenie(e: WeenieError, what: &str) -> Result<()> {
    match e {
        WeenieError::None => Ok(()),
        e => Err(Error {
            status: RaStatus::Refused,
            message: format!("{what} was refused: {} ({:#x})", e.name(), e as u32),
            code: e as u32,
        }),
    }
}

/// Bytes that do not read as `what`: the reader's message names the byte offset.
fn bad_bytes(what: &str, e: WireError) -> Error {
    Error::invalid(format!("{what}: {e}"))
}

/// `MotionInterp.charge_jump`: start charging a jump. Refused
/// (`YouCantJumpFromThisPosition`, 0x48) while falling or crouching, sitting or lying;
/// a creature standing still on walkable ground makes it a standing long jump.
#[no_mangle]
pub extern "C" fn ra_ac_charge_jump(world: RaAcWorld, creature: u32) -> RaStatus {
    on_creature(world, creature, |c| {
        weenie(c.mi_charge_jump(), "the jump charge")
    })
}

/// Jump with charge `extent` (0 to 1). With `velocity` null this is the client's
/// `MotionInterp.jump`: any move-to is cancelled, then the jump is checked; the
/// creature's weenie answers a jump stamina cost of 0, as ACE's server weenie does, so
/// this path is refused with `GeneralMovementFailure` (0x47) unless another check
/// refuses first (0x24 `YouCantJumpWhileInTheAir`, ...). With `velocity` given (object
/// local, units per second) this is the server's jump (ACE's `HandleActionJump`): the
/// creature leaves the ground at once with that launch velocity, and gravity takes it
/// from its next tick; `extent` is then only checked to be finite.
///
/// # Safety
/// `velocity` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_jump(
    world: RaAcWorld,
    creature: u32,
    extent: f32,
    velocity: *const RaVec3,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `velocity`.
    let v = unsafe { args::optional(velocity) }.copied();
    on_creature(world, creature, |c| {
        let extent = finite(extent, "extent")?;
        match v {
            None => weenie(c.mi_jump(extent, 0), "the jump"),
            Some(v) => {
                let v = Vec3::new(
                    finite(v.x, "velocity.x")?,
                    finite(v.y, "velocity.y")?,
                    finite(v.z, "velocity.z")?,
                );
                c.jump_server(v, true);
                Ok(())
            }
        }
    })
}

/// `PhysicsObj.enter_world`: put `creature` at `position` (an outdoor cell is
/// recomputed from the origin), in its cell and active, with link animations dropped.
///
/// # Safety
/// `position` is valid.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_enter_world(
    world: RaAcWorld,
    creature: u32,
    position: *const RaAcPosition,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `position`.
    let p = unsafe { args::optional(position) }.copied();
    on_creature(world, creature, |c| {
        let p = p.ok_or_else(|| Error::null("position"))?;
        let f = frame_in(&p.frame, "position.frame")?;
        c.enter_world(&Position::new(p.cell, f));
        Ok(())
    })
}

/// `PhysicsObj.exit_world`: pending motions drained, unstuck, its target cleared and
/// its watchers told (`ExitWorld`). It keeps its cell and keeps ticking.
#[no_mangle]
pub extern "C" fn ra_ac_exit_world(world: RaAcWorld, creature: u32) -> RaStatus {
    on_creature(world, creature, |c| {
        c.exit_world();
        Ok(())
    })
}

/// `PhysicsObj.leave_world`: inactive, out of any cell (cell 0), off the ground.
#[no_mangle]
pub extern "C" fn ra_ac_leave_world(world: RaAcWorld, creature: u32) -> RaStatus {
    on_creature(world, creature, |c| {
        c.leave_world();
        Ok(())
    })
}

/// `PhysicsObj.set_hidden`: 1 hides `creature` (collisions ignored, its ticks skip
/// animation and body physics), 0 shows it; link animations are dropped either way.
#[no_mangle]
pub extern "C" fn ra_ac_set_hidden(world: RaAcWorld, creature: u32, hidden: u8) -> RaStatus {
    on_creature(world, creature, |c| {
        c.set_hidden(flag(hidden, "hidden")?);
        Ok(())
    })
}

/// `PhysicsObj.SetScaleStatic`: the factor the animation's ground offset is
/// multiplied by (finite, above 0).
#[no_mangle]
pub extern "C" fn ra_ac_set_scale(world: RaAcWorld, creature: u32, scale: f32) -> RaStatus {
    on_creature(world, creature, |c| {
        let s = finite(scale, "scale")?;
        if s <= 0.0 {
            return Err(Error::invalid(format!("scale {s} is not above 0")));
        }
        c.set_scale_static(s);
        Ok(())
    })
}

/// Write a message about creature `c` made by `make` with its sequence counters into
/// `out[0..cap]`; the counters move on only when the bytes were written.
///
/// # Safety
/// As for `args::fill`.
unsafe fn write_message(
    world: RaAcWorld,
    c: u32,
    autonomous: u8,
    out: *mut u8,
    cap: usize,
    count: *mut usize,
    make: impl FnOnce(&PhysicsObj, bool, &mut Sequences) -> Vec<u8>,
) -> RaStatus {
    on(world, |w| {
        let a = flag(autonomous, "autonomous")?;
        let id = w.id(c)?;
        let mut seq = w.seqs.get(&id).copied().unwrap_or_default();
        let bytes = make(w.creature(c)?, a, &mut seq);
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, bytes.len(), bytes.iter().copied())? };
        w.seqs.insert(id, seq);
        Ok(())
    })
}

/// The `MovementData` a server broadcasts for `creature` (its move-to or turn in
/// progress, else its interpreted state with its actions), as bytes, `autonomous`
/// 1 or 0. The byte count is written to `*count`; when it exceeds `cap` the call
/// fails with `RA_STATUS_BUFFER_TOO_SMALL` and writes nothing else (call with `cap` 0
/// to size the buffer). Actions are numbered with the creature's own motion sequence,
/// which moves on only when the bytes were written.
///
/// # Safety
/// `count` is writable; `out` is null (only with `cap == 0`) or has `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_movement_data(
    world: RaAcWorld,
    creature: u32,
    autonomous: u8,
    out: *mut u8,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    // SAFETY: the caller's guarantees, passed on.
    unsafe {
        write_message(world, creature, autonomous, out, cap, count, |o, a, seq| {
            o.movement_data(a).to_bytes(seq)
        })
    }
}

/// The whole `UpdateMotion` game message (0xF74C, from the opcode on) for `creature`:
/// its object id, its instance, movement and server-control sequences, then its
/// `MovementData` as `ra_ac_movement_data` writes it. Sized and written as that call
/// does; the creature's sequences move on only when the bytes were written.
///
/// # Safety
/// As for `ra_ac_movement_data`.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_update_motion(
    world: RaAcWorld,
    creature: u32,
    autonomous: u8,
    out: *mut u8,
    cap: usize,
    count: *mut usize,
) -> RaStatus {
    // SAFETY: the caller's guarantees, passed on.
    unsafe {
        write_message(world, creature, autonomous, out, cap, count, |o, a, seq| {
            UpdateMotion::write(o.id(), &o.movement_data(a), seq)
        })
    }
}

/// Apply a client's `MoveToState` message (game action 0xF61C, `len` bytes from its
/// `RawMotionState` on) to `creature` as ACE's `OnMoveToState_ServerMethod` does: the
/// raw state replaced, the standing-long-jump bit honoured, the raw movement applied
/// (cancelling a move-to). The position it carries is not applied
/// (`ra_ac_move_object` does that). Bytes that do not read return
/// `RA_STATUS_INVALID_ARGUMENT` with a message naming the byte offset; nothing changes.
///
/// # Safety
/// `bytes` is null (only with `len == 0`) or has `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_apply_move_to_state(
    world: RaAcWorld,
    creature: u32,
    bytes: *const u8,
    len: usize,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `bytes`.
    let b = unsafe { args::bytes(bytes, len, "bytes") };
    on_creature(world, creature, |c| {
        let m = MoveToState::from_bytes(b?).map_err(|e| bad_bytes("MoveToState", e))?;
        c.on_move_to_state_server(&m.raw, m.standing_long_jump());
        Ok(())
    })
}

/// Apply a client's `JumpPack` (game action 0xF61B, its 24 bytes; a trailing object id
/// and spell id are allowed and ignored) to `creature`: the server's jump with the
/// pack's local launch velocity, as `ra_ac_jump` with a velocity. Bytes that do not
/// read, or a velocity that is NaN or infinite, return `RA_STATUS_INVALID_ARGUMENT`
/// with a message naming the byte offset; nothing changes.
///
/// # Safety
/// `bytes` is null (only with `len == 0`) or has `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_apply_jump_pack(
    world: RaAcWorld,
    creature: u32,
    bytes: *const u8,
    len: usize,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `bytes`.
    let b = unsafe { args::bytes(bytes, len, "bytes") };
    on_creature(world, creature, |c| {
        let p = JumpPack::from_bytes(b?).map_err(|e| bad_bytes("JumpPack", e))?;
        if let Some(k) = p.velocity.iter().position(|v| !v.is_finite()) {
            return Err(Error::invalid(format!(
                "JumpPack: byte offset {}: the velocity is NaN or infinite",
                4 + 4 * k
            )));
        }
        let [x, y, z] = p.velocity;
        c.jump_server(Vec3::new(x, y, z), true);
        Ok(())
    })
}

/// Apply a received `MovementData` (`len` bytes, as `ra_ac_movement_data` writes
/// them) to `creature` as a client applies it to its copy of another object: an
/// interpreted state is taken over (style, forward, sidestep and turn with their
/// speeds, and the actions), a move-to or turn is performed with the sent parameters.
/// Bytes that do not read return `RA_STATUS_INVALID_ARGUMENT` with a message naming
/// the byte offset, nothing changed; the engine's refusal is `RA_STATUS_REFUSED` with
/// its `WeenieError`.
///
/// # Safety
/// `bytes` is null (only with `len == 0`) or has `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_apply_movement_data(
    world: RaAcWorld,
    creature: u32,
    bytes: *const u8,
    len: usize,
) -> RaStatus {
    // SAFETY: the caller's guarantee for `bytes`.
    let b = unsafe { args::bytes(bytes, len, "bytes") };
    on_creature(world, creature, |c| {
        let d =
            MovementData::read(&mut Reader::new(b?)).map_err(|e| bad_bytes("MovementData", e))?;
        weenie(c.apply_movement_data(&d), "the movement")
    })
}
