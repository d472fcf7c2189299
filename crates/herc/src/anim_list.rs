//! The resource model: DBSIM's `ANAnimList` (nodes, keyframe pool, sequences, transition pool).
//!
//! One model serves both sources: the project's JSON assets (D1) and a
//! user's own `.DTS` (F4/F5, read elsewhere in this crate). Both go through [`AnimList::new`],
//! which validates every index and the hierarchy once, so that the thread code can index
//! without re-checking and never panics on a loaded model.

use retroanim_core::ScenarioError;
use serde::Deserialize;
use serde_json::Value;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// A keyframe record `[rx, ry, rz, tx, ty, tz]` (12 bytes in DBSIM); angles in 1/65536 turn.
pub type Keyframe = [i16; 6];

/// The largest pool or list the model accepts. Every count in the binary format is an i16 and
/// every index into a pool is an i16, so longer lists could not be addressed.
pub const MAX_COUNT: usize = i16::MAX as usize;

/// A node (transform id): its parent and its rest (default-transform) keyframe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    /// Parent transform id, −1 = none.
    pub parent: i16,
    /// Keyframe index of the rest record.
    pub rest: i16,
}

/// The chunk class of a sequence; it fixes the next/previous frame functions (H2, H3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeqClass {
    /// `ANCyclicSequence`: next wraps last → 0, previous wraps 0 → last.
    Cyclic,
    /// `ANSequence`: next clamps at the last frame, previous holds at 0.
    OneShot,
}

/// One frame of a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Whole animation ticks (≥ 0; D2).
    pub duration: i16,
    /// First transition-pool entry this frame offers.
    pub first_transition: i16,
    /// How many consecutive entries it offers.
    pub transition_count: i16,
}

/// A sequence (`ANSequence` / `ANCyclicSequence` chunk).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// Informative only (JSON `name`); not part of DBSIM's record.
    pub name: Option<String>,
    pub class: SeqClass,
    /// Slot-sort key (H17): lower sorts first.
    pub priority: i16,
    /// Column 0 is root motion (H12, H14).
    pub ground: bool,
    /// Column c animates node `columns[c]` (part id = transform id).
    pub columns: Vec<i16>,
    pub frames: Vec<Frame>,
    /// Keyframe index per (frame, column), row-major by frame: `frames.len() * columns.len()`.
    pub keys: Vec<i16>,
}

/// A transition-pool entry (H6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transition {
    pub duration: i16,
    pub dest_seq: i16,
    pub dest_frame: i16,
    /// Keyframe index of the movement keyframe.
    pub key: i16,
}

/// A validation fault, located by a JSON-style path into the model
/// (`sequences[2].frames[1].keys[0]`), whatever the source format was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}: {message}")]
pub struct ModelFault {
    pub at: String,
    pub message: String,
}

impl ModelFault {
    fn new(at: impl Into<String>, message: impl Into<String>) -> ModelFault {
        ModelFault {
            at: at.into(),
            message: message.into(),
        }
    }

    /// The fault as a scenario error in `file`, its path prefixed by `base` (e.g. `asset`).
    pub fn into_error(self, file: &str, base: &str) -> ScenarioError {
        let at = retroanim_core::scenario::join_path(base, &self.at);
        ScenarioError::new(file, at, self.message)
    }
}

/// `ANAnimList`: the whole validated animation resource of one shape.
#[derive(Clone, Debug)]
pub struct AnimList {
    /// Which model this is: a number no other [`AnimList::new`] of this process gives (a
    /// clone keeps it, as it holds the same values). A shape instance keeps the id of the
    /// model its caches were built for (see `ShapeInstance`).
    id: u64,
    nodes: Vec<Node>,
    keyframes: Vec<Keyframe>,
    sequences: Vec<Sequence>,
    transitions: Vec<Transition>,
    /// Per sequence, per node: the column animating that node, −1 for none.
    node_columns: Vec<Vec<i16>>,
    /// Nodes in an order where every parent precedes its children (D7 builds parent-first).
    parent_first: Vec<u16>,
    /// `parent_first` without node 0, each node with its parent ([`NO_PARENT`] for none):
    /// the pose build's loop, with the parent lookup done once per model.
    build_order: Vec<(u16, u16)>,
    /// Per node, its rest record (the keyframe `rest` points at; validated in range).
    rest_keys: Vec<Keyframe>,
    /// Every sequence's `keys`, one after the other, as the keyframe records they index (the
    /// zero record for an index outside the pool, as [`AnimList::keyframe`]), each with its
    /// difference to the same column's key in the sequence's next frame ([`Sequence::next`],
    /// see [`Segment`]): a key row is one offset and the pose loop reads a key's values with
    /// one lookup.
    flat_values: Vec<Segment>,
    /// Per sequence: where its keys start in `flat_values`, its column count, and how many
    /// whole rows it has (`usize::MAX` without columns: every frame then has an empty row).
    key_rows: Vec<(usize, usize, usize)>,
    /// Per sequence: its last frame and whether it is cyclic ([`Sequence::next`] in two
    /// values, for [`AnimList::key_rows_at`]'s test of a natural next cursor).
    next_info: Vec<(i16, bool)>,
    /// Per sequence, [`Sequence::total_duration`] (Seek reads it every call).
    totals: Vec<i32>,
    /// Per sequence, what Seek needs in one small record (see [`SeekInfo`]).
    seek_info: Vec<SeekInfo>,
    /// Per frame of every sequence, one after the other: what Advance loads on entering it.
    crossings: Vec<Crossing>,
}

