//! Readable text and JSON renderings of MotionTable and Animation records, of the
//! geometry records (Setup, GfxObj: [`geometry`]), and of a DAT container's directory
//! (`retroanim inspect`). Motion ids print as `0x%08x` plus the
//! command name when ACE's `MotionCommand` names it; table keys are decoded into
//! (style, command).

use crate::math::AFrame;
use crate::records::authoring::parse_id;
use crate::records::command_names::{command_name, describe, describe_key};
use crate::records::dat::DatFile;
use crate::records::hooks::{decode_payload, hook_name, FieldValue};
use crate::records::{
    read_animation, read_motion_table, AnimHook, AnimRef, Animation, MotionData, MotionTable,
    RecordError,
};
pub mod drawing;
pub mod geometry;
pub mod table_listing;
pub mod textures;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

pub(crate) fn v3(v: crate::math::Vec3) -> String {
    format!("({}, {}, {})", v.x, v.y, v.z)
}

pub(crate) fn frame_text(f: &AFrame) -> String {
    let q = f.orientation;
    format!(
        "origin {} orientation [w {}, x {}, y {}, z {}]",
        v3(f.origin),
        q.w,
        q.x,
        q.y,
        q.z
    )
}

fn clip_text(c: &AnimRef) -> String {
    let high = if c.high_frame == -1 {
        "-1 (last)".to_string()
    } else {
        c.high_frame.to_string()
    };
    format!(
        "anim 0x{:08x} frames {}..{} @ {} fps",
        c.anim_id, c.low_frame, high, c.framerate
    )
}

fn motion_data_text(out: &mut String, md: &MotionData, indent: &str) {
    let mut bits = Vec::new();
    if md.bitfield & 1 != 0 {
        bits.push("exclusive");
    }
    if md.bitfield & 2 != 0 {
        bits.push("restricted");
    }
    let _ = writeln!(
        out,
        "{indent}bitfield 0x{:02x}{}, flags 0x{:02x}",
        md.bitfield,
        if bits.is_empty() {
            String::new()
        } else {
            format!(" ({})", bits.join(", "))
        },
        md.flags
    );
    if md.anims.is_empty() {
        let _ = writeln!(out, "{indent}no anims");
    }
    for c in &md.anims {
        let _ = writeln!(out, "{indent}{}", clip_text(c));
    }
    if md.flags & 1 != 0 {
        let _ = writeln!(out, "{indent}velocity {}", v3(md.velocity));
    }
    if md.flags & 2 != 0 {
        let _ = writeln!(out, "{indent}omega {}", v3(md.omega));
    }
}

/// A MotionTable as readable text.
pub fn motion_table_text(t: &MotionTable) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "MotionTable 0x{:08x}", t.id);
    let _ = writeln!(out, "default style: {}", describe(t.default_style));
    let _ = writeln!(out, "styles ({}):", t.style_defaults.len());
    for (s, d) in &t.style_defaults {
        let _ = writeln!(out, "  {} -> default {}", describe(*s), describe(*d));
    }
    let _ = writeln!(out, "cycles ({}):", t.cycles.len());
    for (k, md) in &t.cycles {
        let _ = writeln!(out, "  {}", describe_key(*k));
        motion_data_text(&mut out, md, "    ");
    }
    let _ = writeln!(out, "modifiers ({}):", t.modifiers.len());
    for (k, md) in &t.modifiers {
        let _ = writeln!(out, "  {}", describe_key(*k));
        motion_data_text(&mut out, md, "    ");
    }
    let _ = writeln!(out, "link groups ({}):", t.links.len());
    for (k, inner) in &t.links {
        let _ = writeln!(out, "  from {}:", describe_key(*k));
        for (to, md) in inner {
            let _ = writeln!(out, "    to {}", describe(*to));
            motion_data_text(&mut out, md, "      ");
        }
    }
    out
}

fn direction_name(d: i32) -> &'static str {
    match d {
        -1 => "backward",
        0 => "both",
        1 => "forward",
        -2 => "unknown",
        _ => "invalid",
    }
}

