//! What a C or C++ host installs: the shared library carries the soname
//! `libretroanim_ffi.so.<RA_ABI_VERSION>`; a prefix laid out as docs/embedding.md says
//! (include/, lib/ with the library under its soname and the development link,
//! lib/pkgconfig/retroanim.pc from crates/ffi/pkg/retroanim.pc.in) builds
//! examples/c/server_ac.c through `pkg-config --cflags --libs retroanim`, and the
//! program, linked to the shared library by its soname, prints what the statically
//! linked one prints.

mod support;

use retroanim_ffi::RA_ABI_VERSION;
use retroanim_testkit::{require, GCC, LIBC_DEV, PKG_CONFIG};
use std::path::{Path, PathBuf};
use std::process::Command;
use support::*;

fn soname() -> String {
    format!("libretroanim_ffi.so.{RA_ABI_VERSION}")
}

fn dynamic_section(file: &Path) -> String {
    run_ok(Command::new("readelf").arg("-d").arg(file))
}

#[test]
#[cfg_attr(
    missing_c_compiler,
    ignore = "needs gcc: apt-get install -y gcc libc6-dev, or scripts/test"
)]
fn the_shared_library_carries_the_abi_version_in_its_soname() {
    require(&[GCC]);
    let d = dynamic_section(&lib_dir().join("libretroanim_ffi.so"));
    assert!(
        d.contains(&format!("Library soname: [{}]", soname())),
        "{d}"
    );
}

/// An install prefix for the tests: the header, the library under its soname with the
/// development link, the static library and the pkg-config file.
fn install(prefix: &Path) {
    let lib = prefix.join("lib");
    std::fs::create_dir_all(lib.join("pkgconfig")).expect("lib/pkgconfig");
    std::fs::create_dir_all(prefix.join("include")).expect("include");
    let root = repo_root();
    std::fs::copy(
        root.join("crates/ffi/include/retroanim.h"),
        prefix.join("include/retroanim.h"),
    )
    .expect("header");
    std::fs::copy(lib_dir().join("libretroanim_ffi.so"), lib.join(soname())).expect("so");
    let link = lib.join("libretroanim_ffi.so");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(soname(), &link).expect("development link");
    #[allow(clippy::disallowed_methods)]
    let pc = std::fs::read_to_string(root.join("crates/ffi/pkg/retroanim.pc.in")).expect("pc.in");
    let pc = pc
        .replace("@PREFIX@", &prefix.display().to_string())
        .replace("@ABI@", &RA_ABI_VERSION.to_string())
        .replace("@VERSION@", env!("CARGO_PKG_VERSION"));
    std::fs::write(lib.join("pkgconfig/retroanim.pc"), pc).expect("pc");
}

#[test]
#[cfg_attr(
    missing_pkg_config,
    ignore = "needs gcc and pkg-config: apt-get install -y gcc libc6-dev pkg-config, or scripts/test"
)]
fn a_c_host_builds_through_pkg_config_and_runs_on_the_shared_library() {
    require(&[GCC, LIBC_DEV, PKG_CONFIG]);
    let dir = scratch("packaging");
    let prefix: PathBuf = dir.join("prefix");
    install(&prefix);
    let pc_path = prefix.join("lib/pkgconfig");
    let flags = run_ok(
        Command::new("pkg-config")
            .args(["--cflags", "--libs", "retroanim"])
            .env("PKG_CONFIG_PATH", &pc_path),
    );
    assert!(flags.contains("-lretroanim_ffi"), "{flags}");
    let exe = dir.join("server_ac");
    run_ok(
        Command::new("gcc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror"])
            .arg(repo_root().join("examples/c/server_ac.c"))
            .args(flags.split_whitespace())
            .arg("-o")
            .arg(&exe),
    );
    let needed = dynamic_section(&exe);
    assert!(
        needed.contains(&format!("Shared library: [{}]", soname())),
        "{needed}"
    );
    let printed = run_ok(
        Command::new(&exe)
            .arg(repo_root().join("assets/ac/records"))
            .env("LD_LIBRARY_PATH", prefix.join("lib")),
    );
    assert!(
        printed.starts_with(&format!(
            "abi {RA_ABI_VERSION}\nserver update ok 1 y 1.000\n"
        )),
        "{printed}"
    );
    assert!(printed.ends_with("jump up 1\n"), "{printed}");
}
