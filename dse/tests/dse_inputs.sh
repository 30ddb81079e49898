# dse_inputs.sh - sourced by dse/tests/dse.sh (after suite_lib.sh, with
# $tmp and $DSE set): the inputs and outputs of bin/dse checked without
# running a point. Bad sweeps and bases stop with an error at its position
# and write nothing; sweeps too large are refused before their points are
# made; cgrac options are checked; a plan that cannot be written leaves what
# was there; dse report refuses results that are missing, cut short or out
# of range, naming the file and line, and draws charts of any finite values,
# the same that dse charts draws from its CSV; dse random refuses a MEM spec
# that is not a file.

# ---- bad sweeps (through the sanitized dse when built): an error at its
# position, nothing written
# bad NAME WANT: the sweep on stdin as $tmp/NAME.yaml; WANT is the error
# line after "$tmp/NAME.yaml:", or a whole line when it starts with '/' (an
# error in another file: the base); dse plan must stop within 60 s.
bad() {
	local name=$1 want=$2
	cat >"$tmp/$name.yaml"
	rm -rf "$tmp/bad_out"
	case $want in /*) ;; *) want=$tmp/$name.yaml:$want ;; esac
	timeout 60 "$DSE" plan "$tmp/$name.yaml" -o "$tmp/bad_out" >"$tmp/bad.out" 2>&1
	local st=$?
	if [ $st -eq 1 ] && grep -qxF "$want" "$tmp/bad.out" && grep -q '\^$' "$tmp/bad.out" &&
		[ ! -e "$tmp/bad_out" ]; then
		pass "bad sweep $name: $want"
	else
		fail "bad sweep $name (exit $st)"
		sed 's/^/    | /' "$tmp/bad.out"
	fi
}
bad unknown_knob "3:3: error: unknown knob 'trakcs16' (knobs: pe, mem, switchbox, sb_registers, mem_every, mem_first, array, cols, rows, hop_limit, register_packing, pipeline, place_seed, tracks<W> for the W-bit network)" <<'EOF'
base: cgra_4x4
cross:
  trakcs16: [2, 3]
EOF
bad no_points "3:13: error: knob 'tracks16' has no value: the sweep has no point" <<'EOF'
base: cgra_4x4
cross:
  tracks16: []
EOF
bad nothing "1:1: error: a sweep needs 'points:', 'cross:' or both: it has no point" <<'EOF'
base: cgra_4x4
EOF
bad range "3:17: error: tracks16 33 is out of range (1 to 32)" <<'EOF'
base: cgra_4x4
cross:
  tracks16: [2, 33]
EOF
bad switchbox "3:18: error: the switch box must be one of: imran, wilton, disjoint" <<'EOF'
base: cgra_4x4
points:
  - { switchbox: universal }
EOF
bad app "2:8: error: no application 'sharpen' (apps/sharpen/sharpen.hl)" <<'EOF'
base: cgra_4x4
apps: [sharpen]
cross: { tracks16: [2] }
EOF
bad base "1:7: error: no interconnect spec 'canal/specs/cgra_99x99.yaml' (a design of canal/specs/ or a path)" <<'EOF'
base: cgra_99x99
cross: { tracks16: [2] }
EOF
bad pe "2:15: error: no PE spec 'peak/specs/pe_gold.yaml' (a name of peak/specs/ or a path)" <<'EOF'
base: cgra_4x4
cross: { pe: [pe_gold] }
EOF
bad array "2:18: error: expected COLSxROWS for knob 'array' (cols 2 to 255, rows 2 to 254), not '4by4'" <<'EOF'
base: cgra_4x4
cross: { array: [4by4] }
EOF
bad key "3:1: error: unknown key 'crosss' in a sweep (expected one of: base, apps, cgrac, points, cross)" <<'EOF'
base: cgra_4x4
cross: { tracks16: [2] }
crosss: { tracks16: [3] }
EOF
bad twice "3:10: error: knob 'tracks16' is both in points and in cross" <<'EOF'
base: cgra_4x4
points: [{ tracks16: 2 }]
cross: { tracks16: [3] }
EOF
bad yaml "2:26: error: malformed YAML: did not find expected ',' or ']' while parsing a flow sequence" <<'EOF'
base: cgra_4x4
cross: { tracks16: [2, 3 }
EOF


# ---- sweeps too large: counted before a point is made (2^40 points took
# 9.7 GB in 30 s), the product saturated rather than overflowing
cross_of() { # N VALUES: a cross of tracks1..tracksN, each over VALUES
	local i
	printf 'base: cgra_4x4\ncross: {'
	for i in $(seq 1 "$1"); do printf ' tracks%d: [%s],' "$i" "$2"; done
	printf ' }\n'
}
cross_of 40 "1, 2" | bad huge "2:8: error: the sweep has 1099511627776 points; at most 10000"
cross_of 64 "1, 2, 3" | bad overflow "2:8: error: the sweep has more than 18446744073709551614 points; at most 10000"
bad listed_cross "3:8: error: the sweep has 10240 points; at most 10000" <<EOF
base: cgra_4x4
points: [$(for i in $(seq 1 10); do printf '{ hop_limit: %d }, ' "$i"; done)]
cross: { $(for i in $(seq 1 10); do printf 'tracks%d: [1, 2], ' "$i"; done) }
EOF

# ---- bases a point would change silently: what a knob sets must have a
# mapping on its way and a single value at its place; the cores a point
# keeps must be there
base_spec() { # the cgra_4x4 spec with absolute core paths, edited by sed
	sed -e "s|\.\./\.\./|$PWD/|g" "$@" canal/specs/cgra_4x4.yaml
}
base_spec -e 's|^  mem: .*|  mem: pub|' >"$tmp/b_mem.yaml"
bad base_mem "$tmp/b_mem.yaml:5:8: error: 'cores.mem' of the base is a single value, not a mapping: every point with a MEM sets 'cores.mem.spec' in it" <<EOF
base: b_mem.yaml
cross: { tracks16: [2] }
EOF
base_spec -e 's|^tracks: .*|tracks: [2, 2]|' >"$tmp/b_tracks.yaml"
bad base_tracks_list "$tmp/b_tracks.yaml:7:9: error: 'tracks' of the base is a list, not a mapping: knob 'tracks16' sets 'tracks.16' in it" <<EOF
base: b_tracks.yaml
cross: { tracks16: [3] }
EOF
base_spec -e 's|^tracks: .*|tracks: 5|' >"$tmp/b_tracks5.yaml"
bad base_tracks_scalar "$tmp/b_tracks5.yaml:7:9: error: 'tracks' of the base is a single value, not a mapping: knob 'tracks1' sets 'tracks.1' in it" <<EOF
base: b_tracks5.yaml
cross: { tracks1: [3] }
EOF
base_spec -e 's|^tracks: .*|tracks: { 16: [2], 1: 2 }|' >"$tmp/b_track16.yaml"
bad base_track_list "$tmp/b_track16.yaml:7:15: error: 'tracks.16' of the base is a list, not a single value: knob 'tracks16' sets it" <<EOF
base: b_track16.yaml
cross: { tracks16: [3] }
EOF
base_spec -e 's|^array: .*|array: 4x4|' >"$tmp/b_array.yaml"
bad base_array_scalar "$tmp/b_array.yaml:2:8: error: 'array' of the base is a single value, not a mapping: knob 'cols' sets 'array.cols' in it" <<EOF
base: b_array.yaml
cross: { cols: [3] }
EOF
base_spec -e 's|^registers: .*|registers: [true]|' >"$tmp/b_regs.yaml"
bad base_registers_list "$tmp/b_regs.yaml:10:12: error: 'registers' of the base is a list, not a mapping: knob 'sb_registers' sets 'registers.switchbox_outputs' in it" <<EOF
base: b_regs.yaml
cross: { sb_registers: [false] }
EOF
base_spec -e 's|^  pe: .*|  pe:  { spec: /dev/zero }|' >"$tmp/b_pe.yaml"
bad base_pe_device "$tmp/b_pe.yaml:4:16: error: the PE spec '/dev/zero': not a regular file (a device, a pipe or a socket)" <<EOF
base: b_pe.yaml
cross: { tracks16: [3] }
EOF
base_spec -e 's|^  mem: .*|  mem: { columns: { every: 4, first: 3 } }|' >"$tmp/b_nospec.yaml"
bad base_mem_nospec "$tmp/b_nospec.yaml:5:8: error: the base has no cores.mem { spec: PATH }, and point 'tracks16=3' sets no mem knob" <<EOF
base: b_nospec.yaml
cross: { tracks16: [3] }
EOF
bad base_device "1:7: error: the base '/dev/zero': not a regular file (a device, a pipe or a socket)" <<EOF
base: /dev/zero
cross: { tracks16: [3] }
EOF
bad base_folder "1:7: error: the base '$PWD/canal': a folder, not a file" <<EOF
base: $PWD/canal
cross: { tracks16: [3] }
EOF
bad pe_device "2:15: error: the PE spec '/dev/zero': not a regular file (a device, a pipe or a socket)" <<EOF
base: cgra_4x4
cross: { pe: [/dev/zero] }
EOF
bad pe_folder "2:15: error: the PE spec '$PWD/peak/specs': a folder, not a file" <<EOF
base: cgra_4x4
cross: { pe: [$PWD/peak/specs] }
EOF
cp peak/specs/pe_base.yaml "$tmp/pe base.yaml"
bad pe_blank "2:15: error: the PE spec's path '$tmp/pe base.yaml' has characters other than letters, digits and / . _ - + , @ (points.mk names it)" <<'EOF'
base: cgra_4x4
cross: { pe: ["pe base.yaml"] }
EOF
bad array_cols "2:30: error: knobs 'array' and 'cols' both set the array's columns of point 'array=4x4 cols=3': give one" <<'EOF'
base: cgra_4x4
points: [{ array: 4x4, cols: 3 }]
EOF
bad array_rows "3:17: error: knobs 'array' and 'rows' both set the array's rows of point 'array=6x6 rows=3': give one" <<'EOF'
base: cgra_4x4
points: [{ array: 6x6 }]
cross: { rows: [3] }
EOF
bad array_blank "2:18: error: expected COLSxROWS for knob 'array' (cols 2 to 255, rows 2 to 254), not '4x 4'" <<'EOF'
base: cgra_4x4
cross: { array: ["4x 4"] }
EOF

# ---- cgrac options: those of the compilation only, checked, once each
opts="options: --hop-limit N, --place-seed N, --no-pipeline, --no-register-packing"
bad cgrac_unknown "2:9: error: '--frobnicate' is not a cgrac option a sweep may give ($opts)" <<'EOF'
base: cgra_4x4
cgrac: [--frobnicate]
cross: { tracks16: [2] }
EOF
bad cgrac_glob "2:24: error: '*' is not a cgrac option a sweep may give ($opts)" <<'EOF'
base: cgra_4x4
cgrac: [--no-pipeline, "*"]
cross: { tracks16: [2] }
EOF
bad cgrac_output "2:9: error: cgrac option '-o' places a point's files or chooses its chip, which scripts/dse_point.sh does ($opts)" <<'EOF'
base: cgra_4x4
cgrac: [-o, /tmp/elsewhere]
cross: { tracks16: [2] }
EOF
bad cgrac_twice "2:27: error: cgrac option '--hop-limit' is given twice" <<'EOF'
base: cgra_4x4
cgrac: [--hop-limit, "2", --hop-limit, "3"]
cross: { tracks16: [2] }
EOF
bad cgrac_number "2:9: error: cgrac option '--place-seed' needs a number (0 to 2147483647) after it" <<'EOF'
base: cgra_4x4
cgrac: [--place-seed]
cross: { tracks16: [2] }
EOF
bad cgrac_range "2:22: error: --hop-limit 2000 is out of range (0 to 1000)" <<'EOF'
base: cgra_4x4
cgrac: [--hop-limit, "2000"]
cross: { tracks16: [2] }
EOF
bad cgrac_knob "2:9: error: cgrac option '--no-pipeline' and the knob 'pipeline' set the same: give one" <<'EOF'
base: cgra_4x4
cgrac: [--no-pipeline]
cross: { pipeline: [true, false] }
EOF

# ---- files that are not files: a sweep as a device or a folder
for f in /dev/zero "$PWD/dse"; do
	why="not a regular file (a device, a pipe or a socket)"
	[ -d "$f" ] && why="a folder, not a file"
	timeout 20 "$DSE" check "$f" >"$tmp/dev.out" 2>&1
	st=$?
	if [ $st = 1 ] && grep -qxF "$f: error: $why" "$tmp/dev.out"; then
		pass "dse check $f: $why"
	else
		fail "dse check $f (exit $st)"
		sed 's/^/    | /' "$tmp/dev.out"
	fi
done

# ---- the command line
usage() { # WHAT STATUS WANT ARG...: dse ARG... exits STATUS with the line WANT
	local what=$1 want_st=$2 want=$3
	shift 3
	"$DSE" "$@" >"$tmp/usage.out" 2>&1
	local st=$?
	if [ $st = "$want_st" ] && grep -qxF "$want" "$tmp/usage.out"; then
		pass "dse $what: exit $st, $want"
	else
		fail "dse $what (exit $st)"
		sed 's/^/    | /' "$tmp/usage.out" | head -5
	fi
}
cat >"$tmp/ok.yaml" <<'EOF'
base: cgra_4x4
apps: [brighten_blur]
cgrac: [--hop-limit, "0x3"]
points: [{ tracks16: 0x3, place_seed: +7 }, { array: 006x05 }]
EOF
usage "report --seconds nan" 2 "dse: error: --seconds expects a number from 0 to 1e9, got 'nan'" \
	report "$tmp/ok.yaml" -o "$tmp/none" --seconds nan
usage "plan -o twice" 2 "dse: error: '-o': an unknown, repeated or incomplete option" \
	plan "$tmp/ok.yaml" -o "$tmp/a" -o "$tmp/b"
usage "plan into a folder make cannot name" 1 \
	"dse: error: $tmp/a b: the output folder's path must be made of letters, digits and / . _ - + , @ (points.mk names it)" \
	plan "$tmp/ok.yaml" -o "$tmp/a b"
[ ! -e "$tmp/a" ] && [ ! -e "$tmp/a b" ] || fail "a refused plan wrote a folder"

# ---- a plan: numbers as canal and cgrac read them, cgrac options as an
# array of words for scripts/dse_point.sh (never split or globbed)
"$DSE" plan "$tmp/ok.yaml" -o "$tmp/plan" >"$tmp/plan.out" 2>&1
p1=$tmp/plan/tracks16_0x3-place_seed__7
if grep -qx 'tracks: { 16: 3, 1: 2 }' "$p1/spec.yaml" && grep -qx 'array: { cols: 6, rows: 5 }' "$tmp/plan/array_006x05/spec.yaml" &&
	[ "$(bash -c '. "$1"; printf "<%s>" "${CGRAC_OPTS[@]}"' _ "$p1/point.env")" = "<--hop-limit><3><--place-seed><7>" ] &&
	bin/canal check "$p1/spec.yaml" >/dev/null 2>&1; then
	pass "a plan: 0x3 written as 3, 006x05 as cols 6, rows 5; CGRAC_OPTS the words --hop-limit 3 --place-seed 7"
else
	fail "a plan's spec.yaml or point.env"
	cat "$tmp/plan.out" "$p1/spec.yaml" "$p1/point.env" 2>&1 | sed 's/^/    | /'
fi
longsweep=$tmp/long.yaml
{
	echo "base: cgra_4x4"
	printf 'points: [{'
	for i in $(seq 1 40); do printf ' tracks%d: 2,' "$i"; done
	echo ' }]'
} >"$longsweep"
"$DSE" plan "$longsweep" -o "$tmp/longplan" >/dev/null 2>&1
long=$(ls "$tmp/longplan" | grep -v points.mk)
if [ "${#long}" -le 130 ] && [ "${long%-1}" != "$long" ] && [ -f "$tmp/longplan/$long/spec.yaml" ]; then
	pass "a point's folder name longer than 120 characters is cut and gets the point's number ($long)"
else
	fail "a long point name: '$long'"
fi

# ---- a plan that cannot be written leaves what was there: nothing under
# a file, nothing on a read-only or a full file system (a tmpfs of 64 kB),
# and with the open files limited (sets of whole points) no points.mk
: >"$tmp/afile"
usage "plan under a file" 1 "dse: error: $tmp/afile: cannot create the folder: a file of that name is in the way" \
	plan "$tmp/ok.yaml" -o "$tmp/afile/out"
cat >"$tmp/many.yaml" <<'EOF'
base: cgra_4x4
apps: [brighten_blur]
cross: { tracks16: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], place_seed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }
EOF
(ulimit -n 40 && "$DSE" plan "$tmp/many.yaml" -o "$tmp/sets" >"$tmp/sets.out" 2>&1)
st=$?
if [ $st = 0 ] && [ "$(find "$tmp/sets" -type f | wc -l)" = 201 ] &&
	[ "$(grep -c 'bash scripts/dse_point.sh' "$tmp/sets/points.mk")" = 100 ]; then
	pass "a plan of 100 points with 40 open files: in sets, every file written"
else
	fail "a plan in sets (exit $st)"
	sed 's/^/    | /' "$tmp/sets.out" | head
fi
mnt=$tmp/mnt
mkdir -p "$mnt"
if mount -t tmpfs -o ro,size=64k none "$mnt" 2>"$tmp/mount.out"; then
	usage "plan on a read-only file system" 1 "dse: error: $mnt/out: cannot create the folder: Read-only file system" \
		plan "$tmp/ok.yaml" -o "$mnt/out"
	umount "$mnt"
	mount -t tmpfs -o size=64k none "$mnt"
	"$DSE" plan "$tmp/ok.yaml" -o "$mnt/out" >/dev/null 2>&1
	(cd "$mnt" && find . -type f -exec md5sum {} + | sort) >"$tmp/full.before"
	"$DSE" plan "$tmp/many.yaml" -o "$mnt/out" >"$tmp/full.out" 2>&1
	st=$?
	(cd "$mnt" && find . -type f -exec md5sum {} + | sort) >"$tmp/full.after"
	if [ $st = 1 ] && grep -q 'cannot write: No space left on device' "$tmp/full.out" &&
		cmp -s "$tmp/full.before" "$tmp/full.after" && [ "$(ls "$mnt/out" | wc -l)" = 3 ]; then
		pass "a plan on a full file system: nothing written, the earlier plan as it was, no new folder"
	else
		fail "a plan on a full file system (exit $st)"
		ls "$mnt/out" | sed 's/^/    | /' | head
	fi
	rm -rf "${mnt:?}"/out
	"$DSE" plan "$tmp/ok.yaml" -o "$mnt/out" >/dev/null 2>&1
	(ulimit -n 40 && "$DSE" plan "$tmp/many.yaml" -o "$mnt/out" >"$tmp/full.out" 2>&1)
	st=$?
	halves=0
	for d in "$mnt"/out/*/; do
		n=$(ls "$d" | wc -l)
		[ "$n" = 2 ] || halves=$((halves + 1))
	done
	if [ $st = 1 ] && [ ! -e "$mnt/out/points.mk" ] && [ $halves = 0 ]; then
		pass "a plan in sets on a full file system: no points.mk, every point's folder complete"
	else
		fail "a plan in sets on a full file system (exit $st, $halves incomplete folders)"
	fi
	umount "$mnt"
else
	echo "SKIP plans on a read-only and a full file system: cannot mount a tmpfs ($(head -1 "$tmp/mount.out"))"
fi

# ---- dse report: results that are missing, cut short, repeated or out of
# range stop it with the file and line, and nothing is written
cat >"$tmp/rsw.yaml" <<'EOF'
base: cgra_4x4
apps: [brighten_blur]
cross: { tracks16: [2, 3] }
EOF
rep=$tmp/rep
"$DSE" plan "$tmp/rsw.yaml" -o "$rep" >/dev/null 2>&1
TAB=$(printf '\t')
# result POINT [AREA]: a finished point's result.txt (the fast simulator's
# figures on the bit-exact row), cgrac's report and area.yaml
result() {
	local p=$rep/$1
	mkdir -p "$p/apps/brighten_blur"
	printf 'generate\tok\t1.0\napp\tbrighten_blur\tbit-exact\t2.5\tcycles=4129\tpe_used=5/12\tpe_busy=61.5\narea\tok\n' \
		>"$p/result.txt"
	printf 'pes: 5\nmems: 1\nios: 1\nregisters: 9\npacked_registers: 3\ntracks: { 16: 8, 1: 0 }\ncritical_path_ns: 1.34\nclock_mhz: 746.3\nlatency_cycles: 147\n' \
		>"$p/apps/brighten_blur/brighten_blur.report.yaml"
	printf 'unit: transistors\ntiles:\n  pe: { core: 1, switch_box: 2, connection_boxes: 3, config: 4, total: 10 }\narray: %s\n' \
		"${2:-1000}" >"$p/area.yaml"
}
# report_ok WHAT: dse report ends (within 20 s) with status 0
report_ok() {
	rm -f "$rep/results.csv"
	timeout 20 "$DSE" report "$tmp/rsw.yaml" -o "$rep" >"$tmp/rep.out" 2>&1
	local st=$?
	if [ $st = 0 ] && [ -f "$rep/results.csv" ] && grep -q '<circle' "$rep/runtime_area.svg"; then
		pass "dse report: $1"
	else
		fail "dse report: $1 (exit $st)"
		sed 's/^/    | /' "$tmp/rep.out" | head
	fi
}
result tracks16_2 1e20
result tracks16_3 100000000000000016384
report_ok "areas 1e20 and 1e20 + 16384 (ticks finer than the doubles there): charted with ticks 9e+19 .. 1.15e+20"
grep -q '>1e+20</text>' "$rep/runtime_area.svg" || fail "the chart of areas near 1e20 has no tick 1e+20"
# the fast simulator's figures into results.csv (after compile_s) and
# results.md; a result.txt without them (written before they were) gives
# empty cells
sed -i "s/${TAB}cycles=.*//" "$rep/tracks16_3/result.txt"
report_ok "a bit-exact row with the fast simulator's figures, one without"
simcols=compile_s,sim_cycles,sim_pes_used,sim_pes_total,sim_pe_busy_pct,area_pe_core
if head -1 "$rep/results.csv" | grep -qF ",$simcols," && grep -qF ',2.5,4129,5,12,61.5,' "$rep/results.csv" &&
	grep -qF ',2.5,,,,,' "$rep/results.csv" && grep -qxF '## Cycles (fast simulator)' "$rep/results.md" &&
	grep -qxF '| brighten_blur | 4129 | — |' "$rep/results.md" &&
	grep -qF '## PE utilization (fast simulator: ' "$rep/results.md" &&
	grep -qxF '| brighten_blur | 5 of 12 (42%), busy 61.5% | — |' "$rep/results.md"; then
	pass "the fast simulator's cycles and PE utilization in results.csv ($simcols) and results.md"
else
	fail "the fast simulator's figures in results.csv or results.md"
	grep -h -e 'sim_cycles' -e brighten_blur "$rep/results.csv" "$rep/results.md" | sed 's/^/    | /'
fi
result tracks16_2 1.7976931348623157e308
result tracks16_3 1.7976931348623155e308
report_ok "areas at the largest double: charted"
result tracks16_2 0
result tracks16_3 5e-324
report_ok "areas 0 and the smallest double: charted"
# bad_report WHAT WANT: after the change to the files, dse report exits 1
# with the line WANT (a path relative to the point's folder), nothing written
bad_report() {
	rm -f "$rep/results.csv"
	timeout 20 "$DSE" report "$tmp/rsw.yaml" -o "$rep" >"$tmp/rep.out" 2>&1
	local st=$?
	if [ $st = 1 ] && grep -qxF "$rep/tracks16_2/$2" "$tmp/rep.out" && [ ! -e "$rep/results.csv" ]; then
		pass "dse report refuses $1: $2"
	else
		fail "dse report with $1 (exit $st)"
		sed 's/^/    | /' "$tmp/rep.out" | head
	fi
	result tracks16_2
	result tracks16_3
}
p=$rep/tracks16_2
r=$p/apps/brighten_blur/brighten_blur.report.yaml
result tracks16_3
sed -i 's/^array: .*/array: .inf/' "$p/area.yaml"
bad_report "an infinite area" "area.yaml:4:8: error: 'array' must be a finite number from 0, not .inf"
sed -i 's/^pes: 5/pes: -5/' "$r"
bad_report "a negative PE count" "apps/brighten_blur/brighten_blur.report.yaml:1:6: error: 'pes' must be an integer from 0 to 1e+09, not -5"
sed -i 's/^pes: 5/pes: 2.5/' "$r"
bad_report "a fractional PE count" "apps/brighten_blur/brighten_blur.report.yaml:1:6: error: 'pes' must be an integer from 0 to 1e+09, not 2.5"
rm "$r"
bad_report "a missing report" "apps/brighten_blur/brighten_blur.report.yaml: error: No such file or directory"
printf 'pes: 5\nmems: 1\nios: 1\nregisters: 9\npacked_registers: 3\n' >"$r"
bad_report "a report cut short" "apps/brighten_blur/brighten_blur.report.yaml:1:1: error: no 'critical_path_ns' in cgrac's report (cut short? run the point again)"
printf 'generate\tok\t1.0\napp\tbrighten_blur\tbit-exactly\t2.5\narea\tok\n' >"$p/result.txt"
bad_report "an unknown status" "result.txt:2:1: error: expected app<TAB>NAME<TAB>STATUS<TAB>SECONDS[<TAB>MESSAGE], STATUS one of bit-exact, different, not-mapped, not-run"
printf 'generate\tok\t1.0\napp\tbrighten_blur\tnot-mapped\t2.5\ttoo few PE tiles\napp\tbrighten_blur\tbit-exact\t2.5\narea\tok\n' >"$p/result.txt"
bad_report "two lines for an application" "result.txt:3:1: error: a second line for application brighten_blur"
# the fast simulator's figures: each malformed one refused at its column
# (the row's fields start at column 33)
sim_row() { printf 'generate\tok\t1.0\napp\tbrighten_blur\tbit-exact\t2.5\t%s\narea\tok\n' "$1" >"$p/result.txt"; }
sim_row "cycles=12x${TAB}pe_used=5/12${TAB}pe_busy=60"
bad_report "cycles that are not a number" "result.txt:2:40: error: 'cycles' must be an integer from 0 to 9007199254740992 (the fast simulator's run), not '12x'"
sim_row "cycles=-3${TAB}pe_used=5/12${TAB}pe_busy=60"
bad_report "negative cycles" "result.txt:2:40: error: 'cycles' must be an integer from 0 to 9007199254740992 (the fast simulator's run), not '-3'"
sim_row "cycles=4129${TAB}pe_used=13/12${TAB}pe_busy=60"
bad_report "more PEs used than the array's" "result.txt:2:53: error: 'pe_used' must be USED/TOTAL, the PEs used of the array's (integers to 1e+09, USED at most TOTAL), not '13/12'"
sim_row "cycles=4129${TAB}pe_used=5${TAB}pe_busy=60"
bad_report "PEs used without the array's" "result.txt:2:53: error: 'pe_used' must be USED/TOTAL, the PEs used of the array's (integers to 1e+09, USED at most TOTAL), not '5'"
sim_row "cycles=4129${TAB}pe_used=5/12${TAB}pe_busy=100.5"
bad_report "a busy percentage over 100" "result.txt:2:66: error: 'pe_busy' must be a percentage from 0 to 100 (DIGITS[.DIGITS]), not '100.5'"
sim_row "cycles=4129${TAB}pe_used=5/12${TAB}pe_busy=6e1"
bad_report "a busy percentage with an exponent" "result.txt:2:66: error: 'pe_busy' must be a percentage from 0 to 100 (DIGITS[.DIGITS]), not '6e1'"
sim_row "cycles=4129${TAB}pe_used=0/12${TAB}pe_busy=60"
bad_report "PEs busy with none used" "result.txt:2:66: error: 'pe_busy' is 60 with no PE used: expected 0"
sim_row "pe_used=5/12${TAB}cycles=4129${TAB}pe_busy=60"
bad_report "the figures out of order" "result.txt:2:33: error: expected cycles= (a bit-exact row: app<TAB>NAME<TAB>bit-exact<TAB>SECONDS[<TAB>cycles=N<TAB>pe_used=USED/TOTAL<TAB>pe_busy=PERCENT]), not 'pe_used=5/12'"
sim_row "cycles=4129${TAB}pe_used=5/12"
bad_report "a row without pe_busy" "result.txt:2:57: error: the row ends before pe_busy= (a bit-exact row: app<TAB>NAME<TAB>bit-exact<TAB>SECONDS[<TAB>cycles=N<TAB>pe_used=USED/TOTAL<TAB>pe_busy=PERCENT])"
sim_row "cycles=4129${TAB}pe_used=5/12${TAB}pe_busy=60${TAB}mems=1/4"
bad_report "a field after pe_busy" "result.txt:2:69: error: 'mems=1/4' after pe_busy: a bit-exact row ends with cycles=N<TAB>pe_used=USED/TOTAL<TAB>pe_busy=PERCENT"
sim_row "all fine"
bad_report "a message on a bit-exact row" "result.txt:2:33: error: expected cycles= (a bit-exact row: app<TAB>NAME<TAB>bit-exact<TAB>SECONDS[<TAB>cycles=N<TAB>pe_used=USED/TOTAL<TAB>pe_busy=PERCENT]), not 'all fine'"
# the caret under the field, the tabs of the line kept
sim_row "cycles=4129${TAB}pe_used=5/12${TAB}pe_busy=100.5"
timeout 20 "$DSE" report "$tmp/rsw.yaml" -o "$rep" >"$tmp/rep.out" 2>&1
if grep -qxF "$(printf '      |    \t%13s\t%9s\t%3s\t%11s\t%12s\t%8s^' '' '' '' '' '' '')" "$tmp/rep.out"; then
	pass "dse report: the caret under the malformed figure"
else
	fail "dse report: the caret of a malformed figure"
	sed 's/^/    | /' "$tmp/rep.out" | cat -A | head
fi
result tracks16_2
printf 'generate\tok\t1.0\ngenerate\tok\t1.0\napp\tbrighten_blur\tbit-exact\t2.5\narea\tok\n' >"$p/result.txt"
bad_report "two generate lines" "result.txt:2:1: error: a second 'generate' line (the first is line 1)"
printf 'generate\tok\t1.0\napp\tbrighten_blur\tbit-exact\t2.5\n' >"$p/result.txt"
bad_report "no area line" "result.txt:2:1: error: no 'area' line: the file was cut short (remove it to run the point again)"
printf 'generate\tok\t1.0\napp\tbrighten_blur\tbit-exact\t2.5\narea\tok' >"$p/result.txt"
bad_report "a last line without its newline" "result.txt:3:1: error: the last line has no newline: the file was cut short"
printf 'generate\tok\t1.0\napp\tbrighten_blur\tnot-run\t0\tx\narea\tok\n' >"$p/result.txt"
bad_report "an application not run on a generated chip" "result.txt:2:1: error: application brighten_blur did not run on a chip that was generated"
printf 'generate\tok\t1.0\napp\tbrighten_blur\tnot-mapped\tnan\tx\narea\tok\n' >"$p/result.txt"
bad_report "a time that is not a number" "result.txt:2:1: error: expected app<TAB>NAME<TAB>STATUS<TAB>SECONDS[<TAB>MESSAGE], STATUS one of bit-exact, different, not-mapped, not-run"
: >"$p/result.txt"
bad_report "an empty result" "result.txt:1:1: error: no 'generate' line: the file was cut short (remove it to run the point again)"
rm "$p/result.txt" && ln -s /dev/zero "$p/result.txt"
bad_report "a result that is a device" "result.txt: error: not a regular file (a device, a pipe or a socket)"
rm "$p/result.txt" && head -c 1100000 /dev/zero | tr '\0' 'x' >"$p/result.txt"
bad_report "a result of more than 1 MiB" "result.txt: error: file too large: 1100000 bytes, the limit is 1048576"
rm "$p/result.txt"
rm -f "$rep/results.csv"
"$DSE" report "$tmp/rsw.yaml" -o "$rep" >"$tmp/rep.out" 2>&1
if [ $? = 1 ] && grep -qxF "dse: error: $p/result.txt: no such file: the point has not run (make dse runs it)" "$tmp/rep.out"; then
	pass "dse report refuses a point that has not run"
else
	fail "dse report with a point that has not run"
fi
result tracks16_2
printf 'generate\tok\t1.0\napp\tbrighten_blur\tnot-mapped\t2.5\ta | b, "c"\narea\tskipped\tno yosys\n' >"$p/result.txt"
report_ok "a reason with '|', ',' and '\"'"
if grep -qF 'not-mapped: a \| b, "c"' "$rep/results.md" && grep -qF ',"a | b, ""c""",' "$rep/results.csv"; then
	pass "a reason escaped in the Markdown table and quoted in the CSV"
else
	fail "a reason with '|', ',' and '\"'"
	grep -h 'a |' "$rep/results.md" "$rep/results.csv" | sed 's/^/    | /'
fi

# dse charts draws from results.csv the charts dse report drew
mkdir -p "$tmp/report_svg"
cp "$rep"/*.svg "$tmp/report_svg/"
"$DSE" charts "$rep" >/dev/null 2>&1
if cmp -s "$tmp/report_svg/summary.svg" "$rep/summary.svg" && cmp -s "$tmp/report_svg/runtime_area.svg" "$rep/runtime_area.svg" &&
	cmp -s "$tmp/report_svg/resources.svg" "$rep/resources.svg"; then
	pass "dse charts of dse report's results.csv: the same three charts, byte for byte"
else
	fail "dse charts of dse report's results.csv: charts other than dse report's"
fi

# ---- dse random: the MEM spec must be a file, before anything is written
usage "random --mem of a missing file" 1 \
	"dse: error: $tmp/nomem.yaml: No such file or directory (--mem: the MEM spec a random chip names)" \
	random --seed 1 -o "$tmp/rnd" --mem "$tmp/nomem.yaml"
usage "random --mem of a folder" 1 \
	"dse: error: $PWD/lake: a folder, not a file (--mem: the MEM spec a random chip names)" \
	random --seed 1 -o "$tmp/rnd" --mem "$PWD/lake"
usage "random --seed twice" 2 "dse: error: '--seed': an unknown, repeated or incomplete option" \
	random --seed 1 --seed 2 -o "$tmp/rnd"
[ ! -e "$tmp/rnd" ] || fail "a refused dse random wrote $tmp/rnd"
cp lake/specs/pub.yaml "$tmp/my mem, #1.yaml"
"$DSE" random --seed 1 -o "$tmp/rnd" --mem "$tmp/my mem, #1.yaml" >/dev/null 2>&1
if grep -qF "  mem: { spec: '../my mem, #1.yaml', columns:" "$tmp/rnd/spec.yaml" && bin/canal check "$tmp/rnd/spec.yaml" >/dev/null 2>&1; then
	pass "dse random --mem of a path with ' ', ',' and '#': quoted in spec.yaml, which canal reads"
else
	fail "dse random --mem of a path with ' ', ',' and '#'"
	sed 's/^/    | /' "$tmp/rnd/spec.yaml"
fi
