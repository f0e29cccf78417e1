#!/usr/bin/env bash
# Instructions per operation of each workload, on each side that has it, counted by callgrind:
# the marginal cost, a run of 2N operations minus a run of N, divided by N, so that both the setup
# and the one-time teardown cancel out (for the traced workloads, reading the graph once at the end:
# describing and merging full rings, which costs the same after N events as after 2N once the
# rings are full, and is not a cost per event). Unlike wall-clock time the count does not move
# with the machine's load.
#
#   Benchmarks/count-instructions.sh                     # every workload
#   Benchmarks/count-instructions.sh subject-map-filter fanout-1000
#
# Needs valgrind (`apt-get install valgrind`). Valgrind 3.19 cannot read the DWARF 5 debug
# information Swift 6.3 emits, so the binary is built without debug information, in its own
# scratch directory.
set -euo pipefail
cd "$(dirname "$0")"

swift build -c release -Xswiftc -gnone -Xcc -g0 --scratch-path .build-cg --product run-workload \
  >&2
runner=.build-cg/release/run-workload

all=(subject-map-filter subscribe-dispose chain3-subscribe-dispose subscribe-dispose-at-10000
  bag-teardown-10000 fanout-1000 flatMap-just flatMapLatest-just combineLatest2
  range-map-filter-reduce scan-distinct behaviorRelay-10subs shareReplay1-10subs
  debounce-virtual relay-bind-cell subject-map-filter-traced subject-map-filter-traced-novalues
  fanout-1000-traced)
# Not bridge-values: valgrind 3.19 crashes reading the concurrency runtime's debug information
# once the async bridge starts its tasks; time it with the benchmark harness instead.
workloads=("$@")
[[ ${#workloads[@]} -gt 0 ]] || workloads=("${all[@]}")

# Instructions executed by one run (callgrind's total), or nothing if the side does not exist.
count() {
  local out
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$runner" "$@" 2>&1) || return 0
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out"
}

# N operations: fewer where one operation is large, so each run stays within seconds.
# (bag-teardown-10000 fills its bag in its untimed `prepare`, which callgrind counts: one more
# operation is one more subscription made and then released by the bag.)
operations() {
  case $1 in
    fanout-1000*) echo 200 ;;
    range-map-filter-reduce | *-traced*) echo 100000 ;;
    *) echo 20000 ;;
  esac
}

printf '%-36s %12s %12s %12s\n' workload streams opencombine baseline
for name in "${workloads[@]}"; do
  n=$(operations "$name")
  row=("$name")
  for side in streams opencombine baseline; do
    long=$(count "$name" "$((2 * n))" "$side")
    short=$(count "$name" "$n" "$side")
    if [[ -n $long && -n $short ]]; then
      row+=("$(( (long - short) / n ))")
    else
      row+=("-")
    fi
  done
  printf '%-36s %12s %12s %12s\n' "${row[@]}"
done
