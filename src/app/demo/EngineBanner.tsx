// Shows where training runs: the WebGPU adapter, or a banner explaining the fallback (the WebAssembly SIMD
// engine, or the CPU reference where WebAssembly SIMD is missing too).
import { useStore } from '../../store/store';

/** The kernel variant the wasm engine runs, from its adapter line (src/engine/wasm/wasmBackend.ts). */
function WasmKernels({ adapter }: { adapter: string }) {
  const relaxed = /relaxed-SIMD/.test(adapter);
  return (
    <span data-testid="engine-kernels" data-kernels={relaxed ? 'relaxed' : 'simd'}>
      {relaxed ? ' (kernels: relaxed SIMD, fused multiply-add)' : ' (kernels: SIMD128)'}
    </span>
  );
}

export function EngineBanner() {
  const backend = useStore((s) => s.backend);
  const adapter = useStore((s) => s.adapter);
  const reason = useStore((s) => s.fallbackReason);
  const note = useStore((s) => s.engineNote);
  if (backend === 'pending') return <div className="banner info">Looking for a GPU…</div>;
  if (backend === 'webgpu') {
    return (
      <div className="banner ok" data-testid="engine">
        WebGPU adapter: <strong>{adapter}</strong>
        {note && (
          <span className="small" data-testid="engine-note">
            {' '}
            · {note}
          </span>
        )}
      </div>
    );
  }
  // the user picked the CPU or wasm backend (src/engine/select.ts gives this reason): not a fallback
  if (/^WebAssembly backend chosen/.test(reason)) {
    return (
      <div className="banner info" data-testid="engine">
        Training runs on the <strong>WebAssembly SIMD engine</strong>
        <WasmKernels adapter={adapter} />, as chosen in the settings (WebGPU is not tried).
      </div>
    );
  }
  if (/^CPU backend chosen/.test(reason)) {
    return (
      <div className="banner info" data-testid="engine">
        Training runs on the <strong>CPU backend</strong>, as chosen in the settings (WebGPU is not tried).
      </div>
    );
  }
  // backend 'auto' timed a software adapter against the CPU engine and the CPU engine won: a choice, not a failure
  if (/^auto measured/.test(reason)) {
    return (
      <div className="banner info" data-testid="engine" data-engine={backend}>
        Training runs on the <strong>{backend === 'wasm' ? 'WebAssembly SIMD engine' : 'CPU backend'}</strong>
        {backend === 'wasm' && <WasmKernels adapter={adapter} />}:{' '}
        <span data-testid="engine-note">{reason}</span>
      </div>
    );
  }
  if (backend === 'wasm') {
    return (
      <div className="banner warn" role="alert" data-testid="fallback-banner" data-engine="wasm">
        <strong>WebGPU is unavailable, so training runs on the WebAssembly SIMD engine.</strong>
        <WasmKernels adapter={adapter} /> {reason}
      </div>
    );
  }
  return (
    <div className="banner warn" role="alert" data-testid="fallback-banner" data-engine="cpu">
      <strong>WebGPU is unavailable, so training runs on the CPU backend (slower).</strong> {reason}
    </div>
  );
}
