//! Several objects addressed by id (`ServerObjectManager`'s registry), the voyeur
//! hand-shake between them and the world tick: the clock advances once, then every
//! object is updated in order, reports re-entering their watchers synchronously (Q89).
//!
//! Each object's own code queues what it asks of other objects (`Remote`); the world
//! carries each request out right after the call that made it returns, so requests run
//! in ACE's order: a nested report is handled before the outer caller continues.

use crate::commands::{MovementParameters, MovementType, WeenieError};
use crate::interpolation::Position;
use crate::math::AFrame;
use crate::moveto_manager::MovementStruct;
use crate::physics_obj::PhysicsObj;
use crate::target_manager::{Remote, TargetInfo, TargetManager, TargetStatus, Voyeur, VoyeurTable};
use std::collections::HashMap;
use std::ops::{Index, IndexMut};

/// The objects of a world, by index; ids are looked up by scanning.
pub trait Registry {
    fn count(&self) -> usize;
    fn at(&self, i: usize) -> &PhysicsObj;
    fn at_mut(&mut self, i: usize) -> &mut PhysicsObj;
    /// `GetObjectA(id)`: the index of the registered object with this id.
    fn find(&self, id: u32) -> Option<usize> {
        (0..self.count()).find(|&i| self.at(i).id == id)
    }
    /// Whether object `i`'s own id finds it (`find(at(i).id) == Some(i)`): requests
    /// addressed to it by id reach it.
    fn finds_itself(&self, i: usize) -> bool {
        self.find(self.at(i).id) == Some(i)
    }
}

impl Registry for Vec<PhysicsObj> {
    fn count(&self) -> usize {
        self.len()
    }
    fn at(&self, i: usize) -> &PhysicsObj {
        &self[i]
    }
    fn at_mut(&mut self, i: usize) -> &mut PhysicsObj {
        &mut self[i]
    }
}

/// The objects of a [`World`] in the order they were added, with an index from id to
/// position, so that finding a target costs the same in a world of ten thousand
/// creatures as in a world of two (ACE's `ServerObjectManager` keeps a dictionary too).
#[derive(Default)]
pub struct Objects {
    list: Vec<PhysicsObj>,
    by_id: HashMap<u32, usize>,
}

impl Objects {
    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, PhysicsObj> {
        self.list.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, PhysicsObj> {
        self.list.iter_mut()
    }

    /// Append an object whose id is not yet registered.
    fn push(&mut self, obj: PhysicsObj) {
        self.by_id.insert(obj.id, self.list.len());
        self.list.push(obj);
    }

    /// Take out the object with this id in O(1): the last object moves into its place
    /// in the update order (the others keep theirs).
    fn remove(&mut self, id: u32) -> Option<PhysicsObj> {
        let i = self.find(id)?;
        self.by_id.remove(&id);
        let obj = self.list.swap_remove(i);
        if let Some(moved) = self.list.get(i) {
            self.by_id.insert(moved.id, i);
        }
        Some(obj)
    }
}

impl<'a> IntoIterator for &'a Objects {
    type Item = &'a PhysicsObj;
    type IntoIter = std::slice::Iter<'a, PhysicsObj>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl<'a> IntoIterator for &'a mut Objects {
    type Item = &'a mut PhysicsObj;
    type IntoIter = std::slice::IterMut<'a, PhysicsObj>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter_mut()
    }
}

impl Index<usize> for Objects {
    type Output = PhysicsObj;
    fn index(&self, i: usize) -> &PhysicsObj {
        &self.list[i]
    }
}

impl IndexMut<usize> for Objects {
    fn index_mut(&mut self, i: usize) -> &mut PhysicsObj {
        &mut self.list[i]
    }
}

impl Registry for Objects {
    fn count(&self) -> usize {
        self.list.len()
    }
    fn at(&self, i: usize) -> &PhysicsObj {
        &self.list[i]
    }
    fn at_mut(&mut self, i: usize) -> &mut PhysicsObj {
        &mut self.list[i]
    }
    /// The index alone answers, so a miss costs no more than a hit. An object's `id`
    /// must not be rewritten in place: such an object is found under neither id (the
    /// answer is checked), and the way to renumber it is [`World::take`] then
    /// [`World::insert`].
    fn find(&self, id: u32) -> Option<usize> {
        match self.by_id.get(&id) {
            Some(&i) if self.list.get(i).is_some_and(|o| o.id == id) => Some(i),
            _ => None,
        }
    }
}

/// A main object plus others (index 0 is the main object).
pub struct MainAndOthers<'a> {
    pub main: &'a mut PhysicsObj,
    pub others: &'a mut Vec<PhysicsObj>,
}

impl Registry for MainAndOthers<'_> {
    fn count(&self) -> usize {
        1 + self.others.len()
    }
    fn at(&self, i: usize) -> &PhysicsObj {
        if i == 0 {
            self.main
        } else {
            &self.others[i - 1]
        }
    }
    fn at_mut(&mut self, i: usize) -> &mut PhysicsObj {
        if i == 0 {
            self.main
        } else {
            &mut self.others[i - 1]
        }
    }
}

/// Carry out object `i`'s queued requests made since its outbox held `start` entries.
pub fn flush_from(w: &mut impl Registry, i: usize, start: usize) {
    if !lone_request_done(w, i, start) {
        flush_from_plain(w, i, start);
    }
}

