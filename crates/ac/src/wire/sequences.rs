//! An object's message sequence counters (ACE's `SequenceManager`): each counter hands
//! out its next value or repeats its current one.

/// One counter: `advance` increments and wraps to 0 past `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    pub current: u16,
    pub max: u16,
}

impl Counter {
    pub const fn new(start: u16, max: u16) -> Counter {
        Counter {
            current: start,
            max,
        }
    }

    pub fn advance(&mut self) -> u16 {
        self.current = if self.current >= self.max {
            0
        } else {
            self.current + 1
        };
        self.current
    }
}

/// The counters the motion messages use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sequences {
    /// `ObjectInstance`: written as its current value (0 for an object never re-created).
    pub instance: Counter,
    pub movement: Counter,
    pub server_control: Counter,
    pub vector: Counter,
    /// `Motion` (numbers the action items): starts at 1 and stays below 0x8000, so the
    /// first item is numbered 2.
    pub motion: Counter,
}

impl Default for Sequences {
    fn default() -> Self {
        Sequences {
            instance: Counter::new(0, u16::MAX),
            movement: Counter::new(0, u16::MAX),
            server_control: Counter::new(0, u16::MAX),
            vector: Counter::new(0, u16::MAX),
            motion: Counter::new(1, 0x7FFF),
        }
    }
}
