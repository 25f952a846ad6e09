#!/usr/bin/env bash
# On a GPU machine with no network: collects the parts of the kit made by .ci/gpu/pack.sh, one carried
# folder a call, in /opt/corl/parts; once all are there (kit.sha256), unpacks Chromium, Node, npm and
# node_modules (docs/performance-gpu.md). Usage: bash .ci/gpu/unpack.sh .dev/gpu/pN
# Exits 0 with "have k of n parts" until the last part has come, 0 once unpacked, 1 on a damaged part.
set -euo pipefail
root=/opt/corl
mkdir -p "$root/parts"
cp "$1"/kit.part.* "$1"/kit.sha256 "$root/parts/"
cd "$root"
if [ ! -x chrome/chrome.sh ]; then
  n=$(wc -l <parts/kit.sha256)
  have=$(ls parts/kit.part.* | wc -l)
  if [ "$have" -lt "$n" ]; then
    echo "have $have of $n parts"
    exit 0
  fi
  (cd parts && sha256sum -c --quiet kit.sha256)
  cat parts/kit.part.* | xz -dc | tar -x
  tar -xf npm.tar && rm npm.tar
  mkdir -p bin
  ln -sf ../node bin/node
  ln -sf ../npm/bin/npm-cli.js bin/npm
  ln -sf ../npm/bin/npx-cli.js bin/npx
  cat >chrome/chrome.sh <<'SH'
#!/bin/sh
# Debian's headless shell with the libraries it was packed with, ahead of the system's.
export LD_LIBRARY_PATH=/opt/corl/chrome/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export FONTCONFIG_FILE=/opt/corl/chrome/fonts/fonts.conf
exec /opt/corl/chrome/bin/chromium-headless-shell "$@"
SH
  chmod +x chrome/chrome.sh
fi
echo "unpacked in $root: node $(bin/node --version), npm $(PATH=$root/bin:$PATH npm --version)"