/// [`flush_from`] of a lone request to a target that holds the requester's entry: an
/// `AddVoyeur` that updates it (a mover tuning its prediction horizon) or a
/// `RemoveVoyeur` (a move that ended), carried out, and then taken off the outbox (the
/// plain loop takes it off first; neither reads the outbox). False, having changed
/// nothing, for anything else: the plain loop's own frame, which its first reports'
/// paths need, is not set up for these. Debug builds check each use against the
/// plain loop run on clones.
#[inline(always)]
fn lone_request_done(w: &mut impl Registry, i: usize, start: usize) -> bool {
    let obj = w.at(i);
    let &[r] = &obj.outbox[start.min(obj.outbox.len())..] else {
        return false;
    };
    let me = obj.id;
    let target = match r {
        Remote::AddVoyeur { target, .. } | Remote::RemoveVoyeur { target } => target,
        Remote::Notify { .. } => return false,
    };
    let Some(t) = w.find(target) else {
        return false;
    };
    #[cfg(debug_assertions)]
    let plain = crate::table_manager::clone_checks().then(|| {
        let mut pair = vec![w.at(i).clone(), w.at(t).clone()];
        let tt = usize::from(t != i);
        flush_from_plain(&mut pair, 0, start);
        (pair, tt)
    });
    let Some(table) = voyeurs_mut(w.at_mut(t)) else {
        return false;
    };
    match r {
        Remote::AddVoyeur {
            radius, quantum, ..
        } => {
            let Some(v) = table.get_mut(me) else {
                return false;
            };
            v.radius = radius;
            v.quantum = quantum;
        }
        _ => {
            table.remove(me);
        }
    }
    w.at_mut(i).outbox.pop();
    #[cfg(debug_assertions)]
    if let Some((pair, tt)) = plain {
        debug_assert_eq!(pair[0].outbox, w.at(i).outbox, "lone request: outbox");
        debug_assert_eq!(
            pair[tt].target_manager,
            w.at(t).target_manager,
            "lone request: the target's voyeur table"
        );
    }
    true
}

/// [`flush_from`], request by request.
#[inline(never)]
fn flush_from_plain(w: &mut impl Registry, i: usize, start: usize) {
    loop {
        let out = &mut w.at_mut(i).outbox;
        // The request taken is most often the last one queued: then nothing shifts.
        let r = if out.len() == start + 1 {
            out.pop()
        } else if out.len() > start {
            Some(out.remove(start))
        } else {
            None
        };
        let Some(r) = r else { break };
        let me = w.at(i).id;
        match r {
            Remote::RemoveVoyeur { target } => {
                if let Some(t) = w.find(target) {
                    if let Some(v) = voyeurs_mut(w.at_mut(t)) {
                        v.remove(me);
                    }
                }
            }
            Remote::AddVoyeur {
                target,
                radius,
                quantum,
            } => {
                if let Some(t) = w.find(target) {
                    add_voyeur(w, t, me, radius, quantum);
                }
            }
            Remote::Notify { status, position } => notify_voyeurs_from(w, i, status, position),
        }
    }
}

/// Carry out every queued request of object `i`.
#[inline]
pub fn flush(w: &mut impl Registry, i: usize) {
    // Most objects ask nothing of others in most calls: stay out of the loop then.
    if !w.at(i).outbox.is_empty() {
        flush_from(w, i, 0);
    }
}

/// The voyeur table of an object that has one: a target's watchers, read and changed in
/// place by the flushes and the reports.
#[inline(always)]
pub(crate) fn voyeurs_mut(obj: &mut PhysicsObj) -> Option<&mut VoyeurTable> {
    obj.target_manager.as_mut().and_then(|m| m.voyeurs.as_mut())
}

/// `AddVoyeur(id, radius, quantum)` on object `t`: an existing entry is updated without
/// a report; a new one is sent the current position at once.
pub fn add_voyeur(w: &mut impl Registry, t: usize, id: u32, radius: f32, quantum: f64) {
    let obj = w.at_mut(t);
    let tm = obj
        .target_manager
        .get_or_insert_with(|| Box::new(TargetManager::new()));
    let table = tm.voyeurs.get_or_insert_with(VoyeurTable::default);
    if let Some(v) = table.get_mut(id) {
        v.radius = radius;
        v.quantum = quantum;
        return;
    }
    // Formed only for a new entry (an update of one, a mover tuning its prediction
    // horizon, reads no position).
    let pos = w.at(t).position();
    if first_report_ends_move(w, t, id, radius, quantum, pos) {
        return;
    }
    insert_and_report(w, t, id, radius, quantum, pos);
}

/// The rest of `AddVoyeur(id, radius, quantum)` on object `t` (at `pos`), whose voyeur
/// table has no entry for `id` and whose report does not end a move at once: the
/// entry made, and the report sent to it.
fn insert_and_report(
    w: &mut impl Registry,
    t: usize,
    id: u32,
    radius: f32,
    quantum: f64,
    pos: Position,
) {
    let Some(table) = voyeurs_mut(w.at_mut(t)) else {
        return;
    };
    // `SendVoyeurUpdate` to the entry just made: its slot is known, so it is not looked
    // up again.
    let slot = table.insert_slot(Voyeur {
        object_id: id,
        quantum,
        radius,
        last_sent_position: Some(pos),
    });
    debug_assert!(table.slot_mut(slot).is_some_and(|v| v.object_id == id));
    deliver_voyeur_update(w, t, id, radius, quantum, pos, TargetStatus::Ok);
}

