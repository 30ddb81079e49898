# dse_charts.sh - sourced by dse/tests/dse.sh (after suite_lib.sh, with
# $tmp and $DSE set): the charts of a sweep with many applications, drawn
# by `dse charts DIR` from a synthetic results.csv of 32 applications over
# 8 points (tracks16 x switchbox), some not bit-exact, and checked as
# structure: every application named, no two entries of a legend alike,
# every legend inside the document and clear of every plot, the Pareto
# front of summary.svg the one computed here from the CSV, each point's
# coverage said; the same bytes twice; dse report's charts the same as dse
# charts draws from its CSV; bad CSVs refused at their line and column.

# synth_csv NAPPS NPOINTS [all|some|none]: results.csv as dse report writes
# it (but for the fast simulator's sim_* columns, which the charts do not
# read: a CSV of before them is charted too), NAPPS applications over
# NPOINTS points (tracks16 2, 2, 3, 3, ... x
# imran, wilton); areas for all points, all but the last two, or none.
# Application 4 is not mapped with 2 tracks (so not at the base), 9 not at
# the base only, 13 is different at point 6, 21 nowhere mapped.
synth_csv() {
	awk -v na="$1" -v np="$2" -v areas="${3:-all}" 'BEGIN {
		split("gaussian harris camera_pipe unsharp_mask_u8 conv_layer_3x3 depthwise_separable stereo_sad_block " \
		      "tonecurve bayer_interleave upsample_bilinear maxpool_2x2 matmul_16x16 laplacian_pyramid vignette " \
		      "demosaic_malvar_he_cutler color_matrix brighten_blur cascade conv_chain divide slice_lookup " \
		      "transpose_out rvar_conv blur_u8 bool_mask boundary_u8 contrast_u8 named_reduce partial_unroll " \
		      "interleave_fn helper_funcs gaussian_float_5x5", names, " ")
		print "sweep,point,tracks16,switchbox,app,status,reason,pes,mems,ios,registers,packed_registers," \
		      "tracks16_used,tracks1_used,critical_path_ns,clock_mhz,latency_cycles,runtime_us,compile_s," \
		      "area_pe_core,area_pe_sb,area_pe_cb,area_pe_config,area_pe_tile,area_mem_core,area_mem_sb," \
		      "area_mem_cb,area_mem_config,area_mem_tile,area_io_core,area_io_sb,area_io_cb,area_io_config," \
		      "area_io_tile,area_array,area_unit"
		for (p = 0; p < np; p++) {
			t = 2 + int(p / 2); sb = p % 2 ? "wilton" : "imran"
			area = 1000000 * (1 + 0.13 * t + 0.02 * (p % 2))
			if (areas == "none" || (areas == "some" && p >= np - 2))
				area = ""
			for (a = 0; a < na; a++) {
				name = a < 32 ? names[a + 1] : "app_" a
				st = "bit-exact"; why = ""
				if (a == 4 && t == 2) { st = "not-mapped"; why = "too few tracks: 16-bit network at (3, 2)" }
				if (a == 9 && p == 0) { st = "not-mapped"; why = "too few PE tiles: needs 70, the array has 64" }
				if (a == 13 && p == 5) { st = "different"; why = "output differs at (0, 3): 17, not 18" }
				if (a == 21) { st = "not-mapped"; why = "no rule on the PE for fdiv" }
				crit = 1.5 - 0.05 * t + 0.06 * (p % 2) - 0.02 * (p == 6) + (a % 5) * 0.07 + ((a * 7 + p * 3) % 11) * 0.004
				lat = 100 + a * 37 + ((a * 11 + p * 5) % 17) * 2 - t * 6 - 5 * (p % 2)
				printf "synth,tracks16_%d-switchbox_%s,%d,%s,%s,%s,\"%s\",", t, sb, t, sb, name, st, why
				if (st == "bit-exact" || st == "different")
					printf "%d,%d,1,%d,3,%d,1,%.4f,%.4f,%d,%.10g,", 4 + (a * 7) % 40, (a * 3) % 5,
						10 + (a * 13) % 60 - t, 2 + a % 3 + (t > 3), crit, 1000 / crit, lat, lat * crit / 1000
				else
					printf ",,,,,,,,,,,"
				printf "1.5,,,,,,,,,,,,,,,,%s,%s\n", area, area == "" ? "" : "transistors"
			}
		}
	}'
}

