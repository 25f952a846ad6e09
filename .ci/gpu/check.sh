#!/usr/bin/env bash
# On a GPU machine, after unpack.sh: the bench's GPU sections (`npm run bench -- --device --gpu-only`)
# and then the Playwright specs, the GPU ones first, each phase under its own time limit so that what
# ran comes back. Logs and JSON go to $OUT (default /tmp/gpu-out). Usage: bash .ci/gpu/check.sh
# Env: BENCH_S (default 240), E2E_S (default 240), SCALING_S (WebGPU scaling rows' budget, default 90).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
out=${OUT:-/tmp/gpu-out}
mkdir -p "$out"
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
[ -x /opt/corl/chrome/chrome.sh ] || { echo 'check: run .ci/gpu/unpack.sh with every part first' >&2; exit 2; }
if [ ! -x node_modules/.bin/vite ]; then
  tar -xf /opt/corl/nm.tar && stamp "node_modules unpacked"
fi
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nproc; } >"$out/machine.txt" 2>&1
bash "$here/probe.sh" >"$out/probe.txt" 2>&1
# the first flag set whose adapter is not a fallback (software) one
flags=$(awk '/^flags: /{f=substr($0, 8)} /^PROBE \{/ && !/"fallback":true/ {print f; exit}' "$out/probe.txt")
if [ -n "$flags" ]; then export WEBGPU_FLAGS=$flags; fi
stamp "probe: WEBGPU_FLAGS=$WEBGPU_FLAGS ($(grep -c '^PROBE {' "$out/probe.txt") of $(grep -c '^flags' "$out/probe.txt") flag sets gave an adapter)"
timeout -k 10 "${BENCH_S:-240}" npm run -s bench -- --device --gpu-only --wasm none --app firstPoint \
  --scaling-budget-s "${SCALING_S:-90}" --kernel-cache /tmp/kernel-choices.json --out "$out/bench-device.json" \
  >/dev/null 2>"$out/bench.log"
stamp "bench rc $?"
left=$((${E2E_S:-240} + ${BENCH_S:-240} - ($(date +%s) - t0)))
gpu_specs="e2e/kernels.spec.ts e2e/model.spec.ts e2e/lean.spec.ts e2e/pipelines.spec.ts e2e/trainer.spec.ts
  e2e/autoHardware.spec.ts e2e/fallback.spec.ts e2e/firstpoint.spec.ts e2e/throughput.spec.ts e2e/guard.spec.ts
  e2e/train.spec.ts e2e/app.spec.ts"
CI=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$out/e2e-gpu.json" timeout -k 10 $((left + 20)) npx playwright test \
  --reporter=list,json --global-timeout=$((left * 1000)) $gpu_specs >"$out/e2e-gpu.log" 2>&1
stamp "e2e (GPU specs) rc $?"
left=$((${E2E_S:-240} + ${BENCH_S:-240} - ($(date +%s) - t0)))
if [ "$left" -gt 30 ]; then
  rest=$(ls e2e/*.spec.ts | grep -v -F -x -f <(echo "$gpu_specs" | tr ' ' '\n' | grep .) | tr '\n' ' ')
  CI=1 PLAYWRIGHT_JSON_OUTPUT_NAME="$out/e2e-rest.json" timeout -k 10 $((left + 20)) npx playwright test \
    --reporter=list,json --global-timeout=$((left * 1000)) $rest >"$out/e2e-rest.log" 2>&1
  stamp "e2e (the rest) rc $?"
fi