/// The new voyeur `voyeur` of object `t` (which has a voyeur table without it), when
/// its first report ends its move at once (a chase re-issued in range,
/// [`PhysicsObj::move_ends_on_first_report`]): the voyeur's part of the plain report
/// without the report; the entry that the `RemoveVoyeur` of its `ClearTarget` removes
/// again, carried out first among the voyeur's new requests as the plain path does,
/// leaves only its trace in the table ([`VoyeurTable::insert_and_remove`]). False,
/// having changed nothing, when the shortcut does not apply.
fn first_report_ends_move(
    w: &mut impl Registry,
    t: usize,
    voyeur: u32,
    radius: f32,
    quantum: f64,
    pos: Position,
) -> bool {
    let Some(v) = w.find(voyeur) else {
        return false;
    };
    let target_id = w.at(t).id;
    if !w.at(v).move_ends_on_first_report(target_id, &pos) {
        return false;
    }
    #[cfg(debug_assertions)]
    let plain = crate::table_manager::clone_checks().then(|| {
        let mut pair = vec![w.at(t).clone(), w.at(v).clone()];
        if let Some(table) = voyeurs_mut(&mut pair[0]) {
            table.insert(Voyeur {
                object_id: voyeur,
                quantum,
                radius,
                last_sent_position: Some(pos),
            });
        }
        deliver_voyeur_update(&mut pair, 0, voyeur, radius, quantum, pos, TargetStatus::Ok);
        pair
    });
    #[cfg(not(debug_assertions))]
    let _ = (radius, quantum);
    let obj = w.at_mut(v);
    let start = obj.outbox.len();
    obj.end_move_on_first_report();
    voyeur_entry_came_and_went(w, t);
    if w.at(v).outbox.len() > start {
        flush_from(w, v, start);
    }
    #[cfg(debug_assertions)]
    if let Some(pair) = plain {
        let (a, b) = (&pair[1], w.at(v));
        crate::physics_obj::debug_assert_same_move_end(a, b, "first report");
        debug_assert_eq!(
            pair[0].target_manager,
            w.at(t).target_manager,
            "first report: the target's voyeur table"
        );
    }
    true
}

/// The trace a voyeur entry inserted and removed at once leaves in object `t`'s table
/// (`VoyeurTable::insert_and_remove`), for the shortcuts that skip the entry itself.
// Always inline: left to the compiler, the chase's in-range start called it out of line
// and ac-chase rose by 1.7 instructions per object-tick.
#[inline(always)]
pub(crate) fn voyeur_entry_came_and_went(w: &mut impl Registry, t: usize) {
    if let Some(table) = voyeurs_mut(w.at_mut(t)) {
        table.insert_and_remove();
    }
}

/// `SendVoyeurUpdate(voyeur, pos, status)` from object `t`. `snapshot` is the table
/// entry of a snapshot, with its slot and generation (None = the current entry); a
/// snapshot entry that has since been removed is updated nowhere.
fn send_voyeur_update(
    w: &mut impl Registry,
    t: usize,
    voyeur: u32,
    snapshot: Option<(usize, u64, Voyeur)>,
    pos: Position,
    status: TargetStatus,
) {
    let obj = w.at_mut(t);
    let table = voyeurs_mut(obj);
    let (radius, quantum) = match (table, snapshot) {
        (Some(table), Some((slot, gen, snap))) => match table.get_gen_at_mut(slot, voyeur, gen) {
            Some(v) => {
                v.last_sent_position = Some(pos);
                (v.radius, v.quantum)
            }
            None => (snap.radius, snap.quantum),
        },
        (Some(table), None) => match table.get_mut(voyeur) {
            Some(v) => {
                v.last_sent_position = Some(pos);
                (v.radius, v.quantum)
            }
            None => return,
        },
        (None, Some((_, _, snap))) => (snap.radius, snap.quantum),
        (None, None) => return,
    };
    deliver_voyeur_update(w, t, voyeur, radius, quantum, pos, status);
}

/// The report of `SendVoyeurUpdate` once the entry is updated: object `t`'s `TargetInfo`
/// for the voyeur's `ReceiveUpdate`, then the voyeur's requests.
fn deliver_voyeur_update(
    w: &mut impl Registry,
    t: usize,
    voyeur: u32,
    radius: f32,
    quantum: f64,
    pos: Position,
    status: TargetStatus,
) {
    let Some(v) = w.find(voyeur) else {
        return;
    };
    let obj = w.at(t);
    let mut info = TargetInfo::new(0, obj.id, radius, quantum, obj.now);
    info.target_position = Some(obj.position());
    info.interpolated_position = Some(pos);
    info.velocity = obj.cached_velocity;
    info.status = status;
    let voyeur = w.at_mut(v);
    let start = voyeur.outbox.len();
    voyeur.receive_target_update(&info);
    if voyeur.outbox.len() > start {
        flush_from(w, v, start);
    }
}