# The Pareto-optimal points of a CSV, computed apart from dse: the geometric
# mean of runtime over the base's over the applications bit-exact at the
# first point, for the points where all of them are bit-exact and that
# have an area; those no other such point beats in both. Their numbers,
# one a line.
pareto_of() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		!($2 in num) { num[$2] = ++np; area[np] = $c["area_array"] }
		{ p = num[$2]; ok = $c["status"] == "bit-exact" && $c["runtime_us"] > 0
		  if (p == 1 && ok) base[$c["app"]] = $c["runtime_us"]
		  if (ok && ($c["app"] in base)) { sum[p] += log($c["runtime_us"] / base[$c["app"]]); cov[p]++ } }
		END {
			for (a in base) n++
			for (p = 1; p <= np; p++) { el[p] = cov[p] == n && area[p] != ""; m[p] = exp(sum[p] / cov[p]) }
			for (p = 1; p <= np; p++) {
				if (!el[p]) continue
				dom = 0
				for (q = 1; q <= np; q++)
					if (el[q] && area[q] <= area[p] && m[q] <= m[p] && (area[q] < area[p] || m[q] < m[p])) dom = 1
				if (!dom) print p
			}
		}' "$1" | sort -n
}

# svg_check FILE WHAT: the legends of an SVG written by dse: each legend's
# entries differ in colour, marker or fill; every legend box lies inside
# the document and overlaps no plot; every text starts inside it. Prints
# what is wrong, nothing when all holds.
svg_check() {
	awk -v file="$1" '
		function attr(name) { return match($0, " " name "=\"[^\"]*\"") ? substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 4) : "" }
		function num(name) { return attr(name) + 0 }
		/^<svg / { W = num("width"); H = num("height") }
		/<rect class="legend"/ { n++; lx[n] = num("x"); ly[n] = num("y"); lw[n] = num("width"); lh[n] = num("height")
			if (lx[n] < 0 || ly[n] < 0 || lx[n] + lw[n] > W + 0.5 || ly[n] + lh[n] > H + 0.5)
				print file ": legend " n " (" lx[n] "," ly[n] " " lw[n] "x" lh[n] ") is not inside the document (" W "x" H ")" }
		/<g class="entry"/ { k = n SUBSEP attr("data-colour") SUBSEP attr("data-marker") SUBSEP attr("data-fill")
			if (k in seen) print file ": legend " n ": two entries in " attr("data-colour") " " attr("data-marker") " " attr("data-fill")
			seen[k] = 1; entries[n]++ }
		/<rect class="plot"/ { m++; px[m] = num("x"); py[m] = num("y"); pw[m] = num("width"); ph[m] = num("height") }
		/<text / { x = num("x"); y = num("y"); if (x < 0 || x > W || y < 0 || y > H) print file ": text at " x "," y " outside the document: " $0 }
		END {
			for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
				if (lx[i] < px[j] + pw[j] && px[j] < lx[i] + lw[i] && ly[i] < py[j] + ph[j] && py[j] < ly[i] + lh[i])
					print file ": legend " i " overlaps plot " j
			for (i = 1; i <= n; i++) printf "entries %d %d\n", i, entries[i] > "/dev/stderr"
		}' "$1"
}

ch=$tmp/charts
mkdir -p "$ch"
synth_csv 32 8 >"$ch/results.csv"
t0=$(date +%s.%N)
"$DSE" charts "$ch" >"$tmp/charts.out" 2>&1
st=$?
t1=$(date +%s.%N)
if [ $st = 0 ] && grep -qxF "dse: charts of $ch/results.csv: 8 points x 32 applications -> $ch/summary.svg, $ch/runtime_area.svg, $ch/resources.svg" "$tmp/charts.out"; then
	pass "dse charts of 32 applications over 8 points: three charts ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s)"
else
	fail "dse charts of 32 applications (exit $st)"
	sed 's/^/    | /' "$tmp/charts.out" | head
fi
missing=
for app in $(cut -d, -f5 "$ch/results.csv" | sed 1d | sort -u); do
	for f in runtime_area resources; do
		grep -q ">$app</text>" "$ch/$f.svg" || missing="$missing $f:$app"
	done