fn field_text(name: &str, v: &FieldValue) -> String {
    match v {
        FieldValue::U32(x) if name.ends_with("_id") => format!("{name}=0x{x:08x}"),
        FieldValue::U16(x) => format!("{name}={x}"),
        FieldValue::U32(x) => format!("{name}={x}"),
        FieldValue::I32(x) => format!("{name}={x}"),
        FieldValue::F32(x) => format!("{name}={x}"),
        FieldValue::Vec3(x) => format!("{name}={}", v3(*x)),
        FieldValue::Frame(f) => format!("{name}=[{}]", frame_text(f)),
    }
}

fn hook_text(h: &AnimHook) -> String {
    let name = hook_name(h.hook_type).unwrap_or("unknown");
    let fields = match decode_payload(h.hook_type, &h.payload) {
        Some(f) if f.is_empty() => String::new(),
        Some(f) => format!(
            " {}",
            f.iter()
                .map(|(n, v)| field_text(n, v))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        None => format!(" payload {} bytes", h.payload.len()),
    };
    // The record is read in ACE's ReplaceObject form; the retail client's reading of the
    // same bytes is shown next to it when the length allows both (docs/ac-formats.md).
    let retail = match (
        h.hook_type,
        crate::records::hooks::decode_replace_object_retail(&h.payload),
    ) {
        (crate::records::hooks::REPLACE_OBJECT, Some((part, id))) => {
            format!(" (retail reading: part_index={part} part_id=0x{id:08x})")
        }
        _ => String::new(),
    };
    format!(
        "{name} (type {}, {}){fields}{retail}",
        h.hook_type,
        direction_name(h.direction)
    )
}

/// An Animation as readable text.
pub fn animation_text(a: &Animation) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Animation 0x{:08x}", a.id);
    let _ = writeln!(
        out,
        "flags 0x{:08x}{}, {} parts, {} frames",
        a.flags,
        if a.flags & 1 != 0 {
            " (pos frames)"
        } else {
            ""
        },
        a.num_parts,
        a.num_frames
    );
    let hooks: usize = a.part_frames.iter().map(|f| f.hooks.len()).sum();
    let _ = writeln!(out, "hooks: {hooks}");
    for (i, pf) in a.part_frames.iter().enumerate() {
        let _ = writeln!(out, "frame {i}:");
        if let Some(p) = a.pos_frames.get(i) {
            let _ = writeln!(out, "  pos {}", frame_text(p));
        }
        for (j, part) in pf.parts.iter().enumerate() {
            let _ = writeln!(out, "  part {j}: {}", frame_text(part));
        }
        for h in &pf.hooks {
            let _ = writeln!(out, "  hook {}", hook_text(h));
        }
    }
    out
}

// ---- JSON ------------------------------------------------------------------------------

fn id_str(id: u32) -> String {
    format!("0x{id:08x}")
}

#[derive(Serialize)]
struct IdView {
    id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'static str>,
}

impl IdView {
    fn new(id: u32) -> IdView {
        IdView {
            id: id_str(id),
            name: command_name(id),
        }
    }
}

#[derive(Serialize)]
struct ClipView {
    anim: String,
    low: i32,
    high: i32,
    framerate: f32,
}

#[derive(Serialize)]
struct MotionDataView {
    bitfield: u8,
    flags: u8,
    anims: Vec<ClipView>,
    velocity: Option<[f32; 3]>,
    omega: Option<[f32; 3]>,
}

impl MotionDataView {
    fn new(md: &MotionData) -> MotionDataView {
        let arr = |v: crate::math::Vec3| [v.x, v.y, v.z];
        MotionDataView {
            bitfield: md.bitfield,
            flags: md.flags,
            anims: md
                .anims
                .iter()
                .map(|c| ClipView {
                    anim: id_str(c.anim_id),
                    low: c.low_frame,
                    high: c.high_frame,
                    framerate: c.framerate,
                })
                .collect(),
            velocity: (md.flags & 1 != 0).then(|| arr(md.velocity)),
            omega: (md.flags & 2 != 0).then(|| arr(md.omega)),
        }
    }
}

#[derive(Serialize)]
struct KeyedView {
    key: String,
    label: String,
    #[serde(flatten)]
    data: MotionDataView,
}

#[derive(Serialize)]
struct LinkView {
    to: IdView,
    #[serde(flatten)]
    data: MotionDataView,
}

#[derive(Serialize)]
struct LinkGroupView {
    from_key: String,
    label: String,
    links: Vec<LinkView>,
}