/// One key of a sequence's key pool with the difference to its column's key in the
/// sequence's next frame ([`Sequence::next`]), for the pose blend of a cursor whose next
/// frame is that one (every cursor of a playing or seeked sequence): the blend
/// `a + ((d·q) >> 10)` with `d = b − a` taken once per model. `x_only` records that the
/// blend can change only the pitch: `d` is 0 but for x, and `a`'s y and z are 0, so every
/// local of the segment is `[x, 0, 0, a.tx, a.ty, a.tz]`.
/// Aligned to 32 bytes so that an offset is turned into an address with one shift.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(32))]
pub(crate) struct Segment {
    pub a: Keyframe,
    /// `b[i].wrapping_sub(a[i])` per component (what the blend computes).
    pub d: Keyframe,
    pub x_only: bool,
    /// The blend can change only the yaw: `d` is 0 but for z, and `a`'s x and y are 0 (a
    /// twist), so every local of the segment is `[0, 0, z, a.tx, a.ty, a.tz]`.
    pub z_only: bool,
}

impl Segment {
    fn of(a: Keyframe, b: Keyframe) -> Segment {
        let d: Keyframe = std::array::from_fn(|i| b[i].wrapping_sub(a[i]));
        let x_only = a[1] == 0 && a[2] == 0 && d[1..].iter().all(|&v| v == 0);
        let z_only =
            a[0] == 0 && a[1] == 0 && d[0] == 0 && d[1] == 0 && d[3..].iter().all(|&v| v == 0);
        Segment {
            a,
            d,
            x_only,
            z_only,
        }
    }
}

/// What `AnimationThread::advance` sets on entering frame `f` of a sequence (not a
/// transition frame), kept by the model so that a frame crossing is one lookup: the
/// sequence's next frame after `f`, `f`'s duration, and Load G's outcome (H14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Crossing {
    /// `f`'s ground keyframe (column 0) when `ground` is [`Crossing::LOAD`].
    pub g: Keyframe,
    pub next: i16,
    pub dur: i16,
    /// [`Crossing::DROP`], [`Crossing::LOAD`] or [`Crossing::KEEP`].
    pub ground: u8,
}

impl Crossing {
    /// G is loaded from `g` and the flag set (the commonest case, 0 so that it is tested
    /// first without a compare).
    pub const LOAD: u8 = 0;
    /// A sequence without ground movement: the flag drops, G keeps its value.
    pub const DROP: u8 = 1;
    /// A ground sequence without a key in column 0: nothing changes.
    pub const KEEP: u8 = 2;

    /// Entering frame `f` of `seq` (any f: a frame outside the sequence has duration 0 and
    /// no ground key; its next frame is [`Sequence::next`]'s).
    pub(crate) fn of(seq: &Sequence, keyframes: &[Keyframe], f: i16) -> Crossing {
        let (ground, g) = if !seq.ground {
            (Crossing::DROP, [0; 6])
        } else {
            match seq.key(f, 0) {
                Some(k) => (
                    Crossing::LOAD,
                    usize::try_from(k)
                        .ok()
                        .and_then(|i| keyframes.get(i))
                        .copied()
                        .unwrap_or([0; 6]),
                ),
                None => (Crossing::KEEP, [0; 6]),
            }
        };
        Crossing {
            g,
            next: seq.next(f),
            dur: seq.duration(f),
            ground,
        }
    }
}