done
[ "$(cut -d, -f5 "$ch/results.csv" | sed 1d | sort -u | wc -l)" = 32 ] || missing="$missing (not 32 names in the CSV)"
if [ -z "$missing" ]; then
	pass "every one of the 32 applications is named in runtime_area.svg and in resources.svg"
else
	fail "applications not named:$missing"
fi
for f in summary runtime_area resources; do
	svg_check "$ch/$f.svg" >"$tmp/check.out" 2>"$tmp/entries.out"
	if [ -s "$tmp/check.out" ]; then
		fail "$f.svg: legends or text"
		sed 's/^/    | /' "$tmp/check.out" | head
	else
		pass "$f.svg: no two legend entries alike, every legend inside the document and off the plots, no text outside"
	fi
done
# each legend with all its entries: 8 points in runtime_area.svg, the 32
# applications under each of the 5 charts of resources.svg (PE, MEM,
# registers, tracks of 16 and 1 bits)
if [ "$(svg_check "$ch/runtime_area.svg" 2>&1 >/dev/null)" = "entries 1 8" ] &&
	[ "$(svg_check "$ch/resources.svg" 2>&1 >/dev/null | grep -c ' 32$')" = 5 ] &&
	[ "$(grep -c '<g class="panel"' "$ch/runtime_area.svg")" = 32 ]; then
	pass "a legend entry for each of the 8 points, 32 panels; 5 legends of 32 applications in resources.svg"
else
	fail "legend entries or panels"
	svg_check "$ch/runtime_area.svg" 2>&1 >/dev/null | sed 's/^/    | /'
	svg_check "$ch/resources.svg" 2>&1 >/dev/null | sed 's/^/    | /'
fi
want=$(pareto_of "$ch/results.csv" | tr '\n' ' ')
got=$(grep -o 'class="point pareto" data-point="[0-9]*"' "$ch/summary.svg" | grep -o '[0-9]*"$' | tr -d '"' | sort -n | tr '\n' ' ')
if [ -n "$got" ] && [ "$got" = "$want" ] && grep -q '<polyline class="front"' "$ch/summary.svg"; then
	pass "summary.svg: the Pareto-optimal points ${got% } marked and joined, as computed from the CSV"
else
	fail "summary.svg: Pareto points '$got', want '$want'"
fi
# the base lacks 3 applications (4, 9, 21); point 6 lacks one more (13)
if grep -qF '>28 of 29: 1 not bit-exact</text>' "$ch/summary.svg" && grep -qF '>6 (28/29)</text>' "$ch/summary.svg" &&
	[ "$(grep -c '>all 29</text>' "$ch/summary.svg")" = 7 ] &&
	grep -qF 'Left out, not bit-exact at the base: 3 applications (conv_layer_3x3, upsample_bilinear, transpose_out).' "$ch/summary.svg"; then
	pass "summary.svg: each point's mean says how many applications it covers (28 of 29 at point 6), those left out named"
else
	fail "summary.svg: the coverage of the means"
