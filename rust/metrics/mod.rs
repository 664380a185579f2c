//! Metric families: a pure single-item function and a rayon batch function per family.

pub mod bleu;
pub mod chrf;
pub mod f1;
pub mod gleu;
pub mod meteor;
mod ngrams;
pub use ngrams::MAX_ORDER;
mod pynum;
pub mod rouge;
pub mod sacrebleu_bleu;
pub mod stats;
pub mod string_distance;
pub mod ter;
pub mod vectors;
pub mod votes;
pub mod wordnet;

/// The error of a sacrebleu segment (BLEU, chrF, TER) without a reference: an empty list of
/// references, or (through `compat.sacrebleu`) reference streams that are all `None` there.
pub(crate) fn no_reference() -> crate::error::Error {
    crate::error::Error::InvalidValue(
        "a segment has no reference (its list of references is empty, or every reference is None)"
            .to_string(),
    )
}
