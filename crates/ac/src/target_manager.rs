//! `TargetManager` (`Mgr/TargetManager.cs`, with `Combat/TargetInfo.cs` and
//! `Combat/TargettedVoyeurInfo.cs`): what an object watches (one target slot, shared by
//! the MoveToManager and the StickyManager, Q79) and who watches it (voyeurs, each sent
//! a report when the object's predicted position drifts, Q84).
//!
//! The watcher's side (`SetTarget`, `ReceiveUpdate`, `ClearTarget`) runs on the
//! watcher alone; the parts that reach another object are queued as [`Remote`]
//! requests and carried out by [`crate::world`] (`AddVoyeur`, `SendVoyeurUpdate`,
//! `HandleTargetting`, `NotifyVoyeurOfEvent`).

use crate::interpolation::Position;
use crate::math::Vec3;
use crate::physics_obj::PhysicsObj;

/// `TargetStatus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetStatus {
    Undefined = 0,
    Ok = 1,
    ExitWorld = 2,
    Teleported = 3,
    Contained = 4,
    Parented = 5,
    TimedOut = 6,
}

impl TargetStatus {
    const ALL: [TargetStatus; 7] = [
        TargetStatus::Undefined,
        TargetStatus::Ok,
        TargetStatus::ExitWorld,
        TargetStatus::Teleported,
        TargetStatus::Contained,
        TargetStatus::Parented,
        TargetStatus::TimedOut,
    ];

    /// ACE's enum name (`"OK"` for Ok).
    pub fn name(self) -> &'static str {
        match self {
            TargetStatus::Undefined => "Undefined",
            TargetStatus::Ok => "OK",
            TargetStatus::ExitWorld => "ExitWorld",
            TargetStatus::Teleported => "Teleported",
            TargetStatus::Contained => "Contained",
            TargetStatus::Parented => "Parented",
            TargetStatus::TimedOut => "TimedOut",
        }
    }

    /// The status named `s`.
    pub fn parse(s: &str) -> Option<TargetStatus> {
        TargetStatus::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// `TargetInfo` (the heading and velocity it also carries are never read by this
/// layer; the velocity is kept because traces print it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetInfo {
    pub context_id: u32,
    pub object_id: u32,
    pub radius: f32,
    pub quantum: f64,
    pub target_position: Option<Position>,
    pub interpolated_position: Option<Position>,
    pub velocity: Vec3,
    pub status: TargetStatus,
    pub last_update_time: f64,
}

impl TargetInfo {
    /// The 4-argument constructor: positions null, status Undefined, stamped `now`.
    pub fn new(context_id: u32, object_id: u32, radius: f32, quantum: f64, now: f64) -> TargetInfo {
        TargetInfo {
            context_id,
            object_id,
            radius,
            quantum,
            target_position: None,
            interpolated_position: None,
            velocity: Vec3::ZERO,
            status: TargetStatus::Undefined,
            last_update_time: now,
        }
    }
}

/// `TargettedVoyeurInfo`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Voyeur {
    pub object_id: u32,
    pub quantum: f64,
    pub radius: f32,
    pub last_sent_position: Option<Position>,
}

/// The voyeur table with .NET `Dictionary` enumeration order: insertion order, except
/// that an insertion reuses the most recently freed slot.
#[derive(Clone, Debug, PartialEq)]
pub struct VoyeurTable {
    slots: Vec<Option<(u64, Voyeur)>>,
    /// Per slot, what a lookup by id compares: [`slot_key`] of the entry's id, or 0 for a
    /// free slot (no id's key). A lookup reads one word per slot instead of the entry.
    keys: Vec<u64>,
    /// Bit `id % 64` set for the id of every entry (the OR of [`id_bit`] over the keys):
    /// a lookup whose bit is clear finds nothing without reading the keys. Chases that
    /// start ask their target for an entry it does not have, most often.
    present: u64,
    /// Per bit of `present`, how many entries' ids have it: a removal clears the bit
    /// when the count falls to 0, without reading the other keys.
    present_count: [u32; 64],
    /// Per bit of `present` whose count is 1, the slot of the one entry whose id has it:
    /// a lookup by such an id reads that slot's key instead of scanning the keys.
    lone: LoneSlots,
    free: Vec<usize>,
    next_gen: u64,
}

