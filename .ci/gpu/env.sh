# Sourced by the GPU-machine scripts: where the carried tools live and the NVIDIA Vulkan driver.
export PATH=/opt/corl/bin:$PATH
export CHROMIUM_PATH=/opt/corl/chrome/chrome.sh
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] || icd=$(ls /usr/share/vulkan/icd.d/nvidia_icd*.json /etc/vulkan/icd.d/nvidia_icd*.json 2>/dev/null | head -n 1)
if [ -n "$icd" ]; then
  export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
fi
# The headless recipe for a hardware Vulkan adapter (software SwiftShader is not carried).
export WEBGPU_FLAGS=${WEBGPU_FLAGS:---enable-unsafe-webgpu --enable-features=Vulkan --use-angle=vulkan --disable-vulkan-surface --ignore-gpu-blocklist --disable-dev-shm-usage}