/// A snapshot of object `t`'s voyeur table in enumeration order, in the manager's reused
/// buffer (give it back with [`return_snapshot`]).
fn voyeur_snapshot(obj: &mut PhysicsObj) -> Vec<(usize, u64, Voyeur)> {
    let Some(tm) = obj.target_manager.as_mut() else {
        return Vec::new();
    };
    let mut snap = std::mem::take(&mut tm.scratch);
    snap.clear();
    if let Some(t) = &tm.voyeurs {
        snap.extend(t.iter_slots());
    }
    snap
}

fn return_snapshot(obj: &mut PhysicsObj, snap: Vec<(usize, u64, Voyeur)>) {
    if let Some(tm) = obj.target_manager.as_mut() {
        tm.scratch = snap;
    }
}

/// `now - last < 0.5`, HandleTargetting's test (ACE's f64 values), as
/// `last - now > -0.5`: a difference rounded to nearest is the exact negation of the
/// difference taken the other way round (infinities and NaN alike), so the two give
/// the same answer for every pair. This form subtracts the clock from the stored time
/// in place, where ACE's kept a copy of the clock in a register on every object-tick.
#[inline(always)]
pub(crate) fn targetting_not_due(now: f64, last: f64) -> bool {
    let not_due = last - now > -0.5;
    debug_assert_eq!(
        not_due,
        now - last < 0.5,
        "targetting_not_due({now}, {last})"
    );
    not_due
}

/// `TargetManager.HandleTargetting()` of object `t` (Q84).
pub fn handle_targetting(w: &mut impl Registry, t: usize) {
    let now = w.at(t).now;
    let Some(tm) = &w.at(t).target_manager else {
        return;
    };
    if targetting_not_due(now, tm.last_update_time) {
        return;
    }
    if tm.target_info.is_some_and(|i| i.target_position.is_none()) {
        return;
    }
    if tm
        .voyeurs
        .as_ref()
        .is_some_and(|v| v.iter().next().is_some())
    {
        let snap = voyeur_snapshot(w.at_mut(t));
        // The target's position and velocity formed once: a report runs only its
        // voyeur's requests, which change voyeur tables, never a frame or a velocity.
        let (here, velocity) = (w.at(t).position(), w.at(t).cached_velocity);
        for &(slot, gen, v) in &snap {
            let obj = w.at(t);
            debug_assert!(obj.position() == here && obj.cached_velocity == velocity);
            let mut p = here;
            p.frame.origin = p.frame.origin.add(velocity.scale(v.quantum as f32));
            let last = v.last_sent_position.unwrap_or(crate::moveto_manager::FRESH);
            // The snapshot entry may have been updated since (its own last position).
            let current_last = obj
                .target_manager
                .as_ref()
                .and_then(|m| m.voyeurs.as_ref())
                .and_then(|tb| tb.get_gen_at(slot, v.object_id, gen))
                .map_or(last, |e| {
                    e.last_sent_position.unwrap_or(crate::moveto_manager::FRESH)
                });
            if p.distance(&current_last) > v.radius {
                let entry = Some((slot, gen, v));
                send_voyeur_update(w, t, v.object_id, entry, p, TargetStatus::Ok);
            }
        }
        return_snapshot(w.at_mut(t), snap);
    }
    // The clock read again rather than kept: nothing the reports run changes an
    // object's clock, and a value kept across the report loop cost a spill on every
    // object-tick, though most ticks stop at the time test.
    let obj = w.at_mut(t);
    debug_assert_eq!(
        obj.now.to_bits(),
        now.to_bits(),
        "HandleTargetting: the clock"
    );
    let now = obj.now;
    if let Some(tm) = &mut obj.target_manager {
        tm.last_update_time = now;
    }
}

/// `NotifyVoyeurOfEvent(status)` of object `t`, from its current position.
pub fn notify_voyeurs(w: &mut impl Registry, t: usize, status: TargetStatus) {
    let pos = w.at(t).position();
    notify_voyeurs_from(w, t, status, pos);
}

fn notify_voyeurs_from(w: &mut impl Registry, t: usize, status: TargetStatus, pos: Position) {
    if w.at(t)
        .target_manager
        .as_ref()
        .is_none_or(|m| m.voyeurs.is_none())
    {
        return;
    }
    let snap = voyeur_snapshot(w.at_mut(t));
    for &(slot, gen, v) in &snap {
        send_voyeur_update(w, t, v.object_id, Some((slot, gen, v)), pos, status);
    }
    return_snapshot(w.at_mut(t), snap);
}

/// One world tick of object `i`: `UpdateObjectInternal(q)` with the target, move-to and
/// position managers in ACE's order.
// Inlined into the world's loop, as `PhysicsObj::update_object_internal` is into a lone
// object's callers: the call and its register saves were paid per object and tick.
#[inline(always)]
pub fn update_object(w: &mut impl Registry, i: usize, q: f64) {
    if position_step(w, i, q) {
        manager_steps(w, i);
    }
}

