//! Metric families: a pure single-item function and a rayon batch function per family.

pub mod bleu;
pub mod f1;
pub mod gleu;
mod ngrams;
mod pynum;
pub mod sacrebleu_bleu;
pub mod stats;
pub mod vectors;
pub mod votes;
