#!/usr/bin/env bash
# Prints the WebGPU adapter the carried Chromium gets with each flag set (one line each, PROBE ...).
set -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
probe() {
  echo "flags: $*"
  timeout 40 "$CHROMIUM_PATH" --headless --no-sandbox "$@" --virtual-time-budget=8000 \
    --dump-dom "file://$here/probe.html" 2>/tmp/probe.err | grep -o '<pre id="o">PROBE[^<]*' | sed 's/.*">//' || { echo 'PROBE (no output)'; tail -n 5 /tmp/probe.err; }
}
probe $WEBGPU_FLAGS
probe --enable-unsafe-webgpu --enable-features=Vulkan --use-vulkan=native --ignore-gpu-blocklist --disable-dev-shm-usage
probe --enable-unsafe-webgpu --ignore-gpu-blocklist --disable-dev-shm-usage
probe --enable-unsafe-webgpu
