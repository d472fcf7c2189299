//! `retroanim inspect`: say what a file is, or why it cannot be read.
//!
//! The file is checked first (it exists, is a regular file, is under the size cap),
//! then read once and judged by content and extension. Only a readable file that is
//! none of the kinds below gets "not a file retroanim inspects"; a missing file, a
//! directory, a symlink loop, text that is not UTF-8 or JSON nested too deeply each
//! get their own message.

use anyhow::{anyhow, bail};
use retroanim_core::input::{self, InputError};
use retroanim_core::ScenarioError;
use serde_json::Value;
use std::io::Read;
use std::path::Path;

/// Every kind `inspect` reads, for `--help` and for the "not a file" message.
pub const KINDS: &str = "\
AC MotionTable (0x09......), Animation (0x03......), Setup (0x02......), GfxObj \
(0x01......), Palette (0x04......), SurfaceTexture (0x05......), RenderSurface (0x06......) \
and Surface (0x08......, named by its id) records (.bin), an AC DAT \
container such as client_portal.dat (a listing, or one record with --id), a HERC \
asset (.json with keyframes and sequences), a DTS shape (.dts), a VOL archive (a \
listing, or one entry with --id), a chassis record (.dat or .bin of 216, 225 or 226 bytes, \
or .json), an Earthsiege palette (.dpl), bitmap (.dbm) or bitmap array (.dba), and an actor \
set (.json with map and actors)";

/// Whether a `.dat`/`.bin` file of `size` bytes is taken for a chassis record: 216 bytes
/// loose, 225 with the VOL entry prefix, 226 with prefix and trailer.
fn chassis_size(size: u64) -> bool {
    retroanim_herc::formats::chassis::CHASSIS_FILE_SIZES
        .iter()
        .any(|&s| s as u64 == size)
}

/// Describe `path` as text, or as JSON with `json`.
/// `limit` is the user's cap; without one, files read whole may have
/// [`input::DEFAULT_MAX_WHOLE_BYTES`] and DAT containers, read record by record,
/// [`input::DEFAULT_MAX_STREAMED_BYTES`].
pub fn inspect(
    path: &Path,
    id: Option<&str>,
    json: bool,
    limit: Option<u64>,
) -> anyhow::Result<String> {
    let file = path.display().to_string();
    let container_limit = limit.unwrap_or(input::DEFAULT_MAX_STREAMED_BYTES);
    let size = input::check_regular(path, container_limit).map_err(|e| input_error(&e, &file))?;
    let limit = limit.unwrap_or(input::DEFAULT_MAX_WHOLE_BYTES);
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    // A DAT container is read record by record, never whole.
    if ext == "dat" && !chassis_size(size) && !starts_with_vol(path, container_limit)? {
        return Ok(retroanim_ac::inspect::inspect_file(path, id, json)?);
    }
    let bytes = input::read_regular(path, limit).map_err(|e| input_error(&e, &file))?;
    if bytes.starts_with(b"VOLN") {
        return Ok(match id {
            Some(entry) => retroanim_herc::inspect::inspect_vol_entry(&bytes, &file, entry, json)?,
            None => retroanim_herc::inspect::inspect_bytes(&bytes, &file, json)?,
        });
    }
    match ext.as_str() {
        "json" => {
            no_id(id, &file, "a JSON file")?;
            inspect_json(&bytes, &file, json)
        }
        "dts" => {
            no_id(id, &file, "a DTS shape")?;
            Ok(retroanim_herc::inspect::inspect_bytes(&bytes, &file, json)?)
        }
        "dpl" | "dbm" | "dba" => {
            no_id(id, &file, "a palette or bitmap")?;
            Ok(retroanim_herc::inspect::inspect_bytes(&bytes, &file, json)?)
        }
        "dat" | "bin" if chassis_size(size) => {
            no_id(id, &file, "a chassis record")?;
            Ok(retroanim_herc::inspect::inspect_bytes(&bytes, &file, json)?)
        }
        "bin" if is_ac_record(path, &bytes) => {
            Ok(retroanim_ac::inspect::inspect_file(path, id, json)?)
        }
        _ => bail!("{file}: not a file retroanim inspects; it reads {KINDS}"),
    }
}

