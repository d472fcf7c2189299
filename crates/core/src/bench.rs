//! What `retroanim bench` drives: a world of many entities stepped at the engine's
//! nominal cadence. The CLI times `tick` and counts allocations around it, so an
//! engine only says how to build the world and how to step it once.

/// A benchmark world: `entities()` objects, all advanced by one `tick()`.
pub trait BenchWorld: Send {
    /// How many entities one `tick` advances (the unit of "entity-ticks per second").
    fn entities(&self) -> usize;
    /// Advance every entity by one nominal step (inputs included, as the engine's
    /// benchmark scenario defines them).
    fn tick(&mut self);
    /// A value that depends on the whole state, so the optimiser cannot drop work.
    fn checksum(&self) -> u64;
}
