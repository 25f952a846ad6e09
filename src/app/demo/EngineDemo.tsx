// The engine demo view: where training runs (adapter or CPU fallback) and a live supervised addition demo.
import { useState } from 'react';
import { useStore } from '../../store/store';
import { startDemo, stopDemo } from '../../store/demoBridge';
import { EngineBanner } from './EngineBanner';
import { LossChart } from './LossChart';

export function EngineDemo() {
  const status = useStore((s) => s.demoStatus);
  const message = useStore((s) => s.demoMessage);
  const accuracy = useStore((s) => s.demoAccuracy);
  const points = useStore((s) => s.losses.length);
  const [steps, setSteps] = useState(300);
  const [backend, setBackend] = useState<'auto' | 'cpu'>('auto');

  return (
    <div className="demo-view">
      <p className="placeholder-note" data-testid="placeholder-note">
        <strong>Placeholder page</strong> of the engine: it checks the GPU and trains one small transformer on
        2-digit addition, live, to show the engine learning. The training playground (cohorts of small agents
        grading each other with Co-RL, side-by-side baselines, live charts) is in the{' '}
        <a href="#train">Train</a> view, and the Theory view is live too: the two-agent dynamics, the worked
        example and a tabular simulation.
      </p>
      <EngineBanner />
      <section className="controls">
        <label>
          Steps{' '}
          <input
            type="number"
            min={10}
            max={5000}
            value={steps}
            onChange={(e) => setSteps(Number(e.target.value))}
          />
        </label>
        <label>
          Backend{' '}
          <select value={backend} onChange={(e) => setBackend(e.target.value as 'auto' | 'cpu')}>
            <option value="auto">WebGPU (CPU if unavailable)</option>
            <option value="cpu">CPU reference</option>
          </select>
        </label>
        <button data-testid="start" onClick={() => startDemo(steps, backend)} disabled={status === 'running'}>
          Train
        </button>
        <button data-testid="stop" onClick={stopDemo} disabled={status !== 'running'}>
          Stop
        </button>
        <span className="status" data-testid="status">
          {status === 'running' && `Training… step ${points}`}
          {status === 'done' && `${message} Held-out accuracy: ${((accuracy ?? 0) * 100).toFixed(1)}%`}
          {status === 'error' && <span className="error">Error: {message}</span>}
        </span>
      </section>
      <LossChart />
      <p className="help">
        The model (2 layers, 4 heads, width 40, about 40k parameters) reads prompts like <code>37+05=</code>{' '}
        and is trained with next-token cross-entropy on the answer <code>#42</code>. Held-out problems are
        never trained on; the accuracy is greedy exact answers on 200 of them.
      </p>
    </div>
  );
}
