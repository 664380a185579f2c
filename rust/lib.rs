//! rapideval: exact ports of the deterministic text metrics of nltk 3.10.4, sacrebleu 2.6.0 and
//! promptflow-evals 0.3.5, as pure functions over slices plus batch entry points (the rows of text
//! batches shared by [`parallel`], the numeric kernels on rayon).
//!
//! Invariant: every float is bit-identical to the reference library (or within 1e-12 where the
//! reference's summation order is free), and no input can make these functions panic.

pub mod error;
pub mod interrupt;
pub mod metrics;
pub mod parallel;
pub mod text;

#[cfg(feature = "python")]
mod py;
