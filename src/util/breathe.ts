// Letting a busy thread's messages in: a long computation that awaits only promises keeps the event loop
// from running, so a worker's or a pool's messages (a cancel, another worker's reply) wait until it ends.
// Awaiting `breather()`'s function after each step yields one macrotask at most every `everyMs` of work.

/** One turn of the event loop (setImmediate where the runtime has it, as Node; else a MessageChannel message). */
export function macrotask(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((r) => setImmediate(r));
  return new Promise((r) => {
    const c = new MessageChannel();
    c.port1.onmessage = () => {
      c.port1.close();
      r();
    };
    c.port2.postMessage(null);
  });
}

/** A function to await after each step: a macrotask when `everyMs` have passed since the last one, else nothing. */
export function breather(everyMs = 20): () => Promise<void> {
  let last = performance.now();
  return async () => {
    const now = performance.now();
    if (now - last < everyMs) return;
    await macrotask();
    last = performance.now();
  };
}
