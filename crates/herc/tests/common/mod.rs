//! Shared helpers of the herc test suites.
#![allow(dead_code)]