/// The first half of [`update_object`]: `UpdatePositionInternal` and the new frame,
/// with the sticky target's live position; false when the object does not move at all
/// (then its managers do not run). The host-physics tick stops here to let the host
/// correct the frame (`crate::host_physics`).
#[inline(always)]
pub(crate) fn position_step(w: &mut impl Registry, i: usize, q: f64) -> bool {
    let live = {
        let o = w.at(i);
        o.position_manager
            .as_ref()
            .and_then(|p| p.sticky.as_ref())
            .filter(|s| s.target_id != 0)
            .and_then(|s| w.find(s.target_id))
            .map(|t| w.at(t).position())
    };
    // `sticky_live` is None between updates; most objects stick to nothing, so they
    // skip both writes of the option. (A `Some` left behind by an unwound update
    // is still cleared here.) Only an object with a position manager can have one.
    let obj = w.at_mut(i);
    let has_live = live.is_some();
    if let Some(pm) = obj.position_manager.as_deref_mut() {
        if has_live || pm.sticky_live.is_some() {
            pm.sticky_live = live;
        }
    }
    let moved = obj.tick_position_step(q);
    if has_live {
        if let Some(pm) = obj.position_manager.as_deref_mut() {
            pm.sticky_live = None;
        }
    }
    // Each step's requests are tested on the object the step ran on (`flush` would look
    // it up again).
    if !obj.outbox.is_empty() {
        flush_from(w, i, 0);
    }
    moved
}

/// The second half of [`update_object`] for an object that moved: `HandleTargetting`,
/// `MovementManager.UseTime`, `PartArray.HandleMovement`, `PositionManager.UseTime`.
#[inline(always)]
pub(crate) fn manager_steps(w: &mut impl Registry, i: usize) {
    // An object nobody watches and that watches nothing has no targetting to do.
    if w.at(i).target_manager.is_some() {
        handle_targetting(w, i);
    }
    let obj = w.at_mut(i);
    obj.mt_use_time();
    if !obj.outbox.is_empty() {
        flush_from(w, i, 0);
    }
    let obj = w.at_mut(i);
    obj.check_for_completed_motions();
    // `PositionManager.UseTime` runs only for an object with a position manager; for
    // any other the requests of the completions are flushed once, by the test below
    // (a flush leaves the outbox empty, so the second test would find nothing).
    if obj.position_manager.is_some() {
        if !obj.outbox.is_empty() {
            flush_from(w, i, 0);
        }
        w.at_mut(i).position_manager_use_time();
    }
    let obj = w.at_mut(i);
    if !obj.outbox.is_empty() {
        flush_from(w, i, 0);
    }
}

/// `tick {dt}`: the clock advances once, then every object is updated in order.
pub fn tick(w: &mut impl Registry, clock: &mut f64, dt: f64) {
    *clock += dt;
    for i in 0..w.count() {
        w.at_mut(i).now = *clock;
    }
    update_all(w, dt);
}

/// What a tick does before the updates: the same steps as the free `tick`, with the
/// clearing of the logs of the tick before folded into its clock pass (one sweep over
/// the objects, not two). `World::start_tick` and the chase benchmark's tick share it.
#[inline(always)]
pub(crate) fn start_clock<'a>(
    objects: impl IntoIterator<Item = &'a mut PhysicsObj>,
    clock: &mut f64,
    dt: f64,
) {
    *clock += dt;
    let now = *clock;
    for o in objects {
        o.hook_log.clear();
        o.motions_done.clear();
        o.move_completions.clear();
        o.now = now;
    }
}

/// Every object's update, in order. Each object's clock must already read the tick's
/// time: an update can reach other objects (targets, voyeurs), before or after their own.
pub(crate) fn update_all(w: &mut impl Registry, dt: f64) {
    for i in 0..w.count() {
        update_object(w, i, dt);
    }
}

/// Object `i` performs a movement (any `MovementType`), then its requests run. A chase
/// re-issued in range, which its first report would end at once, is started and ended
/// in one call, and a chase started out of range is started with its first report in
/// one call (`chase_in_range`).
// A hint, with `chase_in_range::start_ending_at_once`'s (see there).
#[inline]
pub fn perform_movement(w: &mut impl Registry, i: usize, mvs: &MovementStruct) -> WeenieError {
    use crate::chase_in_range::{start_ending_at_once, start_out_of_range, Start};
    match start_ending_at_once(w, i, mvs) {
        Start::Ended(r) => r,
        Start::OutOfRange { target, distance } => start_out_of_range(w, i, target, mvs, distance),
        Start::Plain => {
            let r = w.at_mut(i).perform_movement_struct(mvs);
            flush(w, i);
            r
        }
    }
}

/// A front door for servers: many creatures in one world, moved to each other by id.
///
/// ```
/// use retroanim_ac::commands::MovementParameters;
/// use retroanim_ac::math::Vec3;
/// use retroanim_ac::{Creature, Loader, World};
///
/// # let records = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
/// let motions = Loader::from_dir(records).load(0x0900_0001)?;
/// let mut world = World::new(100.0);
/// world.add_creature(1, 0.5, 1.8, Creature::new(&motions));
/// let prey = Creature::builder(&motions).origin(Vec3::new(0.0, 6.0, 0.0)).build();
/// world.add_creature(2, 0.5, 1.8, prey);
/// world.move_to_object(1, 2, MovementParameters::default());
/// for _ in 0..60 {
///     world.tick(0.1);
/// }
/// // Arrived: the move reported success (WeenieError::None).
/// assert_eq!(world.get(1).unwrap().last_move_completion().map(|e| e.name()), Some("None"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct World {
    pub objects: Objects,
    clock: f64,
    /// The two-phase tick in progress, if any (`crate::host_physics`).
    pub(crate) host: crate::host_physics::HostTick,
}