impl Default for VoyeurTable {
    fn default() -> VoyeurTable {
        VoyeurTable {
            slots: Vec::new(),
            keys: Vec::new(),
            present: 0,
            present_count: [0; 64],
            lone: LoneSlots([0; 64]),
            free: Vec::new(),
            next_gen: 0,
        }
    }
}

/// [`VoyeurTable::lone`]: read only for a bit whose count is 1, so what it holds for the
/// other bits (left from earlier entries) is no part of the table's state, and two
/// tables with the same entries compare equal whatever it holds.
#[derive(Clone, Debug)]
struct LoneSlots([u32; 64]);

impl PartialEq for LoneSlots {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The lookup key of an entry for `id`: never 0, the key of a free slot.
#[inline]
fn slot_key(id: u32) -> u64 {
    (1 << 32) | u64::from(id)
}

/// The bit of `id` in [`VoyeurTable::present`].
#[inline]
fn id_bit(id: u32) -> u64 {
    1 << (id & 63)
}

impl VoyeurTable {
    /// Room for `n` entries in all, so that up to `n` voyeurs are added without growing.
    pub(crate) fn reserve_total(&mut self, n: usize) {
        self.slots.reserve(n.saturating_sub(self.slots.len()));
        self.keys.reserve(n.saturating_sub(self.keys.len()));
        self.free.reserve(n.saturating_sub(self.free.len()));
    }

    /// The first slot holding an entry for `id`. When one entry alone has the id's bit
    /// (chasers of one target have consecutive ids, so most often), an entry for `id`
    /// can only be that one: its slot's key answers without the scan.
    #[inline]
    fn slot_of(&self, id: u32) -> Option<usize> {
        if self.present & id_bit(id) == 0 {
            return None;
        }
        let key = slot_key(id);
        let b = (id & 63) as usize;
        if self.present_count[b] == 1 {
            let s = self.lone.0[b] as usize;
            let found = (self.keys.get(s) == Some(&key)).then_some(s);
            debug_assert_eq!(found, self.slot_of_plain(id), "voyeur table: lone slot");
            return found;
        }
        self.slot_of_plain(id)
    }

    /// [`VoyeurTable::slot_of`] by the scan of every key.
    #[inline]
    fn slot_of_plain(&self, id: u32) -> Option<usize> {
        let key = slot_key(id);
        self.keys.iter().position(|&k| k == key)
    }

    pub fn get_mut(&mut self, id: u32) -> Option<&mut Voyeur> {
        let i = self.slot_of(id)?;
        self.slot_mut(i)
    }

    /// The entry of `id` with its generation (a re-inserted entry is a new object).
    pub fn get_gen_mut(&mut self, id: u32, gen: u64) -> Option<&mut Voyeur> {
        let i = self.slot_of_gen(id, gen)?;
        self.slot_mut(i)
    }

    /// [`VoyeurTable::get_gen_mut`] without the right to change the entry.
    pub fn get_gen(&self, id: u32, gen: u64) -> Option<&Voyeur> {
        let i = self.slot_of_gen(id, gen)?;
        self.slots[i].as_ref().map(|(_, v)| v)
    }

    /// [`VoyeurTable::get_gen`] of an entry that a snapshot found in slot `slot`
    /// ([`VoyeurTable::iter_slots`]): only that slot is read. An entry never moves (a
    /// removal frees its slot, and an insertion into a freed slot makes an entry of a
    /// new generation) and no two entries share a generation, so the entry of `id` and
    /// `gen`, if the table still holds it, is in `slot`.
    #[inline]
    pub(crate) fn get_gen_at(&self, slot: usize, id: u32, gen: u64) -> Option<&Voyeur> {
        let found = self.in_slot(slot, id, gen);
        debug_assert_eq!(found, self.slot_of_gen(id, gen), "voyeur table: slot");
        found.and_then(|i| self.slots[i].as_ref().map(|(_, v)| v))
    }

