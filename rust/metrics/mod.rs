//! Metric families: a pure single-item function and a rayon batch function per family.
pub mod stats;
pub mod vectors;
pub mod votes;
