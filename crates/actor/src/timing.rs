//! The shared whole nominal-tick increment (A38, A39, D1, C13).

/// Updates after a timing reset that use exactly one tick (A39).
pub const WARMUP_UPDATES: u8 = 12;

/// The frame-scale accumulator with 8 fractional bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// Accumulated Q8 frame scales (unbounded, non-negative).
    pub acc: u64,
    /// Updates left that use one tick.
    pub warmup: u8,
    /// Q8 frame scale added per update (D1: an input; 256 = one nominal tick).
    pub scale: u32,
    /// The shared whole-tick increment now in force; read by every advancement.
    pub ticks: u32,
}

impl Timing {
    /// The reset state a scenario starts in (C13): no ticks yet.
    pub fn new(scale: u32) -> Timing {
        Timing {
            acc: 0,
            warmup: WARMUP_UPDATES,
            scale,
            ticks: 0,
        }
    }

    /// One update: accumulate, then take the difference of the whole parts (A38);
    /// during warm-up the output is one tick while the accumulator keeps running (A39).
    pub fn step(&mut self) -> u32 {
        let prev = self.acc;
        self.acc = self.acc.saturating_add(self.scale as u64);
        if self.warmup > 0 {
            self.ticks = 1;
            self.warmup -= 1;
        } else {
            self.ticks = ((self.acc >> 8) - (prev >> 8)) as u32;
        }
        self.ticks
    }

    /// A timing reset: the accumulator restarts and warm-up begins again; the
    /// scale and the last shared ticks stay (C13).
    pub fn reset(&mut self) {
        self.acc = 0;
        self.warmup = WARMUP_UPDATES;
    }
}
