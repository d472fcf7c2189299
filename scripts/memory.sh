#!/usr/bin/env bash
# State per entity, hot state per entity and memory lines per entity-tick (issue 26's method).
#
#   heap bytes per entity = (dhat peak of `retroanim bench ENGINE --entities 2N --ticks 50`
#                            − the same at N) / N                       (N = 1000)
#   hot bytes per entity  = the same difference, summed over the allocation sites whose
#     blocks the steady tick reads or writes: dhat counts the bytes read and written per
#     site, and a site is hot when `--ticks 100` accesses its blocks at least
#     HOT_MIN (default 1) byte per entity-tick more than `--ticks 50` does at N entities.
#     The sites and their bytes are listed with HOT_SITES=1.
#   lines per entity-tick = (last-level misses of `--ticks 60` − of `--ticks 20`) / (40 × M)
#     under cachegrind with a 4 MiB last level (the size of this machine's per-core L2),
#     at M = 100,000 entities, whose state is far larger than it: every line a steady
#     tick touches comes from memory once per tick, so this counts them.
#
# dhat runs the profiling build (the release code with line tables, so that sites have
# names; it allocates exactly as the release build does), cachegrind the release build.
#
# Usage: scripts/memory.sh [ENGINE...]   (default: ac herc)
# Environment: CARGO_TARGET_DIR (honoured), LINES_ENTITIES (default 100000; 0 skips
# cachegrind), HOT_MIN, HOT_SITES.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
engines=("$@")
[ ${#engines[@]} -eq 0 ] && engines=(ac herc)
m="${LINES_ENTITIES:-100000}"
command -v valgrind >/dev/null || { echo "memory.sh: valgrind not found" >&2; exit 1; }
command -v python3 >/dev/null || { echo "memory.sh: python3 not found" >&2; exit 1; }

cargo build --release --quiet -p retroanim-cli
cargo build --profile profiling --quiet -p retroanim-cli
bin="${CARGO_TARGET_DIR:-$root/target}/release/retroanim"
prof="${CARGO_TARGET_DIR:-$root/target}/profiling/retroanim"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

peak() { # ENGINE N TICKS -> dhat peak bytes; the profile is left in $out/ENGINE-N-TICKS.json
    valgrind --tool=dhat --dhat-out-file="$out/$1-$2-$3.json" "$prof" bench "$1" \
        --entities "$2" --ticks "$3" 2>&1 >/dev/null |
        awk '/At t-gmax:/ { gsub(",", "", $4); print $4; exit }'
}

hot() { # ENGINE -> hot bytes per entity (from the three profiles)
    python3 - "$out/$1-1000-50.json" "$out/$1-2000-50.json" "$out/$1-1000-100.json" \
        "${HOT_MIN:-1}" "${HOT_SITES:-}" <<'PY'
import json, sys
a, b, long_run, hot_min, show = sys.argv[1:6]
def sites(path):
    d = json.load(open(path))
    ft = d["ftbl"]
    out = {}
    for p in d["pps"]:
        key = tuple(ft[i].split(": ", 1)[-1] for i in p["fs"])
        s = out.setdefault(key, [0, 0])
        s[0] += p["gb"]
        s[1] += p["rb"] + p["wb"]
    return out
small, big, longer = sites(a), sites(b), sites(long_run)
hot = 0
for key, (gb, acc) in big.items():
    per = (gb - small.get(key, [0, 0])[0]) / 1000
    touched = (longer.get(key, [0, 0])[1] - small.get(key, [0, 0])[1]) / (50 * 1000)
    if per > 0 and touched >= float(hot_min):
        hot += per
    if show and per > 0:
        # The first frame in this workspace past the allocator: its file has no
        # directory in the name (the standard library's and other crates' frames do).
        where = next((f for f in key if "(" in f and "/" not in f.split("(")[-1]
                      and "alloc" not in f.split(" (")[0]), "?")
        print(f"  {per:8.1f} B/entity  {touched:8.2f} B accessed/entity-tick  {where}", file=sys.stderr)
print(round(hot))
PY
}

misses() { # ENGINE TICKS -> "DLmr DLmw" totals
    valgrind --tool=cachegrind --cache-sim=yes --D1=49152,12,64 --LL=4194304,16,64 \
        --cachegrind-out-file="$out/cg.out" "$bin" bench "$1" --entities "$m" --ticks "$2" \
        >/dev/null 2>&1
    awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i }
         /^summary:/ { print $col["DLmr"], $col["DLmw"] }' "$out/cg.out"
}

printf '%-6s %12s %12s %10s %14s %14s\n' engine "peak(1000)" "peak(2000)" "B/entity" "hot B/entity" "lines/ent-tick"
for e in "${engines[@]}"; do
    a=$(peak "$e" 1000 50)
    b=$(peak "$e" 2000 50)
    peak "$e" 1000 100 >/dev/null
    per=$(( (b - a) / 1000 ))
    h=$(hot "$e")
    lines=-
    if [ "$m" != 0 ]; then
        read -r r60 w60 <<<"$(misses "$e" 60)"
        read -r r20 w20 <<<"$(misses "$e" 20)"
        lines=$(awk -v a="$r60" -v b="$w60" -v c="$r20" -v d="$w20" -v m="$m" \
            'BEGIN { printf "%.2f (%.2f r + %.2f w)", (a + b - c - d) / (40 * m), (a - c) / (40 * m), (b - d) / (40 * m) }')
    fi
    printf '%-6s %12s %12s %10s %14s %14s\n' "$e" "$a" "$b" "$per" "$h" "$lines"
done
