//! A DAT the page's user opens (`POST /ac/dat` with the worker's file number): the
//! listing, the figure and a session on `asset_dat: "user"` are what the server gives
//! for the same file, read in slices through the host. Natively the host's files are
//! byte vectors (`retroanim_wasm::native_file`).

// Tests read the repository's own fixtures directly; only library code must go
// through retroanim_core::input (clippy.toml).
#![allow(clippy::disallowed_methods)]

use retroanim_ac::records::dat::{write_dat, DatFile};
use retroanim_wasm::{native_file, Answer, Api};
use serde_json::{json, Value};
use std::path::Path;

/// Every sample record in a DAT of the project's writer (1 KiB blocks, 61 entries a node).
fn sample_dat() -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/ac/records");
    let mut records = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
        records.push((
            u32::from_str_radix(&stem, 16).unwrap(),
            std::fs::read(&p).unwrap(),
        ));
    }
    write_dat(&records, 1024, 61)
}

fn answer(a: Answer) -> (u16, Value) {
    match a {
        Answer::Json(status, v) => (status, v),
        other => panic!("unexpected answer {other:?}"),
    }
}

fn open(api: &mut Api, name: &str, bytes: Vec<u8>) -> (u16, Value) {
    let size = bytes.len();
    let handle = native_file(bytes);
    answer(api.handle(
        "POST",
        "/ac/dat",
        Some(json!({ "handle": handle, "name": name, "size": size })),
    ))
}

#[test]
fn an_opened_dat_is_listed_drawn_and_played_like_the_sample_folder() {
    let mut api = Api::default();
    let (status, closed) = answer(api.handle("GET", "/ac/dat", None));
    assert_eq!((status, &closed["open"]), (200, &json!(false)));

    let (status, listing) = open(&mut api, "client_portal.dat", sample_dat());
    assert_eq!(status, 200, "{listing}");
    assert_eq!(listing["open"], true);
    assert_eq!(listing["file"], "client_portal.dat");
    assert_eq!(
        listing["tables"],
        json!([{ "id": "0x09000001", "setups": ["0x02000001"] }])
    );
    assert_eq!(listing["setup_count"], 1);
    assert_eq!(listing["unreadable_setups"], 0);
    assert_eq!(answer(api.handle("GET", "/ac/dat", None)).1, listing);

    // The figure from the DAT is the one the sample folder's session draws.
    let (status, fig) = answer(api.handle(
        "GET",
        "/ac/dat/figure?table=0x09000001&setup=0x02000001",
        None,
    ));
    assert_eq!(status, 200, "{fig}");
    let folder = answer(api.handle("POST", "/sessions", Some(json!({ "engine": "ac" })))).1;
    let folder_id = folder["id"].as_str().unwrap().to_string();
    let folder_fig = answer(api.handle("GET", &format!("/sessions/{folder_id}/figure"), None)).1;
    assert_eq!(fig["figure"]["setup"]["id"], "0x02000001");
    assert_eq!(fig["figure"], folder_fig["figure"]);

    // The same steps on the DAT and on the folder give the same lines.
    let setup = json!({ "motion_table": "0x09000001", "origin": [0, 0, 0], "orientation": [1, 0, 0, 0],
        "contact": true, "on_walkable": true, "in_cell": true, "run_rate": 1, "is_creature": true });
    let steps = json!([
        { "op": "do_motion", "motion": "0x44000007" },
        { "op": "tick", "dt": 0.25 },
        { "op": "tick", "dt": 0.25 }
    ]);
    let mut lines = Vec::new();
    for doc in [
        json!({ "engine": "ac", "asset_dat": "user", "setup": setup, "steps": steps }),
        json!({ "engine": "ac", "asset_dir": "../records", "setup": setup, "steps": steps }),
    ] {
        let (status, s) = answer(api.handle(
            "POST",
            "/sessions",
            Some(json!({ "engine": "ac", "scenario": doc, "replay": true })),
        ));
        assert_eq!(status, 200, "{s}");
        assert_eq!(s["lines"].as_array().unwrap().len(), 4);
        lines.push(s["lines"].clone());
    }
    assert_eq!(lines[0], lines[1]);
    // The run moved the root forward (RunForward's velocity).
    assert!(lines[0][3]["frame"]["origin"][1].as_f64().unwrap() > 0.0);
}

