#[test]
fn export_site_without_the_module_names_the_command_that_builds_it() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-site-no-module");
    let out = Command::new(bin())
        .arg("export-site")
        .arg(&dir)
        .arg("--wasm")
        .arg(dir.join("absent.wasm"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("absent.wasm"), "{err}");
    assert!(
        err.contains("cargo build --target wasm32-unknown-unknown -p retroanim-wasm --release"),
        "{err}"
    );
    assert!(
        !dir.join("index.html").exists(),
        "nothing is written without the module"
    );
}

#[test]
fn export_site_refuses_a_file_that_is_not_webassembly() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-site-not-wasm");
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("fake.wasm");
    std::fs::write(&fake, b"<html>").unwrap();
    let out = Command::new(bin())
        .arg("export-site")
        .arg(dir.join("site"))
        .arg("--wasm")
        .arg(&fake)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a WebAssembly module"), "{err}");
}