/// What `AnimationThread::seek` reads of a sequence, kept together by the model: its total
/// duration less one (the Q14 product's factor), its last frame, whether it is cyclic, and
/// the duration every frame shares (0 when the frames differ or the sequence has ground
/// movement). With one shared duration `d` and no ground movement the frame walk of Seek is
/// a division: it stops after `min(rem / d, last)` frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SeekInfo {
    /// The total duration less one.
    pub span: i32,
    /// Where the sequence's frames start in the model's [`Crossing`] records.
    pub crossings: u32,
    pub last: i16,
    pub uniform: i16,
    pub cyclic: bool,
}

impl SeekInfo {
    fn of(seq: &Sequence, crossings: u32) -> SeekInfo {
        let first = seq.frames.first().map_or(0, |f| f.duration);
        let uniform = if !seq.ground && seq.frames.iter().all(|f| f.duration == first) {
            first
        } else {
            0
        };
        SeekInfo {
            span: seq.total_duration() - 1,
            crossings,
            last: seq.frames.len() as i16 - 1,
            uniform,
            cyclic: seq.class == SeqClass::Cyclic,
        }
    }
}

/// Two models are equal when their records are: the id is left out (two loads of one file
/// are equal), and so is everything [`AnimList::new`] derives from the records.
impl PartialEq for AnimList {
    fn eq(&self, other: &AnimList) -> bool {
        self.nodes == other.nodes
            && self.keyframes == other.keyframes
            && self.sequences == other.sequences
            && self.transitions == other.transitions
    }
}

impl Eq for AnimList {}

/// [`AnimList::build_order`]'s parent of a node without one.
pub const NO_PARENT: u16 = u16::MAX;

impl AnimList {
    /// Validate and build. Checks (D1, D2): counts, i16 ranges, every index
    /// against its pool, node 0 without a parent, no parent cycles, one key per column, no
    /// column twice, transition ranges inside the pool, and per sequence at least one
    /// non-zero duration and a total of at most 32767 ticks.
    pub fn new(
        nodes: Vec<Node>,
        keyframes: Vec<Keyframe>,
        sequences: Vec<Sequence>,
        transitions: Vec<Transition>,
    ) -> Result<AnimList, ModelFault> {
        check_count("nodes", nodes.len(), 1)?;
        check_count("keyframes", keyframes.len(), 1)?;
        check_count("sequences", sequences.len(), 1)?;
        check_count("transitions", transitions.len(), 0)?;
        let n_nodes = nodes.len();
        let n_keys = keyframes.len();
        for (n, node) in nodes.iter().enumerate() {
            if n == 0 && node.parent != -1 {
                return Err(ModelFault::new(
                    "nodes[0].parent",
                    "node 0 carries root motion and must have parent -1",
                ));
            }
            check_index(&format!("nodes[{n}].parent"), node.parent, n_nodes, true)?;
            check_index(&format!("nodes[{n}].rest"), node.rest, n_keys, false)?;
        }
        let parent_first = parent_first_order(&nodes)?;
        for (s, seq) in sequences.iter().enumerate() {
            check_sequence(s, seq, n_nodes, n_keys, transitions.len())?;
        }
        for (t, tr) in transitions.iter().enumerate() {
            let at = format!("transitions[{t}]");
            if tr.duration < 0 {
                return Err(ModelFault::new(
                    format!("{at}.duration"),
                    format!("duration {} is negative", tr.duration),
                ));
            }
            check_index(
                &format!("{at}.dest_seq"),
                tr.dest_seq,
                sequences.len(),
                false,
            )?;
            let frames = sequences[tr.dest_seq as usize].frames.len();
            if tr.dest_frame < 0 || tr.dest_frame as usize >= frames {
                return Err(ModelFault::new(
                    format!("{at}.dest_frame"),
                    format!(
                        "frame {} does not exist in sequence {} ({} frames)",
                        tr.dest_frame, tr.dest_seq, frames
                    ),
                ));
            }
            check_index(&format!("{at}.key"), tr.key, n_keys, false)?;
        }
        let node_columns = sequences
            .iter()
            .map(|seq| {
                let mut map = vec![-1i16; n_nodes];
                for (c, &p) in seq.columns.iter().enumerate() {
                    map[p as usize] = c as i16;
                }
                map
            })
            .collect();
        let build_order = parent_first
            .iter()
            .filter(|&&n| n != 0)
            .map(|&n| {
                let parent = u16::try_from(nodes[usize::from(n)].parent).unwrap_or(NO_PARENT);
                (n, parent)
            })
            .collect();
        let rest_keys = nodes
            .iter()
            .map(|node| keyframes[node.rest as usize])
            .collect();
        let mut flat_keys = Vec::new();
        let mut key_rows = Vec::with_capacity(sequences.len());
        for seq in &sequences {
            let width = seq.columns.len();
            let rows = seq.keys.len().checked_div(width).unwrap_or(usize::MAX);
            key_rows.push((flat_keys.len(), width, rows));
            flat_keys.extend_from_slice(&seq.keys);
        }
        let mut keys: Vec<Keyframe> = flat_keys
            .iter()
            .map(|&k| {
                usize::try_from(k)
                    .ok()
                    .and_then(|k| keyframes.get(k))
                    .copied()
                    .unwrap_or([0; 6])
            })
            .collect();
        // Padded with zero records to a power of two, so that the pose loop can keep an
        // offset in range with a mask (see `flat_values`).
        keys.resize(keys.len().next_power_of_two(), [0; 6]);
        let next_info: Vec<(i16, bool)> = sequences
            .iter()
            .map(|seq| {
                // As in Sequence::next.
                let last = seq.frames.len() as i16 - 1;
                (last, seq.class == SeqClass::Cyclic)
            })
            .collect();
        // Rows without a next row keep a zero difference (key_rows_at finds no next row for
        // them, so it is never read).
        let mut flat_values: Vec<Segment> = keys.iter().map(|&a| Segment::of(a, a)).collect();
        for (seq, &(base, width, rows)) in sequences.iter().zip(&key_rows) {
            if width == 0 {
                continue;
            }
            // A cursor's frame is an i16, so later rows are never read.
            for f in 0..rows.min(i16::MAX as usize) {
                let nf = usize::try_from(seq.next(f as i16)).unwrap_or(usize::MAX);
                if nf >= rows {
                    continue;
                }
                for c in 0..width {
                    let (i, j) = (base + f * width + c, base + nf * width + c);
                    flat_values[i] = Segment::of(keys[i], keys[j]);
                }
            }
        }
        let totals = sequences.iter().map(Sequence::total_duration).collect();
        let mut crossings = Vec::new();
        let mut seek_info = Vec::with_capacity(sequences.len());
        for seq in &sequences {
            seek_info.push(SeekInfo::of(seq, crossings.len() as u32));
            crossings
                .extend((0..seq.frames.len()).map(|f| Crossing::of(seq, &keyframes, f as i16)));
        }
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Ok(AnimList {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            flat_values,
            next_info,
            totals,
            seek_info,
            crossings,
            nodes,
            keyframes,
            sequences,
            transitions,
            node_columns,
            parent_first,
            build_order,
            rest_keys,
            key_rows,
        })
    }

