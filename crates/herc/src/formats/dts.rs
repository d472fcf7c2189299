//! F2–F6: DTS shape files. A file is a list of top-level chunks (shape roots); each chunk is
//! a u32 tag (low u16 subtype, high u16 supertype), a u32 payload length and the payload.
//!
//! The reader keeps every byte it does not interpret (unknown chunks, the drawing data of a
//! group, bytes after the documented fields), so [`DtsFile::write`] reproduces the file it
//! read byte for byte. [`DtsFile::anim_list`] builds the resource model from root 0's
//! `ANShape` list (F6).

use retroanim_core::ScenarioError;

use super::{ByteReader, ByteWriter};
use crate::anim_list::{AnimList, Frame, Keyframe, Node, SeqClass, Sequence, Transition};

/// Supertype of the 3Space part chunks.
pub const SUPER_TS: u16 = 0x14;
/// Supertype of the animation chunks.
pub const SUPER_AN: u16 = 0x1e;

/// `TSBasePart`.
pub const TAG_BASE_PART: u32 = tag(SUPER_TS, 0x05);
/// `TSPartList`.
pub const TAG_PART_LIST: u32 = tag(SUPER_TS, 0x07);
/// `TSShape`.
pub const TAG_SHAPE: u32 = tag(SUPER_TS, 0x08);
/// `TSCellAnimPart`.
pub const TAG_CELL_ANIM_PART: u32 = tag(SUPER_TS, 0x0b);
/// `TSGroup`.
pub const TAG_GROUP: u32 = tag(SUPER_TS, 0x14);
/// `ANSequence` (one-shot).
pub const TAG_SEQUENCE: u32 = tag(SUPER_AN, 0x01);
/// `ANAnimList`.
pub const TAG_ANIM_LIST: u32 = tag(SUPER_AN, 0x02);
/// `ANShape`.
pub const TAG_AN_SHAPE: u32 = tag(SUPER_AN, 0x03);
/// `ANCyclicSequence`.
pub const TAG_CYCLIC_SEQUENCE: u32 = tag(SUPER_AN, 0x04);

/// Nesting deeper than this is refused (retail trees are a few levels deep).
pub const MAX_DEPTH: usize = 32;

/// A chunk tag from its supertype and subtype.
pub const fn tag(supertype: u16, subtype: u16) -> u32 {
    ((supertype as u32) << 16) | subtype as u32
}

/// The `TSBasePart` fields that start every part chunk (F3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BasePart {
    pub transform_id: i16,
    pub part_id: i16,
    pub radius: i16,
    pub center: [i16; 3],
}

/// A part chunk other than a shape: `TSBasePart`, `TSPartList`, `TSCellAnimPart`, `TSGroup`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartChunk {
    pub tag: u32,
    pub base: BasePart,
    /// The child chunks of a part list (`TSPartList`, `TSCellAnimPart`); `None` otherwise.
    pub children: Option<Vec<DtsChunk>>,
    /// The bytes after the interpreted fields (a group's drawing data, a cell part's
    /// animSequence), kept verbatim.
    pub tail: Vec<u8>,
}

/// A `TSShape` or `ANShape` chunk (F3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeChunk {
    pub tag: u32,
    pub base: BasePart,
    pub children: Vec<DtsChunk>,
    /// `frameCount[sequenceCount]` of the TSShape header.
    pub frame_counts: Vec<i16>,
    /// The `nodeTransformCount` entries of the TSShape header: one i16 each (F3; the 55
    /// retail models parse byte-complete only with 2-byte entries, see docs/herc-formats.md).
    pub node_transforms: Vec<i16>,
    /// The `ANAnimList` chunk of an `ANShape`.
    pub anim: Option<AnimListChunk>,
    pub tail: Vec<u8>,
}

/// One chunk of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DtsChunk {
    Part(PartChunk),
    Shape(ShapeChunk),
    /// Any other chunk (polys, BSP groups, detail parts, textures…), kept verbatim.
    Raw {
        tag: u32,
        payload: Vec<u8>,
    },
}

