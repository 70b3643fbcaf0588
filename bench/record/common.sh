# Shared by bench/run-record-bench and bench/run-replay-bench (sourced, not
# run): the benchmark programs of bench/record/, their op counts, how they
# are built (stock std, and std with the runtime hooks of runtime/std) and
# how a run is measured (best of REPEAT runs by CPU time).
#
# The sourcing script sets, before calling bench_setup:
#   root    the repository root (the current directory)
#   repeat  runs per measurement
#   procs   GOMAXPROCS of the runs ("" = the Go default)
#   tparent where trace directories go ("" = /dev/shm when writable, else TMPDIR)
# The build directory is $GORDIAN_BENCH_BUILD, default build/release.

# Default iteration counts (-n of each program) and the order of the table.
declare -A bench_iters=([pingpong]=500000 [pipeline]=500000 [mutex]=2000000 [fanin]=200000 [wgfanout]=100000)
bench_names=(pingpong pipeline mutex fanin wgfanout)
# Programs only run-record-bench measures (their replays would load schedules
# of 500,000 operations for little insight), and the source of each name
# that is not its own file: wgwide at two widths.
bench_record_only=(wgwide10k wgwide100k)
bench_iters+=([wgwide10k]=10000 [wgwide100k]=100000)
declare -A bench_src=([wgwide10k]=wgwide [wgwide100k]=wgwide)

# bench_setup [EXTRA-CMAKE-TARGET...]: builds gordian-std-overlay (and the
# extra targets) in $build, makes $work (scratch, with tracecount and the
# std overlay $overlay) and $tdir (traces), removed on exit, and sets
# bench_record_env, the environment of a recording run into $tdir/t.
bench_setup() {
  if [ -z "$tparent" ]; then
    if [ -d /dev/shm ] && [ -w /dev/shm ]; then tparent=/dev/shm; else tparent=${TMPDIR:-/tmp}; fi
  fi
  build=${GORDIAN_BENCH_BUILD:-build/release}
  if [ ! -x /usr/bin/time ]; then
    echo "bench: needs GNU time (/usr/bin/time) for the peak RSS; apt-get install time" >&2
    exit 2
  fi
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  fi
  cmake --build "$build" --target gordian-std-overlay "$@" -j "$(nproc)" >/dev/null
  work=$(mktemp -d "${TMPDIR:-/tmp}/gordian-bench.XXXXXX")
  tdir=$(mktemp -d "$tparent/gordian-bench-trace.XXXXXX")
  trap 'rm -rf "$work" "$tdir"' EXIT
  overlay=$("$build/src/gordian/instrument/gordian-std-overlay" "$(go env GOROOT)" "$root/runtime/std" "$work/hooks")
  go build -o "$work/tracecount" "$root/bench/record/tracecount/main.go"
  bench_record_env=(GORDIAN_TRACE_DIR="$tdir/t" GORDIAN_ROOTS="$root/bench/record")
}

# bench_build NAME: $work/NAME.plain (stock std) and $work/NAME.hook (hooked std).
bench_build() {
  local src="$root/bench/record/${bench_src[$1]:-$1}.go"
  go build -o "$work/$1.plain" "$src"
  go build -overlay="$overlay" -o "$work/$1.hook" "$src"
}

# bench_count NAME: the -n of NAME, bench_iters scaled by $scale (default 1).
bench_count() {
  awk "BEGIN{printf \"%d\", ${bench_iters[$1]} * ${scale:-1}}"
}

# bench_best [VAR=VALUE...] BINARY ARGS...: runs
#   env [GOMAXPROCS=$procs] VAR=VALUE... BINARY ARGS
# $repeat times, each time with $tdir/t removed first (a recording run names
# it in GORDIAN_TRACE_DIR), and prints "ops wall cpu proc rss" of the run
# with the least CPU time: ops, wall and CPU ns/op as the program measured
# them over its timed loop (CPU time is steadier than wall time on a loaded
# machine), proc, the CPU seconds of the whole process (start-up, exit and
# all), and rss, its peak resident set in KiB (GNU time's %M; the pages of
# the trace mapping that the process touched count). If $bench_after names a function, it is called after each
# run (in a subshell: it must write what it finds to a file), e.g.
#   read -r ops wall cpu proc < <(bench_after=check_run bench_best ./prog -n 10)
bench_best() {
  local best="" bestwall="" bestproc="" bestrss="" ops="" line ns cpu proc rss
  for ((i = 0; i < repeat; i++)); do
    rm -rf "$tdir/t"
    line=$(/usr/bin/time -f '%U %S %M' -o "$work/time" env ${procs:+GOMAXPROCS=$procs} "$@")
    proc=$(awk 'END{printf "%.3f", $1 + $2}' "$work/time")
    rss=$(awk 'END{print $3}' "$work/time")
    ns=$(sed -n 's/.* ns\/op=\([0-9.]*\).*/\1/p' <<<"$line")
    cpu=$(sed -n 's/.* cpu\/op=\([0-9.]*\).*/\1/p' <<<"$line")
    ops=$(sed -n 's/.* ops=\([0-9]*\).*/\1/p' <<<"$line")
    if [ -z "$cpu" ]; then
      echo "bench: no figures from: $* (output: $line)" >&2
      return 1
    fi
    if [ -n "${bench_after:-}" ]; then "$bench_after"; fi
    if [ -z "$best" ] || awk "BEGIN{exit !($cpu < $best)}"; then best=$cpu; bestwall=$ns; bestproc=$proc; bestrss=$rss; fi
  done
  echo "$ops $bestwall $best $bestproc $bestrss"
}
