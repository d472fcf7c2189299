//! Decides which host-language tests can run here (see `retroanim-testkit`): the C
//! example tests need a C compiler, two of them valgrind too, the packaging tests
//! pkg-config and CMake, and the .NET binding test needs Mono. A test whose tools are missing is compiled as ignored, with how to
//! install them, unless `RETROANIM_NO_SKIP` is set.
//!
//! It also gives the shared library its soname, `libretroanim_ffi.so.<ABI version>`
//! (`RA_ABI_VERSION` in src/lib.rs; tests/packaging.rs checks the two agree), so that
//! a host linked against one ABI never loads a library of another.

use retroanim_testkit::{gate, CMAKE, GCC, LIBC_DEV, MCS, MONO, PKG_CONFIG, VALGRIND};

/// `RA_ABI_VERSION` of src/lib.rs.
const ABI_VERSION: u32 = 2;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo::rustc-cdylib-link-arg=-Wl,-soname,libretroanim_ffi.so.{ABI_VERSION}");
    }
    gate("missing_c_compiler", &[GCC, LIBC_DEV]);
    gate("missing_valgrind", &[GCC, LIBC_DEV, VALGRIND]);
    gate("missing_mono", &[MCS, MONO]);
    gate("missing_pkg_config", &[GCC, LIBC_DEV, PKG_CONFIG]);
    gate("missing_cmake", &[GCC, LIBC_DEV, CMAKE]);
}
