//! With the `python` feature, the cfgs of the interpreter being built for (`Py_3_14`, ...): the PyO3
//! layer reads `str` objects directly, and which of CPython's inline accessors PyO3 binds depends
//! on the version.
fn main() {
    #[cfg(feature = "python")]
    pyo3_build_config::use_pyo3_cfgs();
}