    /// [`VoyeurTable::get_gen_at`] with the right to change the entry.
    #[inline]
    pub(crate) fn get_gen_at_mut(&mut self, slot: usize, id: u32, gen: u64) -> Option<&mut Voyeur> {
        let found = self.in_slot(slot, id, gen);
        debug_assert_eq!(found, self.slot_of_gen(id, gen), "voyeur table: slot");
        self.slot_mut(found?)
    }

    /// `slot` when it holds the entry of `id` made with generation `gen`.
    #[inline]
    fn in_slot(&self, slot: usize, id: u32, gen: u64) -> Option<usize> {
        let here =
            matches!(self.slots.get(slot), Some(Some((g, v))) if *g == gen && v.object_id == id);
        here.then_some(slot)
    }

    /// The first slot holding the entry of `id` made with generation `gen`.
    #[inline]
    fn slot_of_gen(&self, id: u32, gen: u64) -> Option<usize> {
        if self.present & id_bit(id) == 0 {
            return None;
        }
        let key = slot_key(id);
        (0..self.keys.len())
            .find(|&i| self.keys[i] == key && matches!(self.slots[i], Some((g, _)) if g == gen))
    }

    /// The entry in slot `i` (one [`VoyeurTable::insert_slot`] returned).
    #[inline]
    pub(crate) fn slot_mut(&mut self, i: usize) -> Option<&mut Voyeur> {
        self.slots.get_mut(i)?.as_mut().map(|(_, v)| v)
    }

    #[inline]
    pub fn contains(&self, id: u32) -> bool {
        self.slot_of(id).is_some()
    }

    pub fn insert(&mut self, v: Voyeur) {
        self.insert_slot(v);
    }

    /// [`VoyeurTable::insert`], answering the slot the entry took.
    pub(crate) fn insert_slot(&mut self, v: Voyeur) -> usize {
        let gen = self.next_gen;
        self.next_gen += 1;
        let key = slot_key(v.object_id);
        self.present |= id_bit(v.object_id);
        let b = (v.object_id & 63) as usize;
        self.present_count[b] += 1;
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot] = Some((gen, v));
                self.keys[slot] = key;
                slot
            }
            None => {
                self.slots.push(Some((gen, v)));
                self.keys.push(key);
                self.slots.len() - 1
            }
        };
        if self.present_count[b] == 1 {
            self.lone.0[b] = slot as u32;
        }
        slot
    }

    /// What inserting an entry for an id the table lacks and removing it again leaves
    /// behind: the generation it took, and the slot it took from the free list back on
    /// top of that list (a new slot, empty and free, when the list was empty).
    // Always inline: a counter and a test, fewer instructions than the call from the
    // chase's in-range start (which the hint alone did not remove). The new slot, made
    // once per table, is out of line.
    #[inline(always)]
    pub(crate) fn insert_and_remove(&mut self) {
        self.next_gen += 1;
        if self.free.is_empty() {
            self.push_free_slot();
        }
    }

    /// A new slot, empty and free.
    #[cold]
    #[inline(never)]
    fn push_free_slot(&mut self) {
        self.slots.push(None);
        self.keys.push(0);
        self.free.push(self.slots.len() - 1);
    }

    pub fn remove(&mut self, id: u32) -> bool {
        match self.slot_of(id) {
            Some(i) => {
                self.slots[i] = None;
                self.keys[i] = 0;
                self.free.push(i);
                let b = (id & 63) as usize;
                let count = &mut self.present_count[b];
                *count -= 1;
                if *count == 0 {
                    self.present &= !id_bit(id);
                } else if *count == 1 {
                    self.lone.0[b] = self.slot_with_bit(b) as u32;
                }
                debug_assert_eq!(
                    self.present,
                    self.present_of_keys(),
                    "voyeur table: present"
                );
                true
            }
            None => false,
        }
    }

    /// The slot of the first entry whose id has bit `b` of `present` (0 if none).
    fn slot_with_bit(&self, b: usize) -> usize {
        self.keys
            .iter()
            .position(|&k| k != 0 && k & 63 == b as u64)
            .unwrap_or(0)
    }

    /// [`VoyeurTable::present`] recomputed from the keys: the OR of their ids' bits (a
    /// free slot's key 0 has no id).
    fn present_of_keys(&self) -> u64 {
        self.keys
            .iter()
            .filter(|&&k| k != 0)
            .fold(0, |bits, &k| bits | id_bit(k as u32))
    }

    /// The entries in enumeration order, with their generation.
    pub fn iter(&self) -> impl Iterator<Item = &(u64, Voyeur)> {
        self.slots.iter().flatten()
    }

    /// [`VoyeurTable::iter`] with each entry's slot.
    pub(crate) fn iter_slots(&self) -> impl Iterator<Item = (usize, u64, Voyeur)> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.map(|(gen, v)| (i, gen, v)))
    }
}

