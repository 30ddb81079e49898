#!/usr/bin/env bash
# The bad-input suite for MEM specs (see scripts/bad_input.sh for the contract):
# lake/tests/bad/*.yaml through `lake check SPEC`. LAKE=... picks the binary.
cd "$(dirname "$0")/../.." || exit 1
exec bash scripts/bad_input.sh lake/tests/bad "${LAKE:-bin/lake}" check @SPEC@
