#!/usr/bin/env bash
# State per entity and memory lines per entity-tick (issue 26's method).
#
#   heap bytes per entity = (dhat peak of `retroanim bench ENGINE --entities 2N --ticks 50`
#                            − the same at N) / N                       (N = 1000)
#   lines per entity-tick = (last-level misses of `--ticks 60` − of `--ticks 20`) / (40 × M)
#     under cachegrind with a 4 MiB last level (the size of this machine's per-core L2),
#     at M = 100,000 entities, whose state is far larger than it: every line a steady
#     tick touches comes from memory once per tick, so this counts them.
#
# Usage: scripts/memory.sh [ENGINE...]   (default: ac herc)
# Environment: CARGO_TARGET_DIR (honoured), LINES_ENTITIES (default 100000; 0 skips cachegrind).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
engines=("$@")
[ ${#engines[@]} -eq 0 ] && engines=(ac herc)
m="${LINES_ENTITIES:-100000}"
command -v valgrind >/dev/null || { echo "memory.sh: valgrind not found" >&2; exit 1; }

cargo build --release --quiet -p retroanim-cli
bin="${CARGO_TARGET_DIR:-$root/target}/release/retroanim"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

peak() { # ENGINE N -> dhat peak bytes
    valgrind --tool=dhat --dhat-out-file="$out/dhat.json" "$bin" bench "$1" --entities "$2" \
        --ticks 50 2>&1 >/dev/null | awk '/At t-gmax:/ { gsub(",", "", $4); print $4; exit }'
}

misses() { # ENGINE TICKS -> "DLmr DLmw" totals
    valgrind --tool=cachegrind --cache-sim=yes --D1=49152,12,64 --LL=4194304,16,64 \
        --cachegrind-out-file="$out/cg.out" "$bin" bench "$1" --entities "$m" --ticks "$2" \
        >/dev/null 2>&1
    awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i }
         /^summary:/ { print $col["DLmr"], $col["DLmw"] }' "$out/cg.out"
}

printf '%-6s %12s %12s %10s %14s\n' engine "peak(1000)" "peak(2000)" "B/entity" "lines/ent-tick"
for e in "${engines[@]}"; do
    a=$(peak "$e" 1000)
    b=$(peak "$e" 2000)
    per=$(( (b - a) / 1000 ))
    lines=-
    if [ "$m" != 0 ]; then
        read -r r60 w60 <<<"$(misses "$e" 60)"
        read -r r20 w20 <<<"$(misses "$e" 20)"
        lines=$(awk -v a="$r60" -v b="$w60" -v c="$r20" -v d="$w20" -v m="$m" \
            'BEGIN { printf "%.2f (%.2f r + %.2f w)", (a + b - c - d) / (40 * m), (a - c) / (40 * m), (b - d) / (40 * m) }')
    fi
    printf '%-6s %12s %12s %10s %14s\n' "$e" "$a" "$b" "$per" "$lines"
done
