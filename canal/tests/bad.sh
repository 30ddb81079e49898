#!/usr/bin/env bash
# The bad-input suite for interconnect specs (see scripts/bad_input.sh for the
# contract): canal/tests/bad/*.yaml through `canal SPEC -o DIR`, which must
# refuse them with a positioned message and write nothing. CANAL=... picks the
# binary.
cd "$(dirname "$0")/../.." || exit 1
exec bash scripts/bad_input.sh canal/tests/bad "${CANAL:-bin/canal}" @SPEC@ -o @OUT@
