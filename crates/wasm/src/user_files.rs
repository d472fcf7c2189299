//! The page user's own files, opened in the static page and read where they are
//! (nothing is uploaded): an AC DAT such as `client_portal.dat`, listed once when
//! opened ([`DatListing`], the listing `retroanim browse --ac-dat` makes) and then
//! read by record on demand through [`HostFile`] slices; and an Earthsiege 2 folder's VOL
//! files, each read whole (they are small) and listed as `retroanim browse --es2` lists
//! the folder ([`Es2Listing`]).
//!
//! The module runs one page's requests one at a time, so the open files are values of
//! this thread.

use crate::error::ApiError;
use crate::host_file::HostFile;
use retroanim_ac::inspect::user_dat::DatListing;
use retroanim_ac::records::dat::DatFile;
use retroanim_ac::records::dat::ReadAt;
use retroanim_ac::records::RecordStore;
use retroanim_herc::inspect::es2::{Es2Listing, MAX_VOL_BYTES};
use serde_json::{json, Value};
use std::cell::RefCell;

/// The `asset_dat` value naming the DAT the page opened (as on the server).
pub const USER_DAT: &str = "user";

struct UserDat {
    name: String,
    handle: u32,
    size: u64,
    listing: DatListing,
}

thread_local! {
    static DAT: RefCell<Option<UserDat>> = const { RefCell::new(None) };
}

fn open_file(name: &str, handle: u32, size: u64) -> Result<DatFile, String> {
    DatFile::from_source(name.to_string(), size, Box::new(HostFile { handle }))
        .map_err(|e| e.to_string())
}

/// `POST /ac/dat {"handle", "name", "size"}`: open the file the worker holds under
/// `handle` as the user's DAT, replacing any earlier one only when it reads.
pub fn open(body: Option<Value>) -> Result<Value, ApiError> {
    let b = body.unwrap_or(Value::Null);
    let handle = b
        .get("handle")
        .and_then(Value::as_u64)
        .and_then(|h| u32::try_from(h).ok())
        .ok_or_else(|| ApiError::bad_request("handle", "expected the worker's file number"))?;
    let size = b
        .get("size")
        .and_then(Value::as_u64)
        .ok_or_else(|| ApiError::bad_request("size", "expected the file's size in bytes"))?;
    let name = b
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::bad_request("name", "expected the file's name"))?
        .to_string();
    let mut dat = open_file(&name, handle, size).map_err(|m| ApiError::unprocessable("", m))?;
    let listing = DatListing::read(&mut dat).map_err(|m| ApiError::unprocessable("", m))?;
    DAT.with_borrow_mut(|d| {
        *d = Some(UserDat {
            name,
            handle,
            size,
            listing,
        })
    });
    Ok(listing_json())
}

/// `GET /ac/dat`: the open DAT's listing, or `{"open": false}` with how to open one.
pub fn listing_json() -> Value {
    DAT.with_borrow(|d| match d {
        Some(d) => {
            let mut v = d.listing.to_json(&d.name);
            v["open"] = json!(true);
            v
        }
        None => json!({
            "open": false,
            "how": "open your client_portal.dat with the file button of the AC view",
        }),
    })
}

/// The open DAT as a record store (a session's `asset_dat: "user"`).
pub fn store() -> Result<RecordStore, String> {
    DAT.with_borrow(|d| {
        let d = d
            .as_ref()
            .ok_or("no AC DAT is open (open your client_portal.dat in the AC view)")?;
        Ok(RecordStore::from_dat_file(open_file(
            &d.name, d.handle, d.size,
        )?))
    })
}

/// `GET /ac/dat/figure?table=…[&setup=…]`.
pub fn figure(query: &str) -> Result<Value, ApiError> {
    let (mut table, mut setup) = (None, None);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let id = |at: &str| {
            retroanim_session::doc::parse_id(v).ok_or_else(|| {
                ApiError::unprocessable(at, format!("'{v}' is not an id such as 0x09000001"))
            })
        };
        match k {
            "table" => table = Some(id("query.table")?),
            "setup" => setup = Some(id("query.setup")?),
            _ => {
                return Err(ApiError::unprocessable(
                    "query",
                    format!("unknown field `{k}`"),
                ))
            }
        }
    }
    let table = table.ok_or_else(|| ApiError::unprocessable("query", "missing field `table`"))?;
    let mut store = store().map_err(ApiError::not_found)?;
    DAT.with_borrow(|d| {
        let d = d
            .as_ref()
            .ok_or_else(|| ApiError::not_found("no AC DAT is open"))?;
        let v = d
            .listing
            .figure(&mut store, &d.name, table, setup)
            .map_err(|m| ApiError::unprocessable("query", m))?;
        Ok(json!({ "figure": v }))
    })
}

