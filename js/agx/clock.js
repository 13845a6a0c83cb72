// The one clock of an AGX endpoint: milliseconds, and the one timer the endpoint arms (the core's
// next deadline). The public `now` option stays what it was, a function returning unix seconds; it
// is read here and nowhere else, so an injected clock moves every deadline of the endpoint (request
// and input timeouts, catch-up polls, result retries) and every wire time with it.
import { NostrError } from '../errors.js';

/** { ms(), seconds(), after(delayMs, fn) -> cancel } over `now` (() => unix seconds) or the system clock. */
export function agxClock(now) {
  if (now !== undefined && typeof now !== 'function') throw new NostrError('INVALID_ARGUMENT', 'now must be a function returning unix seconds');
  const ms = now ? () => Math.floor(now() * 1000) : () => Date.now();
  return {
    ms,
    seconds: () => Math.floor(ms() / 1000),
    // A real timer for a span of the clock above: the host checks the clock again when it fires.
    after(delay, fn) {
      const t = setTimeout(fn, Math.max(0, Math.min(delay, 0x7fffffff)));
      return () => clearTimeout(t);
    },
  };
}