impl World {
    /// An empty world whose clock reads `clock` seconds.
    pub fn new(clock: f64) -> World {
        World {
            objects: Objects::default(),
            clock,
            host: crate::host_physics::HostTick::default(),
        }
    }

    /// The world clock (`PhysicsTimer.CurrentTime`).
    pub fn clock(&self) -> f64 {
        self.clock
    }

    /// Set the clock without updating anything (the reference tick keeps it).
    #[cfg(feature = "reference")]
    pub(crate) fn set_clock(&mut self, clock: f64) {
        self.clock = clock;
    }

    /// Register an object under its id (its clock is set to the world's). Returns false
    /// and changes nothing when the id is 0 or already taken.
    pub fn add(&mut self, mut obj: PhysicsObj) -> bool {
        if obj.id == 0 || self.objects.find(obj.id).is_some() {
            return false;
        }
        obj.now = self.clock;
        self.objects.push(obj);
        true
    }

    /// Register a creature under `id` with its Setup radius and height. Its movement
    /// manager restarts at the world's clock, as if the creature were created now.
    pub fn add_creature(
        &mut self,
        id: u32,
        radius: f32,
        height: f32,
        creature: crate::Creature,
    ) -> bool {
        let mut obj = creature.into_physics_obj();
        obj.id = id;
        obj.radius = radius;
        obj.height = height;
        obj.moveto = crate::cold_box::ColdBox::fresh_at(self.clock);
        self.add(obj)
    }

    /// Take object `id` out of the world with its whole state (motion, move-to, target
    /// and sticky managers, logs), for [`World::insert`] into another world or to drop
    /// it. O(1): the most recently added object takes its place in the update order.
    /// Nothing is reported to other objects: a watcher or mover aiming at `id` waits
    /// for it as for any object not in the world, and the object keeps naming its own
    /// targets by id, found in whichever world it is in.
    pub fn take(&mut self, id: u32) -> Option<Box<PhysicsObj>> {
        self.objects.remove(id).map(Box::new)
    }

    /// Register an object taken from a world (or built elsewhere) under its own id,
    /// state unchanged but for its clock, which reads this world's. Refused, and the
    /// object handed back, when its id is 0 or already taken here.
    pub fn insert(&mut self, obj: Box<PhysicsObj>) -> Result<(), Box<PhysicsObj>> {
        if obj.id == 0 || self.objects.find(obj.id).is_some() {
            return Err(obj);
        }
        let added = self.add(*obj);
        debug_assert!(added);
        Ok(())
    }

    pub fn get(&self, id: u32) -> Option<&PhysicsObj> {
        self.objects.find(id).map(|i| &self.objects[i])
    }

    pub fn get_mut(&mut self, id: u32) -> Option<&mut PhysicsObj> {
        self.objects.find(id).map(move |i| &mut self.objects[i])
    }

    /// Advance the clock by `dt` seconds and update every object once. Each object's
    /// logs (`hook_log`, `motions_done`, `move_completions`) then hold this tick's only,
    /// so a long-running world keeps no growing history. This is the two-phase tick
    /// (`crate::host_physics`) with every proposal accepted; do not call it while a
    /// two-phase tick is open ([`World::tick_open`]).
    pub fn tick(&mut self, dt: f64) {
        self.start_tick(dt);
        update_all(&mut self.objects, dt);
    }

    /// What a tick does before the updates: [`start_clock`].
    #[inline(always)]
    pub(crate) fn start_tick(&mut self, dt: f64) {
        start_clock(self.objects.iter_mut(), &mut self.clock, dt);
    }

    fn perform(&mut self, id: u32, mvs: MovementStruct) -> Option<WeenieError> {
        let i = self.objects.find(id)?;
        Some(perform_movement(&mut self.objects, i, &mvs))
    }

    /// `mover` walks or runs to `target` (MoveToObject with the target's radius/height).
    pub fn move_to_object(
        &mut self,
        mover: u32,
        target: u32,
        params: MovementParameters,
    ) -> Option<WeenieError> {
        let (radius, height) = self
            .get(target)
            .map_or((0.0, 0.0), |t| (t.get_radius(), t.get_height()));
        let mut mvs = MovementStruct::new(MovementType::MoveToObject, params);
        mvs.object_id = target;
        mvs.top_level_id = target;
        mvs.radius = radius;
        mvs.height = height;
        self.perform(mover, mvs)
    }

    /// `mover` walks or runs to a frame in its own cell.
    pub fn move_to_position(
        &mut self,
        mover: u32,
        frame: AFrame,
        params: MovementParameters,
    ) -> Option<WeenieError> {
        let cell = self.get(mover)?.cell;
        let mut mvs = MovementStruct::new(MovementType::MoveToPosition, params);
        mvs.position = Position::new(cell, frame);
        self.perform(mover, mvs)
    }

    /// `mover` turns to face `target`.
    pub fn turn_to_object(
        &mut self,
        mover: u32,
        target: u32,
        params: MovementParameters,
    ) -> Option<WeenieError> {
        let mut mvs = MovementStruct::new(MovementType::TurnToObject, params);
        mvs.object_id = target;
        mvs.top_level_id = target;
        self.perform(mover, mvs)
    }

    /// `mover` turns to `params.desired_heading`.
    pub fn turn_to_heading(
        &mut self,
        mover: u32,
        params: MovementParameters,
    ) -> Option<WeenieError> {
        self.perform(
            mover,
            MovementStruct::new(MovementType::TurnToHeading, params),
        )
    }

