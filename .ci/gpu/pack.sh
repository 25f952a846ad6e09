#!/usr/bin/env bash
# Packs what a GPU machine with no network needs to run `npm run bench -- --device` and the Playwright
# specs (docs/performance-gpu.md): Debian's Chromium headless shell with the libraries it links (read off
# this machine, which needs `apt-get install chromium` first), a font, this machine's Node and npm, and
# node_modules without the lint and build tools. The kit is split into parts of at most PART_MB (default
# 54) megabytes, one carry folder each: .dev/gpu/p0, p1, ... (.dev/ is ignored through .git/info/exclude).
set -euo pipefail
cd "$(dirname "$0")/../.."
part_mb=${PART_MB:-54}
dest=.dev/gpu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -qx '/.dev/' .git/info/exclude 2>/dev/null || echo '/.dev/' >>.git/info/exclude
[ -d node_modules ] || { echo 'pack: run npm ci first' >&2; exit 2; }
(cd "$work" && apt-get download chromium-headless-shell chromium-common >/dev/null)
for d in "$work"/*.deb; do dpkg -x "$d" "$work/x"; done
src=$work/x/usr/lib/chromium
kit=$work/kit/chrome
mkdir -p "$kit/bin/locales" "$kit/lib" "$kit/fonts"
for f in chromium-headless-shell chrome_crashpad_handler icudtl.dat v8_context_snapshot.bin snapshot_blob.bin \
  headless_lib_data.pak headless_lib_strings.pak headless_command_resources.pak libEGL.so libGLESv2.so libvulkan.so.1; do
  cp -a "$src/$f" "$kit/bin/"
done
cp "$src/locales/en-US.pak" "$kit/bin/locales/"
# the shared libraries the browser, ANGLE and the Vulkan loader link, but not the C/C++ runtime (the GPU
# machine's own, newer, serves those)
libs=$(LD_LIBRARY_PATH=$src ldd "$src/chromium-headless-shell" "$src/libEGL.so" "$src/libGLESv2.so" "$src/libvulkan.so.1")
if grep -q 'not found' <<<"$libs"; then
  grep 'not found' <<<"$libs" | sort -u >&2
  echo 'pack: libraries missing here; apt-get install chromium-headless-shell brings them' >&2
  exit 2
fi
awk '/=> \//{print $3}' <<<"$libs" | sort -u | grep -v -E '/(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+)\.so' |
  while read -r l; do cp -L "$l" "$kit/lib/"; done
for l in libsoftokn3.so libfreeblpriv3.so libnssckbi.so; do # NSS loads these at run time
  cp -L "/usr/lib/x86_64-linux-gnu/$l" "$kit/lib/" 2>/dev/null || cp -L "/usr/lib/x86_64-linux-gnu/nss/$l" "$kit/lib/"
done
cp -L /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf "$kit/fonts/"
cat >"$kit/fonts/fonts.conf" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/opt/corl/chrome/fonts</dir>
  <cachedir>/tmp/fccache</cachedir>
</fontconfig>
XML
cp "$(command -v node)" "$work/kit/node"
tar -C "$(npm root -g)" -cf "$work/kit/npm.tar" npm
# node_modules without what only lint, typecheck and the wasm build use
ex=()
for m in binaryen typescript eslint 'eslint-*' @eslint @eslint-community @typescript-eslint typescript-eslint knip \
  'oxc-*' '@oxc-*' jscpd 'jscpd-*' @jscpd prettier dependency-cruiser assemblyscript @types zod caniuse-lite; do
  ex+=("--exclude=./node_modules/$m")
done
tar -cf "$work/kit/nm.tar" "${ex[@]}" --exclude='*.map' --exclude='*.d.ts' --exclude='*.d.mts' --exclude='*.d.cts' \
  --exclude='*.md' --exclude='./node_modules/@tensorflow/*/src' --exclude='*/miniprogram' --exclude='./node_modules/.cache' \
  --exclude='./node_modules/.vite' ./node_modules
tar -C "$work/kit" -cf - chrome node npm.tar nm.tar | xz -T0 -9 >"$work/kit.tar.xz"
rm -rf "$dest"
mkdir -p "$dest"
split -b "${part_mb}m" -d -a 1 "$work/kit.tar.xz" "$work/kit.part."
n=0
for p in "$work"/kit.part.*; do
  mkdir -p "$dest/p$n"
  mv "$p" "$dest/p$n/"
  n=$((n + 1))
done
(cd "$dest" && sha256sum p*/kit.part.* | sed 's#p[0-9]*/##' >kit.sha256)
for d in "$dest"/p*; do cp "$dest/kit.sha256" "$d/"; done
du -sh "$dest"/p*
echo "pack: $n parts; carry one a call: .dev/gpu/p0 ... .dev/gpu/p$((n - 1)) (docs/performance-gpu.md)"
