#!/usr/bin/env bash
# The bad-input suite for PE specs (see scripts/bad_input.sh for the contract):
# peak/tests/bad/*.yaml through `peak SPEC -o DIR`. PEAK=... picks the binary.
cd "$(dirname "$0")/../.." || exit 1
exec bash scripts/bad_input.sh peak/tests/bad "${PEAK:-bin/peak}" @SPEC@ -o @OUT@ --ir peak/ir/ops.yaml