    /// Cancel `mover`'s move with `error` (reported to it if one was in progress).
    pub fn cancel_moveto(&mut self, mover: u32, error: WeenieError) {
        if let Some(i) = self.objects.find(mover) {
            self.objects[i].mt_cancel_move_to(error);
            flush(&mut self.objects, i);
        }
    }

    /// `mover` sticks to `target` for one second (Q80).
    pub fn stick_to(&mut self, mover: u32, target: u32) {
        let (radius, height) = self
            .get(target)
            .map_or((0.0, 0.0), |t| (t.get_radius(), t.get_height()));
        if let Some(i) = self.objects.find(mover) {
            self.objects[i].stick_to(target, radius, height);
            flush(&mut self.objects, i);
        }
    }

    /// `mover` stops sticking to its target.
    pub fn unstick(&mut self, mover: u32) {
        self.on(mover, |o| o.unstick_from_object());
    }

    /// `mover` is held within `max` of `frame` (in its own cell), slowed from `start` on.
    pub fn constrain_to(&mut self, mover: u32, frame: AFrame, start: f32, max: f32) {
        self.on(mover, |o| {
            let p = Position::new(o.cell, frame);
            o.constrain_to(p, start, max);
        });
    }

    /// `mover`'s constraint is lifted.
    pub fn unconstrain(&mut self, mover: u32) {
        self.on(mover, |o| o.unconstrain());
    }

    /// Put object `id` at `frame` at once (a server teleporting or correcting it), with
    /// the velocity its watchers will extrapolate from when given. No report is sent
    /// until its next `HandleTargetting`.
    pub fn move_object(&mut self, id: u32, frame: AFrame, velocity: Option<crate::math::Vec3>) {
        self.on(id, |o| {
            o.frame = frame;
            if let Some(v) = velocity {
                o.cached_velocity = v;
            }
        });
    }

    /// `HandleTargetting` of object `id` now (a tick runs it for every moving object).
    pub fn handle_targetting(&mut self, id: u32) {
        if let Some(i) = self.objects.find(id) {
            handle_targetting(&mut self.objects, i);
            flush(&mut self.objects, i);
        }
    }

    /// `NotifyVoyeurOfEvent(status)` of object `id`: every watcher gets the report.
    pub fn notify_voyeurs(&mut self, id: u32, status: TargetStatus) {
        if let Some(i) = self.objects.find(id) {
            notify_voyeurs(&mut self.objects, i, status);
            flush(&mut self.objects, i);
        }
    }

