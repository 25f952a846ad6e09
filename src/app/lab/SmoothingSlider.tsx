// The charts' smoothing slider (TensorBoard's convention): 0 draws the raw lines; above 0 every chart
// draws the debiased exponential moving average bold over the faint raw line. The data stay as they are.
import { useStore } from '../../store/store';
import { MAX_SMOOTHING } from './smoothing';
import './lab.css';

export function SmoothingSlider({ testId = 'smoothing' }: { testId?: string }) {
  const w = useStore((s) => s.smoothing);
  const set = useStore((s) => s.setSmoothing);
  return (
    <label
      className="smoothing"
      title="Exponential moving average of every chart line (TensorBoard's smoothing): the bold line is smoothed, the faint one raw; the records are not changed."
    >
      Smoothing{' '}
      <input
        type="range"
        min={0}
        max={MAX_SMOOTHING}
        step={0.01}
        value={w}
        data-testid={testId}
        aria-valuetext={w.toFixed(2)}
        onChange={(e) => set(Number(e.target.value))}
      />{' '}
      <output>{w.toFixed(2)}</output>
    </label>
  );
}