#[derive(Serialize)]
struct StyleView {
    style: IdView,
    default: IdView,
}

#[derive(Serialize)]
struct TableView {
    kind: &'static str,
    id: String,
    default_style: IdView,
    style_defaults: Vec<StyleView>,
    cycles: Vec<KeyedView>,
    modifiers: Vec<KeyedView>,
    links: Vec<LinkGroupView>,
}

fn keyed(map: &[(u32, MotionData)]) -> Vec<KeyedView> {
    map.iter()
        .map(|(k, md)| KeyedView {
            key: id_str(*k),
            label: describe_key(*k),
            data: MotionDataView::new(md),
        })
        .collect()
}

/// A MotionTable as pretty JSON.
pub fn motion_table_json(t: &MotionTable) -> String {
    let view = TableView {
        kind: "motion_table",
        id: id_str(t.id),
        default_style: IdView::new(t.default_style),
        style_defaults: t
            .style_defaults
            .iter()
            .map(|(s, d)| StyleView {
                style: IdView::new(*s),
                default: IdView::new(*d),
            })
            .collect(),
        cycles: keyed(&t.cycles),
        modifiers: keyed(&t.modifiers),
        links: t
            .links
            .iter()
            .map(|(k, inner)| LinkGroupView {
                from_key: id_str(*k),
                label: describe_key(*k),
                links: inner
                    .iter()
                    .map(|(to, md)| LinkView {
                        to: IdView::new(*to),
                        data: MotionDataView::new(md),
                    })
                    .collect(),
            })
            .collect(),
    };
    to_json(&view)
}

#[derive(Serialize)]
struct FrameJson {
    origin: [f32; 3],
    orientation: [f32; 4],
}

impl FrameJson {
    fn new(f: &AFrame) -> FrameJson {
        let (o, q) = (f.origin, f.orientation);
        FrameJson {
            origin: [o.x, o.y, o.z],
            orientation: [q.w, q.x, q.y, q.z],
        }
    }
}

/// Payload fields as a JSON object in file order.
struct Fields(Vec<(&'static str, FieldValue)>);

impl Serialize for Fields {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            match v {
                FieldValue::Frame(f) => m.serialize_entry(k, &FrameJson::new(f))?,
                v => m.serialize_entry(k, v)?,
            }
        }
        m.end()
    }
}

#[derive(Serialize)]
struct HookJson {
    #[serde(rename = "type")]
    kind: &'static str,
    type_id: u32,
    direction: &'static str,
    fields: Option<Fields>,
}

#[derive(Serialize)]
struct PartFrameJson {
    parts: Vec<FrameJson>,
    hooks: Vec<HookJson>,
}

#[derive(Serialize)]
struct AnimationJson {
    kind: &'static str,
    id: String,
    flags: u32,
    num_parts: u32,
    num_frames: u32,
    pos_frames: Vec<FrameJson>,
    frames: Vec<PartFrameJson>,
}

/// An Animation as pretty JSON.
pub fn animation_json(a: &Animation) -> String {
    let view = AnimationJson {
        kind: "animation",
        id: id_str(a.id),
        flags: a.flags,
        num_parts: a.num_parts,
        num_frames: a.num_frames,
        pos_frames: a.pos_frames.iter().map(FrameJson::new).collect(),
        frames: a
            .part_frames
            .iter()
            .map(|pf| PartFrameJson {
                parts: pf.parts.iter().map(FrameJson::new).collect(),
                hooks: pf
                    .hooks
                    .iter()
                    .map(|h| HookJson {
                        kind: hook_name(h.hook_type).unwrap_or("unknown"),
                        type_id: h.hook_type,
                        direction: direction_name(h.direction),
                        fields: decode_payload(h.hook_type, &h.payload).map(Fields),
                    })
                    .collect(),
            })
            .collect(),
    };
    to_json(&view)
}

pub(crate) fn to_json<T: Serialize>(v: &T) -> String {
    // Views hold only strings, integers, f32 and containers: serialisation cannot fail.
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s
}

// ---- files -----------------------------------------------------------------------------