    /// This model's id (see the field): equal ids mean the same records.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn keyframes(&self) -> &[Keyframe] {
        &self.keyframes
    }

    pub fn sequences(&self) -> &[Sequence] {
        &self.sequences
    }

    pub fn transitions(&self) -> &[Transition] {
        &self.transitions
    }

    /// Nodes ordered so that every parent comes before its children.
    pub fn parent_first(&self) -> &[u16] {
        &self.parent_first
    }

    /// Every node but node 0 with its parent index ([`NO_PARENT`] for none), parents first.
    pub fn build_order(&self) -> &[(u16, u16)] {
        &self.build_order
    }

    /// Every node's rest record, by node.
    pub fn rest_keys(&self) -> &[Keyframe] {
        &self.rest_keys
    }

    /// Every sequence's keys as keyframe records, one sequence after the other (see
    /// [`AnimList::key_row_at`]), then zero records up to a power-of-two length (at least 1):
    /// every offset a key row and a column of its sequence give is below the keys' count,
    /// so `offset & (len − 1)` is that offset itself.
    pub(crate) fn flat_values(&self) -> &[Segment] {
        &self.flat_values
    }

    /// Where the keys of frame `f` of sequence `s` start in [`AnimList::flat_values`], if the
    /// sequence and the frame's row exist (frame `f`'s keys, one per column).
    #[inline]
    pub(crate) fn key_row_at(&self, s: i16, f: i16) -> Option<usize> {
        let &(base, width, rows) = self.key_rows.get(usize::try_from(s).ok()?)?;
        let f = usize::try_from(f).ok()?;
        (f < rows).then(|| base + f * width)
    }

    /// [`AnimList::key_row_at`] of (`s`, `f`) and of (`ns`, `nf`), both or none; the
    /// sequence's record is looked up once when `ns` is `s` (a cursor whose next frame is in
    /// its own sequence).
    #[inline(always)]
    /// The third value: the next cursor is the sequence's next frame after `f`
    /// ([`Sequence::next`]), so the [`Segment`]s at the first row's offsets hold both keys.
    pub(crate) fn key_rows_at(
        &self,
        s: i16,
        f: i16,
        ns: i16,
        nf: i16,
    ) -> Option<(usize, usize, bool)> {
        let si = usize::try_from(s).ok()?;
        let &(base, width, rows) = self.key_rows.get(si)?;
        let row = |f: i16| {
            let f = usize::try_from(f).ok()?;
            (f < rows).then(|| base + f * width)
        };
        if ns == s {
            let (last, cyclic) = self.next_info.get(si).copied().unwrap_or((-1, false));
            let next = if f < last {
                f + 1
            } else if cyclic {
                0
            } else {
                f
            };
            return Some((row(f)?, row(nf)?, nf == next));
        }
        Some((row(f)?, self.key_row_at(ns, nf)?, false))
    }

    /// [`Sequence::total_duration`] of sequence `s`, or of sequence 0 when `s` does not
    /// exist (the sequence a thread falls back to).
    pub(crate) fn total_duration_or_first(&self, s: i16) -> i32 {
        usize::try_from(s)
            .ok()
            .and_then(|i| self.totals.get(i))
            .or(self.totals.first())
            .copied()
            .unwrap_or(0)
    }

    /// [`Crossing`] of frame `f` of sequence `s`, if both exist.
    #[inline]
    pub(crate) fn crossing(&self, s: i16, f: i16) -> Option<&Crossing> {
        // A negative id or frame read as u16 is at least 32768: past the sequences (at most
        // MAX_COUNT) and past the last frame, so one compare each.
        let k = self.seek_info.get(usize::from(s as u16))?;
        let f = usize::from(f as u16);
        if f as isize > k.last as isize {
            return None;
        }
        self.crossings.get(k.crossings as usize + f)
    }

    /// Every sequence's frames' [`Crossing`] records, one sequence after the other (see
    /// [`SeekInfo::crossings`]).
    #[inline(always)]
    pub(crate) fn crossings(&self) -> &[Crossing] {
        &self.crossings
    }

    /// [`SeekInfo`] of sequence `s`, if it exists.
    #[inline]
    pub(crate) fn seek_info(&self, s: i16) -> Option<&SeekInfo> {
        // A negative id read as u16 is past the sequences (at most MAX_COUNT).
        self.seek_info.get(usize::from(s as u16))
    }

    /// The sequence `s`, if it exists.
    pub fn sequence(&self, s: i16) -> Option<&Sequence> {
        usize::try_from(s).ok().and_then(|i| self.sequences.get(i))
    }

    /// The column of sequence `s` that animates `node`, if any.
    pub fn column_of(&self, s: i16, node: usize) -> Option<usize> {
        let c = *self.node_columns.get(s as usize)?.get(node)?;
        usize::try_from(c).ok()
    }

    /// A keyframe record; the zero record for an index outside the pool (never produced by a
    /// validated model, kept total so callers need no panicking path).
    pub fn keyframe(&self, k: i16) -> Keyframe {
        usize::try_from(k)
            .ok()
            .and_then(|i| self.keyframes.get(i))
            .copied()
            .unwrap_or([0; 6])
    }

    /// Load an asset JSON file (D1).
    pub fn from_json_file(path: &Path) -> Result<AnimList, ScenarioError> {
        let file = path.display().to_string();
        let text =
            retroanim_core::input::read_text_kind(path, retroanim_core::input::FileKind::JsonAsset)
                .map_err(|e| {
                    ScenarioError::new(&file, "", format!("cannot read asset: {}", e.reason()))
                })?;
        AnimList::from_json_text(&text, &file)
    }

    /// Parse asset JSON text (D1); `file` names it in errors.
    pub fn from_json_text(text: &str, file: &str) -> Result<AnimList, ScenarioError> {
        let doc: Value = serde_json::from_str(text).map_err(|e| {
            ScenarioError::new(
                file,
                format!("line {}, column {}", e.line(), e.column()),
                format!("malformed JSON: {e}"),
            )
        })?;
        AnimList::from_json_value(&doc, file, "")
    }

    /// Build from an asset JSON value; errors name `file` and the JSON path under `base`.
    pub fn from_json_value(doc: &Value, file: &str, base: &str) -> Result<AnimList, ScenarioError> {
        let raw: json::Asset = retroanim_core::scenario::from_value_at(doc, file, base)?;
        raw.into_model().map_err(|f| f.into_error(file, base))
    }
}