/// An `ANSequence` / `ANCyclicSequence` payload (F5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceChunk {
    pub class: SeqClass,
    /// Meaning unknown; ignored by the model, kept for the round trip.
    pub tick: i16,
    pub priority: i16,
    /// ≠ 0: column 0 is root motion.
    pub ground: i16,
    pub frames: Vec<Frame>,
    pub part_ids: Vec<i16>,
    /// `frames.len() · part_ids.len()` keyframe indices, row-major by frame.
    pub keys: Vec<i16>,
    pub tail: Vec<u8>,
}

/// An `ANAnimList` payload (F4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnimListChunk {
    pub sequences: Vec<SequenceChunk>,
    pub transitions: Vec<Transition>,
    pub keyframes: Vec<Keyframe>,
    /// One rest-key index per node.
    pub rest_keys: Vec<i16>,
    /// `(parent, child)` pairs; parent −1 marks a root.
    pub relations: Vec<(i16, i16)>,
    pub tail: Vec<u8>,
}

/// A whole `.DTS` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DtsFile {
    pub roots: Vec<DtsChunk>,
}

/// File offsets the model builder needs to locate faults.
#[derive(Default)]
struct Offsets {
    anim_list: Option<usize>,
    sequences: Vec<usize>,
}

impl DtsFile {
    /// Parse a DTS file (loose, or with the VOL entry prefix of F1, which is stripped).
    pub fn read(bytes: &[u8], file: &str) -> Result<DtsFile, ScenarioError> {
        Self::read_with_offsets(bytes, file).map(|(d, _)| d)
    }

    fn read_with_offsets(bytes: &[u8], file: &str) -> Result<(DtsFile, Offsets), ScenarioError> {
        let bytes = super::vol::strip_entry_prefix(bytes);
        let mut r = ByteReader::new(bytes, file, "DTS");
        let mut offsets = Offsets::default();
        let mut roots = Vec::new();
        while r.remaining() > 0 {
            let record_offsets = if roots.is_empty() {
                Some(&mut offsets)
            } else {
                None
            };
            roots.push(read_chunk(&mut r, 0, record_offsets)?);
        }
        if roots.is_empty() {
            return Err(r.error("the file has no chunks"));
        }
        Ok((DtsFile { roots }, offsets))
    }

    /// Read a file and build the resource model of its first root (F6).
    pub fn load_anim_list(bytes: &[u8], file: &str) -> Result<(DtsFile, AnimList), ScenarioError> {
        let (dts, offsets) = Self::read_with_offsets(bytes, file)?;
        let list = dts.anim_list_at(file, &offsets)?;
        Ok((dts, list))
    }

    /// The resource model of root 0's `ANShape` list (F6).
    pub fn anim_list(&self, file: &str) -> Result<AnimList, ScenarioError> {
        self.anim_list_at(file, &Offsets::default())
    }

    fn anim_list_at(&self, file: &str, offsets: &Offsets) -> Result<AnimList, ScenarioError> {
        let at = |o: Option<usize>| format!("record ANAnimList, byte {}", o.unwrap_or(0));
        let anim = match self.roots.first() {
            Some(DtsChunk::Shape(ShapeChunk { anim: Some(a), .. })) => a,
            _ => {
                return Err(ScenarioError::new(
                    file,
                    "record root 0, byte 0",
                    "the first top-level chunk is not an ANShape with an animation list",
                ))
            }
        };
        anim.to_model().map_err(|(fault_at, message)| {
            let seq_offset = fault_at
                .strip_prefix("sequences[")
                .and_then(|s| s.split(']').next())
                .and_then(|s| s.parse::<usize>().ok())
                .and_then(|s| offsets.sequences.get(s).copied());
            let place = match seq_offset {
                Some(o) => format!("record ANSequence, byte {o}"),
                None => at(offsets.anim_list),
            };
            ScenarioError::new(file, place, format!("{fault_at}: {message}"))
        })
    }

