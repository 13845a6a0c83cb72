// The `now` option (Unix seconds) of the functions that stamp or check events (nip59, agx): one
// reading of it and one error.
import { NostrError } from './errors.js';

/** options.now, a non-negative integer of seconds; the clock's seconds when it is absent. */
export function nowOf(options) {
  const now = options?.now;
  if (now === undefined) return Math.floor(Date.now() / 1000);
  if (!Number.isSafeInteger(now) || now < 0)
    throw new NostrError('INVALID_ARGUMENT', 'now must be a non-negative integer number of seconds');
  return now;
}
