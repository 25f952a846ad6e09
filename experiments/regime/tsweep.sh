#!/usr/bin/env bash
# The rollout temperature as a lever (docs/regime-graded.md, "Rule S"): re-reads committed pair configs at other
# rollout temperatures T (the seed-only kappa of A5 is read at T = 0.8 whatever T is), 2,000 validation problems,
# sampling seed 1. Resumable: a read whose JSON exists is skipped.
# usage: nice -n 10 bash experiments/regime/tsweep.sh "0.6 0.7" CONFIG...
set -u
temps=$1; shift
out=runs/regime-probes/tsweep; mkdir -p "$out"
for cfg in "$@"; do
  for t in $temps; do
    name=$(basename "$cfg" .json)-T$t
    [ -f "$out/$name.json" ] && continue
    npm run -s regime -- --config "$cfg" --split validation --problems 2000 --seed 1 --temperature "$t" \
      --json "$out/$name.json" > "$out/$name.log" 2>&1 || echo "$name failed: see $out/$name.log"
  done
done
