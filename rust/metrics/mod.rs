//! Metric families: a pure single-item function and a rayon batch function per family.

pub mod bleu;
pub mod chrf;
pub mod f1;
pub mod gleu;
pub mod meteor;
mod ngrams;
mod pynum;
pub mod rouge;
pub mod sacrebleu_bleu;
pub mod stats;
pub mod string_distance;
pub mod ter;
pub mod vectors;
pub mod votes;
pub mod wordnet;
