#!/usr/bin/env bash
# faults.sh - the tools under faults of the file system and signals (in the
# dse group of make test): what a failure leaves behind is either the old
# complete set of files or no marker (the file make takes as "done": canal's
# design.yaml, peak's rules or info, lake's info), never a new marker beside
# missing or stale files, and never a temporary (PATH.tmpPID) except after
# SIGKILL (the next run removes those); make then redoes the step.
#  - an output path that cannot be written (a folder in the way) for peak,
#    lake, canal and cgrac: a message naming the file, exit 1, nothing left;
#  - a full file system (a 1 MiB tmpfs with an old set, filled; SKIP when mounting is not
#    allowed): "No space left on device", the old set whole;
#  - a rename failing (strace -e inject) at each rename of canal's set and of
#    peak's, the old marker failing to go, a SIGKILL at each rename;
#  - SIGINT and SIGTERM while the files are written: no temporary;
#  - inputs without end (/dev/zero as a spec, an application, an input.yaml)
#    or too large: refused with the size and the limit, naming the file;
#  - scripts/rtl.sh's cache: an entry made once and taken after, a spec
#    given as a path, a PE spec peak rejects named with nothing left behind;
#  - make rtl_out/cgra_4x4/design.yaml in a copy of the tree (the real
#    rtl_out/ is not touched): redone after each of these, not redone when
#    complete; scripts/rtl.sh killed by SIGTERM or failing to put its files in
#    place leaves no staging folder and no new marker.
#   usage: bash scripts/tests/faults.sh
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh
suite_tmp
full=$tmp/full
trap 'umount "$full" 2>/dev/null; suite_cleanup' EXIT
d=cgra_4x4 spec=canal/specs/cgra_4x4.yaml
canal_files="routing.graph config.map cgra.v design.yaml"
root=$PWD

