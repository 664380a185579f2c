#!/usr/bin/env bash
# Type-checks the PyO3 layer against every CPython version PyO3 builds for, not only the one CI runs:
# which of CPython's inline `str` accessors PyO3 binds depends on the version (see build.rs).
# No interpreter is needed: PyO3 reads each version from a config file.
set -euo pipefail
cd "$(dirname "$0")/.."
configs="$(mktemp -d)"
trap 'rm -rf "$configs"' EXIT
for version in 3.10 3.11 3.12 3.13 3.14 3.14t 3.15; do
    flags=""
    [[ "$version" == *t ]] && flags="Py_GIL_DISABLED"
    cat > "$configs/$version" <<CONFIG
implementation=CPython
version=${version%t}
shared=true
abi3=false
lib_name=python$version
pointer_width=64
build_flags=$flags
suppress_build_script_link_lines=true
CONFIG
    echo "-- CPython $version"
    PYO3_CONFIG_FILE="$configs/$version" CARGO_TARGET_DIR=target/python-versions \
        cargo check --release --quiet --features python,pyo3/extension-module
done
