//! Metric families: a pure single-item function and a rayon batch function per family.

pub mod meteor;
pub mod rouge;
pub mod wordnet;
