// WebGPU adapter and device acquisition, with a clear message when WebGPU is missing.
// Follows the WebGPU spec's requestAdapter/requestDevice flow; asks for the adapter's limits.

/** Thrown when WebGPU cannot be used; `message` says what is missing and how to fix it. */
export class WebGpuUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebGpuUnavailableError';
  }
}

export interface AcquiredDevice {
  adapter: GPUAdapter;
  device: GPUDevice;
  /** "vendor architecture (description)" of the adapter. */
  adapterName: string;
  features: string[];
  /** A software adapter: SwiftShader by name, or one the adapter info marks as a fallback adapter. */
  software: boolean;
}

const HOWTO =
  'Use a recent Chrome or Edge (113+) on a machine with a supported GPU; on Linux or in headless ' +
  'Chromium start it with --enable-unsafe-webgpu (the page must be served over https or from localhost). ' +
  'The CPU backend runs everywhere, only slower.';

/** Request an adapter and a device; throws WebGpuUnavailableError with the reason and the fix. */
export async function acquireDevice(
  powerPreference: GPUPowerPreference = 'high-performance',
): Promise<AcquiredDevice> {
  const nav = (globalThis as { navigator?: Navigator }).navigator;
  if (!nav || !('gpu' in nav) || !nav.gpu) {
    const insecure = typeof isSecureContext !== 'undefined' && !isSecureContext;
    throw new WebGpuUnavailableError(
      `WebGPU is not available in this ${nav ? 'browser' : 'environment'}` +
        (insecure ? ' because the page is not a secure context' : '') +
        `. ${HOWTO}`,
    );
  }
  const adapter = await nav.gpu.requestAdapter({ powerPreference });
  if (!adapter) throw new WebGpuUnavailableError(`WebGPU is present but no GPU adapter was found. ${HOWTO}`);
  const wanted: GPUFeatureName[] = ['timestamp-query', 'subgroups'];
  const features = wanted.filter((f) => adapter.features.has(f));
  const lim = adapter.limits;
  const device = await adapter.requestDevice({
    requiredFeatures: features,
    requiredLimits: {
      maxStorageBufferBindingSize: lim.maxStorageBufferBindingSize,
      maxBufferSize: lim.maxBufferSize,
      maxComputeWorkgroupStorageSize: lim.maxComputeWorkgroupStorageSize,
      maxComputeInvocationsPerWorkgroup: lim.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: lim.maxComputeWorkgroupSizeX,
      maxStorageBuffersPerShaderStage: lim.maxStorageBuffersPerShaderStage,
    },
  });
  const i = adapter.info;
  const adapterName =
    [i.vendor, i.architecture, i.description].filter(Boolean).join(' ') || 'unknown adapter';
  const fallback =
    (i as { isFallbackAdapter?: boolean }).isFallbackAdapter === true ||
    (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter === true;
  return { adapter, device, adapterName, features, software: fallback || /swiftshader/i.test(adapterName) };
}
