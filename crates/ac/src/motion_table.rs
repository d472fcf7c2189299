//! The motion graph walker (`Anim/MotionTable.cs`, `Anim/MotionState.cs`;
//! quirks Q14–Q24).

use crate::cold_box::ColdQueue;
use crate::commands::*;
use crate::key_hash::{FlatIdMap, IdMap};
use crate::math::EPSILON;
use crate::records::{MotionData, MotionTable};
use crate::sequence::{AnimData, AnimSource, Sequence};

/// `Motion`: an id with the speed it was requested at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    pub id: u32,
    pub speed_mod: f32,
}

/// `MotionState.Modifiers`: the active modifiers, newest first. Its plain twin is
/// `VecDeque<Motion>` with `push_front` (the tests run both on the same operations).
///
/// The newest entry is the `Vec`'s last, so adding one is `Vec::push` (inline, where
/// `VecDeque::push_front` was a call) and taking the newest off is `Vec::pop`.
#[derive(Clone, Default, PartialEq)]
pub struct ModifierList {
    /// Oldest first: the list's order reversed.
    buf: Vec<Motion>,
}

impl ModifierList {
    pub fn with_capacity(capacity: usize) -> ModifierList {
        ModifierList {
            buf: Vec::with_capacity(capacity),
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The newest modifier.
    #[inline(always)]
    pub fn front(&self) -> Option<&Motion> {
        self.buf.last()
    }

    /// Insert `m` as the newest modifier.
    #[inline(always)]
    pub fn push_front(&mut self, m: Motion) {
        self.buf.push(m);
    }

    /// Take the newest modifier off.
    #[inline(always)]
    pub fn pop_front(&mut self) -> Option<Motion> {
        self.buf.pop()
    }

    /// Take off modifier `i`, newest first.
    pub fn remove(&mut self, i: usize) -> Option<Motion> {
        let at = self.buf.len().checked_sub(i + 1)?;
        Some(self.buf.remove(at))
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.buf.clear();
    }

    /// The modifiers, newest first.
    #[inline(always)]
    pub fn iter(&self) -> std::iter::Rev<std::slice::Iter<'_, Motion>> {
        self.buf.iter().rev()
    }
}

impl std::ops::Index<usize> for ModifierList {
    type Output = Motion;

    /// Modifier `i`, newest first.
    fn index(&self, i: usize) -> &Motion {
        &self.buf[self.buf.len() - 1 - i]
    }
}

impl std::fmt::Debug for ModifierList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// `MotionState`: the table-level state owned by the table manager.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionState {
    pub style: u32,
    pub substate: u32,
    pub substate_mod: f32,
    /// Newest first.
    pub modifiers: ModifierList,
    /// Oldest first.
    pub actions: ColdQueue<Motion>,
}

impl Default for MotionState {
    fn default() -> Self {
        MotionState {
            style: 0,
            substate: 0,
            substate_mod: 1.0,
            // Reserved so that a steady-state object never grows its lists.
            modifiers: ModifierList::with_capacity(4),
            actions: ColdQueue::new(),
        }
    }
}

impl MotionState {
    /// `add_action`.
    pub fn add_action(&mut self, id: u32, speed_mod: f32) {
        self.actions.push_back(Motion { id, speed_mod });
    }
    /// `add_modifier`: refuses the current substate or an already active modifier.
    pub fn add_modifier(&mut self, id: u32, speed_mod: f32) -> bool {
        // Most often the list is empty (a turn while running): no iterator to set up.
        if self.substate == id
            || (!self.modifiers.is_empty() && self.modifiers.iter().any(|m| m.id == id))
        {
            return false;
        }
        self.add_modifier_no_check(id, speed_mod);
        true
    }
    /// `add_modifier_no_check`: insert at the head.
    pub fn add_modifier_no_check(&mut self, id: u32, speed_mod: f32) {
        self.modifiers.push_front(Motion { id, speed_mod });
    }
    /// `remove_action_head`.
    pub fn remove_action_head(&mut self) {
        self.actions.pop_front();
    }
}

/// `(style << 16) | (motion & 0xFFFFFF)` in u32 (the style's high bits fall off).
pub fn key(style: u32, motion: u32) -> u32 {
    (style << 16) | (motion & 0x00FF_FFFF)
}

/// C# `Math.Sign(float)`: 0 is its own class (Q16). NaN (which C# rejects) counts as 0.
pub fn sign(x: f32) -> i32 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

fn count(md: Option<&MotionData>) -> i64 {
    md.map_or(0, |m| m.anims.len() as i64)
}

/// Nesting bound of `re_modify` (see its deviation note).
const RE_MODIFY_DEPTH: u32 = 64;

thread_local! {
    static RE_MODIFY_DEPTH_NOW: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The runtime motion table: the DAT maps indexed for lookup.
///
/// Read-only once made (the fields are reached through accessors), so the link index
/// made with the link lists always answers as they do.
#[derive(Clone, Debug, Default)]
pub struct MotionTableData {
    id: u32,
    default_style: u32,
    style_defaults: IdMap<u32>,
    /// `style_defaults` again for the styles `STYLE | k`, `k < STYLE_SLOTS`, at slot
    /// `k` (the slots run to the highest such style; None where the style has no
    /// entry): a motion reads its style's default substate by indexing instead of
    /// hashing. The map is the plain twin.
    style_slots: Vec<Option<u32>>,
    /// For each style slot with a default substate, where `cycle_index` keeps the cycle
    /// `GetObjectSequence`'s substate branch finds for it (the style's, else the
    /// default style's), [`LOOK_UP`] where it finds none: a stop, which goes to that
    /// substate, reads the cycle without hashing. The lookups are the plain twin.
    default_cycles: Vec<u32>,
    cycles: IdMap<MotionData>,
    modifiers: IdMap<MotionData>,
    links: IdMap<IdMap<MotionData>>,
    link_index: LinkIndex,
    /// `cycles` and `modifiers` again as flat maps, looked up in fewer instructions;
    /// the maps are the plain twins.
    cycle_index: FlatIdMap<MotionData>,
    modifier_index: FlatIdMap<MotionData>,
    /// Bit `k` set when some style `s` with `s % 64 == k` has a default substate `d`
    /// and a link from `d` to `d` (forward, which a reverse lookup's only finds less
    /// of): with the bit clear, a style with a default has no such link and
    /// `GetObjectSequence` answers its lookups of one without probing.
    self_linked: u64,
}

/// The link lists as one map keyed by (list key, motion): what `get_link` finds with
/// two lookups (the list, then the motion in it) in one, and a missing list answers as
/// a list without the motion, which is what `get_link` makes of it in every branch.
#[derive(Clone, Debug, Default)]
struct LinkIndex {
    links: FlatIdMap<MotionData>,
    /// Bit `k` set when some list key `s << 16` (a style-wide list, the forward
    /// lookup's fallback) has `s % 64 == k`: with the bit clear there is no such list
    /// and the fallback finds nothing.
    style_wide: u64,
}

/// Whether two lookups found records with the same bits: not `==`, under which a NaN
/// framerate (which a record may hold until the load refuses it) differs from itself.
#[cfg(debug_assertions)]
fn same_record(a: Option<&MotionData>, b: Option<&MotionData>) -> bool {
    let vec = |v: crate::math::Vec3| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            a.bitfield == b.bitfield
                && a.flags == b.flags
                && vec(a.velocity) == vec(b.velocity)
                && vec(a.omega) == vec(b.omega)
                && a.anims.len() == b.anims.len()
                && a.anims.iter().zip(&b.anims).all(|(x, y)| {
                    (x.anim_id, x.low_frame, x.high_frame, x.framerate.to_bits())
                        == (y.anim_id, y.low_frame, y.high_frame, y.framerate.to_bits())
                })
        }
        _ => false,
    }
}

