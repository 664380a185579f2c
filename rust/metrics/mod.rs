//! Metric families: a pure single-item function and a rayon batch function per family.

pub mod chrf;
pub mod f1;
pub mod sacrebleu_bleu;
pub mod ter;
