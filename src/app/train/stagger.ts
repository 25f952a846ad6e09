// Staggered chart updates (src/app/train/MetricChart.tsx): each chart draws new data a little after the last,
// in its own task. A throttle, not a debounce: a value arriving while one is pending does not restart the
// wait, so a stream faster than the delay (a busy page, many charts) still shows its latest value once per
// delay instead of never.

/** Calls `show` with the latest pushed value at most once per `delayMs`, at most `delayMs` after a push. */
export function makeStagger<T>(
  delayMs: number,
  show: (value: T) => void,
): { push(value: T): void; cancel(): void } {
  let latest: T;
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    push(value) {
      latest = value;
      if (timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        show(latest);
      }, delayMs);
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