/// `map[k]` through its flat copy `index`; debug builds check the answer against the map
/// (`what` names the index in the message).
#[inline(always)]
fn checked_lookup<'a>(
    index: &'a FlatIdMap<MotionData>,
    map: &IdMap<MotionData>,
    k: u32,
    what: &str,
) -> Option<&'a MotionData> {
    let found = index.get(u64::from(k));
    #[cfg(debug_assertions)]
    {
        let plain = map.get(&k);
        debug_assert!(same_record(found, plain), "{what}: {found:?}, {plain:?}");
    }
    let _ = (map, what);
    found
}

/// The style commands past the style bit kept in [`MotionTableData::style_slots`].
const STYLE_SLOTS: usize = 1 << 10;

/// A [`MotionTableData::default_cycles`] entry that names no place: the cycle is looked
/// up (and found missing again).
const LOOK_UP: u32 = u32::MAX;

/// The slots of [`MotionTableData::style_slots`] for these style defaults.
fn style_slots(style_defaults: &IdMap<u32>) -> Vec<Option<u32>> {
    let mut slots = Vec::new();
    for (&style, &d) in style_defaults {
        let k = style.wrapping_sub(STYLE) as usize;
        if k < STYLE_SLOTS {
            if slots.len() <= k {
                slots.resize(k + 1, None);
            }
            slots[k] = Some(d);
        }
    }
    slots
}

/// The link index's key of `motion` in the list `list`.
#[inline]
fn pair(list: u32, motion: u32) -> u64 {
    (u64::from(list) << 32) | u64::from(motion)
}

impl LinkIndex {
    fn new(links: &IdMap<IdMap<MotionData>>) -> LinkIndex {
        let mut style_wide = 0u64;
        for &list in links.keys() {
            if list & 0xFFFF == 0 {
                style_wide |= 1 << ((list >> 16) % 64);
            }
        }
        let entries = links.iter().flat_map(|(&list, inner)| {
            inner
                .iter()
                .map(move |(&motion, md)| (pair(list, motion), md.clone()))
        });
        LinkIndex {
            links: FlatIdMap::from_entries(entries),
            style_wide,
        }
    }

    /// `Links[list][motion]`, none when either is missing.
    #[inline]
    fn get(&self, list: u32, motion: u32) -> Option<&MotionData> {
        self.links.get(pair(list, motion))
    }

    /// `Links[style << 16][motion]`, the forward lookup's fallback.
    #[inline]
    fn style_wide(&self, style: u32, motion: u32) -> Option<&MotionData> {
        if self.style_wide & (1 << (style % 64)) == 0 {
            return None;
        }
        self.get(style << 16, motion)
    }
}

impl From<&MotionTable> for MotionTableData {
    fn from(t: &MotionTable) -> Self {
        let links = t
            .links
            .iter()
            .map(|(k, inner)| (*k, inner.iter().cloned().collect()))
            .collect();
        let style_defaults = t.style_defaults.iter().copied().collect();
        // Made from the maps, where a key the record lists twice has its last value.
        let cycles: IdMap<MotionData> = t.cycles.iter().cloned().collect();
        let modifiers: IdMap<MotionData> = t.modifiers.iter().cloned().collect();
        let flat = |m: &IdMap<MotionData>| {
            FlatIdMap::from_entries(m.iter().map(|(&k, md)| (u64::from(k), md.clone())))
        };
        let mut table = MotionTableData {
            id: t.id,
            default_style: t.default_style,
            style_slots: style_slots(&style_defaults),
            default_cycles: Vec::new(),
            style_defaults,
            cycle_index: flat(&cycles),
            modifier_index: flat(&modifiers),
            cycles,
            modifiers,
            link_index: LinkIndex::new(&links),
            links,
            self_linked: 0,
        };
        table.self_linked = table.self_linked_styles();
        table.default_cycles = table.default_cycle_places();
        table
    }
}

/// `add_motion`: overwrite velocity/omega, then append every clip at `speed`.
pub fn add_motion(seq: &mut Sequence, md: Option<&MotionData>, speed: f32, src: &dyn AnimSource) {
    let Some(md) = md else { return };
    seq.set_velocity(md.velocity.scale(speed));
    seq.set_omega(md.omega.scale(speed));
    add_clips(seq, md, speed, src);
}

/// [`add_motion`] of a record whose velocity and omega a later `add_motion` of the
/// same change overwrites before anything reads them: its clips alone.
fn add_link_clips(seq: &mut Sequence, md: Option<&MotionData>, speed: f32, src: &dyn AnimSource) {
    if let Some(md) = md {
        add_clips(seq, md, speed, src);
    }
}

/// `add_motion`'s appends: every clip of `md` at `speed`.
#[inline(always)]
fn add_clips(seq: &mut Sequence, md: &MotionData, speed: f32, src: &dyn AnimSource) {
    for a in &md.anims {
        seq.append_animation(
            AnimData {
                anim_id: a.anim_id,
                low_frame: a.low_frame,
                high_frame: a.high_frame,
                framerate: a.framerate * speed,
            },
            src,
        );
    }
}

/// `combine_motion`.
pub fn combine_motion(seq: &mut Sequence, md: Option<&MotionData>, speed: f32) {
    if let Some(md) = md {
        seq.combine_physics(md.velocity.scale(speed), md.omega.scale(speed));
    }
}

/// `subtract_motion`.
pub fn subtract_motion(seq: &mut Sequence, md: Option<&MotionData>, speed: f32) {
    if let Some(md) = md {
        seq.subtract_physics(md.velocity.scale(speed), md.omega.scale(speed));
    }
}

/// `change_cycle_speed` (the MotionData argument is unused in ACE).
pub fn change_cycle_speed(seq: &mut Sequence, substate_mod: f32, speed_mod: f32) {
    if substate_mod.abs() > EPSILON {
        seq.multiply_cyclic_animation_framerate(speed_mod / substate_mod);
    } else if speed_mod.abs() < EPSILON {
        seq.multiply_cyclic_animation_framerate(0.0);
    }
}

impl MotionTableData {
    /// The table's id (`0x09……`).
    pub fn id(&self) -> u32 {
        self.id
    }
    /// `DefaultStyle`.
    pub fn default_style(&self) -> u32 {
        self.default_style
    }
    /// `StyleDefaults`: each style's default substate.
    pub fn style_defaults(&self) -> &IdMap<u32> {
        &self.style_defaults
    }
    /// `Cycles`, keyed by [`key`]`(style, substate)`.
    pub fn cycles(&self) -> &IdMap<MotionData> {
        &self.cycles
    }
    /// `Modifiers`, keyed by [`key`]`(style, motion)` or by the bare motion id.
    pub fn modifiers(&self) -> &IdMap<MotionData> {
        &self.modifiers
    }
    /// `Links`: the link lists keyed by [`key`]`(style, substate)`, each keyed by the
    /// motion it leads to.
    pub fn links(&self) -> &IdMap<IdMap<MotionData>> {
        &self.links
    }

    /// The entries of [`MotionTableData::default_cycles`], slot by slot.
    fn default_cycle_places(&self) -> Vec<u32> {
        let index = &self.cycle_index;
        let place = |style: u32, idx: u32| index.place(u64::from(key(style, idx)));
        (0..self.style_slots.len())
            .map(|k| {
                let style = STYLE.wrapping_add(k as u32);
                let Some(d) = self.style_slots[k] else {
                    return LOOK_UP;
                };
                let idx = d & 0x00FF_FFFF;
                place(style, idx)
                    .or_else(|| place(self.default_style, idx))
                    .unwrap_or(LOOK_UP)
            })
            .collect()
    }