/// The record type a record id names (its high byte), for listings.
pub fn record_kind(id: u32) -> &'static str {
    match id >> 24 {
        0x01 => "GfxObj",
        0x02 => "Setup",
        0x03 => "Animation",
        0x04 => "Palette",
        0x05 => "SurfaceTexture",
        0x06 => "RenderSurface",
        0x08 => "Surface",
        0x09 => "MotionTable",
        0x20 => "SoundTable",
        0x33 => "PhysicsScript",
        0x34 => "PhysicsScriptTable",
        _ => "other",
    }
}

/// Render one record's bytes by its id's high byte (0x09 MotionTable, 0x03 Animation,
/// 0x02 Setup, 0x01 GfxObj).
pub fn render_record(bytes: &[u8], file: &str, json: bool) -> Result<String, RecordError> {
    let id = bytes
        .get(..4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    match id.map(|id| id >> 24) {
        Some(0x09) => {
            let t = read_motion_table(bytes, file)?;
            Ok(if json {
                motion_table_json(&t)
            } else {
                motion_table_text(&t)
            })
        }
        Some(0x03) => {
            let a = read_animation(bytes, file)?;
            Ok(if json {
                animation_json(&a)
            } else {
                animation_text(&a)
            })
        }
        Some(0x02) => {
            let s = crate::records::read_setup(bytes, file)?;
            Ok(if json {
                geometry::setup_json(&s)
            } else {
                geometry::setup_text(&s)
            })
        }
        Some(0x01) => {
            let g = crate::records::read_gfxobj(bytes, file)?;
            Ok(if json {
                geometry::gfxobj_json(&g)
            } else {
                geometry::gfxobj_text(&g)
            })
        }
        Some(0x04) => Ok(textures::palette(
            &crate::records::read_palette(bytes, file)?,
            json,
        )),
        Some(0x05) => Ok(textures::surface_texture(
            &crate::records::read_surface_texture(bytes, file)?,
            json,
        )),
        Some(0x06) => Ok(textures::render_surface(
            &crate::records::read_render_surface(bytes, file)?,
            json,
        )),
        _ => Err(RecordError::Malformed {
            file: file.to_string(),
            id,
            offset: 0,
            message:
                "not a MotionTable (0x09……), Animation (0x03……), Setup (0x02……), GfxObj (0x01……), Palette (0x04……), SurfaceTexture (0x05……) or RenderSurface (0x06……) record"
                    .to_string(),
        }),
    }
}

/// As [`render_record`], for a record whose id is known from outside its bytes (a DAT
/// entry, a `<id>.bin` file name): a Surface (`0x08……`) carries no id, so only this
/// reads one.
pub fn render_record_with_id(
    bytes: &[u8],
    id: u32,
    file: &str,
    json: bool,
) -> Result<String, RecordError> {
    if id >> 24 == 0x08 {
        let s = crate::records::read_surface(bytes, id, file)?;
        return Ok(textures::surface(&s, json));
    }
    render_record(bytes, file, json)
}

/// The id a record file's name gives (`08000101.bin`).
fn id_from_name(path: &Path) -> Option<u32> {
    let stem = path.file_stem()?.to_string_lossy().into_owned();
    (stem.len() == 8)
        .then(|| u32::from_str_radix(&stem, 16).ok())
        .flatten()
}

/// Whether `path` is something [`inspect_file`] reads: a `.dat` container, or a `.bin`
/// record whose id's high byte is 0x01, 0x02, 0x03 or 0x09 and which is either named like a record
/// file (`09000001.bin`, so a malformed one still gets its located error) or parses, or a
/// texture record file named by its id (`04…`, `05…`, `06…`, `08…`: a Surface holds no id).
pub fn recognises(path: &Path) -> bool {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("dat") => true,
        Some("bin") => {
            let Ok(bytes) =
                retroanim_core::input::read_kind(path, retroanim_core::input::FileKind::Record)
            else {
                return false;
            };
            let named_as_record = path.file_stem().is_some_and(|s| {
                let s = s.to_string_lossy();
                s.len() == 8 && s.chars().all(|c| c.is_ascii_hexdigit())
            });
            match bytes.get(3) {
                Some(0x09) => named_as_record || read_motion_table(&bytes, "").is_ok(),
                Some(0x03) => named_as_record || read_animation(&bytes, "").is_ok(),
                Some(0x02) => named_as_record || crate::records::read_setup(&bytes, "").is_ok(),
                Some(0x01) => named_as_record || crate::records::read_gfxobj(&bytes, "").is_ok(),
                Some(0x04..=0x06) => named_as_record,
                _ => id_from_name(path).is_some_and(|id| id >> 24 == 0x08),
            }
        }
        _ => false,
    }
}

