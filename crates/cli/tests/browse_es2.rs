//! `retroanim browse --es2 DIR` refuses a missing or wrong folder before it listens, with
//! one located line on stderr and exit status 2.

use std::process::Command;

#[test]
fn a_missing_or_wrong_es2_folder_stops_browse_with_a_located_message() {
    let dir = std::env::temp_dir().join(format!("retroanim-browse-es2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SHELL0.VOL"), b"VOLN").unwrap();
    let missing = dir.join("missing");
    for (path, says) in [
        (missing.clone(), format!("retroanim: --es2: {}: cannot open: ", missing.display())),
        (
            dir.clone(),
            format!(
                "retroanim: --es2: {}: no SIMVOL0.VOL in this folder (found SHELL0.VOL); give the Earthsiege 2 folder\n",
                dir.canonicalize().unwrap().display()
            ),
        ),
    ] {
        // Port 0: were the folder accepted, the command would listen instead of failing.
        let o = Command::new(env!("CARGO_BIN_EXE_retroanim"))
            .args(["browse", "--port", "0", "--es2"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with(&says), "{err}");
        assert!(o.stdout.is_empty());
    }
}