    /// The bits of [`MotionTableData::self_linked`], from the plain lookups.
    fn self_linked_styles(&self) -> u64 {
        let mut bits = 0u64;
        for (&style, &d) in &self.style_defaults {
            if self.get_link_plain(style, d, 1.0, d, 1.0).is_some() {
                bits |= 1 << (style % 64);
            }
        }
        bits
    }

    /// True when `style` has a default substate (`sd`, its entry in `style_defaults`)
    /// and no link from it to itself, forward or reverse: `get_link(style, d, _, d, _)`
    /// then answers None at any speeds. False means unknown. Debug builds check each
    /// true answer against the plain lookups.
    #[inline]
    fn default_unlinked_to_itself(&self, style: u32, sd: Option<u32>) -> bool {
        let Some(d) = sd else { return false };
        let unlinked = self.self_linked & (1 << (style % 64)) == 0;
        debug_assert!(
            !unlinked
                || (self.get_link_plain(style, d, 1.0, d, 1.0).is_none()
                    && self.get_link_plain(style, d, -1.0, d, 1.0).is_none()
                    && self.get_link_plain(style, d, 1.0, d, -1.0).is_none()),
            "self-link mask"
        );
        unlinked
    }

    /// `SD(s)`: the style's default substate, 0 when absent.
    pub fn sd(&self, style: u32) -> u32 {
        self.style_default(style).unwrap_or(0)
    }

    /// The style's entry in `style_defaults`: from its slot when the style has one,
    /// else from the map. Debug builds check every answer against the map.
    #[inline]
    fn style_default(&self, style: u32) -> Option<u32> {
        let k = style.wrapping_sub(STYLE) as usize;
        let found = match self.style_slots.get(k) {
            Some(&d) => d,
            None => self.style_defaults.get(&style).copied(),
        };
        debug_assert_eq!(
            found,
            self.style_defaults.get(&style).copied(),
            "style slots"
        );
        found
    }

    /// The cycle `GetObjectSequence`'s substate branch plays for substate `idx`
    /// (masked): the style's, else the default style's.
    #[inline(always)]
    fn substate_cycle(&self, style: u32, idx: u32) -> Option<&MotionData> {
        self.cycle(key(style, idx))
            .or_else(|| self.cycle(key(self.default_style, idx)))
    }

    /// [`MotionTableData::substate_cycle`] of the style's default substate (`idx`,
    /// masked), from its place in [`MotionTableData::default_cycles`] when the style
    /// has a slot. Debug builds check every answer against the lookups.
    #[inline(always)]
    fn default_cycle(&self, style: u32, idx: u32) -> Option<&MotionData> {
        let k = style.wrapping_sub(STYLE) as usize;
        let at = self.default_cycles.get(k).copied().unwrap_or(LOOK_UP);
        if at == LOOK_UP {
            return self.substate_cycle(style, idx);
        }
        let found = self.cycle_index.at(at);
        #[cfg(debug_assertions)]
        {
            let plain = self.substate_cycle(style, idx);
            debug_assert!(
                same_record(found, plain),
                "default cycle: {found:?}, {plain:?}"
            );
        }
        found
    }

    /// `Cycles[k]` through the flat index; debug builds check every answer against the
    /// map.
    #[inline]
    fn cycle(&self, k: u32) -> Option<&MotionData> {
        checked_lookup(&self.cycle_index, &self.cycles, k, "cycle index")
    }

    /// `Modifiers[k]` through the flat index; debug builds check every answer against
    /// the map.
    #[inline]
    fn modifier(&self, k: u32) -> Option<&MotionData> {
        checked_lookup(&self.modifier_index, &self.modifiers, k, "modifier index")
    }

    /// `MotionTable.GetAnimationLength(tableId, stance, motion, speed)` (ACE's static
    /// helper over its DAT reader): the seconds of the link from the style's default
    /// substate to `motion` (a link valid from any substate if that one has none; no time
    /// at all when the default substate has no link list), each animation counted from its
    /// low frame to its high frame (−1 or past the end: the frame count) at
    /// `|framerate|`, divided by `speed`. The default substate's id is masked to 20 bits
    /// in the key, as ACE does.
    pub fn animation_length(
        &self,
        stance: u32,
        motion: u32,
        speed: f32,
        src: &dyn AnimSource,
    ) -> f32 {
        let current = self.style_defaults.get(&stance).copied().unwrap_or(0);
        let length = match self.links.get(&((stance << 16) | (current & 0xF_FFFF))) {
            None => 0.0,
            Some(link) => link
                .get(&motion)
                .or_else(|| self.links.get(&(stance << 16)).and_then(|l| l.get(&motion)))
                .map_or(0.0, |md| {
                    md.anims.iter().fold(0.0f32, |sum, a| {
                        let frames = src.animation(a.anim_id).num_frames as i32;
                        let high = if a.high_frame == -1 || a.high_frame > frames {
                            frames
                        } else {
                            a.high_frame
                        };
                        sum + (high - a.low_frame) as f32 / a.framerate.abs()
                    })
                }),
        };
        length / speed
    }

    /// `get_link`: forward lookup, or the reverse one when either speed is negative (Q14).
    pub fn get_link(
        &self,
        style: u32,
        substate: u32,
        substate_speed: f32,
        motion: u32,
        speed: f32,
    ) -> Option<&MotionData> {
        self.link(
            style,
            || self.style_default(style),
            substate,
            substate_speed,
            motion,
            speed,
        )
    }

    /// [`MotionTableData::get_link`] through the link index, with `style_default` the
    /// style's entry in `style_defaults` (asked for by the reverse lookup's fallback
    /// only; a caller may have read it already). Debug builds check every answer
    /// against the plain lookup.
    // `always`: with the hint alone, the two copies of `sequence_from` called it.
    #[inline(always)]
    fn link(
        &self,
        style: u32,
        style_default: impl FnOnce() -> Option<u32>,
        substate: u32,
        substate_speed: f32,
        motion: u32,
        speed: f32,
    ) -> Option<&MotionData> {
        let index = &self.link_index;
        let found = if speed < 0.0 || substate_speed < 0.0 {
            index
                .get(key(style, motion), substate)
                .or_else(|| style_default().and_then(|d| index.get(key(style, substate), d)))
        } else {
            index
                .get(key(style, substate), motion)
                .or_else(|| index.style_wide(style, motion))
        };
        #[cfg(debug_assertions)]
        {
            let plain = self.get_link_plain(style, substate, substate_speed, motion, speed);
            debug_assert!(
                same_record(found, plain),
                "link index: {found:?}, {plain:?}"
            );
        }
        found
    }

    /// `get_link` as ACE makes it, on the nested link lists: the twin the link index is
    /// checked against.
    pub fn get_link_plain(
        &self,
        style: u32,
        substate: u32,
        substate_speed: f32,
        motion: u32,
        speed: f32,
    ) -> Option<&MotionData> {
        if speed < 0.0 || substate_speed < 0.0 {
            if let Some(md) = self
                .links
                .get(&key(style, motion))
                .and_then(|m| m.get(&substate))
            {
                return Some(md);
            }
            if let Some(d) = self.style_defaults.get(&style) {
                if let Some(inner) = self.links.get(&key(style, substate)) {
                    return inner.get(d);
                }
            }
            None
        } else {
            if let Some(md) = self
                .links
                .get(&key(style, substate))
                .and_then(|m| m.get(&motion))
            {
                return Some(md);
            }
            if let Some(inner) = self.links.get(&(style << 16)) {
                return inner.get(&motion);
            }
            None
        }
    }

    /// `is_allowed`.
    pub fn is_allowed(&self, motion: u32, md: &MotionData, state: &MotionState) -> bool {
        if md.bitfield & 2 == 0 || motion == state.substate {
            return true;
        }
        self.sd(state.style) == state.substate
    }