/// `TargetManager`.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetManager {
    pub target_info: Option<TargetInfo>,
    /// `VoyeurTable` (None until the first voyeur).
    pub voyeurs: Option<VoyeurTable>,
    pub last_update_time: f64,
    /// Reused snapshot buffer for the voyeur loops (steady ticks allocate nothing).
    pub(crate) scratch: Vec<(usize, u64, Voyeur)>,
}

impl TargetManager {
    pub fn new() -> TargetManager {
        TargetManager {
            target_info: None,
            voyeurs: None,
            last_update_time: 0.0,
            scratch: Vec::new(),
        }
    }
}

impl Default for TargetManager {
    fn default() -> Self {
        TargetManager::new()
    }
}

/// A request from one object to another, carried out by the world in order right after
/// the call that made it returns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Remote {
    /// `GetObjectA(target)?.remove_voyeur(self)`.
    RemoveVoyeur { target: u32 },
    /// `GetObjectA(target)?.add_voyeur(self, radius, quantum)` (reports to a new voyeur).
    AddVoyeur {
        target: u32,
        radius: f32,
        quantum: f64,
    },
    /// `NotifyVoyeurOfEvent(status)` of this object, sent from `position`.
    Notify {
        status: TargetStatus,
        position: Position,
    },
}

impl PhysicsObj {
    /// `set_target(ctx, id, radius, quantum)` → `TargetManager.SetTarget`.
    pub fn set_target(&mut self, ctx: u32, object_id: u32, radius: f32, quantum: f64) {
        if self.target_manager.is_none() {
            self.target_manager = Some(Box::new(TargetManager::new()));
        }
        self.clear_target();
        if object_id == 0 {
            let mut info = TargetInfo::new(ctx, 0, 0.0, 0.0, self.now);
            info.status = TargetStatus::TimedOut;
            self.handle_update_target(&info);
            return;
        }
        let now = self.now;
        if let Some(tm) = &mut self.target_manager {
            tm.target_info = Some(TargetInfo::new(ctx, object_id, radius, quantum, now));
        }
        self.outbox.push(Remote::AddVoyeur {
            target: object_id,
            radius,
            quantum,
        });
    }

    /// `clear_target` → `TargetManager.ClearTarget`.
    pub fn clear_target(&mut self) {
        let Some(tm) = &mut self.target_manager else {
            return;
        };
        if let Some(info) = tm.target_info.take() {
            self.outbox.push(Remote::RemoveVoyeur {
                target: info.object_id,
            });
        }
    }

    /// `set_target_quantum(q)`: also updates (or re-creates) this object's entry on the
    /// target (Q85).
    pub fn set_target_quantum(&mut self, q: f64) {
        let Some(info) = self
            .target_manager
            .as_mut()
            .and_then(|tm| tm.target_info.as_mut())
        else {
            return;
        };
        info.quantum = q;
        let (target, radius) = (info.object_id, info.radius);
        self.outbox.push(Remote::AddVoyeur {
            target,
            radius,
            quantum: q,
        });
    }