impl Sequence {
    /// `next()` of the sequence's class (0x4786d8 cyclic / 0x478654 one-shot).
    pub fn next(&self, f: i16) -> i16 {
        let last = self.frames.len() as i16 - 1;
        if f < last {
            f + 1
        } else {
            match self.class {
                SeqClass::Cyclic => 0,
                SeqClass::OneShot => f,
            }
        }
    }

    /// `previous()` of the sequence's class (0x4786f8 cyclic / 0x478670 one-shot).
    pub fn previous(&self, f: i16) -> i16 {
        if f != 0 {
            f - 1
        } else {
            match self.class {
                SeqClass::Cyclic => self.frames.len() as i16 - 1,
                SeqClass::OneShot => 0,
            }
        }
    }

    /// Frame `f`, if it exists.
    pub fn frame(&self, f: i16) -> Option<&Frame> {
        usize::try_from(f).ok().and_then(|i| self.frames.get(i))
    }

    /// Duration of frame `f` (0 for a frame that does not exist).
    pub fn duration(&self, f: i16) -> i16 {
        self.frame(f).map_or(0, |fr| fr.duration)
    }

    /// Keyframe index at (frame, column), if both exist.
    pub fn key(&self, f: i16, column: usize) -> Option<i16> {
        let f = usize::try_from(f).ok()?;
        if column >= self.columns.len() {
            return None;
        }
        self.keys.get(f * self.columns.len() + column).copied()
    }

