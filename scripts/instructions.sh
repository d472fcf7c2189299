#!/usr/bin/env bash
# Instructions per entity-tick, counted by callgrind (issue 14's method):
#
#   (Ir of `retroanim bench ENGINE --entities N --ticks 60`
#    − Ir of `retroanim bench ENGINE --entities N --ticks 20`) / (40 × N)
#
# The two runs build and warm up the same world, so the difference is 40 steady ticks of
# N entities and nothing else. Instruction counts, unlike wall-clock time, do not depend on
# what else the machine is doing.
#
# Usage: scripts/instructions.sh [ENGINE...]        (default: ac herc actor; also ac-chase)
# CI (.ci/run) prints `ac herc actor ac-chase`, as a report with no threshold.
# ac-chase reports per object ticked: N chasers plus N/10 targets (ENTITIES = N).
# Environment: ENTITIES (default 1000), CARGO_TARGET_DIR (honoured), KEEP=dir to keep the callgrind outputs there
# (callgrind_annotate DIR/ENGINE-60.out gives the profile).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
entities="${ENTITIES:-1000}"
engines=("$@")
[ ${#engines[@]} -eq 0 ] && engines=(ac herc actor)

command -v valgrind >/dev/null || { echo "instructions.sh: valgrind not found" >&2; exit 1; }

# The profiling profile is the release code (same optimisation settings) with line
# tables (debug = 1), so callgrind can name the functions.
cargo build --profile profiling --quiet -p retroanim-cli
bin="${CARGO_TARGET_DIR:-$root/target}/profiling/retroanim"

out="${KEEP:-$(mktemp -d)}"
mkdir -p "$out"
[ -z "${KEEP:-}" ] && trap 'rm -rf "$out"' EXIT

ir() { # ENGINE TICKS -> total Ir
    local f="$out/$1-$2.out"
    valgrind --tool=callgrind --callgrind-out-file="$f" \
        "$bin" bench "$1" --entities "$entities" --ticks "$2" >/dev/null 2>"$out/$1-$2.log"
    awk '/^(summary|totals):/ { print $2; exit }' "$f"
}

printf '%-8s %14s %14s %12s\n' engine "Ir(60)" "Ir(20)" "Ir/entity-tick"
for e in "${engines[@]}"; do
    a=$(ir "$e" 60)
    b=$(ir "$e" 20)
    n="$entities"
    # ac-chase ticks its N chasers and their ceil(N/10) targets.
    [ "$e" = ac-chase ] && n=$((entities + (entities + 9) / 10))
    per=$(awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%.1f", (a - b) / (40 * n) }')
    printf '%-8s %14s %14s %12s\n' "$e" "$a" "$b" "$per"
done
