//! Metric families: a pure single-item function and a rayon batch function per family.

pub mod bleu;
pub mod gleu;
mod pynum;
