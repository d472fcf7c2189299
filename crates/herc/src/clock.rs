//! The simulation clock (H19, H20): elapsed ms → timer counts (Q8, 256 per 125 ms) →
//! animation ticks, which each thread then scales by its Q8 rate.

use crate::fixed::integrate_rate_over_tick;
use serde::Serialize;

/// The nominal cadence: one simulation step every 40 ms (25 Hz, H24).
pub const NOMINAL_STEP_MS: i64 = 40;

/// One step's clock values, in trace order (the trace's `clock` object).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Clock {
    pub elapsed_ms: i64,
    pub sim_tick_delta: i32,
    pub anim_delta: i16,
}

/// `SimTickDelta = clamp((ms << 8) / 125, 0x40, 0x1c2)` (Time_BeginSimTick, 0x4677bc).
/// Negative input is treated like any small elapsed time (clamped to 64).
pub fn sim_tick_delta(elapsed_ms: i64) -> i32 {
    (elapsed_ms.saturating_mul(256) / 125).clamp(0x40, 0x1c2) as i32
}

/// The animation delta of one step: `IntegrateRateOverTick(100)` (H19).
pub fn anim_delta(sim_tick_delta: i32) -> i16 {
    integrate_rate_over_tick(sim_tick_delta, 100)
}

/// The ticks a thread at `rate` moves for `delta`: `i16((delta·rate) >> 8)` (Advance step 2).
pub fn thread_step(delta: i16, rate: i16) -> i16 {
    ((i32::from(delta) * i32::from(rate)) >> 8) as i16
}

/// All clock values of one step of `elapsed_ms`.
pub fn clock_for(elapsed_ms: i64) -> Clock {
    let std = sim_tick_delta(elapsed_ms);
    Clock {
        elapsed_ms,
        sim_tick_delta: std,
        anim_delta: anim_delta(std),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h19_sim_tick_delta_is_clamped_q8_of_125ms() {
        // 125 ms is exactly 256 counts; 20 ms (40) clamps up to 64; 300 ms (614) clamps to 450.
        assert_eq!(sim_tick_delta(125), 256);
        assert_eq!(sim_tick_delta(20), 64);
        assert_eq!(sim_tick_delta(0), 64);
        assert_eq!(sim_tick_delta(300), 450);
        assert_eq!(sim_tick_delta(1_000_000), 450);
        // 64·100 >> 8 = 25; 450·100 >> 8 = 175 (45000/256 = 175.8).
        assert_eq!(anim_delta(64), 25);
        assert_eq!(anim_delta(450), 175);
        // Each thread then scales by its Q8 rate: 31·−128 >> 8 = −15.5 → −16 (floor).
        assert_eq!(thread_step(31, -128), -16);
        assert_eq!(thread_step(-7, -128), 3);
    }

    #[test]
    fn h20_40ms_step_gives_81_counts_and_31_ticks() {
        // 40·256/125 = 81.92 → 81; 81·100 >> 8 = 8100/256 = 31.6 → 31.
        let c = clock_for(40);
        assert_eq!((c.sim_tick_delta, c.anim_delta), (81, 31));
        assert_eq!(thread_step(c.anim_delta, 256), 31);
        // 25 steps per second → 775 ticks per second at 1× (the ideal would be 800).
        assert_eq!(25 * i32::from(thread_step(c.anim_delta, 256)), 775);
        // 41 ms: 10496/125 = 83.97 → 83 counts; 8300 >> 8 = 32 ticks.
        let c = clock_for(41);
        assert_eq!((c.sim_tick_delta, c.anim_delta), (83, 32));
        // The known-wrong 2.048·ms formula would give 81.92 ticks for 40 ms, not 31.
        assert_ne!(i32::from(c.anim_delta), 84);
    }
}
