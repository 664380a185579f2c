//! METEOR bindings: the batch function over texts, the token-list scorer behind the nltk drop-in,
//! and WordNet look-ups.

use pyo3::prelude::*;
use pyo3::types::PyList;

use super::{run_rows, References, TextRows, Texts};
use crate::metrics::meteor::{self as kernel, Options, Params, Stems, Synonyms};
use crate::metrics::wordnet;
use crate::parallel;
use crate::text::Tokenizer;

/// `MeteorSettings(*, alpha=0.9, beta=3.0, gamma=0.5)`: the weights of nltk's
/// `single_meteor_score` (its defaults, and promptflow's).
#[pyclass(frozen, name = "MeteorSettings", module = "rapideval._core")]
struct PyMeteorSettings(Params);

#[pymethods]
impl PyMeteorSettings {
    #[new]
    #[pyo3(signature = (*, alpha = 0.9, beta = 3.0, gamma = 0.5))]
    fn new(alpha: f64, beta: f64, gamma: f64) -> Self {
        PyMeteorSettings(Params { alpha, beta, gamma })
    }
}

/// METEOR of every row (texts tokenized with `tokenizer`; several references: the best score).
#[pyfunction]
#[pyo3(signature = (responses, references, settings, tokenizer = "promptflow"))]
fn meteor<'py>(
    py: Python<'py>,
    responses: &Bound<'py, PyAny>,
    references: &Bound<'py, PyAny>,
    settings: &Bound<'py, PyMeteorSettings>,
    tokenizer: &str,
) -> PyResult<Bound<'py, numpy::PyArray1<f64>>> {
    let kind = Tokenizer::from_name(tokenizer)?;
    let params = &settings.get().0;
    let rows = TextRows::new(responses, references)?;
    rows.scores(py, |hyps, refs| {
        kernel::meteor_batch(hyps, refs, params, kind)
    })
}

/// `meteor_score(references, hypothesis, ...)` on token lists. `lowercase` is the default
/// `preprocess=str.lower` (false: the caller already applied its own); `hypothesis_stems`,
/// `reference_stems` (one list per reference) and `hypothesis_synonyms` replace the Porter stemmer
/// and WordNet when given (values computed by the caller's own objects).
#[pyfunction]
#[pyo3(signature = (references, hypothesis, settings, *, lowercase = true, hypothesis_stems = None, reference_stems = None, hypothesis_synonyms = None))]
fn meteor_tokens<'py>(
    references: &Bound<'py, PyAny>,
    hypothesis: &Bound<'py, PyAny>,
    settings: &Bound<'py, PyMeteorSettings>,
    lowercase: bool,
    hypothesis_stems: Option<Vec<String>>,
    reference_stems: Option<Vec<Vec<String>>>,
    hypothesis_synonyms: Option<Vec<Vec<String>>>,
) -> PyResult<f64> {
    let params = settings.get().0;
    let hypothesis = Texts::new(hypothesis, "hypothesis")?;
    let references = References::new(references, "references")?;
    let hyp = hypothesis.strs();
    let refs = references.rows();
    let synonyms = hypothesis_synonyms
        .as_deref()
        .map_or(Synonyms::WordNet, Synonyms::Given);
    let score = settings.py().detach(|| -> crate::error::Result<f64> {
        kernel::with_scorer(|scorer| {
            scorer.number_hypothesis(hyp, lowercase);
            kernel::best(refs.iter().enumerate().map(|(k, reference)| {
                let stems = match (&hypothesis_stems, &reference_stems) {
                    (Some(h), Some(r)) => Stems::Given {
                        hypothesis: h,
                        reference: r.get(k).map_or(&[][..], Vec::as_slice),
                    },
                    (None, None) => Stems::Porter,
                    _ => {
                        return Err(crate::error::Error::InvalidValue(
                            "give both hypothesis_stems and reference_stems, or neither"
                                .to_string(),
                        ))
                    }
                };
                let options = Options {
                    params,
                    lowercase,
                    stems,
                    synonyms,
                };
                scorer.against(reference, &options)
            }))
        })
    })?;
    Ok(score)
}

/// For every word, the lemma names without "_" of `wordnet.synsets(word)` (WordNet 3.0), sorted.
#[pyfunction]
fn wordnet_synonyms<'py>(
    py: Python<'py>,
    words: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let words = Texts::new(words, "words")?;
    let strs = words.strs();
    let wn = py.detach(wordnet::wordnet)?;
    let out: Vec<Vec<&str>> = run_rows(py, strs.len(), || {
        parallel::map(strs, 64, |w| wn.synonyms(w))
    })?;
    PyList::new(py, out)
}

/// Makes METEOR forget the words it learnt (see `kernel::forget_words`).
#[pyfunction]
fn meteor_forget_words() {
    kernel::forget_words();
}

/// The WordNet 3.0 licence of the bundled synonym table.
#[pyfunction]
fn wordnet_license() -> &'static str {
    wordnet::LICENSE
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMeteorSettings>()?;
    m.add_function(wrap_pyfunction!(meteor, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(meteor_forget_words, m)?)?;
    m.add_function(wrap_pyfunction!(wordnet_synonyms, m)?)?;
    m.add_function(wrap_pyfunction!(wordnet_license, m)?)?;
    Ok(())
}
