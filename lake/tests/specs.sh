#!/usr/bin/env bash
# The shipped MEM specs read and check, and what Lake reads from them is what
# they say (capacities, ports, edges, controller options, table look-up); the
# pub spec is the example of docs/mem.md verbatim.
set -u
cd "$(dirname "$0")/../.."
. scripts/suite_lib.sh || exit 1
lake=${LAKE:-bin/lake}
check() { if eval "$2"; then pass "$1"; else fail "$1"; fi; }
summary() { $lake check "lake/specs/$1.yaml" 2>&1; }
check "pub: 2048 SRAM words, 24 register words, 2 in, 2 out, 8 edges, recurrence, shared, chaining, look-up" \
	'summary pub | grep -q "5 storage units (2048 words of SRAM, 24 of registers), 2 in, 2 out, 8 edges, 6-level controllers with 16-bit counters (recurrence, shared schedules), chaining, table look-up at sram.rw (in0 -> out0)$"'
check "dp: one dual-port 2048-word SRAM with multiplier generators, look-up at its read port" \
	'summary dp | grep -q "1 storage unit (2048 words of SRAM, 0 of registers), 1 in, 1 out, 2 edges, 6-level controllers with 16-bit counters (multiply), chaining, table look-up at sram.r (in0 -> out0)$"'
check "regfile: 32 register words, 8-bit counters, no chaining" \
	'summary regfile | grep -q "(0 words of SRAM, 32 of registers), 1 in, 1 out, 2 edges, 4-level controllers with 8-bit counters (recurrence)$"'
check "pub.yaml is the example of docs/mem.md verbatim" \
	'awk "/^mem: pub/,/^lookup:/" docs/mem.md | cmp -s - lake/specs/pub.yaml'
check "lake --help answers" '$lake --help | grep -q "lake check SPEC"'
suite_end "lake specs"