    /// A file with one `ANShape` root holding `list`, whose part tree is `base` with one
    /// `TSBasePart` child per entry of `parts` (so part ids resolve to transform ids, H32).
    pub fn from_anim_list(list: &AnimList, base: BasePart, parts: &[BasePart]) -> DtsFile {
        let anim = AnimListChunk::from_model(list);
        DtsFile {
            roots: vec![DtsChunk::Shape(ShapeChunk {
                tag: TAG_AN_SHAPE,
                base,
                children: parts
                    .iter()
                    .map(|&p| {
                        DtsChunk::Part(PartChunk {
                            tag: TAG_BASE_PART,
                            base: p,
                            children: None,
                            tail: Vec::new(),
                        })
                    })
                    .collect(),
                frame_counts: anim
                    .sequences
                    .iter()
                    .map(|s| s.frames.len() as i16)
                    .collect(),
                node_transforms: Vec::new(),
                anim: Some(anim),
                tail: Vec::new(),
            })],
        }
    }

    /// Serialize the whole file.
    pub fn write(&self) -> Result<Vec<u8>, String> {
        let mut w = ByteWriter::default();
        for c in &self.roots {
            write_chunk(&mut w, c)?;
        }
        Ok(w.out)
    }

    /// The transform id of the first part (pre-order, root 0's tree) whose part id is `part_id`.
    pub fn part_transform_id(&self, part_id: i16) -> Option<i16> {
        fn walk(c: &DtsChunk, part_id: i16) -> Option<i16> {
            let (base, children): (&BasePart, &[DtsChunk]) = match c {
                DtsChunk::Part(p) => (&p.base, p.children.as_deref().unwrap_or(&[])),
                DtsChunk::Shape(s) => (&s.base, &s.children),
                DtsChunk::Raw { .. } => return None,
            };
            if base.part_id == part_id {
                return Some(base.transform_id);
            }
            children.iter().find_map(|c| walk(c, part_id))
        }
        self.roots.first().and_then(|r| walk(r, part_id))
    }
}

/// The bytes `c` takes in a file (header and payload), as the writer lays it out.
pub(crate) fn encoded_len(c: &DtsChunk) -> usize {
    let mut w = ByteWriter::default();
    // A chunk the writer refuses was not read from a file either; its length does not matter.
    let _ = write_chunk(&mut w, c);
    w.out.len()
}

fn read_base(r: &mut ByteReader) -> Result<BasePart, ScenarioError> {
    Ok(BasePart {
        transform_id: r.i16("transform id")?,
        part_id: r.i16("part id")?,
        radius: r.i16("radius")?,
        center: [r.i16("center x")?, r.i16("center y")?, r.i16("center z")?],
    })
}

fn read_children(r: &mut ByteReader, depth: usize) -> Result<Vec<DtsChunk>, ScenarioError> {
    // A child chunk is at least its 8-byte header.
    let n = r.count("child count", 8)?;
    let mut children = Vec::with_capacity(n);
    for _ in 0..n {
        children.push(read_chunk(r, depth + 1, None)?);
    }
    Ok(children)
}

fn chunk_name(tag: u32) -> String {
    match tag {
        TAG_BASE_PART => "TSBasePart".into(),
        TAG_PART_LIST => "TSPartList".into(),
        TAG_SHAPE => "TSShape".into(),
        TAG_CELL_ANIM_PART => "TSCellAnimPart".into(),
        TAG_GROUP => "TSGroup".into(),
        TAG_SEQUENCE => "ANSequence".into(),
        TAG_ANIM_LIST => "ANAnimList".into(),
        TAG_AN_SHAPE => "ANShape".into(),
        TAG_CYCLIC_SEQUENCE => "ANCyclicSequence".into(),
        t => format!("chunk {t:#010x}"),
    }
}

