#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, for running design-space
# sweeps with LAUNCH="srun -N1 -n1" as a command prefix, as on a site's cluster.
#
#   scripts/slurm-local.sh up       installs slurm-wlm and munge if missing,
#                                   starts munged, slurmctld and slurmd (those
#                                   not running), waits until slurmd has
#                                   registered and the node is idle (30 s at most)
#   scripts/slurm-local.sh down     cancels the jobs left, stops the daemons
#   scripts/slurm-local.sh status   up (and sinfo) or down; exit status 1 if down
#   scripts/slurm-local.sh env      the line to eval for srun, sinfo, squeue:
#                                       eval "$(scripts/slurm-local.sh env)"
#
# Everything lives in build/slurm/: slurm.conf, the daemons' state, spool, logs
# and pid files, and munge/ (munged's key, pid, log and seed, given by its
# options), but munged's socket, in /run/cgra-munge-<hash of this checkout's
# path>/. Nothing is written under /etc: the system's default
# /etc/slurm/slurm.conf may be a site's, so srun finds this cluster through
# SLURM_CONF=<root>/build/slurm/slurm.conf, which `env` prints; the munge
# socket is named in slurm.conf (AuthInfo), so clients need nothing else.
# The daemons run as root (SlurmUser=root) with no cgroups
# (proctrack/linuxproc, task/none); each CPU takes one job (select/cons_tres,
# CR_CPU), so a sweep runs as many points at once as the machine has CPUs.
# Daemons are stopped by the PIDs of their pid files only, never by name.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=$root/build/slurm
conf=$dir/slurm.conf
mdir=$dir/munge
# munged wants every folder above its socket searchable by all, which a
# clone in a private folder (mktemp -d) is not: the socket lives in /run,
# in a folder named after this checkout, so two checkouts do not share it.
msockdir=/run/cgra-munge-$(printf '%s' "$root" | sha1sum | cut -c1-12)
msock=$msockdir/munge.socket
export SLURM_CONF=$conf

say() { echo "slurm-local: $*"; }
die() { echo "slurm-local: $*" >&2; exit 1; }

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }

# install: slurm-wlm (slurmctld, slurmd, the client commands) and munge, if
# missing; checked as scripts/deps.sh does, since only the Slurm path needs them
install() {
	local p missing=()
	for p in slurm-wlm munge; do
		dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	say "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

# running NAME: the PID in build/slurm/NAME.pid (munge/munged.pid for munged)
# if that process is alive and is NAME (a stale file's PID may be reused)
running() {
	local f=$dir/$1.pid pid
	[ "$1" = munged ] && f=$mdir/munged.pid
	[ -f "$f" ] || return 1
	read -r pid <"$f" 2>/dev/null || return 1
	[ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] || return 1
	echo "$pid"
}

# node_state: the node's state as sinfo prints it (idle, mix, alloc, down*, ...)
node_state() {
	sinfo -h -N -o %t 2>/dev/null | head -1
}

# registered_since T: slurmd has registered with slurmctld since T (epoch s):
# the node's state alone may be the one slurmctld saved before going down
registered_since() {
	local t
	t=$(scontrol -o show node 2>/dev/null | sed -n 's/.*SlurmdStartTime=\([^ ]*\).*/\1/p')
	t=$(date -d "$t" +%s 2>/dev/null) || return 1
	[ "$t" -ge "$1" ]
}

cpus() {
	sed -n 's/^NodeName=.* CPUs=\([0-9]*\).*/\1/p' "$conf"
}

# write_conf: build/slurm/slurm.conf for this host, its CPUs and memory as
# slurmd -C finds them
write_conf() {
	local host hw cpus mem
	host=$(hostname -s)
	hw=$(slurmd -C | head -1)
	cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
	mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")
	[ -n "$cpus" ] && [ -n "$mem" ] || die "cannot read CPUs and RealMemory from slurmd -C: $hw"
	cat >"$conf.tmp" <<EOF
# Written by scripts/slurm-local.sh for this machine: one node, one partition.
ClusterName=cgra-local
# The loopback address, so a hostname without an address still works.
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$msock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
# No cgroups: processes tracked by their parents, tasks not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# One job per CPU (no sockets and cores given, so CR_CPU counts CPUs alone).
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# Queued jobs start sooner when one ends (the default delays that up to 3 s).
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
	mv "$conf.tmp" "$conf"
}

# start_munged: a key of our own (mungekey) and munged on our own socket;
# munged 0.5.15 takes every path as an option and runs as root without --force
start_munged() {
	running munged >/dev/null && return 0
	mkdir -p "$mdir" "$msockdir"
	chmod 0755 "$mdir" "$msockdir"
	[ -f "$mdir/munge.key" ] || mungekey --create --keyfile="$mdir/munge.key"
	munged --key-file="$mdir/munge.key" --socket="$msock" \
		--pid-file="$mdir/munged.pid" --log-file="$mdir/munged.log" --seed-file="$mdir/munged.seed"
}

up() {
	local t0 since=0 state='' i was=up
	t0=$(date +%s%N)
	case $root in *[[:space:]]*) die "the repository's path has white space, which slurm.conf cannot hold: $root" ;; esac
	if running munged >/dev/null && running slurmctld >/dev/null && running slurmd >/dev/null; then
		was="already up"
	else
		# what is missing is started; what runs is left alone
		install
		mkdir -p "$dir/state" "$dir/spool"
		running slurmctld >/dev/null || write_conf
		start_munged
		running slurmctld >/dev/null || slurmctld -f "$conf"
		running slurmd >/dev/null || { since=$(date +%s); slurmd -f "$conf"; }
	fi
	# the node idle (or running jobs), and registered by the slurmd started here
	for ((i = 0; ; i++)); do
		state=$(node_state)
		case $state in idle | mix | alloc) registered_since "$since" && break ;; esac
		[ $i -lt 60 ] || die "the node is not ready after 30 s (state '${state:-none}'); see $dir/slurmctld.log and slurmd.log, then scripts/slurm-local.sh down"
		sleep 0.5
	done
	t0=$((($(date +%s%N) - t0) / 100000000))
	[ "$was" = up ] && was="up in $((t0 / 10)).$((t0 % 10)) s"
	say "$was, node $(hostname -s) ($(cpus) CPUs), SLURM_CONF=$conf"
}