    /// Run `f` on object `id`, then carry out what it asked of others.
    fn on(&mut self, id: u32, f: impl FnOnce(&mut PhysicsObj)) {
        if let Some(i) = self.objects.find(id) {
            f(&mut self.objects[i]);
            flush(&mut self.objects, i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Creature, Loader};

    fn world_of(ids: &[u32]) -> World {
        let records = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
        let motions = Loader::from_dir(records).load(0x0900_0001).unwrap();
        let mut w = World::new(100.0);
        for &id in ids {
            assert!(w.add_creature(id, 0.5, 1.8, Creature::new(&motions)));
        }
        w
    }

    #[test]
    fn targetting_not_due_answers_as_aces_difference_at_the_edge_ties_infinities_and_nan() {
        // Exactly half a second: due.
        assert!(!targetting_not_due(100.5, 100.0));
        // 100.5 less one ulp: 0.4999999999999858 after 100.0, not due.
        assert!(targetting_not_due(100.499_999_999_999_99, 100.0));
        assert!(targetting_not_due(100.0, 100.0));
        // 1.0 - 0.49999999999999994 is 0.5 + 2^-54 exactly, a tie that rounds to even,
        // 0.5, either way round: due.
        assert!(!targetting_not_due(1.0, 0.499_999_999_999_999_94));
        // The clock behind the stored time: not due.
        assert!(targetting_not_due(99.0, 100.0));
        // -inf - 0 = -inf < 0.5: not due; inf - inf and NaN compare false: due.
        assert!(targetting_not_due(f64::NEG_INFINITY, 0.0));
        assert!(!targetting_not_due(f64::INFINITY, 0.0));
        assert!(!targetting_not_due(f64::INFINITY, f64::INFINITY));
        assert!(!targetting_not_due(f64::NAN, 100.0));
        assert!(!targetting_not_due(100.0, f64::NAN));
    }

    proptest::proptest! {
        #[test]
        fn targetting_not_due_agrees_with_aces_test_for_any_bits(a: u64, b: u64) {
            let (now, last) = (f64::from_bits(a), f64::from_bits(b));
            proptest::prop_assert_eq!(targetting_not_due(now, last), now - last < 0.5);
        }

        /// Clocks near each other, where the differences round.
        #[test]
        fn targetting_not_due_agrees_with_aces_test_near_half_a_second(
            now in 0.0f64..1.0e6, d in 0.49f64..0.51,
        ) {
            let last = now - d;
            proptest::prop_assert_eq!(targetting_not_due(now, last), now - last < 0.5);
        }
    }

    #[test]
    fn a_lone_request_updates_or_removes_the_entry_the_target_holds_and_leaves_the_outbox_empty() {
        let mut w = world_of(&[1, 2]);
        let entry = |w: &World| {
            let tm = w.get(2).unwrap().target_manager.as_ref();
            tm.and_then(|m| m.voyeurs.as_ref())
                .and_then(|t| t.iter().find(|(_, v)| v.object_id == 1))
                .map(|&(_, v)| (v.radius, v.quantum))
        };
        let send = |w: &mut World, r: Remote| {
            let i = w.objects.find(1).unwrap();
            w.objects[i].outbox.push(r);
            flush(&mut w.objects, i);
            assert!(w.objects[i].outbox.is_empty());
        };
        // No entry yet: the plain loop makes one (radius 0.5, quantum 0) and reports.
        let add = |radius, quantum| Remote::AddVoyeur {
            target: 2,
            radius,
            quantum,
        };
        send(&mut w, add(0.5, 0.0));
        assert_eq!(entry(&w), Some((0.5, 0.0)));
        // The entry exists: updated in place, nothing else.
        send(&mut w, add(1.25, 2.0));
        assert_eq!(entry(&w), Some((1.25, 2.0)));
        send(&mut w, Remote::RemoveVoyeur { target: 2 });
        assert_eq!(entry(&w), None);
        // A request to an object that is not in the world is dropped.
        send(&mut w, Remote::RemoveVoyeur { target: 9 });
        send(
            &mut w,
            Remote::AddVoyeur {
                target: 9,
                radius: 1.0,
                quantum: 1.0,
            },
        );
        assert_eq!(entry(&w), None);
    }

    #[test]
    fn ids_are_found_through_the_index_and_duplicates_refused() {
        let mut w = world_of(&[7, 3, 900]);
        assert_eq!(w.objects.find(7), Some(0));
        assert_eq!(w.objects.find(3), Some(1));
        assert_eq!(w.objects.find(900), Some(2));
        assert_eq!(w.objects.find(4), None);
        let records = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/ac/records");
        let motions = Loader::from_dir(records).load(0x0900_0001).unwrap();
        assert!(!w.add_creature(3, 0.5, 1.8, Creature::new(&motions)));
        assert_eq!(w.objects.len(), 3);
    }

    #[test]
    fn an_id_rewritten_in_place_is_found_under_neither_value() {
        let mut w = world_of(&[1, 2]);
        w.objects[1].id = 5;
        assert_eq!(w.objects.find(5), None);
        assert_eq!(w.objects.find(2), None);
        assert_eq!(w.get(1).map(|o| o.id), Some(1));
    }

    #[test]
    fn a_taken_object_is_gone_and_the_last_one_takes_its_place() {
        let mut w = world_of(&[10, 20, 30, 40]);
        let taken = w.take(20).expect("20 is in the world");
        assert_eq!(taken.id, 20);
        assert!(w.get(20).is_none());
        assert!(w.take(20).is_none());
        let order: Vec<u32> = w.objects.iter().map(|o| o.id).collect();
        assert_eq!(order, [10, 40, 30]);
        assert_eq!(w.objects.find(40), Some(1));
        assert_eq!(w.objects.find(30), Some(2));
        // The last object leaves without moving another.
        assert_eq!(w.take(30).map(|o| o.id), Some(30));
        let order: Vec<u32> = w.objects.iter().map(|o| o.id).collect();
        assert_eq!(order, [10, 40]);
    }

    #[test]
    fn insert_refuses_id_0_and_a_taken_id_and_hands_the_object_back() {
        let mut a = world_of(&[1, 2]);
        let mut b = world_of(&[2]);
        let two = a.take(2).unwrap();
        let back = b.insert(two).expect_err("2 is taken in b");
        assert_eq!(back.id, 2);
        let mut zero = back;
        zero.id = 0;
        assert!(b.insert(zero).is_err());
        let one = a.take(1).unwrap();
        assert!(b.insert(one).is_ok());
        assert_eq!(b.objects.find(1), Some(1));
        assert!(a.objects.is_empty());
    }

    #[test]
    fn an_object_moved_between_worlds_moves_on_bit_for_bit_like_its_unmoved_twin() {
        let mut from = world_of(&[1, 2]);
        let mut twin = world_of(&[1]);
        let mut to = World::new(100.0);
        let walk = MovementParameters::default();
        for w in [&mut from, &mut twin] {
            let o = w.get_mut(1).unwrap();
            assert_eq!(o.do_motion(0x4500_0005, &walk), WeenieError::None);
        }
        for _ in 0..7 {
            from.tick(0.05);
            twin.tick(0.05);
            to.tick(0.05);
        }
        let before = from.get(1).unwrap().position();
        let moved = from.take(1).unwrap();
        assert!(to.insert(moved).is_ok());
        assert_eq!(to.get(1).unwrap().position(), before);
        let bits = |p: Position| {
            let f = p.frame;
            let q = f.orientation;
            (
                p.cell,
                [f.origin.x, f.origin.y, f.origin.z, q.w, q.x, q.y, q.z].map(f32::to_bits),
            )
        };
        for _ in 0..40 {
            to.tick(0.05);
            twin.tick(0.05);
            assert_eq!(
                bits(to.get(1).unwrap().position()),
                bits(twin.get(1).unwrap().position())
            );
        }
        // It walked: the comparison was not between two creatures standing still.
        assert!(to.get(1).unwrap().position().frame.origin.y > before.frame.origin.y + 1.0);
    }
}