fn read_chunk(
    r: &mut ByteReader,
    depth: usize,
    offsets: Option<&mut Offsets>,
) -> Result<DtsChunk, ScenarioError> {
    let start = r.offset();
    if depth > MAX_DEPTH {
        return Err(r.error(format!("chunks nested deeper than {MAX_DEPTH}")));
    }
    let tag = r.u32("chunk tag")?;
    let len = r.u32("chunk length")? as usize;
    let name = chunk_name(tag);
    let mut p = r.sub(len, format!("{name} at {start}"))?;
    let chunk = match tag {
        TAG_BASE_PART | TAG_GROUP => {
            let base = read_base(&mut p)?;
            DtsChunk::Part(PartChunk {
                tag,
                base,
                children: None,
                tail: p.rest().to_vec(),
            })
        }
        TAG_PART_LIST | TAG_CELL_ANIM_PART => {
            let base = read_base(&mut p)?;
            let children = read_children(&mut p, depth)?;
            DtsChunk::Part(PartChunk {
                tag,
                base,
                children: Some(children),
                tail: p.rest().to_vec(),
            })
        }
        TAG_SHAPE | TAG_AN_SHAPE => {
            let base = read_base(&mut p)?;
            let children = read_children(&mut p, depth)?;
            let node_count = p.count("nodeTransformCount", 2)?;
            let seq_count = p.count("sequenceCount", 2)?;
            let frame_counts = p.i16_vec(seq_count, "frameCount")?;
            let node_transforms = p.i16_vec(node_count, "node transforms")?;
            let anim = if tag == TAG_AN_SHAPE {
                let at = p.offset();
                let t = p.u32("ANAnimList tag")?;
                if t != TAG_ANIM_LIST {
                    return Err(p.error_at(
                        at,
                        format!(
                            "ANShape is followed by {}, expected ANAnimList",
                            chunk_name(t)
                        ),
                    ));
                }
                let l = p.u32("ANAnimList length")? as usize;
                let mut a = p.sub(l, "ANAnimList")?;
                let mut offs = offsets;
                if let Some(o) = offs.as_deref_mut() {
                    o.anim_list = Some(at);
                }
                let list = read_anim_list(&mut a, offs)?;
                Some(list)
            } else {
                None
            };
            DtsChunk::Shape(ShapeChunk {
                tag,
                base,
                children,
                frame_counts,
                node_transforms,
                anim,
                tail: p.rest().to_vec(),
            })
        }
        _ => DtsChunk::Raw {
            tag,
            payload: p.rest().to_vec(),
        },
    };
    Ok(chunk)
}

fn read_anim_list(
    r: &mut ByteReader,
    mut offsets: Option<&mut Offsets>,
) -> Result<AnimListChunk, ScenarioError> {
    let n = r.count("sequenceCount", 8)?;
    let mut sequences = Vec::with_capacity(n);
    for s in 0..n {
        let start = r.offset();
        let t = r.u32("sequence tag")?;
        let class = match t {
            TAG_SEQUENCE => SeqClass::OneShot,
            TAG_CYCLIC_SEQUENCE => SeqClass::Cyclic,
            other => {
                return Err(r.error_at(
                    start,
                    format!(
                        "sequence {s} is {}, expected ANSequence or ANCyclicSequence",
                        chunk_name(other)
                    ),
                ))
            }
        };
        let l = r.u32("sequence length")? as usize;
        let mut p = r.sub(l, format!("{} {s}", chunk_name(t)))?;
        if let Some(o) = offsets.as_deref_mut() {
            o.sequences.push(start);
        }
        let tick = p.i16("tick")?;
        let priority = p.i16("priority")?;
        let ground = p.i16("groundMovement")?;
        let fc = p.count("frameCount", 6)?;
        let mut frames = Vec::with_capacity(fc);
        for _ in 0..fc {
            frames.push(Frame {
                duration: p.i16("duration")?,
                first_transition: p.i16("firstTransition")?,
                transition_count: p.i16("transitionCount")?,
            });
        }
        let pc = p.count("partCount", 2)?;
        let part_ids = p.i16_vec(pc, "partIds")?;
        let keys = p.i16_vec(fc.saturating_mul(pc), "keys")?;
        sequences.push(SequenceChunk {
            class,
            tick,
            priority,
            ground,
            frames,
            part_ids,
            keys,
            tail: p.rest().to_vec(),
        });
    }
    r.set_record("ANAnimList");
    let n = r.count("transitionCount", 8)?;
    let mut transitions = Vec::with_capacity(n);
    for _ in 0..n {
        transitions.push(Transition {
            duration: r.i16("transition duration")?,
            dest_seq: r.i16("destSeq")?,
            dest_frame: r.i16("destFrame")?,
            key: r.i16("keyIndex")?,
        });
    }
    let n = r.count("keyCount", 12)?;
    let mut keyframes = Vec::with_capacity(n);
    for _ in 0..n {
        let v = r.i16_vec(6, "keyframe")?;
        keyframes.push([v[0], v[1], v[2], v[3], v[4], v[5]]);
    }
    let n = r.count("nodeCount", 2)?;
    let rest_keys = r.i16_vec(n, "rest keys")?;
    let n = r.count("relationCount", 4)?;
    let mut relations = Vec::with_capacity(n);
    for _ in 0..n {
        relations.push((r.i16("relation parent")?, r.i16("relation child")?));
    }
    Ok(AnimListChunk {
        sequences,
        transitions,
        keyframes,
        rest_keys,
        relations,
        tail: r.rest().to_vec(),
    })
}