# stop NAME...: SIGTERM to each recorded PID, then wait (at most 30 s) for
# them to exit; removes the pid files
stop() {
	local d pid pids=() i
	for d in "$@"; do
		pid=$(running "$d") && kill "$pid" && pids+=("$pid")
	done
	for pid in ${pids[@]+"${pids[@]}"}; do
		for ((i = 0; i < 60; i++)); do
			[ -d "/proc/$pid" ] || break
			sleep 0.5
		done
		[ -d "/proc/$pid" ] && die "PID $pid ($(cat "/proc/$pid/comm" 2>/dev/null)) still running after 30 s"
	done
	for d in "$@"; do
		if [ "$d" = munged ]; then rm -f "$mdir/munged.pid"; else rm -f "$dir/$d.pid"; fi
	done
}

down() {
	local i
	if running slurmctld >/dev/null && [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
		# cancel the jobs left, so that no slurmstepd outlives slurmd
		scancel -p local || true
		for ((i = 0; i < 60; i++)); do
			[ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
			sleep 0.5
		done
	fi
	# munged last: the Slurm daemons may still sign messages on their way out
	stop slurmctld slurmd
	stop munged
	rmdir "$msockdir" 2>/dev/null || true
	say "down"
}

# status: up (the daemons' PIDs and sinfo) or down (and whatever still runs);
# exits 1 unless all three run
status() {
	local d pid on='' off=''
	for d in munged slurmctld slurmd; do
		if pid=$(running "$d"); then on+=${on:+, }"$d (PID $pid)"; else off+=${off:+, }$d; fi
	done
	if [ -z "$off" ]; then
		say "up: $on, SLURM_CONF=$conf"
		sinfo
	elif [ -z "$on" ]; then
		say "down"
		return 1
	else
		say "partly up: $on running, $off not (up starts the rest, down stops them)"
		return 1
	fi
}

# the daemons run as root (SlurmUser=root), so only root starts and stops them
as_root() {
	[ "$(id -u)" -eq 0 ] || die "$1 needs root (the daemons run as root)"
}

case "${1:-}" in
up) as_root up; up ;;
down) as_root down; down ;;
status) status ;;
env) echo "export SLURM_CONF=$conf" ;;
-h | --help) usage ;;
*) usage >&2; exit 2 ;;
esac
