#!/usr/bin/env bash
# The bad-input suite of the compiler (see scripts/bad_input.sh for the
# contract): compiler/tests/bad/*.hl through
# `cgrac APP --design rtl_out/cgra_4x4 -o DIR --emit ubuf` (every stage up to buffer mapping), which must refuse
# each with its positioned message and write nothing. CGRAC=... picks the binary.
cd "$(dirname "$0")/../.." || exit 1
[ -f rtl_out/cgra_4x4/design.yaml ] || bash scripts/rtl.sh cgra_4x4 >/dev/null || exit 1
exec bash scripts/bad_input.sh compiler/tests/bad "${CGRAC:-bin/cgrac}" @SPEC@ --design rtl_out/cgra_4x4 \
	-o @OUT@ --emit ubuf -q