impl AnimListChunk {
    /// The resource model (validated by [`AnimList::new`]); a fault is `(path, message)`.
    pub fn to_model(&self) -> Result<AnimList, (String, String)> {
        let mut nodes: Vec<Node> = self
            .rest_keys
            .iter()
            .map(|&rest| Node { parent: -1, rest })
            .collect();
        let mut seen = vec![false; nodes.len()];
        for (i, &(parent, child)) in self.relations.iter().enumerate() {
            let at = format!("relations[{i}]");
            let c = usize::try_from(child)
                .ok()
                .filter(|&c| c < nodes.len())
                .ok_or_else(|| {
                    (
                        at.clone(),
                        format!("child {child} is not a node (0..{})", nodes.len()),
                    )
                })?;
            if seen[c] && nodes[c].parent != parent {
                return Err((
                    at,
                    format!("node {child} is given a second parent {parent}"),
                ));
            }
            seen[c] = true;
            nodes[c].parent = parent;
        }
        let sequences = self
            .sequences
            .iter()
            .map(|s| Sequence {
                name: None,
                class: s.class,
                priority: s.priority,
                ground: s.ground != 0,
                columns: s.part_ids.clone(),
                frames: s.frames.clone(),
                keys: s.keys.clone(),
            })
            .collect();
        AnimList::new(
            nodes,
            self.keyframes.clone(),
            sequences,
            self.transitions.clone(),
        )
        .map_err(|f| (f.at, f.message))
    }

    /// The chunk form of a model: tick 0, ground 1/0, one `(parent, n)` relation per node.
    pub fn from_model(list: &AnimList) -> AnimListChunk {
        AnimListChunk {
            sequences: list
                .sequences()
                .iter()
                .map(|s| SequenceChunk {
                    class: s.class,
                    tick: 0,
                    priority: s.priority,
                    ground: i16::from(s.ground),
                    frames: s.frames.clone(),
                    part_ids: s.columns.clone(),
                    keys: s.keys.clone(),
                    tail: Vec::new(),
                })
                .collect(),
            transitions: list.transitions().to_vec(),
            keyframes: list.keyframes().to_vec(),
            rest_keys: list.nodes().iter().map(|n| n.rest).collect(),
            relations: list
                .nodes()
                .iter()
                .enumerate()
                .map(|(i, n)| (n.parent, i as i16))
                .collect(),
            tail: Vec::new(),
        }
    }
}

