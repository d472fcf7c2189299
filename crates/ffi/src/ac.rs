//! AC worlds: motion tables loaded from a record source, and creatures on them.

use crate::args;
use crate::handle::{self, Table};
use crate::status::{guard, Error, RaStatus, Result};
use retroanim_ac::commands::{HoldKey, MovementParameters, NON_COMBAT, READY};
use retroanim_ac::math::{AFrame, Quat, Vec3};
use retroanim_ac::motion_interp::motion_allows_jump;
use retroanim_ac::physics_obj::DEFAULT_CELL;
use retroanim_ac::{Creature, Loader, MotionError, MotionSet};
use std::ffi::c_char;
use std::sync::Mutex;

/// An AC world. 0 is the null handle. Creatures inside it are numbered 0, 1, 2, ...
/// in the order they were added and live as long as the world.
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

struct AcWorld {
    loader: Loader,
    tables: Vec<MotionSet>,
    creatures: Vec<Creature>,
}

impl AcWorld {
    fn creature(&mut self, i: u32) -> Result<&mut Creature> {
        let n = self.creatures.len();
        self.creatures.get_mut(i as usize).ok_or_else(|| {
            Error::invalid(format!("creature {i} does not exist (the world has {n})"))
        })
    }
}

static WORLDS: Mutex<Table<AcWorld>> = Mutex::new(Table::new(2, "AC world"));

fn v3(v: Vec3) -> RaVec3 {
    RaVec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    }
}

fn frame_out(f: &AFrame) -> RaAcFrame {
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

fn frame_in(f: &RaAcFrame, what: &str) -> Result<AFrame> {
    let o = f.origin;
    let q = f.orientation;
    if ![o.x, o.y, o.z, q.w, q.x, q.y, q.z]
        .iter()
        .all(|v| v.is_finite())
    {
        return Err(Error::invalid(format!("{what}: NaN or infinite component")));
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

fn finite(v: f32, what: &str) -> Result<f32> {
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
        set_hold_key: p.set_hold_key != 0,
        autonomous: p.autonomous != 0,
        action_stamp: p.action_stamp,
        ..d
    })
}

fn on(world: RaAcWorld, f: impl FnOnce(&mut AcWorld) -> Result<()>) -> RaStatus {
    guard(|| handle::with(&WORLDS, world, f))
}

fn on_creature(world: RaAcWorld, c: u32, f: impl FnOnce(&mut Creature) -> Result<()>) -> RaStatus {
    on(world, |w| f(w.creature(c)?))
}

fn create(loader: Loader, out: *mut RaAcWorld) -> Result<()> {
    let h = handle::insert(
        &WORLDS,
        AcWorld {
            loader,
            tables: Vec::new(),
            creatures: Vec::new(),
        },
    )?;
    // SAFETY: every caller passes its own caller's `out`, under the same guarantee.
    unsafe { args::put(out, h, "out") }
}

/// A world reading records from a folder of `<id>.bin` files (hex id, as the bundled
/// sample records). Records are read when a creature first needs them.
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
        create(Loader::from_dir(dir), out)
    })
}

/// A world reading records from a DAT container file.
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
        create(Loader::from_dat(path).map_err(Error::load)?, out)
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
        create(loader, out)
    })
}

/// Free a world and its creatures. 0 is accepted and does nothing.
#[no_mangle]
pub extern "C" fn ra_ac_world_free(world: RaAcWorld) -> RaStatus {
    guard(|| handle::free(&WORLDS, world))
}

/// The defaults of a new creature: cell 0x7D640013, at the origin, identity
/// orientation, run rate 1, a creature weenie on walkable ground in its cell.
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
/// receives the creature's index.
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
    on(world, |w| {
        // SAFETY: the caller's guarantee for `desc`.
        let desc = unsafe { args::optional(desc) };
        let index = u32::try_from(w.creatures.len())
            .map_err(|_| Error::invalid("the world holds too many creatures"))?;
        let set = match w.tables.iter().find(|t| t.table_id() == table_id) {
            Some(t) => t.clone(),
            None => {
                let t = w.loader.load(table_id).map_err(Error::load)?;
                w.tables.push(t.clone());
                t
            }
        };
        let mut b = Creature::builder(&set);
        if let Some(d) = desc {
            b = b
                .cell(d.cell)
                .origin(frame_in(&d.frame, "desc.frame")?.origin)
                .orientation(frame_in(&d.frame, "desc.frame")?.orientation)
                .run_rate(finite(d.run_rate, "desc.run_rate")?)
                .creature_weenie(d.creature_weenie != 0);
            if d.airborne != 0 {
                b = b.airborne();
            }
            if d.outside_cell != 0 {
                b = b.outside_cell();
            }
        }
        w.creatures.push(b.build());
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put_optional(out, index) };
        Ok(())
    })
}