fn input_error(e: &InputError, file: &str) -> anyhow::Error {
    match e {
        InputError::TooLarge { .. } => anyhow!("{file}: {e} (--max-input-bytes raises it)"),
        _ => anyhow!("{file}: {e}"),
    }
}

fn no_id(id: Option<&str>, file: &str, what: &str) -> anyhow::Result<()> {
    match id {
        Some(id) => bail!(
            "{file}: --id {id} given, but {what} has no entries (--id looks inside a DAT container or a VOL archive)"
        ),
        None => Ok(()),
    }
}

fn starts_with_vol(path: &Path, limit: u64) -> anyhow::Result<bool> {
    let file = path.display().to_string();
    let mut head = Vec::with_capacity(4);
    input::open_regular(path, limit)
        .map_err(|e| input_error(&e, &file))?
        .take(4)
        .read_to_end(&mut head)
        .map_err(|e| anyhow!("{file}: cannot read: {e}"))?;
    Ok(head == b"VOLN")
}

/// An AC record: the id's high byte is 0x09, 0x03, 0x02 or 0x01 and the file is named
/// like a record (`09000001.bin`, so a malformed one gets its located error) or parses;
/// or a texture record (0x04, 0x05, 0x06, or a Surface, 0x08, told only by its name)
/// named like a record.
fn is_ac_record(path: &Path, bytes: &[u8]) -> bool {
    let named_as_record = path.file_stem().is_some_and(|s| {
        let s = s.to_string_lossy();
        s.len() == 8 && s.chars().all(|c| c.is_ascii_hexdigit())
    });
    match bytes.get(3) {
        Some(0x09) => {
            named_as_record || retroanim_ac::records::read_motion_table(bytes, "").is_ok()
        }
        Some(0x03) => named_as_record || retroanim_ac::records::read_animation(bytes, "").is_ok(),
        Some(0x02) => named_as_record || retroanim_ac::records::read_setup(bytes, "").is_ok(),
        Some(0x01) => named_as_record || retroanim_ac::records::read_gfxobj(bytes, "").is_ok(),
        // Texture records are taken by their file name; a Surface's bytes hold no id at all.
        Some(0x04..=0x06) => named_as_record,
        _ if named_as_record => path
            .file_stem()
            .is_some_and(|s| s.to_string_lossy().to_ascii_lowercase().starts_with("08")),
        _ => false,
    }
}

fn inspect_json(bytes: &[u8], file: &str, json: bool) -> anyhow::Result<String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        ScenarioError::new(
            file,
            format!("byte {}", e.valid_up_to()),
            "not UTF-8 text, so not JSON",
        )
    })?;
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = msg
            .rfind(" at line ")
            .map_or(&msg[..], |i| &msg[..i])
            .to_string();
        ScenarioError::new(
            file,
            format!("line {}, column {}", e.line(), e.column()),
            format!("malformed JSON: {msg}"),
        )
    })?;
    let Some(obj) = doc.as_object() else {
        bail!("{file}: a JSON document that is not an object; inspect reads {KINDS}");
    };
    let has = |a: &str, b: &str| obj.contains_key(a) && obj.contains_key(b);
    if has("map", "actors") {
        let set = retroanim_actor::load::load_set(&doc).map_err(|f| {
            ScenarioError::new(
                file,
                f.at.clone(),
                format!("{}: {}", f.kind.name(), f.message),
            )
        })?;
        return Ok(if json {
            format!("{:#}\n", retroanim_actor::inspect::describe_json(&set))
        } else {
            retroanim_actor::inspect::describe_text(&set, file)
        });
    }
    if has("keyframes", "sequences") || has("max_turn_rate", "stride_divisor") {
        return Ok(retroanim_herc::inspect::inspect_bytes(bytes, file, json)?);
    }
    bail!(
        "{file}: a JSON object with none of the keys inspect knows (map and actors: an actor set; keyframes and sequences: a HERC asset; max_turn_rate and stride_divisor: a chassis record)"
    )
}
