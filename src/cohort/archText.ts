// How an agent's `arch` override reads in a preset's agent list (src/app/train/NaturalPresetInfo.tsx): each
// field it changes, in words, so a user sees what two agents of one family differ in.
import type { AgentSpec } from './agent';

const POSITIONS: Record<string, string> = { rope: 'rotary positions', learned: 'learned positions' };

/** E.g. " narrowed to 24 wide", " with rotary positions, 4 heads"; '' without an override. */
export function archOverrideText(arch: AgentSpec['arch']): string {
  if (!arch) return '';
  const parts: string[] = [];
  if (arch.pos !== undefined) parts.push(POSITIONS[arch.pos] ?? `${arch.pos} positions`);
  if (arch.nHead !== undefined) parts.push(`${arch.nHead} heads`);
  if (arch.nLayer !== undefined) parts.push(`${arch.nLayer} blocks`);
  if (arch.mlpRatio !== undefined) parts.push(`MLP x${arch.mlpRatio}`);
  if (arch.blockSize !== undefined) parts.push(`context ${arch.blockSize}`);
  const width = arch.nEmbd !== undefined ? ` narrowed to ${arch.nEmbd} wide` : '';
  return `${width}${parts.length ? `${width ? ',' : ''} with ${parts.join(', ')}` : ''}`;
}