    /// Sum of all frame durations (≤ 32767 once validated).
    pub fn total_duration(&self) -> i32 {
        self.frames.iter().map(|f| i32::from(f.duration)).sum()
    }
}

fn check_count(at: &str, len: usize, min: usize) -> Result<(), ModelFault> {
    if len < min {
        return Err(ModelFault::new(
            at,
            format!(
                "needs at least {min} entr{}",
                if min == 1 { "y" } else { "ies" }
            ),
        ));
    }
    if len > MAX_COUNT {
        return Err(ModelFault::new(
            at,
            format!("{len} entries; at most {MAX_COUNT} can be indexed by an i16"),
        ));
    }
    Ok(())
}

fn check_index(at: &str, v: i16, len: usize, allow_none: bool) -> Result<(), ModelFault> {
    if allow_none && v == -1 {
        return Ok(());
    }
    if v < 0 || v as usize >= len {
        return Err(ModelFault::new(
            at,
            format!("index {v} is outside 0..{len}"),
        ));
    }
    Ok(())
}

fn check_sequence(
    s: usize,
    seq: &Sequence,
    n_nodes: usize,
    n_keys: usize,
    n_transitions: usize,
) -> Result<(), ModelFault> {
    let at = format!("sequences[{s}]");
    if seq.columns.is_empty() {
        return Err(ModelFault::new(
            format!("{at}.columns"),
            "a sequence needs at least one column",
        ));
    }
    check_count(&format!("{at}.columns"), seq.columns.len(), 1)?;
    check_count(&format!("{at}.frames"), seq.frames.len(), 1)?;
    let mut seen = vec![false; n_nodes];
    for (c, &p) in seq.columns.iter().enumerate() {
        let cat = format!("{at}.columns[{c}]");
        check_index(&cat, p, n_nodes, false)?;
        if std::mem::replace(&mut seen[p as usize], true) {
            return Err(ModelFault::new(cat, format!("node {p} appears twice")));
        }
    }
    let width = seq.columns.len();
    if seq.keys.len() != seq.frames.len() * width {
        return Err(ModelFault::new(
            format!("{at}.frames"),
            format!(
                "{} keys for {} frames of {} columns",
                seq.keys.len(),
                seq.frames.len(),
                width
            ),
        ));
    }
    let mut total: i32 = 0;
    for (f, frame) in seq.frames.iter().enumerate() {
        let fat = format!("{at}.frames[{f}]");
        if frame.duration < 0 {
            return Err(ModelFault::new(
                format!("{fat}.duration"),
                format!("duration {} is negative", frame.duration),
            ));
        }
        total += i32::from(frame.duration);
        if frame.first_transition < 0 {
            return Err(ModelFault::new(
                format!("{fat}.first_transition"),
                "negative transition index",
            ));
        }
        if frame.transition_count < 0 {
            return Err(ModelFault::new(
                format!("{fat}.transition_count"),
                "negative transition count",
            ));
        }
        let end = frame.first_transition as usize + frame.transition_count as usize;
        if frame.transition_count > 0 && end > n_transitions {
            return Err(ModelFault::new(
                format!("{fat}.transition_count"),
                format!(
                    "range {}..{end} is outside the transition pool of {n_transitions}",
                    frame.first_transition
                ),
            ));
        }
        for c in 0..width {
            let k = seq.keys[f * width + c];
            check_index(&format!("{fat}.keys[{c}]"), k, n_keys, false)?;
        }
    }
    if total == 0 {
        return Err(ModelFault::new(
            format!("{at}.frames"),
            "every frame has duration 0; a backward advance through it would never end (D2)",
        ));
    }
    if total > i32::from(i16::MAX) {
        return Err(ModelFault::new(
            format!("{at}.frames"),
            format!("durations total {total} ticks, more than 32767"),
        ));
    }
    Ok(())
}