# temps DIR: the temporaries an OutSet left in DIR
temps() { find "$1" -name '*.tmp[0-9]*' | sed "s|^$1/||" | tr '\n' ' '; }
# listing DIR: its entries, sorted, on one line
listing() { ls -A "$1" | tr '\n' ' ' | sed 's/ $//'; }
# expect NAME STATUS_WANT STATUS ERRFILE TEXT: status and message
expect() {
	if [ "$3" -eq "$2" ] && grep -qF -- "$5" "$4"; then
		pass "$1"
	else
		fail "$1 (exit $3, want $2; want the message: $5)"
		sed 's/^/    | /' "$4" | head -5
	fi
}
# state DIR: canal's set in DIR: none (no marker), old (every file the old
# one), new (every file as generated), else MIXED
state() {
	[ -f "$1/design.yaml" ] || { echo none; return; }
	local f old=1 new=1
	for f in $canal_files; do
		[ -f "$1/$f" ] && [ "$(tail -n 1 "$1/$f")" = "# old $f" ] || old=0
		cmp -s "$1/$f" "$ref/$f" || new=0
	done
	[ $old = 1 ] && { echo old; return; }
	[ $new = 1 ] && { echo new; return; }
	echo MIXED
}
# old_set DIR: a copy of the reference chip with canal's files marked old
old_set() {
	rm -rf "$1" && mkdir -p "$1" && cp "$ref"/* "$1/"
	local f
	for f in $canal_files; do echo "# old $f" >>"$1/$f"; done
}

# ---- the reference chip, made here (the PE's files from build/cache/ if there)
ref=$tmp/ref
if bash scripts/rtl.sh $d -o "$ref" >"$tmp/rtl.log" 2>&1 && [ -f "$ref/design.yaml" ] &&
	[ -z "$(ls -A "$tmp" | grep '^\.ref\.tmp')" ]; then
	pass "scripts/rtl.sh -o: a complete chip, no staging folder left"
else
	fail "scripts/rtl.sh -o $ref"
	sed 's/^/    | /' "$tmp/rtl.log" | tail -5
	suite_end "faults"
	exit
fi

# ---- the chip step's cache (scripts/rtl.sh --cache): made once, then taken; a spec given as a
# path; a generator that rejects its spec named, nothing left behind
c=$tmp/cache
mkdir -p "$c" && cp -a build/cache/peak-* build/cache/lake-* "$c/" 2>/dev/null
rm -f "$c"/*.lock
keys() { find "$c" -maxdepth 1 -mindepth 1 -type d | sort | tr '\n' ' '; }
bash scripts/rtl.sh $d -o "$tmp/c1" --cache "$c" >"$tmp/c1.log" 2>&1
before=$(keys)
sed -e "s#\.\./\.\./#$root/#" $spec >"$tmp/spec_copy.yaml"
if bash scripts/rtl.sh "$tmp/spec_copy.yaml" -o "$tmp/c2" --cache "$c" >"$tmp/c2.log" 2>&1 &&
	grep -q "^rtl: peak's files for pe_base.yaml from $c/peak-" "$tmp/c2.log" && [ "$(keys)" = "$before" ] &&
	diff -r -x design.yaml -x cgra.v -x routing.graph -x config.map "$tmp/c1" "$tmp/c2" >/dev/null &&
	[ "$(ls "$c" | grep -c '^tmp\.')" = 0 ]; then
	pass "rtl.sh: an interconnect spec given as a path takes the PE's and MEM's files from the cache, no new entry"
else
	fail "rtl.sh with a cache: $(tail -n 3 "$tmp/c2.log" | tr '\n' ' ')"
fi
{ cat peak/specs/pe_base.yaml; echo 'this is not yaml: ['; } >"$tmp/pe_bad.yaml"
sed -e "s#pe: *{ spec: [^ ,}]*#pe:  { spec: $tmp/pe_bad.yaml#" "$tmp/spec_copy.yaml" >"$tmp/spec_bad.yaml"
bash scripts/rtl.sh "$tmp/spec_bad.yaml" -o "$tmp/c3" --cache "$c" -q >"$tmp/c3.log" 2>&1
st=$?
if [ $st = 1 ] && grep -q "^rtl: error: bin/peak rejects $tmp/pe_bad.yaml$" "$tmp/c3.log" &&
	grep -q "pe_bad.yaml:[0-9]*:[0-9]*: error: " "$tmp/c3.log" && [ ! -e "$tmp/c3/design.yaml" ] &&
	[ "$(ls "$c" | grep -c '^tmp\.')" = 0 ] && [ -z "$(ls -A "$tmp" | grep '^\.c3\.tmp')" ]; then
	pass "rtl.sh: a PE spec peak rejects: its message, then which tool rejected which spec; no chip, nothing in the cache"
else
	fail "rtl.sh with a PE spec peak rejects (exit $st): $(tail -n 3 "$tmp/c3.log" | tr '\n' ' ')"
fi

# ---- 1. an output that cannot be written: a folder in the way
w=$tmp/w
rm -rf "$w" && mkdir -p "$w/pe_base.v"
bin/peak peak/specs/pe_base.yaml -o "$w" --no-rules -q >/dev/null 2>"$tmp/err"
expect "peak: a folder in the way of pe_base.v: message, exit 1" 1 $? "$tmp/err" \
	"peak: error: $w/pe_base.v: cannot write: Is a directory"
[ "$(listing "$w")" = pe_base.v ] && pass "peak: nothing left behind" || fail "peak left: $(listing "$w")"

rm -rf "$w" && mkdir -p "$w/pub.smt2"
bin/lake lake/specs/pub.yaml -o "$w" -q >/dev/null 2>"$tmp/err"
expect "lake: a folder in the way of pub.smt2 (renamed after pub.v): message, exit 1" 1 $? "$tmp/err" \
	"lake: error: $w/pub.smt2: cannot write: Is a directory"
[ "$(listing "$w")" = pub.smt2 ] && pass "lake: pub.v renamed before is removed again, nothing left" ||
	fail "lake left: $(listing "$w")"

old_set "$w" && rm "$w/cgra.v" && mkdir "$w/cgra.v"
bin/canal $spec -o "$w" >/dev/null 2>"$tmp/err"
expect "canal: a folder in the way of cgra.v: message, exit 1" 1 $? "$tmp/err" \
	"canal: error: $w/cgra.v: cannot write: Is a directory"
if [ ! -e "$w/design.yaml" ] && [ ! -e "$w/routing.graph" ] && [ ! -e "$w/config.map" ] && [ -z "$(temps "$w")" ]; then
	pass "canal: no design.yaml, the files renamed before cgra.v removed again, no temporary"
else
	fail "canal left: $(listing "$w")"
fi

rm -rf "$w" && mkdir -p "$w/brighten_blur.route"
bin/cgrac apps/brighten_blur/brighten_blur.hl --design "$ref" -o "$w" -q >/dev/null 2>"$tmp/err"
expect "cgrac: a folder in the way of brighten_blur.route: message, exit 1" 1 $? "$tmp/err" \
	"cgrac: error: $w/brighten_blur.route: cannot write: Is a directory"
[ "$(listing "$w")" = brighten_blur.route ] && pass "cgrac: nothing left behind" || fail "cgrac left: $(listing "$w")"

rm -rf "$w" && mkdir -p "$w/brighten_blur.mem"
bin/cgrac apps/brighten_blur/brighten_blur.hl --design "$ref" -o "$w" -q --emit ubuf >/dev/null 2>"$tmp/err"
expect "cgrac --emit ubuf: a folder in the way of .mem: message, exit 1" 1 $? "$tmp/err" \
	"cgrac: error: $w/brighten_blur.mem: cannot"
[ "$(listing "$w")" = brighten_blur.mem ] && pass "cgrac --emit ubuf: no .ubuf without its .mem (one set)" ||
	fail "cgrac --emit ubuf left: $(listing "$w")"

# ---- 2. a full file system
mkdir -p "$full"
if mount -t tmpfs -o size=1m none "$full" 2>"$tmp/mount.err"; then
	old_set "$full/c" 2>/dev/null
	mkdir -p "$full/p" "$full/l" "$full/a"
	dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null
	bin/peak peak/specs/pe_base.yaml -o "$full/p" --no-rules -q >/dev/null 2>"$tmp/err"
	expect "full file system: peak's message, exit 1" 1 $? "$tmp/err" \
		"peak: error: $full/p/pe_base.v: cannot write: No space left on device"
	[ -z "$(listing "$full/p")" ] && pass "full file system: peak left nothing" || fail "peak left: $(listing "$full/p")"
	bin/lake lake/specs/pub.yaml -o "$full/l" -q >/dev/null 2>"$tmp/err"
	expect "full file system: lake's message, exit 1" 1 $? "$tmp/err" "No space left on device"
	[ -z "$(listing "$full/l")" ] && pass "full file system: lake left nothing" || fail "lake left: $(listing "$full/l")"
	if [ -f "$full/c/design.yaml" ]; then
		bin/canal $spec -o "$full/c" >/dev/null 2>"$tmp/err"
		expect "full file system: canal's message, exit 1" 1 $? "$tmp/err" "No space left on device"
		[ "$(state "$full/c")" = old ] && [ -z "$(temps "$full/c")" ] &&
			pass "full file system: canal's old set whole, no temporary" ||
			fail "full file system: canal's set $(state "$full/c"), temporaries: $(temps "$full/c")"
	else
		fail "full file system: the old set did not fit in 1 MiB"
	fi
	bin/cgrac apps/brighten_blur/brighten_blur.hl --design "$ref" -o "$full/a" -q >/dev/null 2>"$tmp/err"
	expect "full file system: cgrac's message, exit 1" 1 $? "$tmp/err" "No space left on device"
	[ -z "$(listing "$full/a")" ] && pass "full file system: cgrac left nothing" || fail "cgrac left: $(listing "$full/a")"
	umount "$full"
else
	echo "SKIP full file system: cannot mount a tmpfs ($(head -n 1 "$tmp/mount.err"))"
fi

# ---- 3. a rename that fails, a kill between renames (strace)
if ! command -v strace >/dev/null || ! strace -f -o /dev/null true 2>/dev/null; then
	echo "SKIP injected faults: strace is missing or cannot trace here"
else
	inject() { strace -f -o /dev/null -e inject=rename,renameat,renameat2:"$1" "${@:2}"; }
	for k in 1 2 3 4; do
		old_set "$w"
		inject error=EIO:when=$k bin/canal $spec -o "$w" >/dev/null 2>"$tmp/err"
		expect "canal, rename $k of 4 fails: message, exit 1" 1 $? "$tmp/err" \
			"cannot write: Input/output error"
		s=$(state "$w")
		[ "$s" = none ] && [ -z "$(temps "$w")" ] &&
			pass "canal, rename $k of 4 fails: no marker, no temporary" ||
			fail "canal, rename $k of 4 fails: set $s, temporaries: $(temps "$w")"
		new=1
		for f in $canal_files; do [ ! -f "$w/$f" ] || ! cmp -s "$w/$f" "$ref/$f" || new=0; done
		[ $new = 1 ] && pass "canal, rename $k of 4 fails: the files renamed before are removed again" ||
			fail "canal, rename $k of 4 fails: new files stayed: $(listing "$w")"
		bin/canal $spec -o "$w" >/dev/null 2>&1
		[ "$(state "$w")" = new ] && pass "canal, rename $k of 4 failed: a second run completes the set" ||
			fail "canal after rename $k failed: a second run gives $(state "$w")"
	done
	for k in 1 2 3 4; do
		old_set "$w"
		inject signal=KILL:when=$k bin/canal $spec -o "$w" >/dev/null 2>&1
		s=$(state "$w")
		[ "$s" = none ] && pass "canal killed (SIGKILL) at rename $k of 4: no marker" ||
			fail "canal killed at rename $k of 4: set $s"
	done
	left=$(temps "$w")
	bin/canal $spec -o "$w" >/dev/null 2>&1
	[ -n "$left" ] && [ "$(state "$w")" = new ] && [ -z "$(temps "$w")" ] &&
		pass "canal after the kills: the set complete, the killed runs' temporaries removed ($left)" ||
		fail "canal after the kills: set $(state "$w"), temporaries before: $left, after: $(temps "$w")"
	old_set "$w"
	strace -f -o /dev/null -e inject=unlink,unlinkat:error=EACCES:when=1 bin/canal $spec -o "$w" >/dev/null 2>"$tmp/err"
	expect "canal, the old design.yaml cannot be removed: message, exit 1" 1 $? "$tmp/err" \
		"canal: error: $w/design.yaml: cannot replace: Permission denied"
	[ "$(state "$w")" = old ] && [ -z "$(temps "$w")" ] && pass "canal, the old marker stays: the old set whole" ||
		fail "canal, the old marker stays: set $(state "$w"), temporaries: $(temps "$w")"
	rm -rf "$w" && mkdir -p "$w"
	inject error=EIO:when=1 bin/peak peak/specs/pe_base.yaml -o "$w" --no-rules -q >/dev/null 2>"$tmp/err"
	expect "peak, its first rename fails: message, exit 1" 1 $? "$tmp/err" \
		"peak: error: $w/pe_base.v: cannot write: Input/output error"
	inject error=EIO:when=2 bin/peak peak/specs/pe_base.yaml -o "$w" --no-rules -q >/dev/null 2>"$tmp/err"
	[ -z "$(listing "$w")" ] && pass "peak, the rename of its marker (info) fails: pe_base.v removed again" ||
		fail "peak, the rename of its marker fails: left $(listing "$w")"

	# ---- 4. SIGINT and SIGTERM while the files are written
	for sig in INT TERM; do
		for k in 1 10 30; do
			old_set "$w"
			# (in a shell of its own, whose "Terminated" goes to /dev/null)
			bash -c 'strace -f -o /dev/null -e inject=write:signal=$1:when=$2 bin/canal "$3" -o "$4"; exit $?' \
				sh $sig $k $spec "$w" >/dev/null 2>&1
			st=$?
			s=$(state "$w")
			if [ -z "$(temps "$w")" ] && { [ "$s" = old ] || [ "$s" = new ]; } && [ $st -ne 0 ]; then
				pass "SIG$sig at write $k of canal: no temporary, the $s set whole (exit $st)"
			else
				fail "SIG$sig at write $k of canal: exit $st, set $s, temporaries: $(temps "$w")"
			fi
		done
	done
fi

# ---- 5. inputs without end or too large
head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >"$tmp/big.yaml"
bin/peak "$tmp/big.yaml" -o "$w" --no-rules >/dev/null 2>"$tmp/err"
expect "a PE spec of 16 MiB + 1 byte: refused with its size and the limit" 1 $? "$tmp/err" \
	"$tmp/big.yaml: error: file too large: 16777217 bytes, the limit is 16777216"
for t in peak lake canal; do
	timeout 20 bin/$t /dev/zero -o "$w" >/dev/null 2>"$tmp/err"
	expect "$t /dev/zero: bounded, refused" 1 $? "$tmp/err" \
		"/dev/zero: error: file too large: more than 16777216 bytes, the limit is 16777216"
done
timeout 20 bin/cgrac /dev/zero --check >/dev/null 2>"$tmp/err"
expect "cgrac /dev/zero as the application: bounded, refused" 1 $? "$tmp/err" \
	"/dev/zero: error: cannot read file: file too large: more than 67108864 bytes, the limit is 67108864"
mkdir -p "$tmp/app" && cp apps/brighten_blur/brighten_blur.hl "$tmp/app/" && ln -s /dev/zero "$tmp/app/input.yaml"
timeout 20 bin/cgrac "$tmp/app/brighten_blur.hl" --golden "$tmp/app/out" >/dev/null 2>"$tmp/err"
expect "cgrac: /dev/zero as input.yaml: bounded, refused" 1 $? "$tmp/err" \
	"$tmp/app/input.yaml: error: file too large: more than 16777216 bytes, the limit is 16777216"

# ---- 6. make in a copy of the tree: redone after a fault, not when complete
t=$tmp/tree
mkdir -p "$t/build" "$t/bin" "$t/canal" "$t/peak" "$t/lake" "$t/fuzz"
cp -a Makefile "$t/" && cp -a fuzz/fuzz.mk "$t/fuzz/" && cp -a scripts "$t/" && cp -a canal/specs "$t/canal/" &&
	cp -a peak/specs peak/ir "$t/peak/" && cp -a lake/specs "$t/lake/" && cp -a bin/peak bin/lake bin/canal "$t/bin/"
keep=(-o bin/peak -o bin/lake -o bin/canal)
[ ! -d build/cache ] || cp -a build/cache "$t/build/"
target=rtl_out/$d/design.yaml
mk() { make -C "$t" --no-print-directory "${keep[@]}" "$target" >"$tmp/make.out" 2>&1; }
mk
st=$?
if [ $st -eq 0 ] && [ "$(state "$t/rtl_out/$d")" = new ]; then
	pass "make $target in the copy: the chip"
else
	fail "make $target in the copy (exit $st)"
	sed 's/^/    | /' "$tmp/make.out" | tail -5
fi
mk
grep -q "is up to date" "$tmp/make.out" && pass "make again: nothing redone" || fail "make again redid: $(tail -n 2 "$tmp/make.out")"
if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
	strace -f -o /dev/null -e inject=rename,renameat,renameat2:error=EIO:when=3 bin/canal $spec -o "$t/rtl_out/$d" >/dev/null 2>&1
	mk
	st=$?
	grep -q "rtl: $d regenerated" "$tmp/make.out" && [ $st -eq 0 ] && [ "$(state "$t/rtl_out/$d")" = new ] &&
		pass "make after canal's rename 3 failed: redone, the chip complete" ||
		fail "make after canal's rename 3 failed (exit $st, set $(state "$t/rtl_out/$d"))"
fi
rm "$t/rtl_out/$d/config.map" && mkdir "$t/rtl_out/$d/config.map"
touch "$t/$spec"
mk
st=$?
if [ $st -ne 0 ] && [ ! -e "$t/rtl_out/$d/design.yaml" ] && [ -z "$(ls -A "$t/rtl_out" | grep '\.tmp')" ] &&
	grep -q "rtl: error: rtl_out/$d: the new files could not be put in place" "$tmp/make.out"; then
	pass "rtl.sh cannot put config.map in place: make fails, no design.yaml, no staging folder"
else
	fail "rtl.sh cannot put config.map in place (exit $st): $(listing "$t/rtl_out") / $(listing "$t/rtl_out/$d")"
	sed 's/^/    | /' "$tmp/make.out" | tail -5
fi
rmdir "$t/rtl_out/$d/config.map"
mk
st=$?
[ $st -eq 0 ] && [ "$(state "$t/rtl_out/$d")" = new ] && pass "make after that: redone, the chip complete" ||
	fail "make after the folder in the way went (exit $st, set $(state "$t/rtl_out/$d"))"
# SIGTERM to scripts/rtl.sh and its tools (peak's rule synthesis runs: an empty cache)
(cd "$t" && exec setsid bash scripts/rtl.sh $d --cache "$t/empty_cache" >"$tmp/rtl.out" 2>&1) &
pid=$!
sleep 1
kill -TERM -- -$pid 2>/dev/null || kill -TERM $pid
wait $pid
st=$?
if [ $st -ne 0 ] && [ "$(state "$t/rtl_out/$d")" = new ] && [ -z "$(ls -A "$t/rtl_out" | grep '\.tmp')" ]; then
	pass "rtl.sh ended by SIGTERM: the old chip whole, no staging folder (exit $st)"
else
	fail "rtl.sh ended by SIGTERM (exit $st): set $(state "$t/rtl_out/$d"), $(listing "$t/rtl_out")"
	sed 's/^/    | /' "$tmp/rtl.out" | tail -5
fi
suite_end "faults"
