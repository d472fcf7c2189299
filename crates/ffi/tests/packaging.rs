//! What a C or C++ host installs: the shared library carries the soname
//! `libretroanim_ffi.so.<RA_ABI_VERSION>`; a prefix laid out as docs/embedding.md says
//! (include/, lib/ with the library under its soname and the development link,
//! lib/pkgconfig/retroanim.pc from crates/ffi/pkg/retroanim.pc.in) builds
//! examples/c/server_ac.c through `pkg-config --cflags --libs retroanim`, and the
//! program, linked to the shared library by its soname, prints what the statically
//! linked one prints. The same prefix, with lib/cmake/retroanim/retroanimConfig.cmake
//! and the static library, builds tests/cmake_host through `find_package(retroanim)`,
//! once on each library.

mod support;

use retroanim_ffi::RA_ABI_VERSION;
use retroanim_testkit::{require, CMAKE, GCC, LIBC_DEV, PKG_CONFIG};
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
/// development link, the static library, the pkg-config file and the CMake package file.
fn install(prefix: &Path) {
    let lib = prefix.join("lib");
    std::fs::create_dir_all(lib.join("pkgconfig")).expect("lib/pkgconfig");
    std::fs::create_dir_all(lib.join("cmake/retroanim")).expect("lib/cmake/retroanim");
    std::fs::create_dir_all(prefix.join("include")).expect("include");
    let root = repo_root();
    std::fs::copy(
        root.join("crates/ffi/include/retroanim.h"),
        prefix.join("include/retroanim.h"),
    )
    .expect("header");
    std::fs::copy(lib_dir().join("libretroanim_ffi.so"), lib.join(soname())).expect("so");
    std::fs::copy(
        lib_dir().join("libretroanim_ffi.a"),
        lib.join("libretroanim_ffi.a"),
    )
    .expect("static library");
    std::fs::copy(
        root.join("crates/ffi/pkg/retroanimConfig.cmake"),
        lib.join("cmake/retroanim/retroanimConfig.cmake"),
    )
    .expect("CMake package file");
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

#[test]
#[cfg_attr(
    missing_cmake,
    ignore = "needs gcc and cmake: apt-get install -y gcc libc6-dev cmake, or scripts/test"
)]
fn a_c_host_builds_through_cmake_find_package_on_either_library() {
    require(&[GCC, LIBC_DEV, CMAKE]);
    let dir = scratch("packaging_cmake");
    let prefix = dir.join("prefix");
    install(&prefix);
    let build = dir.join("build");
    let _ = std::fs::remove_dir_all(&build);
    std::fs::create_dir_all(&build).expect("build dir");
    run_ok(
        Command::new("cmake")
            .arg("-S")
            .arg(repo_root().join("crates/ffi/tests/cmake_host"))
            .arg("-B")
            .arg(&build)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display()))
            .env("CFLAGS", "-std=c99 -Wall -Wextra -Werror"),
    );
    run_ok(Command::new("cmake").arg("--build").arg(&build));

    let shared = build.join("host_shared");
    let needed = dynamic_section(&shared);
    assert!(
        needed.contains(&format!("Shared library: [{}]", soname())),
        "{needed}"
    );
    let static_host = build.join("host_static");
    assert!(
        !dynamic_section(&static_host).contains("libretroanim_ffi"),
        "the static host needs no retroanim library at run time"
    );
    // The humanoid is creature 0 in the default cell 0x7D640013, walking forward
    // (WalkForward, 0x45000005) after half a second.
    let expected = format!("abi {RA_ABI_VERSION}\ncreature 0 cell 7D640013 motion 45000005\n");
    for exe in [&shared, &static_host] {
        let printed = run_ok(
            Command::new(exe)
                .arg(repo_root().join("assets/ac/records"))
                .env("LD_LIBRARY_PATH", prefix.join("lib")),
        );
        assert_eq!(printed, expected, "{}", exe.display());
    }
}
