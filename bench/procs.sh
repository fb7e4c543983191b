# shellcheck shell=bash disable=SC2154
# SPDX-License-Identifier: MIT
#
# Processes of a benchmark, sourced by bench/cold.sh, bench/cold_cpu.sh and
# bench/daemon.sh: started here, stopped by pid, nothing else touched. The
# caller sets $work (with a run/ directory), $lab and $LAB_SH when it has
# a lab to stop, $KEEP, and defines say and die. Sourcing installs the
# EXIT trap.

launch() { # NAME CMD...: CMD in the background, its pid in run/NAME.pid
	local name=$1
	shift
	"$@" </dev/null >>"$work/$name.log" 2>&1 &
	echo $! >"$work/run/$name.pid"
}

alive() {
	[ -r "/proc/$1/status" ] &&
		! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

stop() { # NAME...: SIGTERM, SIGKILL after 5 s, reaped
	local n pid pids=""
	for n in "$@"; do
		[ -s "$work/run/$n.pid" ] || continue
		pid=$(cat "$work/run/$n.pid")
		rm -f "$work/run/$n.pid"
		alive "$pid" || continue
		kill -TERM "$pid" 2>/dev/null || true
		pids="$pids $pid"
	done
	for _ in $(seq 500); do
		local left=""
		for pid in $pids; do
			alive "$pid" && left="$left $pid"
		done
		pids=$left
		[ -z "$pids" ] && break
		sleep 0.01
	done
	for pid in $pids; do
		say "pid $pid did not stop within 5 s: SIGKILL"
		kill -KILL "$pid" 2>/dev/null || true
	done
	for pid in $pids; do
		wait "$pid" 2>/dev/null || true
	done
}

cleanup() {
	local f
	for f in "$work"/run/*.pid; do
		[ -e "$f" ] || continue
		f=${f##*/}
		stop "${f%.pid}"
	done
	[ -z "${lab:-}" ] || "$LAB_SH" stop "$lab" >/dev/null 2>&1 || true
	if [ "$KEEP" = 1 ]; then
		say "work directory kept: $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

listening() { # ADDR: a UDP socket bound to ADDR:53
	ss -Hlnu 2>/dev/null | awk '{print $4}' | grep -qxF "$1:53"
}

wait_listening() { # NAME ADDR: up to 10 s
	local deadline=$((SECONDS + 10))
	until listening "$2"; do
		alive "$(cat "$work/run/$1.pid")" ||
			die "$1 exited; last lines of its log:
$(tail -n 15 "$work/$1.log")"
		[ $SECONDS -lt $deadline ] || die "$1 does not listen on $2:53"
		sleep 0.01
	done
}
