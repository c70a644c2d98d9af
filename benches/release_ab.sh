#!/usr/bin/env bash
# Release speed of two commits in one sitting: every bench of each commit
# built once (`cargo bench --no-run`, default target), then run old, new,
# old, new, ... ROUNDS times, and each case's printed numbers shown as
# their range over the runs, old beside new. A bench's ratio to its
# baselines in the same run is the figure to compare (PERFORMANCE.md:
# the machine's speed moves between runs).
#
#   benches/release_ab.sh OLD [NEW]       # NEW defaults to HEAD
#   ROUNDS=3 BENCHES="linalg matmul" benches/release_ab.sh 77fa812
#
# Worktrees, target directories and logs go under target/release_ab/.
# Benches that one commit lacks are left out; `parallel` needs the
# `rayon` feature and is not run.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: benches/release_ab.sh OLD [NEW]}
new=${2:-HEAD}
rounds=${ROUNDS:-2}
root=target/release_ab
mkdir -p "$root/logs"
rm -f "$root"/logs/*.log

declare -A binaries
for side in old new; do
    rev=${!side}
    dir="$root/$side"
    git worktree remove --force "$dir" 2>/dev/null || true
    git worktree add --detach --force "$dir" "$rev" >/dev/null
    echo "building the benches of $side ($rev, $(git -C "$dir" rev-parse --short HEAD))" >&2
    while read -r name path; do
        binaries[$side.$name]=$path
    done < <(cd "$dir" && CARGO_TARGET_DIR="$PWD/../$side-target" cargo bench --no-run 2>&1 \
        | sed -n 's/.*Executable benches\/\([a-z_0-9]*\)\.rs (\(.*\))/\1 \2/p')
done

benches=${BENCHES:-$(for key in "${!binaries[@]}"; do echo "${key#*.}"; done | sort | uniq -d | grep -vx parallel)}
for round in $(seq "$rounds"); do
    for bench in $benches; do
        for side in old new; do
            binary=${binaries[$side.$bench]:-}
            [[ -n $binary ]] || continue
            (cd "$root/$side" && "$binary" --bench >"$PWD/../logs/$bench.$side.$round.log" 2>&1)
        done
    done
done

# Each line of a bench's output is a case: its label (text up to two
# spaces before a number), then its numbers. Each number's range over the
# rounds, old | new.
for bench in $benches; do
    echo "== $bench ($old | $new, $rounds runs each)"
    awk '
        FNR == 1 { side = (FILENAME ~ /\.old\./) ? "old" : "new" }
        match($0, /[^ ]  +-?[0-9]/) {
            label = substr($0, 1, RSTART); rest = substr($0, RSTART + 1)
            # A label printed twice in one run (a section per table) is
            # two cases.
            if (++occurrence[FILENAME, label] > 1) label = label " #" occurrence[FILENAME, label]
            if (!(label in seen)) { seen[label] = 1; order[++cases] = label }
            n = 0
            while (match(rest, /-?[0-9]+(\.[0-9]+)?(e[+-][0-9]+)?/)) {
                v = substr(rest, RSTART, RLENGTH) + 0; n++
                key = side SUBSEP label SUBSEP n
                if (!(key in lo) || v < lo[key]) lo[key] = v
                if (!(key in hi) || v > hi[key]) hi[key] = v
                rest = substr(rest, RSTART + RLENGTH)
            }
            if (n > count[label]) count[label] = n
        }
        function cells(side, label,   i, out, key) {
            out = ""
            for (i = 1; i <= count[label]; i++) {
                key = side SUBSEP label SUBSEP i
                if (!(key in lo)) return "-"
                out = out (i > 1 ? " " : "") (lo[key] == hi[key] ? lo[key] : lo[key] "-" hi[key])
            }
            return out
        }
        END {
            for (c = 1; c <= cases; c++)
                printf "%-44s | %s | %s\n", substr(order[c], 1, 44), cells("old", order[c]), cells("new", order[c])
        }
    ' "$root"/logs/"$bench".*.log
done
for side in old new; do git worktree remove --force "$root/$side"; done
