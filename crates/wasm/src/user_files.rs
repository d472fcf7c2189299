//! The page user's own files, opened in the static page and read where they are
//! (nothing is uploaded): an AC DAT such as `client_portal.dat`, listed once when
//! opened ([`DatListing`], the listing `retroanim browse --ac-dat` makes) and then
//! read by record on demand through [`HostFile`] slices.
//!
//! The module runs one page's requests one at a time, so the open DAT is one value of
//! this thread.

use crate::error::ApiError;
use crate::host_file::HostFile;
use retroanim_ac::inspect::user_dat::DatListing;
use retroanim_ac::records::dat::DatFile;
use retroanim_ac::records::RecordStore;
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