    /// `DoObjectMotion`.
    pub fn do_object_motion(
        &self,
        motion: u32,
        cs: &mut MotionState,
        seq: &mut Sequence,
        speed_mod: f32,
        num_anims: &mut u32,
        src: &dyn AnimSource,
    ) -> bool {
        *num_anims = 0;
        if cs.style == 0 || cs.substate == 0 {
            return false;
        }
        let (ok, n) = self.sequence_from::<false>(motion, cs, seq, speed_mod, src);
        *num_anims = n;
        ok
    }

    /// `GetObjectSequence`: the branches in ACE's order (style, substate, action,
    /// modifier); a command with several class bits can fall through (Q19).
    #[allow(clippy::too_many_arguments)]
    pub fn get_object_sequence(
        &self,
        motion: u32,
        cs: &mut MotionState,
        seq: &mut Sequence,
        speed_mod: f32,
        num_anims: &mut u32,
        stop_modifiers: bool,
        src: &dyn AnimSource,
    ) -> bool {
        *num_anims = 0;
        if cs.style == 0 || cs.substate == 0 {
            return false;
        }
        let (ok, n) = if stop_modifiers {
            self.sequence_from::<true>(motion, cs, seq, speed_mod, src)
        } else {
            self.sequence_from::<false>(motion, cs, seq, speed_mod, src)
        };
        *num_anims = n;
        ok
    }

    /// [`MotionTableData::get_object_sequence`] past its first test, answering its
    /// result and the animation count it leaves (the count is written on every path,
    /// a refusal included). `STOP` is `stop_modifiers`.
    // Out of line, with the count returned and the flag a constant: every argument
    // travels in a register, none on the stack.
    #[inline(never)]
    fn sequence_from<const STOP: bool>(
        &self,
        motion: u32,
        cs: &mut MotionState,
        seq: &mut Sequence,
        speed_mod: f32,
        src: &dyn AnimSource,
    ) -> (bool, u32) {
        let mut n = 0u32;
        let sd = self.style_default(cs.style);
        let ok = self.get_object_sequence_from(motion, sd, cs, seq, speed_mod, &mut n, STOP, src);
        (ok, n)
    }

    /// [`MotionTableData::sequence_from`]`::<true>` of the style's default substate at
    /// speed 1 (`SD(style)`, 0 when absent), answering the animation count: a
    /// substate's stop.
    // A copy of its own, where the motion is the default and the speed 1: the tests of
    // the two against the state fold, and the default is read once.
    #[inline(never)]
    fn stop_to_default(
        &self,
        cs: &mut MotionState,
        seq: &mut Sequence,
        src: &dyn AnimSource,
    ) -> u32 {
        let mut n = 0u32;
        let sd = self.style_default(cs.style);
        let d = sd.unwrap_or(0);
        self.get_object_sequence_from(d, sd, cs, seq, 1.0, &mut n, true, src);
        n
    }

