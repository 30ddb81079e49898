#!/usr/bin/env bash
# scripts/slurm-local.sh end to end: up (twice: the second says so), status,
# env, an srun job that writes a file, two jobs at once on a machine of two
# CPUs or more, down (twice), and no daemon of it left. A cluster that was up
# before is brought up again at the end. Needs root, and the network for
# apt-get the first time. Last line: "slurm: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. scripts/suite_lib.sh || exit 1
sl=scripts/slurm-local.sh
suite_tmp
check() { if eval "$2"; then pass "$1"; else fail "$1"; fi; }

was_up=0
$sl status >/dev/null 2>&1 && was_up=1
# whatever happens, the cluster is left as it was found
restore() {
	if [ $was_up -eq 1 ]; then $sl up >/dev/null 2>&1; else $sl down >/dev/null 2>&1; fi
	suite_cleanup
}
trap restore EXIT
[ $was_up -eq 0 ] || $sl down >/dev/null

# ---- up, status, env ----
check "up brings the node up" '$sl up >"$tmp/up" 2>&1 && grep -q "^slurm-local: up in .* s, node .* ([0-9]* CPUs), SLURM_CONF=$PWD/build/slurm/slurm.conf$" "$tmp/up"'
if [ $failed -ne 0 ]; then
	sed 's/^/  /' "$tmp/up"
	suite_end "slurm"
	exit
fi
echo "  $(tail -n 1 "$tmp/up")"
check "up again: already up, exit status 0" '$sl up 2>&1 | grep -q "^slurm-local: already up, node "'
check "status: up, and sinfo shows the node idle" \
	'$sl status >"$tmp/status" && grep -q "^slurm-local: up: " "$tmp/status" && grep -q " idle " "$tmp/status"'
check "env prints the line that sets SLURM_CONF" \
	'[ "$($sl env)" = "export SLURM_CONF=$PWD/build/slurm/slurm.conf" ]'
eval "$($sl env)"
pids=$(cat build/slurm/munge/munged.pid build/slurm/slurmctld.pid build/slurm/slurmd.pid 2>/dev/null)
check "three daemons recorded in their pid files" '[ $(echo $pids | wc -w) -eq 3 ]'

# ---- jobs: LAUNCH="srun -N1 -n1" as a command prefix ----
LAUNCH="srun -N1 -n1"
check "srun job writes a file with its job id and host" \
	'timeout 60 $LAUNCH bash -c "echo \$SLURM_JOB_ID \$(hostname -s) >$tmp/job" &&
	 grep -qx "[0-9][0-9]* $(hostname -s)" "$tmp/job"'
check "srun passes the exit status of the command" \
	'timeout 60 $LAUNCH bash -c "exit 3" 2>/dev/null; [ $? -eq 3 ]'
if [ "$(sinfo -h -o %c)" -ge 2 ]; then
	for j in 1 2; do
		timeout 60 $LAUNCH bash -c "date +%s.%N >$tmp/start$j; sleep 2; date +%s.%N >$tmp/end$j" &
	done
	wait
	# each job started before the other ended
	check "two srun jobs run at once" \
		'[ -s "$tmp/end1" ] && [ -s "$tmp/end2" ] &&
		 awk -v s1="$(cat "$tmp/start1")" -v e1="$(cat "$tmp/end1")" -v s2="$(cat "$tmp/start2")" -v e2="$(cat "$tmp/end2")" \
			"BEGIN { exit !(s1 < e2 && s2 < e1) }"'
else
	echo "  (one CPU: jobs at once not checked)"
fi

# ---- down ----
check "down stops the daemons" '$sl down 2>&1 | grep -qx "slurm-local: down"'
check "no daemon left (recorded PIDs gone)" '(for p in $pids; do [ ! -d /proc/$p ] || exit 1; done)'
check "no pid file left" '! ls build/slurm/*.pid build/slurm/munge/*.pid 2>/dev/null | grep -q .'
check "down again: exit status 0" '$sl down >/dev/null 2>&1'
check "status after down: down, exit status 1" '! $sl status >"$tmp/status" && grep -qx "slurm-local: down" "$tmp/status"'
suite_end "slurm"