/// How a visitor of the page opens Earthsiege 2 archives (the message when none is open).
const ES2_HOW: &str =
    "open your Earthsiege 2 folder's VOL files with the file button of the HERC view";

thread_local! {
    static ES2: RefCell<Option<Es2Listing>> = const { RefCell::new(None) };
}

/// One archive the worker holds, read whole (an archive is small; over
/// [`MAX_VOL_BYTES`] it is listed with a message instead).
fn read_archive(handle: u32, name: &str, size: u64) -> Result<Vec<u8>, String> {
    if size > MAX_VOL_BYTES {
        return Err(format!(
            "{name}: larger than {MAX_VOL_BYTES} bytes, not read"
        ));
    }
    let mut bytes = vec![0u8; size as usize];
    HostFile { handle }
        .read_at(0, &mut bytes)
        .map_err(|m| format!("{name}: {m}"))?;
    Ok(bytes)
}

/// `POST /herc/es2 {"files": [{"handle", "name", "size"}]}`: the VOL files of an
/// Earthsiege 2 folder, listed as `browse --es2` lists the folder (SIMVOL0.VOL among
/// them), replacing any earlier ones only when they list.
pub fn open_es2(body: Option<Value>) -> Result<Value, ApiError> {
    let files = body
        .as_ref()
        .and_then(|b| b.get("files"))
        .and_then(Value::as_array)
        .ok_or_else(|| {
            ApiError::bad_request("files", "expected the files as [{handle, name, size}]")
        })?;
    let mut archives = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let at = format!("files[{i}]");
        let handle = f
            .get("handle")
            .and_then(Value::as_u64)
            .and_then(|h| u32::try_from(h).ok())
            .ok_or_else(|| {
                ApiError::bad_request(format!("{at}.handle"), "expected the worker's file number")
            })?;
        let size = f.get("size").and_then(Value::as_u64).ok_or_else(|| {
            ApiError::bad_request(format!("{at}.size"), "expected the file's size in bytes")
        })?;
        let name = f
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| ApiError::bad_request(format!("{at}.name"), "expected the file's name"))?
            .to_string();
        if !name.to_ascii_lowercase().ends_with(".vol") {
            continue;
        }
        let bytes = read_archive(handle, &name, size);
        archives.push((name, bytes));
    }
    let listing = Es2Listing::from_archives("your files".to_string(), archives, &|f| f.to_string())
        .map_err(|m| ApiError::unprocessable("", m))?;
    let mut v = listing.listing();
    v["open"] = json!(true);
    ES2.with_borrow_mut(|e| *e = Some(listing));
    Ok(v)
}

/// `GET /herc/es2`: the opened archives' listing, or `{"open": false}` with how to open them.
pub fn es2_json() -> Value {
    ES2.with_borrow(|e| match e {
        Some(l) => {
            let mut v = l.listing();
            v["open"] = json!(true);
            v
        }
        None => json!({ "open": false, "how": ES2_HOW }),
    })
}

/// A herc scenario naming an opened shape (`"asset_es2": {"vol", "entry"}`) gets that
/// shape's animation list as its inline `asset`, as on the server.
pub fn es2_expand(engine: &str, doc: Value) -> Result<Value, ApiError> {
    ES2.with_borrow(|e| {
        retroanim_herc::inspect::es2::expand(engine, doc, e.as_ref(), ES2_HOW)
            .map_err(|(at, m)| ApiError::unprocessable(at, m))
    })
}

/// The meshes of a herc session on an opened shape, `None` for other sessions.
pub fn es2_meshes(doc: &Value) -> Option<Result<Value, String>> {
    let r = doc.get("asset_es2")?;
    Some(ES2.with_borrow(|e| match e {
        Some(l) => l.meshes(r),
        None => Err(format!("no Earthsiege 2 archive is open ({ES2_HOW})")),
    }))
}
