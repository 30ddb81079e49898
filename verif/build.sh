#!/usr/bin/env bash
# Builds the Verilator model of a generated design for the harness: the
# design's top module verilated hierarchically (each interconnect module and
# each core a block of its own, hier.vlt from bin/verif harness; with probes,
# every signal of the tile modules readable) as the class Vverif_top, linked
# with verif/verif_sim.cpp and the design's port table into OUT/vsim. With
# --trace the model can write a VCD waveform (vsim --trace FILE) of every
# signal outside the hierarchical blocks.
#
# The build is cached: it is redone only when the design's Verilog, the
# wrapper, the harness or Verilator changed (a hash of them in OUT/stamp).
# Prints one line: what it built (or that it was up to date) and how long it
# took (the time of the last build is kept in OUT/buildtime). With --check it
# builds nothing and only says, by its exit status, whether OUT is up to date.
#   usage: verif/build.sh DESIGN_DIR [-o OUT] [--probes all|none] [--trace] [--check] [-j N]
#   -j N: C++ compilers at once (default: the machine's processors); with N
#   at most 2 each block's C++ is one translation unit (a third less work:
#   every file would read Verilator's headers again), above that file by file
#   OUT defaults to build/verilator/<design> (<design>-noprobes without probes;
#   -trace appended with --trace)
set -u
cd "$(dirname "$0")/.."
rtl= out= probes=all trace=0 check=0 jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
	case "$1" in
	-o) out=$2; shift 2 ;;
	--probes) probes=$2; shift 2 ;;
	--trace) trace=1; shift ;;
	--check) check=1; shift ;;
	-j) jobs=$2; shift 2 ;;
	-h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "verif build: unknown option '$1'" >&2; exit 2 ;;
	*) rtl=$1; shift ;;
	esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "verif build: -j takes a positive number, not '$jobs'" >&2; exit 2; }
[ -n "$rtl" ] || { echo "usage: verif/build.sh DESIGN_DIR [-o OUT] [--probes all|none] [--trace] [--check] [-j N]" >&2; exit 2; }
[ -f "$rtl/design.yaml" ] || { echo "verif build: no design in $rtl (make rtl DESIGN=...)" >&2; exit 1; }
design=$(sed -n 's/^design: *//p' "$rtl/design.yaml")
[ -n "$out" ] || out=build/verilator/$design$([ "$probes" = all ] || echo -noprobes)$([ "$trace" = 0 ] || echo -trace)
[ -x bin/verif ] || { echo "verif build: bin/verif is missing (make build)" >&2; exit 1; }
now() { date +%s.%N; }
t0=$(now)

gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
bin/verif harness "$rtl" -o "$gen" --probes "$probes" || exit 1
# the Verilog files: cgra.v and the cores' modules, as design.yaml names them
mapfile -t vfiles < <(sed -n 's/.* verilog: \([^ ,}]*\).*/\1/p' "$rtl/design.yaml" | sort -u | sed "s|^|$rtl/|")
flags=(--cc --build -j "$jobs" --hierarchical -Wno-fatal -Wno-lint -Wno-style --converge-limit 1000
	--top-module "$design" --prefix Vverif_top
	-MAKEFLAGS "VM_PARALLEL_BUILDS=$((jobs > 2)) OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1")
# the harness's own flags: with --trace it opens the waveform (vsim --trace)
hflags=()
[ "$trace" = 0 ] || { flags+=(--trace); hflags=(-DVERIF_TRACE=1 -DVM_TRACE=1 -DVM_TRACE_VCD=1); }
key=$( { cat "${vfiles[@]}" "$gen"/*; cat verif/verif_sim.cpp; verilator --version; echo "${flags[*]}"; } | sha1sum | cut -c1-16)
if [ "$check" = 1 ]; then
	[ -x "$out/vsim" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$key" ]
	exit
fi
if [ -x "$out/vsim" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$key" ]; then
	echo "verif build: $design up to date ($out/vsim$([ -f "$out/buildtime" ] && echo ", built in $(cat "$out/buildtime") s"))"
	exit 0
fi
rm -rf "$out" && mkdir -p "$out"
cp "$gen"/* "$out/"
if ! verilator "${flags[@]}" -Mdir "$out/obj" "$out/hier.vlt" "${vfiles[@]}" >"$out/build.log" 2>&1; then
	grep -m10 -E '%Error|error:' "$out/build.log"
	echo "verif build: verilator failed for $design (log: $out/build.log)"
	exit 1
fi
t1=$(now)
inc=$(verilator --getenv VERILATOR_ROOT)/include
# Verilator's run-time library, compiled once per Verilator version (under a
# lock: the models built at the same time, as by make -j, share it)
rt=build/verilator/runtime
rtkey=$(verilator --version | sha1sum | cut -c1-16)
mkdir -p build/verilator && exec 9>build/verilator/runtime.lock
flock 9
if [ "$(cat "$rt/stamp" 2>/dev/null)" != "$rtkey" ]; then
	rm -rf "$rt" && mkdir -p "$rt"
	for f in verilated verilated_threads verilated_vcd_c; do
		g++ -std=c++14 -O1 -I"$inc" -I"$inc/vltstd" -c "$inc/$f.cpp" -o "$rt/$f.o" >>"$out/build.log" 2>&1 &
	done
	wait
	[ -f "$rt/verilated.o" ] && [ -f "$rt/verilated_threads.o" ] && [ -f "$rt/verilated_vcd_c.o" ] &&
		echo "$rtkey" >"$rt/stamp"
fi
# a run-time library compiled before the waveform writer was part of it
if [ ! -f "$rt/verilated_vcd_c.o" ]; then
	g++ -std=c++14 -O1 -I"$inc" -I"$inc/vltstd" -c "$inc/verilated_vcd_c.cpp" -o "$rt/verilated_vcd_c.o.tmp" \
		>>"$out/build.log" 2>&1 && mv "$rt/verilated_vcd_c.o.tmp" "$rt/verilated_vcd_c.o"
fi
flock -u 9
rtobjs=("$rt/verilated.o" "$rt/verilated_threads.o")
[ "$trace" = 0 ] || rtobjs+=("$rt/verilated_vcd_c.o")
# the model's archives: the top's and one per hierarchical block
mapfile -t libs < <(ls "$out"/obj/Vverif_top__ALL.a "$out"/obj/*/*.a 2>/dev/null)
if ! g++ -std=c++14 -O1 "${hflags[@]}" -o "$out/vsim" -I"$out/obj" -I"$out" -I"$inc" -I"$inc/vltstd" verif/verif_sim.cpp \
	"${libs[@]}" "${rtobjs[@]}" -lpthread >>"$out/build.log" 2>&1; then
	grep -m10 -E 'error' "$out/build.log"
	echo "verif build: linking the harness failed for $design (log: $out/build.log)"
	exit 1
fi
echo "$key" >"$out/stamp"
awk -v a="$t0" -v c="$(now)" 'BEGIN { printf "%.1f\n", c - a }' >"$out/buildtime"
awk -v d="$design" -v o="$out" -v a="$t0" -v b="$t1" -v c="$(now)" -v p="$probes" \
	-v l="$(cat "${vfiles[@]}" | wc -l)" -v n="$(grep -c '^VERIF_PROBE' "$out/verif_ports.h")" \
	'BEGIN { printf "verif build: %s (%d lines of Verilog, %d probes) built in %.1f s (Verilator and C++ %.1f s, harness %.1f s) -> %s/vsim\n", d, l, n, c - a, b - a, c - b, o }'