    /// `get_target_quantum()`.
    pub fn get_target_quantum(&self) -> f64 {
        self.target_manager
            .as_ref()
            .and_then(|tm| tm.target_info.as_ref())
            .map_or(0.0, |i| i.quantum)
    }

    /// `receive_target_update(info)` → `TargetManager.ReceiveUpdate`: reports about an
    /// object this one no longer watches are dropped.
    pub fn receive_target_update(&mut self, update: &TargetInfo) {
        let now = self.now;
        let Some(tm) = &mut self.target_manager else {
            return;
        };
        match &tm.target_info {
            Some(i) if i.object_id == update.object_id => {}
            _ => return,
        }
        let mut info = *update;
        info.last_update_time = now;
        tm.target_info = Some(info);
        self.handle_update_target(&info);
        if update.status == TargetStatus::ExitWorld {
            self.clear_target();
        }
    }

    /// `PhysicsObj.HandleUpdateTarget(info)`: MoveToManager first, then StickyManager.
    pub fn handle_update_target(&mut self, info: &TargetInfo) {
        if info.context_id != 0 {
            return;
        }
        if self.has_movement_manager {
            self.mt_handle_update_target(info);
        }
        if self.position_manager.is_some() {
            self.sticky_handle_update_target(info);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn voyeur(id: u32) -> Voyeur {
        Voyeur {
            object_id: id,
            quantum: f64::from(id),
            radius: 0.5,
            last_sent_position: None,
        }
    }

    /// The entries in enumeration order, by a plain walk over the slots.
    fn ids(t: &VoyeurTable) -> Vec<(u64, u32)> {
        t.iter().map(|&(g, v)| (g, v.object_id)).collect()
    }

    #[test]
    fn an_id_whose_bit_one_entry_alone_has_is_found_in_that_entrys_slot() {
        let mut t = VoyeurTable::default();
        // Slots 0, 1, 2; ids 1 and 65 share bit 1, id 2 alone has bit 2.
        for id in [1, 65, 2] {
            t.insert(voyeur(id));
        }
        assert_eq!(t.lone.0[2], 2);
        assert_eq!(t.slot_of(2), Some(2));
        // Bit 2's one entry is id 2's.
        assert_eq!(t.slot_of(66), None);
        // Two entries have bit 1: the scan.
        assert_eq!(t.slot_of(65), Some(1));
        // Bit 1's count falls to 1: its one entry is 65's, in slot 1.
        assert!(t.remove(1));
        assert_eq!(t.lone.0[1], 1);
        assert_eq!((t.slot_of(65), t.slot_of(1)), (Some(1), None));
        // 129 (bit 1) takes the freed slot 0; removing 65 leaves it alone with bit 1.
        t.insert(voyeur(129));
        assert!(t.remove(65));
        assert_eq!(t.lone.0[1], 0);
        assert_eq!((t.slot_of(129), t.slot_of(65)), (Some(0), None));
        assert!(t.get_mut(129).is_some_and(|v| v.object_id == 129));
    }

    #[test]
    fn insert_and_remove_leaves_the_table_as_an_insertion_and_removal_do() {
        let mut t = VoyeurTable::default();
        let mut u = VoyeurTable::default();
        // Empty free list: a new slot, left empty and free.
        t.insert(voyeur(7));
        u.insert(voyeur(7));
        t.insert(voyeur(5));
        assert!(t.remove(5));
        u.insert_and_remove();
        assert_eq!(t, u);
        // The next insertion takes that slot, with the generation after it.
        t.insert(voyeur(9));
        u.insert(voyeur(9));
        assert_eq!(ids(&u), [(0, 7), (2, 9)]);
        assert_eq!(t, u);
        // A free slot on top of the list is taken and given back.
        assert!(t.remove(7) && u.remove(7));
        t.insert(voyeur(4));
        assert!(t.remove(4));
        u.insert_and_remove();
        assert_eq!(t, u);
        t.insert(voyeur(1));
        u.insert(voyeur(1));
        assert_eq!(ids(&u), [(4, 1), (2, 9)]);
        assert_eq!(t, u);
    }

    #[test]
    fn a_snapshot_entry_is_found_in_its_slot_until_removed_and_never_after() {
        let mut t = VoyeurTable::default();
        for id in [7, 3, 9] {
            t.insert(voyeur(id));
        }
        // Slots 0, 1, 2 with generations 0, 1, 2.
        let snap: Vec<_> = t
            .iter_slots()
            .map(|(s, g, v)| (s, g, v.object_id))
            .collect();
        assert_eq!(snap, [(0, 0, 7), (1, 1, 3), (2, 2, 9)]);
        assert_eq!(t.get_gen_at(1, 3, 1).map(|v| v.object_id), Some(3));
        // 3 leaves and comes back: into its old slot 1, as generation 3.
        assert!(t.remove(3));
        t.insert(voyeur(3));
        assert!(t.get_gen_at(1, 3, 1).is_none());
        assert_eq!(t.get_gen_at(1, 3, 3).map(|v| v.object_id), Some(3));
        // The other entries stay where the snapshot saw them.
        assert_eq!(t.get_gen_at_mut(2, 9, 2).map(|v| v.quantum), Some(9.0));
        assert_eq!(t.get_gen_at(0, 7, 0).map(|v| v.object_id), Some(7));
        // An entry the table never held, in a slot past the end or in one holding
        // another id, is found nowhere.
        assert!(t.get_gen_at(5, 11, 4).is_none());
        assert!(t.get_gen_at(0, 9, 0).is_none());
    }

    #[test]
    fn a_freed_slot_is_reused_first_and_lookups_by_key_find_what_a_scan_finds() {
        let mut t = VoyeurTable::default();
        for id in [7, 3, 9, 4] {
            t.insert(voyeur(id));
        }
        assert!(t.remove(3));
        assert!(t.remove(9));
        assert!(!t.remove(3));
        // The most recently freed slot (9's, the third) is taken first, then 3's.
        t.insert(voyeur(12));
        t.insert(voyeur(0));
        assert_eq!(ids(&t), [(0, 7), (5, 0), (4, 12), (3, 4)]);
        assert!(t.contains(0) && t.contains(12) && !t.contains(3) && !t.contains(9));
        assert_eq!(t.get_mut(12).map(|v| v.quantum), Some(12.0));
        assert_eq!(t.get_gen_mut(12, 4).map(|v| v.object_id), Some(12));
        assert!(t.get_gen_mut(12, 5).is_none());
        assert_eq!(t.get_gen(0, 5).map(|v| v.object_id), Some(0));
        // Through many removals and insertions the key index answers as a walk over
        // the entries does.
        let mut h = 1u32;
        for _ in 0..2_000 {
            h = h.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            // Ids 64 apart share a bit of `present`: a set bit does not prove an entry.
            let id = (h >> 16) % 12 + 64 * ((h >> 24) & 1);
            if h & 0x100 == 0 {
                let had = t.iter().any(|(_, v)| v.object_id == id);
                assert_eq!(t.remove(id), had);
            } else if !t.contains(id) {
                t.insert(voyeur(id));
            }
            for probe in (0..12).chain(64..76) {
                let scan = t.iter().find(|(_, v)| v.object_id == probe).copied();
                assert_eq!(t.contains(probe), scan.is_some());
                assert_eq!(
                    t.get_mut(probe).map(|v| v.object_id),
                    scan.map(|s| s.1.object_id)
                );
                if let Some((g, _)) = scan {
                    assert_eq!(t.get_gen(probe, g).map(|v| v.object_id), Some(probe));
                    let slot = t.iter_slots().position(|(_, sg, _)| sg == g);
                    let at = t.iter_slots().nth(slot.unwrap_or(usize::MAX)).map(|e| e.0);
                    assert_eq!(
                        at.and_then(|s| t.get_gen_at(s, probe, g))
                            .map(|v| v.object_id),
                        Some(probe)
                    );
                    assert!(t.get_gen(probe, g + 1_000_000).is_none());
                }
            }
        }
    }
}
