// The warning banner for a fault the training worker handled: a divergence (the run paused, the lock step
// rolled back) or a lost GPU device (recreated, agents reloaded). Dismissible; the text is the worker's.
import { useEffect } from 'react';
import { useStore } from '../../store/store';
import { installGuard } from '../../store/guardBridge';
import './share.css'; // the notice layout (.url-notice-head) it shares with UrlNotice

const TITLES = {
  diverged: 'Training diverged',
  deviceLost: 'GPU device lost',
  recovered: 'GPU device recovered',
  ignored: 'Test hook ignored',
} as const;

export function GuardNotice() {
  const guard = useStore((s) => s.runStatus.guard);
  const setRunStatus = useStore((s) => s.setRunStatus);
  useEffect(installGuard, []);
  if (!guard) return null;
  return (
    <div
      className="banner warn url-notice"
      role="status"
      data-testid="guard-notice"
      data-kind={guard.kind}
      data-step={guard.step}
    >
      <div className="url-notice-head">
        <strong>{TITLES[guard.kind]}</strong>
        <button
          type="button"
          className="dismiss"
          data-testid="guard-dismiss"
          aria-label="Dismiss the notice"
          onClick={() => setRunStatus({ guard: null })}
        >
          ×
        </button>
      </div>
      <p className="small guard-message" data-testid="guard-message">
        {guard.message}
      </p>
    </div>
  );
}