/// Order nodes parent-first, rejecting cycles. Parents are already range-checked.
fn parent_first_order(nodes: &[Node]) -> Result<Vec<u16>, ModelFault> {
    // 0 = unvisited, 1 = on the current chain, 2 = placed.
    let mut state = vec![0u8; nodes.len()];
    let mut order = Vec::with_capacity(nodes.len());
    let mut chain = Vec::new();
    for start in 0..nodes.len() {
        let mut n = start;
        chain.clear();
        while state[n] == 0 {
            state[n] = 1;
            chain.push(n);
            match usize::try_from(nodes[n].parent) {
                Ok(p) => n = p,
                Err(_) => break,
            }
        }
        if state[n] == 1 && nodes[n].parent != -1 {
            return Err(ModelFault::new(
                format!("nodes[{n}].parent"),
                format!("the parent chain of node {n} is a cycle"),
            ));
        }
        for &c in chain.iter().rev() {
            state[c] = 2;
            order.push(c as u16);
        }
    }
    Ok(order)
}

/// The D1 asset JSON. Unknown keys (`name`, `note`, …) are ignored.
mod json {
    use super::*;

    #[derive(Deserialize)]
    pub(super) struct Asset {
        nodes: Vec<JNode>,
        keyframes: Vec<Keyframe>,
        sequences: Vec<JSequence>,
        transitions: Vec<JTransition>,
    }

    #[derive(Deserialize)]
    struct JNode {
        parent: i16,
        rest: i16,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum JClass {
        Cyclic,
        OneShot,
    }

    #[derive(Deserialize)]
    struct JSequence {
        #[serde(default)]
        name: Option<String>,
        class: JClass,
        priority: i16,
        ground: bool,
        columns: Vec<i16>,
        frames: Vec<JFrame>,
    }

    #[derive(Deserialize)]
    struct JFrame {
        duration: i16,
        #[serde(default)]
        first_transition: i16,
        #[serde(default)]
        transition_count: i16,
        keys: Vec<i16>,
    }

    #[derive(Deserialize)]
    struct JTransition {
        duration: i16,
        dest_seq: i16,
        dest_frame: i16,
        key: i16,
    }