fi
cp "$ch"/*.svg "$tmp/" && "$DSE" charts "$ch" >/dev/null 2>&1
if cmp -s "$tmp/summary.svg" "$ch/summary.svg" && cmp -s "$tmp/runtime_area.svg" "$ch/runtime_area.svg" &&
	cmp -s "$tmp/resources.svg" "$ch/resources.svg"; then
	pass "dse charts twice: the same bytes"
else
	fail "dse charts twice: the charts differ"
fi

# points without area: in a strip of their own (some), or along a point axis (none)
for areas in some none; do
	mkdir -p "$ch/$areas"
	synth_csv 32 8 $areas >"$ch/$areas/results.csv"
	"$DSE" charts "$ch/$areas" >/dev/null 2>&1
	bad=$(for f in summary runtime_area resources; do svg_check "$ch/$areas/$f.svg" 2>/dev/null; done)
	n=$(grep -c '<g class="point' "$ch/$areas/summary.svg")
	if [ -z "$bad" ] && [ "$n" = 8 ] && grep -q 'class="point pareto"' "$ch/$areas/summary.svg"; then
		pass "areas of $areas points missing: all 8 points on the summary, a front, legends in place"
	else
		fail "areas of $areas points missing: $n points on the summary"
		echo "$bad" | sed 's/^/    | /' | head
	fi
done

# more points than colours: 72 points, 40 applications; no two legend
# entries alike (colour, shape, fill)
mkdir -p "$ch/big"
synth_csv 40 72 some >"$ch/big/results.csv"
"$DSE" charts "$ch/big" >/dev/null 2>&1
bad=$(for f in summary runtime_area resources; do svg_check "$ch/big/$f.svg" 2>/dev/null; done)
if [ -z "$bad" ] && [ "$(svg_check "$ch/big/runtime_area.svg" 2>&1 >/dev/null)" = "entries 1 72" ]; then
	pass "72 points and 40 applications: 72 distinct legend entries, every legend inside and off the plots"
else
	fail "72 points and 40 applications"
	echo "$bad" | sed 's/^/    | /' | head
fi

# ---- bad CSVs: refused at their line and column, nothing written
# bad_csv WHAT WANT: $tmp/bad.csv as results.csv; dse charts exits 1 with
# the line "$ch/bad/results.csv:WANT" (WANT whole when it starts with '/')
# and writes no chart. (Not at the end of a pipe: pass and fail count in
# this shell.)
bad_csv() {
	rm -rf "$ch/bad" && mkdir -p "$ch/bad"
	cp "$tmp/bad.csv" "$ch/bad/results.csv"
	local want=$2
	case $want in /*) ;; *) want=$ch/bad/results.csv:$want ;; esac
	"$DSE" charts "$ch/bad" >"$tmp/bad.out" 2>&1
	local st=$?
	if [ $st = 1 ] && grep -qxF "$want" "$tmp/bad.out" && [ ! -e "$ch/bad/summary.svg" ]; then
		pass "dse charts refuses $1: ${2#"$ch/bad/"}"
	else
		fail "dse charts with $1 (exit $st)"
		sed 's/^/    | /' "$tmp/bad.out" | head
	fi
}
synth_csv 2 2 | sed '3s/,bit-exact,/,bit-exactly,/' >"$tmp/bad.csv"
bad_csv "an unknown status" "3:49: error: status 'bit-exactly': expected bit-exact, different, not-mapped or not-run"
synth_csv 2 2 | awk -F, -v OFS=, 'NR == 2 { $18 = "12x" } 1' >"$tmp/bad.csv"
bad_csv "a figure that is not a number" "2:97: error: '12x' in column runtime_us: expected a finite number or nothing"
synth_csv 2 2 | sed '4d' >"$tmp/bad.csv"
bad_csv "a missing row" "$ch/bad/results.csv: error: no row for point tracks16=2 switchbox=wilton and application gaussian"
synth_csv 2 2 | sed '3p' >"$tmp/bad.csv"
bad_csv "a repeated row" \
	"4:1: error: a second row for point tracks16=2 switchbox=imran and application harris (the first is line 3)"
synth_csv 2 2 | sed '2s/,"",/,"never closed,/' >"$tmp/bad.csv"
bad_csv "a quote not closed" "2:61: error: a quoted cell is not closed"
synth_csv 2 2 | sed '1s/,app,/,application,/' >"$tmp/bad.csv"
bad_csv "a header without app" "1:1: error: no column 'app' in the header (results.csv as dse report writes it)"
synth_csv 2 2 | head -c -1 >"$tmp/bad.csv"
bad_csv "a last line cut short" "5:146: error: the last line has no newline: the file was cut short"
: >"$tmp/bad.csv"
bad_csv "an empty file" "1:1: error: an empty file: no header"
rm -rf "$ch/bad" && mkdir -p "$ch/bad"
"$DSE" charts "$ch/bad" >"$tmp/bad.out" 2>&1
if [ $? = 1 ] && grep -qxF "$ch/bad/results.csv: error: No such file or directory" "$tmp/bad.out"; then
	pass "dse charts of a folder without results.csv: No such file or directory"
else
	fail "dse charts of a folder without results.csv"
	sed 's/^/    | /' "$tmp/bad.out" | head
fi
"$DSE" charts --x >"$tmp/bad.out" 2>&1
if [ $? = 2 ] && grep -qxF "dse: error: '--x': an unknown, repeated or incomplete option" "$tmp/bad.out"; then
	pass "dse charts --x: exit 2 with the usage"
else
	fail "dse charts --x"
fi