#[test]
fn a_bad_file_is_refused_with_its_name_and_where_and_the_open_dat_stays() {
    let mut api = Api::default();
    let (status, e) = open(&mut api, "notes.txt", vec![b'x'; 4096]);
    assert_eq!(status, 422);
    assert_eq!(e["at"], "");
    let msg = e["error"].as_str().unwrap();
    assert!(
        msg.starts_with("notes.txt: not a DAT container: magic at 0x140 is 0x78787878"),
        "{msg}"
    );

    let (status, _) = open(&mut api, "client_portal.dat", sample_dat());
    assert_eq!(status, 200);

    // Cut inside the data: the directory is there, a record's block chain is not.
    let mut cut = sample_dat();
    let root = u32::from_le_bytes(cut[0x160..0x164].try_into().unwrap()) as usize;
    let first_record = 0x400;
    cut.truncate(root + 1716 + 4);
    cut[first_record..first_record + 4].copy_from_slice(&(root as u32 + 4096).to_le_bytes());
    let (status, e) = open(&mut api, "cut.dat", cut);
    assert_eq!(status, 422, "{e}");
    let msg = e["error"].as_str().unwrap();
    assert!(msg.starts_with("cut.dat: "), "{msg}");
    assert!(msg.contains("0x"), "the message names an offset: {msg}");
    assert!(msg.contains("runs past the end of the file"), "{msg}");
    // The refused files left the DAT opened before open.
    let listing = answer(api.handle("GET", "/ac/dat", None)).1;
    assert_eq!(listing["file"], "client_portal.dat");

    // A Setup whose bytes are wrong is counted, with the reader's message naming it.
    let mut bad = sample_dat();
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("user_dat_bad_setup.dat");
    std::fs::write(&tmp, &bad).unwrap();
    let e = DatFile::open(&tmp)
        .unwrap()
        .find(0x0200_0001)
        .unwrap()
        .unwrap();
    let at = e.file_offset as usize + 4 + 4;
    bad[at..at + 16].fill(0xFF);
    let (status, l) = open(&mut api, "bad_setup.dat", bad);
    assert_eq!(status, 200, "{l}");
    assert_eq!(l["setup_count"], 1);
    assert_eq!(l["unreadable_setups"], 1);
    let m = l["first_unreadable_setup"].as_str().unwrap();
    assert_eq!(
        m,
        "bad_setup.dat: record 0x02000001, byte 8: NumParts 4294967295 exceeds the bytes left (520 bytes, at least 4 per item)"
    );

    // A session may only name the opened DAT.
    let (status, e) = answer(api.handle(
        "POST",
        "/sessions",
        Some(
            json!({ "engine": "ac", "scenario": { "engine": "ac", "asset_dat": "/etc/passwd",
            "setup": { "motion_table": "0x09000001" } } }),
        ),
    ));
    assert_eq!(status, 422);
    assert_eq!(e["at"], "scenario.asset_dat");
}

/// SIMVOL0.VOL of the herc VOL writer: the sample biped's DTS and chassis record.
fn sample_vol() -> Vec<u8> {
    use retroanim_herc::formats::vol::{VolArchive, VolEntry};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/herc");
    let read = |f: &str| std::fs::read(dir.join(f)).unwrap();
    VolArchive {
        program_mask: 1,
        precedence: 5,
        directories: vec!["dts".into(), "dat".into()],
        entries: vec![
            VolEntry::stored("BIPED.DTS", 0, read("biped.dts")).unwrap(),
            VolEntry::stored("BIPED.DAT", 1, read("biped.chassis.bin")).unwrap(),
        ],
        list_extra: Vec::new(),
    }
    .write()
    .unwrap()
}

