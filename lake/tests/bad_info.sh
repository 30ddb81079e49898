#!/usr/bin/env bash
# The bad-input suite for memory-tile collateral (see scripts/bad_input.sh for
# the contract): lake/tests/bad_info/*.yaml are `<mem>.info.yaml` files with a
# deliberate mistake, read by `lake vectors`, which must refuse them with a
# positioned message and write nothing. LAKE=... picks the binary.
cd "$(dirname "$0")/../.." || exit 1
exec bash scripts/bad_input.sh lake/tests/bad_info "${LAKE:-bin/lake}" vectors @SPEC@ --cycles 1 -o @OUT@
