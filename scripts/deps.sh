#!/usr/bin/env bash
# Installs the Debian packages the flow needs, if any is missing (called by `make`).
# Quick when everything is present: one dpkg query per package, no network.
set -euo pipefail

# (ccache: make test's Verilator builds share what they compile alike, in build/ccache;
# yosys: the area of generated designs, scripts/area.sh, for design-space sweeps;
# clang, libclang-rt-14-dev: libFuzzer and clang's sanitizers for the input readers' harnesses, fuzz/;
# strace: faults injected into the tools' system calls, a failing rename or a signal at a write,
# for the tests of outputs left whole or not at all, scripts/tests/faults.sh)
packages=(libyaml-dev libisl-dev libz3-dev verilator z3 g++ make pkg-config libhalide14-0-dev ccache yosys
          clang libclang-rt-14-dev strace)

missing=()
for p in "${packages[@]}"; do
    # dpkg -s also succeeds for removed-but-not-purged packages, so check the status line.
    if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "deps: all present (${packages[*]})"
    exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi
echo "deps: installing ${missing[*]}"
${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -qq
${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
echo "deps: installed ${missing[*]}"
