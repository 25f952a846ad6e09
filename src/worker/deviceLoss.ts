// Telling a lost GPU device from other errors in the training worker (docs/architecture-runtime.md "Faults"):
// the WebGPU backend exposes `lost` (set from device.lost); tests fake one on the CPU backend.

/** What a backend says about its device (WebGpuBackend: `lost` from device.lost; tests fake one on the CPU). */
export type Losable = {
  lost?: { reason: string; message: string } | null;
  device?: { destroy(): void; lost?: Promise<{ reason: string; message: string }> };
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Why `backend`'s device is gone ("destroyed: …"), or null if it is not. An error from a lost device can
 * come a moment before device.lost settles: wait for it briefly.
 */
export async function lostReason(backend: unknown): Promise<string | null> {
  const l = backend as Losable | null;
  if (!l) return null;
  const show = (i: { reason: string; message: string }) =>
    `${i.reason}${i.message ? `: ${i.message.replace(/\.$/, '')}` : ''}`;
  if (l.lost) return show(l.lost);
  const p = l.device?.lost;
  if (!p) return null;
  const info = await Promise.race([p, sleep(300).then(() => null)]);
  return info ? show(info) : null;
}