#[derive(Serialize)]
struct DatEntryJson {
    id: String,
    kind: &'static str,
    size: u32,
    compressed: bool,
    pack_version: u16,
}

#[derive(Serialize)]
struct DatJson {
    kind: &'static str,
    layout: &'static str,
    block_size: u32,
    file_size: u32,
    engine_pack_version: u32,
    version_minor: u32,
    use_lru: u8,
    records: Vec<DatEntryJson>,
}

fn layout_name(l: crate::records::dat::DatLayout) -> &'static str {
    match l {
        crate::records::dat::DatLayout::Current => "current",
        crate::records::dat::DatLayout::PreTod => "pre-2005",
    }
}

/// `retroanim inspect FILE [--id ID] [--json]`: a record file, a record inside a DAT
/// (`--id`), or a DAT's directory listing (no `--id`).
pub fn inspect_file(path: &Path, id: Option<&str>, json: bool) -> Result<String, RecordError> {
    let file = path.display().to_string();
    let want = match id {
        Some(s) => Some(parse_id(s).ok_or_else(|| RecordError::Container {
            file: file.clone(),
            message: format!("--id '{s}' is not an id (0x… hex or decimal)"),
        })?),
        None => None,
    };
    let is_dat = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("dat"));
    if is_dat {
        let mut dat = DatFile::open(path)?;
        return match want {
            Some(id) => {
                let bytes = dat.read_record(id)?;
                render_record_with_id(&bytes, id, &file, json)
            }
            None => {
                let entries = dat.entries()?;
                let h = dat.header().clone();
                if json {
                    Ok(to_json(&DatJson {
                        kind: "dat",
                        layout: layout_name(h.layout),
                        block_size: h.block_size,
                        file_size: h.file_size,
                        engine_pack_version: h.engine_pack_version,
                        version_minor: h.version_minor,
                        use_lru: h.use_lru,
                        records: entries
                            .iter()
                            .map(|e| DatEntryJson {
                                id: id_str(e.object_id),
                                kind: record_kind(e.object_id),
                                size: e.file_size,
                                compressed: e.is_compressed(),
                                pack_version: e.pack_version(),
                            })
                            .collect(),
                    }))
                } else {
                    let mut out = format!(
                        "DAT {file}: block size {}, file size {}, {} records\n",
                        h.block_size,
                        h.file_size,
                        entries.len()
                    );
                    let _ = writeln!(
                        out,
                        "  layout {} (header at 0x{:x}), engine pack version {}, version minor {}, use_lru {}",
                        layout_name(h.layout),
                        h.layout.header_offset(),
                        h.engine_pack_version,
                        h.version_minor,
                        h.use_lru
                    );
                    for e in &entries {
                        let _ = writeln!(
                            out,
                            "  0x{:08x} {:>8} bytes  {}{}",
                            e.object_id,
                            e.file_size,
                            record_kind(e.object_id),
                            if e.is_compressed() {
                                "  (compressed)"
                            } else {
                                ""
                            }
                        );
                    }
                    Ok(out)
                }
            }
        };
    }
    let bytes = retroanim_core::input::read_kind(path, retroanim_core::input::FileKind::Whole)
        .map_err(|e| RecordError::Container {
            file: file.clone(),
            message: e.to_string(),
        })?;
    // A Surface's bytes hold no id: the name (or --id) says it is one.
    if let Some(id) = want
        .or_else(|| id_from_name(path))
        .filter(|id| id >> 24 == 0x08)
    {
        return render_record_with_id(&bytes, id, &file, json);
    }
    if let (Some(want), Some(b)) = (want, bytes.get(..4)) {
        let got = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if got != want {
            return Err(RecordError::Malformed {
                file,
                id: Some(got),
                offset: 0,
                message: format!("--id 0x{want:08x} given but the record's id is 0x{got:08x}"),
            });
        }
    }
    render_record(&bytes, &file, json)
}