/// How many creatures the world holds.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ra_ac_world_creature_count(world: RaAcWorld, out: *mut u32) -> RaStatus {
    on(world, |w| {
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, w.creatures.len() as u32, "out") }
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
        motion(c.do_motion_with(command, &self::params(p.as_ref())?))
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
        motion(c.stop_motion_with(command, &self::params(p.as_ref())?))
    })
}

/// `StopCompletely`: back to the style's default substate.
#[no_mangle]
pub extern "C" fn ra_ac_stop_completely(world: RaAcWorld, creature: u32) -> RaStatus {
    on_creature(world, creature, |c| motion(c.stop_completely()))
}

/// Hold (1) or release (0) the Run key.
#[no_mangle]
pub extern "C" fn ra_ac_set_hold_run(world: RaAcWorld, creature: u32, run: u8) -> RaStatus {
    on_creature(world, creature, |c| {
        c.set_hold_run(run != 0);
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
        let obj = c.physics_mut();
        let r = &mut obj.minterp.raw;
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
        if standing_long_jump != 0 {
            r.forward_command = READY;
            r.sidestep_command = 0;
        }
        let allow_jump = motion_allows_jump(obj.minterp.interpreted.forward_command)
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
        let obj = c.physics_mut();
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
        c.physics_mut().interpolate_to(f, keep_heading != 0);
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
        let obj = c.physics_mut();
        obj.player_distance = if player_distance >= 0.0 && player_distance.is_finite() {
            player_distance
        } else {
            f32::MAX
        };
        let ok = obj.move_or_teleport(f, timestamp, contact != 0);
        // SAFETY: the caller's guarantee for `moved`.
        unsafe { args::put_optional(moved, u8::from(ok)) };
        Ok(())
    })
}

/// Change what `InqRunRate` reports; takes effect at the next command.
#[no_mangle]
pub extern "C" fn ra_ac_set_run_rate(world: RaAcWorld, creature: u32, rate: f32) -> RaStatus {
    on_creature(world, creature, |c| {
        c.set_run_rate(finite(rate, "rate")?);
        Ok(())
    })
}

/// One physics quantum of `quantum` seconds for one creature.
#[no_mangle]
pub extern "C" fn ra_ac_tick(world: RaAcWorld, creature: u32, quantum: f64) -> RaStatus {
    on_creature(world, creature, |c| {
        check_quantum(quantum)?;
        c.tick(quantum);
        Ok(())
    })
}

fn check_quantum(q: f64) -> Result<()> {
    if q.is_finite() && q >= 0.0 {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "quantum {q} is not a finite, non-negative number of seconds"
        )))
    }
}

/// The batch call: one quantum of `quantum` seconds for every creature, in index order.
#[no_mangle]
pub extern "C" fn ra_ac_world_tick(world: RaAcWorld, quantum: f64) -> RaStatus {
    on(world, |w| {
        check_quantum(quantum)?;
        for c in &mut w.creatures {
            c.tick(quantum);
        }
        Ok(())
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
    on_creature(world, creature, |c| {
        let p = c.position();
        let s = RaAcState {
            position: RaAcPosition {
                cell: p.cell,
                frame: frame_out(&p.frame),
            },
            velocity: v3(c.velocity()),
            style: c.style(),
            motion: c.motion(),
            table_substate: c.table_substate(),
            animation: c.animation().unwrap_or(0),
            frame_number: c.frame_number(),
            part_count: c.part_frames().len() as u32,
            active: u8::from(c.is_active()),
        };
        // SAFETY: the caller's guarantee for `out`.
        unsafe { args::put(out, s, "out") }
    })
}

/// The batch read: every creature's position into the caller's array `out` of `cap`
/// entries, in index order; `*count` receives the creature count (see
/// `RA_STATUS_BUFFER_TOO_SMALL`).
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
        let items = w.creatures.iter().map(|c| {
            let p = c.position();
            RaAcPosition {
                cell: p.cell,
                frame: frame_out(&p.frame),
            }
        });
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, w.creatures.len(), items) }
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
    on_creature(world, creature, |c| {
        let parts = c.part_frames();
        // SAFETY: the caller's guarantees for `out`, `cap` and `count`.
        unsafe { args::fill(out, cap, count, parts.len(), parts.iter().map(frame_out)) }
    })
}
