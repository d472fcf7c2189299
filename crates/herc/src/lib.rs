//! HERC animation: fixed-point animation threads, poses, root motion and locomotion.
//!
//! Modules are shared between two authors; keep edits here additive (`pub mod` lines).