fn open_vols(api: &mut Api, files: Vec<(&str, Vec<u8>)>) -> (u16, Value) {
    let files: Vec<Value> = files
        .into_iter()
        .map(|(name, bytes)| {
            let size = bytes.len();
            json!({ "handle": native_file(bytes), "name": name, "size": size })
        })
        .collect();
    answer(api.handle("POST", "/herc/es2", Some(json!({ "files": files }))))
}

#[test]
fn opened_vol_files_are_listed_and_their_shape_plays_with_its_meshes() {
    let mut api = Api::default();
    assert_eq!(
        answer(api.handle("GET", "/herc/es2", None)).1["open"],
        false
    );

    // Without SIMVOL0.VOL the files are refused with what was found.
    let (status, e) = open_vols(&mut api, vec![("OTHER.VOL", vec![1; 64])]);
    assert_eq!(status, 422);
    assert_eq!(
        e["error"],
        "your files: no SIMVOL0.VOL in this folder (found OTHER.VOL); give the Earthsiege 2 folder"
    );

    // A second archive that does not read is listed with its message.
    let (status, l) = open_vols(
        &mut api,
        vec![("SIMVOL0.VOL", sample_vol()), ("BROKEN.VOL", vec![0; 16])],
    );
    assert_eq!(status, 200, "{l}");
    assert_eq!(l["open"], true);
    let vols = l["vols"].as_array().unwrap();
    assert_eq!(vols.len(), 2);
    assert_eq!(vols[0]["file"], "BROKEN.VOL");
    assert!(
        vols[0]["error"].as_str().unwrap().starts_with("BROKEN.VOL"),
        "{}",
        vols[0]["error"]
    );
    assert_eq!(vols[1]["file"], "SIMVOL0.VOL");
    assert_eq!(vols[1]["chassis"], json!(["dat\\BIPED.DAT"]));
    let shape = &vols[1]["shapes"][0];
    assert_eq!(shape["entry"], "dts\\BIPED.DTS");
    assert_eq!(
        (
            shape["nodes"].as_u64(),
            shape["sequences"].as_u64(),
            shape["meshes"].as_u64()
        ),
        (Some(15), Some(8), Some(14))
    );

    // The shape plays: a session on it, and its meshes.
    let doc = json!({ "engine": "herc", "asset_es2": { "vol": "SIMVOL0.VOL", "entry": "dts\\BIPED.DTS" },
        "setup": { "threads": [{ "seq": 0, "rate": 256 }] }, "steps": [{ "op": "step_ms", "ms": 40 }, { "op": "step_ms", "ms": 40 }] });
    let (status, s) = answer(api.handle(
        "POST",
        "/sessions",
        Some(json!({ "engine": "herc", "scenario": doc, "replay": true })),
    ));
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["lines"].as_array().unwrap().len(), 3);
    assert_eq!(s["scenario"]["asset"]["name"], "SIMVOL0.VOL:dts\\BIPED.DTS");
    let id = s["id"].as_str().unwrap();
    let (status, m) = answer(api.handle("GET", &format!("/sessions/{id}/meshes"), None));
    assert_eq!(status, 200, "{m}");
    assert_eq!(m["source"], "SIMVOL0.VOL:dts\\BIPED.DTS");
    assert_eq!(m["meshes"].as_array().unwrap().len(), 14);

    // A shape the files do not hold is refused at the field that names it.
    let doc = json!({ "engine": "herc", "asset_es2": { "vol": "SIMVOL0.VOL", "entry": "dts\\NONE.DTS" },
        "setup": { "threads": [{ "seq": 0, "rate": 256 }] } });
    let (status, e) = answer(api.handle(
        "POST",
        "/sessions",
        Some(json!({ "engine": "herc", "scenario": doc })),
    ));
    assert_eq!(status, 422);
    assert_eq!(e["at"], "scenario.asset_es2");
    assert_eq!(
        e["error"],
        "your files: \"dts\\\\NONE.DTS\" is not a playable shape of SIMVOL0.VOL"
    );
}
