// What happens when stdout's reader goes away (`vouch ... | head`): by default
// leave quietly (exit 0); while a run is live, cancel it instead so it ends
// recorded and resumable, children stopped.
let handler: (() => void) | null = null;

/** Install a handler for the time of a run; returns the function that removes it. */
export function onStdoutClosed(fn: () => void): () => void {
  handler = fn;
  return () => {
    if (handler === fn) handler = null;
  };
}

export function stdoutClosed(): void {
  if (handler) handler();
  else process.exit(0);
}