    impl Asset {
        pub(super) fn into_model(self) -> Result<AnimList, ModelFault> {
            let mut sequences = Vec::with_capacity(self.sequences.len());
            for (s, js) in self.sequences.into_iter().enumerate() {
                let width = js.columns.len();
                if width == 0 {
                    return Err(ModelFault::new(
                        format!("sequences[{s}].columns"),
                        "a sequence needs at least one column",
                    ));
                }
                let mut keys = Vec::with_capacity(js.frames.len().saturating_mul(width));
                let mut frames = Vec::with_capacity(js.frames.len());
                for (f, jf) in js.frames.into_iter().enumerate() {
                    if jf.keys.len() != width {
                        return Err(ModelFault::new(
                            format!("sequences[{s}].frames[{f}].keys"),
                            format!("{} keys for {width} columns", jf.keys.len()),
                        ));
                    }
                    keys.extend_from_slice(&jf.keys);
                    frames.push(Frame {
                        duration: jf.duration,
                        first_transition: jf.first_transition,
                        transition_count: jf.transition_count,
                    });
                }
                sequences.push(Sequence {
                    name: js.name,
                    class: match js.class {
                        JClass::Cyclic => SeqClass::Cyclic,
                        JClass::OneShot => SeqClass::OneShot,
                    },
                    priority: js.priority,
                    ground: js.ground,
                    columns: js.columns,
                    frames,
                    keys,
                });
            }
            AnimList::new(
                self.nodes
                    .into_iter()
                    .map(|n| Node {
                        parent: n.parent,
                        rest: n.rest,
                    })
                    .collect(),
                self.keyframes,
                sequences,
                self.transitions
                    .into_iter()
                    .map(|t| Transition {
                        duration: t.duration,
                        dest_seq: t.dest_seq,
                        dest_frame: t.dest_frame,
                        key: t.key,
                    })
                    .collect(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One node animated by a cyclic sequence of three frames and a one-shot of two.
    fn model() -> AnimList {
        let nodes = vec![
            Node {
                parent: -1,
                rest: 0,
            },
            Node {
                parent: -1,
                rest: 0,
            },
        ];
        let keyframes = vec![
            [0; 6],
            [1000, 0, 0, 5, 6, 7],
            [-32768, 0, 0, 5, 6, 7],
            [30000, 0, 0, 5, 6, 8],
            [0, 3, 0, 5, 6, 7],
        ];
        let frame = Frame {
            duration: 10,
            first_transition: 0,
            transition_count: 0,
        };
        let seq = |class, keys: Vec<i16>| Sequence {
            name: None,
            class,
            priority: 0,
            ground: false,
            columns: vec![1],
            frames: vec![frame; keys.len()],
            keys,
        };
        let sequences = vec![
            seq(SeqClass::Cyclic, vec![1, 2, 3]),
            seq(SeqClass::OneShot, vec![1, 4]),
        ];
        AnimList::new(nodes, keyframes, sequences, vec![]).expect("valid model")
    }

    #[test]
    fn h10_segments_hold_the_wrapped_difference_to_the_next_frame() {
        let list = model();
        let s = list.flat_values();
        // Cyclic frames 0 → 1 → 2 → 0 at offsets 0, 1, 2; the one-shot at 3, 4 (its last
        // frame's next is itself).
        // 1000 → −32768: d = i16(−33768) = 31768; only x differs and y = z = 0.
        assert_eq!(s[0].a, [1000, 0, 0, 5, 6, 7]);
        assert_eq!(s[0].d, [31768, 0, 0, 0, 0, 0]);
        assert!(s[0].x_only);
        // −32768 → 30000: d = i16(62768) = −2768, and tz 7 → 8: not x only.
        assert_eq!(s[1].d, [-2768, 0, 0, 0, 0, 1]);
        assert!(!s[1].x_only);
        // 30000 → 1000 (the wrap to frame 0): d = −29000, tz 8 → 7.
        assert_eq!(s[2].d, [-29000, 0, 0, 0, 0, -1]);
        // 1000 → (0, 3, 0): y differs.
        assert_eq!(s[3].d, [-1000, 3, 0, 0, 0, 0]);
        assert!(!s[3].x_only);
        // The one-shot's last frame blends toward itself: every difference 0, but y = 3.
        assert_eq!(s[4].d, [0; 6]);
        assert!(!s[4].x_only);
    }

    #[test]
    fn h10_a_twist_segment_changes_only_the_yaw() {
        // 16384 → −32768: d = i16(−49152) = 16384; x, y and the translation stay.
        let s = Segment::of([0, 0, 16384, 0, 0, 120], [0, 0, -32768, 0, 0, 120]);
        assert_eq!(s.d, [0, 0, 16384, 0, 0, 0]);
        assert!(s.z_only && !s.x_only);
        // A walk's pelvis also moves down (tz 420 → 400): not yaw only.
        let s = Segment::of([0, 0, -300, 0, 0, 420], [0, 0, 0, 0, 0, 400]);
        assert_eq!(s.d, [0, 0, 300, 0, 0, -20]);
        assert!(!s.z_only);
        // A pitch with a yaw of 0 on both keys is a pitch-only segment, not a twist.
        let s = Segment::of([1000, 0, 0, 0, 0, 7], [2000, 0, 0, 0, 0, 7]);
        assert!(s.x_only && !s.z_only);
    }

    #[test]
    fn h10_key_rows_say_when_the_next_cursor_is_the_next_frame() {
        let list = model();
        assert_eq!(list.key_rows_at(0, 0, 0, 1), Some((0, 1, true)));
        assert_eq!(list.key_rows_at(0, 2, 0, 0), Some((2, 0, true)));
        // A next cursor elsewhere in the sequence (a transition) or in another sequence.
        assert_eq!(list.key_rows_at(0, 0, 0, 2), Some((0, 2, false)));
        assert_eq!(list.key_rows_at(0, 1, 1, 0), Some((1, 3, false)));
        // The one-shot's last frame is its own next frame; frame 0's is 1, not 0.
        assert_eq!(list.key_rows_at(1, 1, 1, 1), Some((4, 4, true)));
        assert_eq!(list.key_rows_at(1, 0, 1, 0), Some((3, 3, false)));
        assert_eq!(list.key_rows_at(0, 3, 0, 0), None);
    }
}
