//! The concatenated RAAN frame table (A1, A2): each entry contributes its frame
//! count, frames numbered from 0 in entry order, and a `ShowFrame` reference is
//! resolved once at load to a (model handle, frame index) pair of 10-bit fields.

/// Largest value of an unsigned 20-bit `ShowFrame` reference (A1).
pub const REF_MAX: u64 = (1 << 20) - 1;
/// Values the loader can patch into a 10-bit command field (A2).
pub const FIELD_LIMIT: u64 = 1 << 10;

/// One RAAN entry: a runtime model handle and how many frames it contributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RaanEntry {
    pub model: u64,
    pub frames: u64,
}

/// The actor's concatenated RAAN table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RaanTable {
    pub entries: Vec<RaanEntry>,
}

/// Why a reference cannot be resolved (D3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefFault {
    /// The reference is at or past the total frame count.
    PastTable { total: u64 },
    /// The resolved handle or index does not fit a 10-bit field.
    FieldOverflow { handle: u64, index: u64 },
}

impl RaanTable {
    /// Total number of frames the table contributes.
    pub fn total_frames(&self) -> u64 {
        self.entries
            .iter()
            .fold(0u64, |sum, e| sum.saturating_add(e.frames))
    }

    /// Resolve a reference: the first entry with `ref < base + frames` holds it
    /// (RAAN table construction and RAGR load-time patching, A1–A2).
    pub fn resolve(&self, reference: u64) -> Result<(u16, u16), RefFault> {
        let mut base = 0u64;
        for e in &self.entries {
            let end = base.saturating_add(e.frames);
            if reference < end {
                let index = reference - base;
                if e.model >= FIELD_LIMIT || index >= FIELD_LIMIT {
                    return Err(RefFault::FieldOverflow {
                        handle: e.model,
                        index,
                    });
                }
                return Ok((e.model as u16, index as u16));
            }
            base = end;
        }
        Err(RefFault::PastTable { total: base })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(entries: &[(u64, u64)]) -> RaanTable {
        RaanTable {
            entries: entries
                .iter()
                .map(|&(model, frames)| RaanEntry { model, frames })
                .collect(),
        }
    }

    #[test]
    fn a01_reference_counts_frames_in_entry_order() {
        let t = table(&[(40, 4), (41, 0), (7, 3)]);
        assert_eq!(t.total_frames(), 7);
        assert_eq!(t.resolve(0), Ok((40, 0)));
        assert_eq!(t.resolve(3), Ok((40, 3)));
        // The empty entry 41 contributes nothing: reference 4 is model 7's frame 0.
        assert_eq!(t.resolve(4), Ok((7, 0)));
        assert_eq!(t.resolve(6), Ok((7, 2)));
        assert_eq!(t.resolve(7), Err(RefFault::PastTable { total: 7 }));
    }

    #[test]
    fn a02_resolved_pair_must_fit_ten_bits() {
        let t = table(&[(1024, 1)]);
        assert_eq!(
            t.resolve(0),
            Err(RefFault::FieldOverflow {
                handle: 1024,
                index: 0
            })
        );
        let t = table(&[(1023, 1025)]);
        assert_eq!(t.resolve(1023), Ok((1023, 1023)));
        assert_eq!(
            t.resolve(1024),
            Err(RefFault::FieldOverflow {
                handle: 1023,
                index: 1024
            })
        );
    }
}