fn write_base(w: &mut ByteWriter, b: &BasePart) {
    w.i16(b.transform_id);
    w.i16(b.part_id);
    w.i16(b.radius);
    for c in b.center {
        w.i16(c);
    }
}

/// Write `tag`, a length placeholder, the payload `body` writes, then patch the length.
fn framed(
    w: &mut ByteWriter,
    tag: u32,
    body: impl FnOnce(&mut ByteWriter) -> Result<(), String>,
) -> Result<(), String> {
    w.u32(tag);
    let at = w.out.len();
    w.u32(0);
    body(w)?;
    let len = u32::try_from(w.out.len() - at - 4).map_err(|_| "chunk longer than 4 GiB")?;
    w.out[at..at + 4].copy_from_slice(&len.to_le_bytes());
    Ok(())
}

fn write_chunk(w: &mut ByteWriter, c: &DtsChunk) -> Result<(), String> {
    match c {
        DtsChunk::Raw { tag, payload } => framed(w, *tag, |w| {
            w.bytes(payload);
            Ok(())
        }),
        DtsChunk::Part(p) => framed(w, p.tag, |w| {
            write_base(w, &p.base);
            if let Some(children) = &p.children {
                w.count(children.len(), "child count")?;
                for ch in children {
                    write_chunk(w, ch)?;
                }
            }
            w.bytes(&p.tail);
            Ok(())
        }),
        DtsChunk::Shape(s) => framed(w, s.tag, |w| {
            write_base(w, &s.base);
            w.count(s.children.len(), "child count")?;
            for ch in &s.children {
                write_chunk(w, ch)?;
            }
            w.count(s.node_transforms.len(), "nodeTransformCount")?;
            w.count(s.frame_counts.len(), "sequenceCount")?;
            for &f in &s.frame_counts {
                w.i16(f);
            }
            for &t in &s.node_transforms {
                w.i16(t);
            }
            if let Some(a) = &s.anim {
                framed(w, TAG_ANIM_LIST, |w| write_anim_list(w, a))?;
            }
            w.bytes(&s.tail);
            Ok(())
        }),
    }
}

fn write_anim_list(w: &mut ByteWriter, a: &AnimListChunk) -> Result<(), String> {
    w.count(a.sequences.len(), "sequenceCount")?;
    for s in &a.sequences {
        let tag = match s.class {
            SeqClass::OneShot => TAG_SEQUENCE,
            SeqClass::Cyclic => TAG_CYCLIC_SEQUENCE,
        };
        framed(w, tag, |w| {
            w.i16(s.tick);
            w.i16(s.priority);
            w.i16(s.ground);
            w.count(s.frames.len(), "frameCount")?;
            for f in &s.frames {
                w.i16(f.duration);
                w.i16(f.first_transition);
                w.i16(f.transition_count);
            }
            w.count(s.part_ids.len(), "partCount")?;
            for &p in &s.part_ids {
                w.i16(p);
            }
            if s.keys.len() != s.frames.len() * s.part_ids.len() {
                return Err(format!(
                    "sequence has {} keys, expected frames × parts = {}",
                    s.keys.len(),
                    s.frames.len() * s.part_ids.len()
                ));
            }
            for &k in &s.keys {
                w.i16(k);
            }
            w.bytes(&s.tail);
            Ok(())
        })?;
    }
    w.count(a.transitions.len(), "transitionCount")?;
    for t in &a.transitions {
        w.i16(t.duration);
        w.i16(t.dest_seq);
        w.i16(t.dest_frame);
        w.i16(t.key);
    }
    w.count(a.keyframes.len(), "keyCount")?;
    for k in &a.keyframes {
        for &v in k {
            w.i16(v);
        }
    }
    w.count(a.rest_keys.len(), "nodeCount")?;
    for &r in &a.rest_keys {
        w.i16(r);
    }
    w.count(a.relations.len(), "relationCount")?;
    for &(p, c) in &a.relations {
        w.i16(p);
        w.i16(c);
    }
    w.bytes(&a.tail);
    Ok(())
}
