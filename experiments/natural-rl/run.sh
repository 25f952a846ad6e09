#!/bin/bash
# The natural presets' RL grid of docs/results.md: every preset of both task kinds, seeds 1-3, Co-RL, TTRL,
# GT and random (300 steps, test split), plus one 1-step run per preset with the live portrait's counts
# (S = 8 samples per agent and test problem at T = 1) for the separatrix table. Two at a time (WORKERS).
# Usage: [ONLY=addw-] [CONFIG_DIR=experiments/natural-rl/base-seed-2] bash experiments/natural-rl/run.sh [OUT_DIR (runs/natural)]; then npm run natural-report.
# A run whose JSON exists without an error is kept, so a rerun only does what is missing; a job being run
# holds OUT/NAME.lock, so two runners (REVERSE=1 walks the list backwards) share the grid.
set -u
out=${1:-runs/natural}
workers=${WORKERS:-2}
mkdir -p "$out"
jobs=()
for cfg in ${CONFIG_DIR:-experiments/natural-rl}/${ONLY:-}*.json; do
  name=$(basename "$cfg" .json)
  jobs+=("$cfg|$name-portrait|portrait")
  for s in 1 2 3; do jobs+=("$cfg|$name-s$s|$s"); done
done
run_one() {
  local cfg name seed rc
  IFS='|' read -r cfg name seed <<<"$1"
  [ -s "$out/$name.json" ] && grep -q '"error": null' "$out/$name.json" && return 0 # done already
  mkdir "$out/$name.lock" 2>/dev/null || return 0 # another runner has it
  if [ "$seed" = portrait ]; then
    node -e 'const c=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));c.name+="-portrait";c.steps=1;c.methods=["co-rl"];c.eval={...c.eval,every:1,portraitSamples:8};process.stdout.write(JSON.stringify(c))' "$cfg" >"$out/$name.config.json"
    nice npm run -s experiment -- --config "$out/$name.config.json" --out "$out/$name.json" >"$out/$name.log" 2>&1
  else
    nice npm run -s experiment -- --config "$cfg" --seed "$seed" --out "$out/$name.json" >"$out/$name.log" 2>&1
  fi
  rc=$?
  rmdir "$out/$name.lock"
  echo "$(date +%T) $name rc=$rc"
}
export -f run_one
export out
[ "${REVERSE:-}" = 1 ] && jobs=($(printf '%s\n' "${jobs[@]}" | tac))
printf '%s\n' "${jobs[@]}" | xargs -P "$workers" -I{} bash -c 'run_one "$@"' _ {}
