//! Actor export (to come).
