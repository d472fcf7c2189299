//! The page's `retroanim bench ac` world (the module's `retroanim_bench_ac_*` exports)
//! is built from the sample's built-in records, not compiled from the authoring source
//! as the native bench is; it must still be the same world, tick for tick.

use retroanim_wasm::exports::{
    retroanim_bench_ac_checksum, retroanim_bench_ac_new, retroanim_bench_ac_tick,
};

#[test]
fn the_page_bench_world_has_the_native_bench_checksum() {
    // `retroanim bench ac --entities 1000 --ticks 37 --threads 1` prints this checksum
    // (pinned for the release builds' bench checks), after its 50 warm-up ticks.
    assert_eq!(retroanim_bench_ac_new(1000), 1000);
    retroanim_bench_ac_tick(50 + 37);
    assert_eq!(retroanim_bench_ac_checksum(), 0x67ea_6d6e_c9ab_da4c);
    // A new world replaces the old one and starts again from tick 0.
    assert_eq!(retroanim_bench_ac_new(1000), 1000);
    retroanim_bench_ac_tick(50 + 37);
    assert_eq!(retroanim_bench_ac_checksum(), 0x67ea_6d6e_c9ab_da4c);
}
