// Shows where training runs: the WebGPU adapter, or a banner explaining the CPU fallback.
import { useStore } from '../../store/store';

export function EngineBanner() {
  const backend = useStore((s) => s.backend);
  const adapter = useStore((s) => s.adapter);
  const reason = useStore((s) => s.fallbackReason);
  if (backend === 'pending') return <div className="banner info">Looking for a GPU…</div>;
  if (backend === 'webgpu') {
    return (
      <div className="banner ok" data-testid="engine">
        WebGPU adapter: <strong>{adapter}</strong>
      </div>
    );
  }
  return (
    <div className="banner warn" role="alert" data-testid="fallback-banner">
      <strong>WebGPU is unavailable, so training runs on the CPU backend (slower).</strong> {reason}
    </div>
  );
}
