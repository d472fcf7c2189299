//! Decides which host-language tests can run here (see `retroanim-testkit`): the C
//! example tests need a C compiler, two of them valgrind too, and the .NET binding test
//! needs Mono. A test whose tools are missing is compiled as ignored, with how to
//! install them, unless `RETROANIM_NO_SKIP` is set.

use retroanim_testkit::{gate, GCC, LIBC_DEV, MCS, MONO, VALGRIND};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    gate("missing_c_compiler", &[GCC, LIBC_DEV]);
    gate("missing_valgrind", &[GCC, LIBC_DEV, VALGRIND]);
    gate("missing_mono", &[MCS, MONO]);
}