    /// [`MotionTableData::sequence_from`]'s body, with `sd` the style's entry in
    /// `style_defaults`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn get_object_sequence_from(
        &self,
        motion: u32,
        sd: Option<u32>,
        cs: &mut MotionState,
        seq: &mut Sequence,
        speed_mod: f32,
        num_anims: &mut u32,
        stop_modifiers: bool,
        src: &dyn AnimSource,
    ) -> bool {
        // `SD(style)`; the links below from and to the current style read the entry
        // itself.
        let sub = sd.unwrap_or(0);
        if motion == sub && !stop_modifiers && cs.substate & MODIFIER != 0 {
            return true;
        }

        if motion & STYLE != 0 {
            if cs.style == motion {
                return true;
            }
            let to_default = if sub != cs.substate {
                self.link(
                    cs.style,
                    || sd,
                    cs.substate,
                    cs.substate_mod,
                    sub,
                    speed_mod,
                )
            } else {
                None
            };
            if sub != 0 {
                if let Some(cyc) = self.cycle((motion << 16) | (sub & 0x00FF_FFFF)) {
                    if cyc.bitfield & 1 != 0 {
                        cs.modifiers.clear();
                    }
                    let mut link =
                        self.link(cs.style, || sd, sub, cs.substate_mod, motion, speed_mod);
                    let mut via = None;
                    if link.is_none() {
                        link = self.link(cs.style, || sd, sub, 1.0, self.default_style, 1.0);
                        via = self.get_link(
                            self.default_style,
                            self.sd(self.default_style),
                            1.0,
                            motion,
                            1.0,
                        );
                    }
                    seq.clear_physics();
                    seq.remove_cyclic_anims();
                    add_motion(seq, to_default, speed_mod, src);
                    add_motion(seq, link, speed_mod, src);
                    add_motion(seq, via, speed_mod, src);
                    add_motion(seq, Some(cyc), speed_mod, src);
                    cs.substate = sub;
                    cs.style = motion;
                    cs.substate_mod = speed_mod;
                    self.re_modify(seq, cs, src);
                    *num_anims = (count(to_default) + count(link) + count(via) + count(Some(cyc))
                        - 1) as u32;
                    return true;
                }
            }
        }

        if motion & SUBSTATE != 0 {
            let idx = motion & 0x00FF_FFFF;
            // A stop goes to the style's default substate, whose cycle has a place of
            // its own (read by the stops alone: the motions' copy seldom goes there).
            let md = if stop_modifiers && motion == sub {
                self.default_cycle(cs.style, idx)
            } else {
                self.substate_cycle(cs.style, idx)
            };
            if let Some(md) = md {
                // `is_allowed` with the style's default substate already read (`sub`:
                // nothing above changed the style).
                if md.bitfield & 2 == 0 || motion == cs.substate || sub == cs.substate {
                    if motion == cs.substate
                        && seq.has_anims()
                        && sign(speed_mod) == sign(cs.substate_mod)
                    {
                        change_cycle_speed(seq, cs.substate_mod, speed_mod);
                        subtract_motion(seq, Some(md), cs.substate_mod);
                        combine_motion(seq, Some(md), speed_mod);
                        cs.substate_mod = speed_mod;
                        return true;
                    }
                    if md.bitfield & 1 != 0 {
                        cs.modifiers.clear();
                    }
                    // With the speed's sign changing, ACE looks the direct link up and
                    // then replaces it whatever it found: the lookup (pure) is skipped.
                    let turns_back = sign(speed_mod) != sign(cs.substate_mod);
                    let mut link = if turns_back {
                        None
                    } else {
                        self.link(
                            cs.style,
                            || sd,
                            cs.substate,
                            cs.substate_mod,
                            motion,
                            speed_mod,
                        )
                    };
                    let mut via = None;
                    if link.is_none() || turns_back {
                        let d = sub;
                        // Without a turn back, a motion to `d` was just looked up with the
                        // same keys, and in the same direction (a negative speed with a
                        // non-negative substate speed turns back): nothing again.
                        // A link from the default substate to itself, which most tables
                        // lack (the stop to it, a turn from it), is not looked up.
                        let unlinked = self.default_unlinked_to_itself(cs.style, sd);
                        link = if (motion == d && !turns_back) || (cs.substate == d && unlinked) {
                            debug_assert!(self
                                .get_link_plain(cs.style, cs.substate, cs.substate_mod, d, 1.0)
                                .is_none());
                            None
                        } else {
                            self.link(cs.style, || sd, cs.substate, cs.substate_mod, d, 1.0)
                        };
                        via = if motion == d && unlinked {
                            None
                        } else {
                            self.link(cs.style, || sd, d, 1.0, motion, speed_mod)
                        };
                    }
                    // The cycle, appended last, sets the velocity and omega: the cleared
                    // ones and the links' are overwritten before anything reads them
                    // (appends and the cyclic tail's removal do not), so only the links'
                    // clips are appended.
                    seq.remove_cyclic_anims();
                    if via.is_some() {
                        add_link_clips(seq, link, cs.substate_mod, src);
                        add_link_clips(seq, via, speed_mod, src);
                    } else {
                        let s = if cs.substate_mod < 0.0 && speed_mod > 0.0 {
                            -speed_mod
                        } else {
                            speed_mod
                        };
                        add_link_clips(seq, link, s, src);
                    }
                    add_motion(seq, Some(md), speed_mod, src);
                    if cs.substate != motion && cs.substate & MODIFIER != 0 && sub != motion {
                        cs.add_modifier_no_check(cs.substate, cs.substate_mod);
                    }
                    cs.substate_mod = speed_mod;
                    cs.substate = motion;
                    self.re_modify(seq, cs, src);
                    *num_anims = (count(Some(md)) + count(link) + count(via) - 1) as u32;
                    return true;
                }
            }
        }

        if motion & ACTION != 0 {
            let ck = key(cs.style, cs.substate);
            if let Some(cur) = self.cycle(ck) {
                let link = self.link(
                    cs.style,
                    || sd,
                    cs.substate,
                    cs.substate_mod,
                    motion,
                    speed_mod,
                );
                if link.is_some() {
                    cs.add_action(motion, speed_mod);
                    seq.clear_physics();
                    seq.remove_cyclic_anims();
                    add_motion(seq, link, speed_mod, src);
                    add_motion(seq, Some(cur), cs.substate_mod, src);
                    self.re_modify(seq, cs, src);
                    *num_anims = count(link) as u32;
                    return true;
                }
                let d = sub;
                let to_idle = self.link(cs.style, || sd, cs.substate, cs.substate_mod, d, 1.0);
                if to_idle.is_some() {
                    let act = self.link(cs.style, || sd, d, 1.0, motion, speed_mod);
                    if act.is_some() {
                        let back = self.link(cs.style, || sd, d, 1.0, cs.substate, cs.substate_mod);
                        cs.add_action(motion, speed_mod);
                        seq.clear_physics();
                        seq.remove_cyclic_anims();
                        add_motion(seq, to_idle, 1.0, src);
                        add_motion(seq, act, speed_mod, src);
                        add_motion(seq, back, 1.0, src);
                        add_motion(seq, Some(cur), cs.substate_mod, src);
                        self.re_modify(seq, cs, src);
                        // [ACE bug] Q20: the third term counts `to_idle`, and no -1.
                        let third = if back.is_some() { count(to_idle) } else { 0 };
                        *num_anims = (count(to_idle) + count(act) + third) as u32;
                        return true;
                    }
                }
            }
        }

        if motion & MODIFIER != 0 {
            if let Some(cyc) = self.cycle(key(cs.style, cs.substate)) {
                if cyc.bitfield & 1 == 0 {
                    let md = self
                        .modifier(key(cs.style, motion))
                        .or_else(|| self.modifier(motion & 0x00FF_FFFF));
                    if let Some(md) = md {
                        if !cs.add_modifier(motion, speed_mod) {
                            self.stop_sequence_motion(motion, 1.0, cs, seq, num_anims, src);
                            if !cs.add_modifier(motion, speed_mod) {
                                return false;
                            }
                        }
                        combine_motion(seq, Some(md), speed_mod);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// `re_modify`, including ACE's head-rereading bug (Q21: with k ≥ 2 modifiers the
    /// first is re-applied k times and the others lose their physics).
    pub fn re_modify(&self, seq: &mut Sequence, pstate: &mut MotionState, src: &dyn AnimSource) {
        // With no modifier there is nothing to re-apply and the depth ends where it began.
        if pstate.modifiers.is_empty() {
            return;
        }
        // DEVIATION (robustness): with some tables a re-applied modifier re-enters
        // re_modify through GetObjectSequence without end, and ACE overflows its stack.
        // Past RE_MODIFY_DEPTH nested calls the innermost one re-applies nothing.
        let depth = RE_MODIFY_DEPTH_NOW.with(|d| {
            d.set(d.get() + 1);
            d.get()
        });
        if depth <= RE_MODIFY_DEPTH {
            self.re_modify_once(seq, pstate, src);
        }
        RE_MODIFY_DEPTH_NOW.with(|d| d.set(d.get() - 1));
    }

    fn re_modify_once(&self, seq: &mut Sequence, pstate: &mut MotionState, src: &dyn AnimSource) {
        let k = pstate.modifiers.len();
        for _ in 0..k {
            let Some(m) = pstate.modifiers.pop_front() else {
                return;
            };
            let mut tmp = 0u32;
            self.get_object_sequence(m.id, pstate, seq, m.speed_mod, &mut tmp, false, src);
        }
    }

    /// `StopSequenceMotion` (= `StopObjectMotion`); `speed` is ignored as in ACE.
    // Inline: a substate's stop calls the transition to the default from its caller; a
    // modifier's stop is the call.
    #[inline]
    pub fn stop_sequence_motion(
        &self,
        motion: u32,
        _speed: f32,
        state: &mut MotionState,
        seq: &mut Sequence,
        num_anims: &mut u32,
        src: &dyn AnimSource,
    ) -> bool {
        *num_anims = 0;
        if motion & SUBSTATE != 0 && state.substate == motion {
            // `get_object_sequence` to the style's default: its first test, with the
            // substate equal to `motion`, which has the substate bit, so it is not 0.
            if state.style != 0 {
                *num_anims = self.stop_to_default(state, seq, src);
            }
            return true;
        }
        self.stop_modifier(motion, state, seq)
    }

    /// [`MotionTableData::stop_sequence_motion`] past its substate branch.
    #[inline(never)]
    fn stop_modifier(&self, motion: u32, state: &mut MotionState, seq: &mut Sequence) -> bool {
        if motion & MODIFIER == 0 {
            return false;
        }
        // The newest modifier (most often the only one, the turn a step stops) is tested
        // before the scan.
        let at = match state.modifiers.front() {
            Some(m) if m.id == motion => Some(0),
            _ => state.modifiers.iter().position(|m| m.id == motion),
        };
        if let Some(i) = at {
            let md = self
                .modifier(key(state.style, motion))
                .or_else(|| self.modifier(motion & 0x00FF_FFFF));
            let Some(md) = md else { return false };
            let speed = state.modifiers[i].speed_mod;
            subtract_motion(seq, Some(md), speed);
            // The newest modifier (most often the only one) comes off the list's end.
            if i == 0 {
                state.modifiers.pop_front();
            } else {
                state.modifiers.remove(i);
            }
            return true;
        }
        false
    }

    /// `StopObjectCompletely`, with the Q22 guard: a modifier the table cannot stop is
    /// dropped instead of looping forever.
    pub fn stop_object_completely(
        &self,
        state: &mut MotionState,
        seq: &mut Sequence,
        num_anims: &mut u32,
        src: &dyn AnimSource,
    ) -> bool {
        let mut ok = false;
        while let Some(m) = state.modifiers.front().copied() {
            let before = state.modifiers.len();
            if self.stop_sequence_motion(m.id, m.speed_mod, state, seq, num_anims, src) {
                ok = true;
            }
            if state.modifiers.len() >= before && state.modifiers.front() == Some(&m) {
                state.modifiers.pop_front();
            }
        }
        let (sub, sm) = (state.substate, state.substate_mod);
        if self.stop_sequence_motion(sub, sm, state, seq, num_anims, src) {
            return true;
        }
        ok
    }

    /// The cycle `StopObjectCompletely` re-applies to a state of this style and
    /// substate with no modifiers, when that is all it does: the substate is the
    /// style's default (so `GetObjectSequence` of it takes the same-substate branch),
    /// a substate command without the style bit, and found as `GetObjectSequence`
    /// finds it. None when the plain path could do anything else.
    pub(crate) fn rest_cycle(&self, style: u32, substate: u32) -> Option<&MotionData> {
        if style == 0
            || substate == 0
            || substate & SUBSTATE == 0
            || substate & STYLE != 0
            || self.sd(style) != substate
        {
            return None;
        }
        self.substate_cycle(style, substate & 0x00FF_FFFF)
    }

    /// `SetDefaultState`.
    pub fn set_default_state(
        &self,
        state: &mut MotionState,
        seq: &mut Sequence,
        num_anims: &mut u32,
        src: &dyn AnimSource,
    ) -> bool {
        let Some(&d) = self.style_defaults.get(&self.default_style) else {
            return false;
        };
        state.modifiers.clear();
        state.actions.clear();
        let Some(md) = self.cycle(key(self.default_style, d)) else {
            return false;
        };
        *num_anims = (md.anims.len() as i64 - 1) as u32;
        state.style = self.default_style;
        state.substate = d;
        state.substate_mod = 1.0;
        seq.clear_physics();
        seq.clear_animations();
        add_motion(seq, Some(md), 1.0, src);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::AnimRef;

    const NC: u32 = 0x8000_003D;

    /// A link whose only clip names it.
    /// A motion state in `style` at `substate`, nothing else set.
    fn state_at(style: u32, substate: u32) -> MotionState {
        MotionState {
            style,
            substate,
            ..MotionState::default()
        }
    }

    fn link(anim_id: u32) -> MotionData {
        MotionData {
            anims: vec![AnimRef {
                anim_id,
                low_frame: 0,
                high_frame: -1,
                framerate: 30.0,
            }],
            ..MotionData::default()
        }
    }

    #[test]
    fn modifiers_stop_at_the_front_and_behind_it_and_refuse_duplicates() {
        use crate::math::Vec3;
        let md = |velocity: Vec3, omega: Vec3| MotionData {
            velocity,
            omega,
            ..MotionData::default()
        };
        let table = MotionTable {
            default_style: NC,
            modifiers: vec![
                (
                    key(NC, TURN_RIGHT),
                    md(Vec3::ZERO, Vec3::new(0.0, 0.0, -1.5)),
                ),
                (
                    key(NC, SIDE_STEP_RIGHT),
                    md(Vec3::new(1.25, 0.0, 0.0), Vec3::ZERO),
                ),
            ],
            ..MotionTable::default()
        };
        let t = MotionTableData::from(&table);
        let src = crate::sequence::AnimMap::new();
        let mut state = state_at(NC, READY);
        // An empty list takes a modifier; the substate and an active one are refused.
        assert!(state.add_modifier(TURN_RIGHT, 1.0));
        assert!(!state.add_modifier(TURN_RIGHT, 3.0));
        assert!(!state.add_modifier(READY, 1.0));
        assert!(state.add_modifier(SIDE_STEP_RIGHT, 2.0));
        let mut seq = Sequence::new();
        seq.set_velocity(Vec3::new(2.5, 0.0, 0.0));
        seq.set_omega(Vec3::new(0.0, 0.0, -1.5));
        let mut n = 7u32;
        // The turn is behind the sidestep (the newest, at the front): found by the scan.
        assert!(t.stop_sequence_motion(TURN_RIGHT, 1.0, &mut state, &mut seq, &mut n, &src));
        assert_eq!(n, 0);
        assert_eq!(seq.omega(), Vec3::new(0.0, 0.0, 0.0));
        assert_eq!(
            state.modifiers.iter().map(|m| m.id).collect::<Vec<_>>(),
            [SIDE_STEP_RIGHT]
        );
        // The sidestep at the front, at its own speed 2: 2.5 - 1.25 * 2.
        assert!(t.stop_sequence_motion(SIDE_STEP_RIGHT, 1.0, &mut state, &mut seq, &mut n, &src));
        assert_eq!(seq.velocity(), Vec3::new(0.0, 0.0, 0.0));
        assert!(state.modifiers.is_empty());
        assert!(!t.stop_sequence_motion(TURN_RIGHT, 1.0, &mut state, &mut seq, &mut n, &src));
    }

    #[test]
    fn a_stop_reads_its_default_cycle_from_the_place_the_lookups_find() {
        // NonCombat's default Ready has a cycle of its own (clip 3); 0x8000_0005's
        // default Walk has none under its style, so the default style's (clip 5);
        // 0x8000_0006's default Run has none anywhere; 0x8000_0500 has no slot.
        let (borrows, bare, far) = (0x8000_0005u32, 0x8000_0006u32, 0x8000_0500u32);
        let mut walk = link(5);
        walk.anims[0].framerate = 15.0;
        let table = MotionTable {
            default_style: NC,
            style_defaults: vec![
                (NC, READY),
                (borrows, WALK_FORWARD),
                (bare, RUN_FORWARD),
                (far, READY),
            ],
            cycles: vec![
                (key(NC, READY), link(3)),
                (key(NC, WALK_FORWARD), walk),
                (key(borrows, TURN_RIGHT), link(7)),
                (key(far, READY), link(9)),
            ],
            ..MotionTable::default()
        };
        let t = MotionTableData::from(&table);
        let clip = |md: Option<&MotionData>| md.map(|m| m.anims[0].anim_id);
        let k = |style: u32| style.wrapping_sub(STYLE) as usize;
        assert_eq!(t.default_cycles.len(), 0x3E);
        assert_eq!(t.default_cycles[k(bare)], LOOK_UP);
        assert_eq!(t.default_cycles[1], LOOK_UP);
        assert_eq!(clip(t.default_cycle(NC, READY & 0x00FF_FFFF)), Some(3));
        assert_eq!(
            clip(t.default_cycle(borrows, WALK_FORWARD & 0x00FF_FFFF)),
            Some(5)
        );
        assert_eq!(clip(t.default_cycle(bare, RUN_FORWARD & 0x00FF_FFFF)), None);
        assert_eq!(clip(t.default_cycle(far, READY & 0x00FF_FFFF)), Some(9));
        // The stop from the turn plays the borrowed cycle alone (no links), at 15.
        let src = crate::sequence::AnimMap::new();
        let mut state = state_at(borrows, TURN_RIGHT);
        let mut seq = Sequence::new();
        let mut n = 7u32;
        assert!(t.stop_sequence_motion(TURN_RIGHT, 1.0, &mut state, &mut seq, &mut n, &src));
        assert_eq!((state.substate, n), (WALK_FORWARD, 0));
        let rates: Vec<f32> = seq.nodes().iter().map(|n| n.framerate).collect();
        assert_eq!(rates, [15.0]);
    }

    #[test]
    fn a_substate_stop_plays_what_get_object_sequence_to_the_default_plays() {
        // The sample table: Run → Ready has a link, TurnRight → Ready none (a right
        // turn's stop plays Ready's cycle alone; a left one, at -1, turns back through
        // Ready → TurnRight's link).
        let (t, src) = crate::bench::sample_table().unwrap();
        let rates = |seq: &Sequence| seq.nodes().iter().map(|n| n.framerate).collect::<Vec<_>>();
        for (substate, speed, want) in [
            (RUN_FORWARD, 1.5, vec![30.0, 30.0]),
            (TURN_RIGHT, 1.5, vec![30.0]),
            (TURN_RIGHT, -1.5, vec![-30.0, 30.0]),
        ] {
            let mut state = state_at(NC, substate);
            state.substate_mod = speed;
            let mut seq = Sequence::new();
            let (mut n, mut plain_n) = (7u32, 7u32);
            let (mut plain_state, mut plain_seq) = (state.clone(), seq.clone());
            assert!(t.stop_sequence_motion(substate, 1.0, &mut state, &mut seq, &mut n, &src));
            assert!(t.get_object_sequence(
                READY,
                &mut plain_state,
                &mut plain_seq,
                1.0,
                &mut plain_n,
                true,
                &src
            ));
            assert_eq!(rates(&seq), want, "{substate:x} at {speed}");
            assert_eq!((state.substate, state.substate_mod), (READY, 1.0));
            assert_eq!(n as usize, want.len() - 1);
            assert_eq!(
                (&state, n, rates(&seq)),
                (&plain_state, plain_n, rates(&plain_seq))
            );
            assert_eq!(seq.velocity(), plain_seq.velocity());
            assert_eq!(seq.omega(), plain_seq.omega());
        }
        // A style without a default: nothing to stop to, nothing played.
        let mut state = state_at(0x8000_0005, RUN_FORWARD);
        let mut seq = Sequence::new();
        let mut n = 7u32;
        assert!(t.stop_sequence_motion(RUN_FORWARD, 1.0, &mut state, &mut seq, &mut n, &src));
        assert_eq!((n, seq.nodes().len(), state.substate), (0, 0, RUN_FORWARD));
    }

    #[test]
    fn a_default_without_a_link_to_itself_is_not_looked_up_and_one_with_it_is() {
        // 0x8000_003E links its default Walk to itself; 0x8000_007E shares its bit
        // (62) without such a link; NonCombat has none.
        let (linked, shared) = (0x8000_003Eu32, 0x8000_007Eu32);
        let mut cyc = link(5);
        cyc.anims[0].framerate = 30.0;
        let mut self_link = link(1);
        self_link.anims[0].framerate = 10.0;
        let table = MotionTable {
            default_style: NC,
            style_defaults: vec![(NC, READY), (linked, WALK_FORWARD), (shared, READY)],
            cycles: vec![
                (key(NC, WALK_FORWARD), cyc.clone()),
                (key(linked, RUN_FORWARD), cyc),
            ],
            links: vec![
                (key(linked, WALK_FORWARD), vec![(WALK_FORWARD, self_link)]),
                (key(NC, READY), vec![(RUN_FORWARD, link(2))]),
            ],
            ..MotionTable::default()
        };
        let t = MotionTableData::from(&table);
        assert_eq!(t.self_linked, 1 << 62);
        assert!(t.default_unlinked_to_itself(NC, Some(READY)));
        assert!(!t.default_unlinked_to_itself(linked, Some(WALK_FORWARD)));
        assert!(!t.default_unlinked_to_itself(shared, Some(READY)));
        assert!(!t.default_unlinked_to_itself(NC, None));
        let src = crate::sequence::AnimMap::new();
        let rates = |seq: &Sequence| seq.nodes().iter().map(|n| n.framerate).collect::<Vec<_>>();
        // A state in `style` at `substate`, an empty sequence and a count to overwrite.
        let start = |style, substate| (state_at(style, substate), Sequence::new(), 9u32);
        // Turning back from the default at speed -1: the link from the default to
        // itself is found twice, forward (to the default at speed 1) and as the reverse
        // lookup's fallback to the run (played at -1), then the cycle: two owed.
        let (mut state, mut seq, mut n) = start(linked, WALK_FORWARD);
        assert!(t.do_object_motion(RUN_FORWARD, &mut state, &mut seq, -1.0, &mut n, &src));
        assert_eq!((n, rates(&seq)), (2, vec![10.0, -10.0, -30.0]));
        assert_eq!((state.substate, state.substate_mod), (RUN_FORWARD, -1.0));
        // The same in NonCombat, which has no such link: the cycle alone.
        let (mut state, mut seq, mut n) = start(NC, READY);
        assert!(t.do_object_motion(WALK_FORWARD, &mut state, &mut seq, -1.0, &mut n, &src));
        assert_eq!((n, rates(&seq)), (0, vec![-30.0]));
    }

    #[test]
    fn a_substate_change_leaves_its_cycles_velocity_and_omega_whatever_its_links_carry() {
        use crate::math::Vec3;
        // Every record moves: the links Ready → Run (clip 2) and Run → Ready (clip 3)
        // and the cycles Ready (5) and Run (6) each carry a velocity and an omega.
        let moving = |anim_id: u32, v: f32, w: f32| MotionData {
            velocity: Vec3::new(0.0, v, 0.0),
            omega: Vec3::new(0.0, 0.0, w),
            ..link(anim_id)
        };
        let table = MotionTable {
            default_style: NC,
            style_defaults: vec![(NC, READY)],
            cycles: vec![
                (key(NC, READY), moving(5, 0.5, 0.25)),
                (key(NC, RUN_FORWARD), moving(6, 4.0, 0.0)),
            ],
            links: vec![
                (key(NC, READY), vec![(RUN_FORWARD, moving(2, 1.0, 2.0))]),
                (key(NC, RUN_FORWARD), vec![(READY, moving(3, -3.0, 8.0))]),
            ],
            ..MotionTable::default()
        };
        let t = MotionTableData::from(&table);
        let src = crate::sequence::AnimMap::new();
        let mut state = state_at(NC, READY);
        let mut seq = Sequence::new();
        seq.set_velocity(Vec3::new(7.0, 7.0, 7.0));
        let mut n = 9u32;
        let rates = |seq: &Sequence| seq.nodes().iter().map(|n| n.framerate).collect::<Vec<_>>();
        // Ready → Run at 1.5: the link's clip and the cycle's at 45; the run's 4 × 1.5
        // forward and no turn, nothing of the link's 1.5 and 3 or the 7s before.
        assert!(t.do_object_motion(RUN_FORWARD, &mut state, &mut seq, 1.5, &mut n, &src));
        assert_eq!((n, rates(&seq)), (1, vec![45.0, 45.0]));
        assert_eq!(seq.velocity(), Vec3::new(0.0, 6.0, 0.0));
        assert_eq!(seq.omega(), Vec3::new(0.0, 0.0, 0.0));
        // Run's stop: the link back at 1, then Ready's cycle, whose 0.5 and 0.25 stand.
        assert!(t.stop_sequence_motion(RUN_FORWARD, 1.0, &mut state, &mut seq, &mut n, &src));
        assert_eq!((n, rates(&seq)), (1, vec![45.0, 30.0, 30.0]));
        assert_eq!(seq.velocity(), Vec3::new(0.0, 0.5, 0.0));
        assert_eq!(seq.omega(), Vec3::new(0.0, 0.0, 0.25));
        // Ready → Run at -1 turns back: Run's list read at Ready gives the link (Run →
        // Ready) played at -1 as the via, then the cycle at -30, at -4 forward.
        assert!(t.do_object_motion(RUN_FORWARD, &mut state, &mut seq, -1.0, &mut n, &src));
        assert_eq!((n, rates(&seq)), (1, vec![45.0, 30.0, -30.0, -30.0]));
        assert_eq!(seq.velocity(), Vec3::new(0.0, -4.0, 0.0));
        assert_eq!(seq.omega(), Vec3::new(0.0, 0.0, -0.0));
    }

    #[test]
    fn style_slots_answer_as_the_style_defaults() {
        // Styles at the slots' first and last index, past them, without the style
        // bit, and one whose offset wraps around.
        let table = MotionTable {
            style_defaults: vec![
                (STYLE, READY),
                (NC, WALK_FORWARD),
                (STYLE | 0x3FF, RUN_FORWARD),
                (STYLE | 0x400, TURN_RIGHT),
                (0x003D, 7),
                (0x7FFF_FFFF, 8),
            ],
            ..MotionTable::default()
        };
        let t = MotionTableData::from(&table);
        assert_eq!(t.style_slots.len(), 0x400);
        assert_eq!(t.sd(STYLE), READY);
        assert_eq!(t.sd(NC), WALK_FORWARD);
        assert_eq!(t.sd(STYLE | 0x3FF), RUN_FORWARD);
        assert_eq!(t.sd(STYLE | 0x400), TURN_RIGHT);
        assert_eq!(t.sd(0x003D), 7);
        assert_eq!(t.sd(0x7FFF_FFFF), 8);
        assert_eq!(t.style_default(0x8000_003E), None);
        assert_eq!(t.style_default(0x8000_0500), None);
        for style in (0x7FFF_FFF0..=0x8000_0410u32).chain(0..0x50) {
            assert_eq!(
                t.style_default(style),
                t.style_defaults().get(&style).copied(),
                "{style:x}"
            );
        }
    }

    #[test]
    fn records_holding_a_nan_framerate_are_found_through_the_indexes() {
        // The loader refuses such a record, but a table made in code may hold one; the
        // debug checks of the indexes compare bits, under which NaN equals itself.
        let mut nan = link(9);
        nan.anims[0].framerate = f32::NAN;
        let table = MotionTable {
            default_style: NC,
            cycles: vec![(key(NC, READY), nan.clone())],
            modifiers: vec![(TURN_RIGHT, nan.clone())],
            links: vec![(key(NC, READY), vec![(WALK_FORWARD, nan)])],
            ..MotionTable::default()
        };
        let t = MotionTableData::from(&table);
        let rate = |md: Option<&MotionData>| md.map(|m| m.anims[0].framerate.is_nan());
        assert_eq!(
            rate(t.get_link(NC, READY, 1.0, WALK_FORWARD, 1.0)),
            Some(true)
        );
        assert_eq!(rate(t.cycle(key(NC, READY))), Some(true));
        assert_eq!(rate(t.modifier(TURN_RIGHT)), Some(true));
        assert_eq!(rate(t.get_link(NC, READY, 1.0, RUN_FORWARD, 1.0)), None);
    }

    #[test]
    fn the_link_index_answers_as_the_nested_lists_on_colliding_keys() {
        // Lists of Ready and Walk in NonCombat, a style-wide one, and the list of a
        // substate with bits 16–23 set, whose key is also NonCombat's neighbour style
        // 0x8000_003F's key for substate 0x4000_0005.
        let odd = 0x4012_0005u32;
        let table = MotionTable {
            default_style: NC,
            style_defaults: vec![(NC, READY), (0x8000_003F, WALK_FORWARD)],
            links: vec![
                (
                    key(NC, READY),
                    vec![(WALK_FORWARD, link(1)), (RUN_FORWARD, link(2))],
                ),
                (key(NC, WALK_FORWARD), vec![(READY, link(3))]),
                (NC << 16, vec![(TURN_RIGHT, link(4)), (READY, link(5))]),
                (key(NC, odd), vec![(READY, link(6)), (0, link(7))]),
                (key(NC, TURN_RIGHT), vec![(WALK_FORWARD, link(8))]),
            ],
            ..MotionTable::default()
        };
        let t = MotionTableData::from(&table);
        // 0x8000_007D shares NonCombat's style-wide bit and has no list of its own.
        let styles = [NC, 0x8000_003F, 0x8000_007D, 0x0001_003D, 0];
        let ids = [
            READY,
            WALK_FORWARD,
            RUN_FORWARD,
            TURN_RIGHT,
            odd,
            0x4000_0005,
            0,
        ];
        let speeds = [1.0f32, -1.0, 0.0, -0.0, f32::NAN];
        let mut found = 0;
        for &style in &styles {
            for &substate in &ids {
                for &motion in &ids {
                    for &ss in &speeds {
                        for &sp in &speeds {
                            let fast = t.get_link(style, substate, ss, motion, sp);
                            let plain = t.get_link_plain(style, substate, ss, motion, sp);
                            assert_eq!(fast, plain, "{style:x} {substate:x} {motion:x} {ss} {sp}");
                            found += usize::from(fast.is_some());
                        }
                    }
                }
            }
        }
        assert!(found > 100, "{found}");
        // The lookups through each list, by hand: forward, the style-wide fallback, a
        // style whose high bits fall off the key, a style sharing the style-wide bit
        // without a list, the reverse lookup and its fallback to the style's default
        // substate, the colliding key.
        let anim = |md: Option<&MotionData>| md.map(|m| m.anims[0].anim_id);
        assert_eq!(anim(t.get_link(NC, READY, 1.0, WALK_FORWARD, 1.0)), Some(1));
        assert_eq!(
            anim(t.get_link(NC, WALK_FORWARD, 1.0, TURN_RIGHT, 1.0)),
            Some(4)
        );
        assert_eq!(
            anim(t.get_link(0x0001_003D, WALK_FORWARD, 1.0, READY, 1.0)),
            Some(3)
        );
        assert_eq!(
            anim(t.get_link(0x8000_007D, READY, 1.0, TURN_RIGHT, 1.0)),
            None
        );
        assert_eq!(
            anim(t.get_link(NC, WALK_FORWARD, 1.0, TURN_RIGHT, -1.0)),
            Some(8)
        );
        assert_eq!(
            anim(t.get_link(NC, WALK_FORWARD, -1.0, RUN_FORWARD, 1.0)),
            Some(3)
        );
        assert_eq!(
            anim(t.get_link(0x8000_003F, 0x4000_0005, 1.0, READY, 1.0)),
            Some(6)
        );
        assert_eq!(
            anim(t.get_link(0x8000_003F, 0x4000_0005, -1.0, 0, 1.0)),
            None
        );
        assert_eq!(anim(t.get_link(NC, odd, -1.0, 9, 1.0)), Some(6));
    }

    fn ids(l: &ModifierList) -> Vec<u32> {
        l.iter().map(|m| m.id).collect()
    }

    fn md(id: u32) -> Motion {
        Motion { id, speed_mod: 1.0 }
    }

    #[test]
    fn modifiers_come_newest_first_and_come_off_where_named() {
        let mut l = ModifierList::with_capacity(4);
        for id in [1, 2, 3, 4] {
            l.push_front(md(id));
        }
        assert_eq!(ids(&l), [4, 3, 2, 1]);
        assert_eq!((l.front(), l[0].id, l[3].id), (Some(&md(4)), 4, 1));
        // Index 1 is the second newest.
        assert_eq!(l.remove(1), Some(md(3)));
        assert_eq!(ids(&l), [4, 2, 1]);
        assert_eq!(l.remove(3), None);
        assert_eq!(l.pop_front(), Some(md(4)));
        assert_eq!((ids(&l), l.len()), (vec![2, 1], 2));
        assert_eq!(format!("{l:?}"), format!("{:?}", [md(2), md(1)]));
        l.clear();
        assert!(l.is_empty());
        assert_eq!(l.front(), None);
        assert_eq!((l.pop_front(), l.remove(0)), (None, None));
    }

    #[test]
    fn the_modifier_list_answers_as_a_vecdeque_on_every_sequence_of_operations() {
        use std::collections::VecDeque;
        let mut h = 7u32;
        for _ in 0..200 {
            let mut l = ModifierList::with_capacity(4);
            let mut plain: VecDeque<Motion> = VecDeque::with_capacity(4);
            for step in 0..48u32 {
                h = h.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                match (h >> 12) % 8 {
                    0..=3 => {
                        l.push_front(md(step));
                        plain.push_front(md(step));
                    }
                    4 | 5 => assert_eq!(l.pop_front(), plain.pop_front()),
                    6 => {
                        let i = (h as usize >> 4) % 4;
                        assert_eq!(l.remove(i), plain.remove(i));
                    }
                    _ => {
                        l.clear();
                        plain.clear();
                    }
                }
                assert_eq!((l.len(), l.is_empty()), (plain.len(), plain.is_empty()));
                assert_eq!(l.front(), plain.front());
                assert!(l.iter().eq(plain.iter()));
                for i in 0..plain.len() {
                    assert_eq!(l[i], plain[i]);
                }
            }
        }
    }
}
