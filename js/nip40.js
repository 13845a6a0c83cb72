// NIP-40 expiration timestamps. Timestamps are unix seconds as numbers (nostr-tools' getExpiration
// returns a Date; here it is the tag's number, like created_at).
import { core, checked, throwLastError } from './core.js';
import { NostrError } from './errors.js';

function tagsOf(event) {
  if (event === null || typeof event !== 'object' || !Array.isArray(event.tags))
    throw new NostrError('INVALID_EVENT', 'event must have a tags array');
  return event.tags;
}

// The value of the first expiration tag ('' when the tag has none, which the core rejects), or
// undefined when there is no such tag. Only the first one counts.
function expirationValue(event) {
  const tag = tagsOf(event).find((t) => Array.isArray(t) && t[0] === 'expiration');
  if (!tag) return undefined;
  return typeof tag[1] === 'string' ? tag[1] : '';
}

/**
 * The expiration timestamp (unix seconds) of the first `expiration` tag, or undefined when there is
 * none. Throws NostrError INVALID_EXPIRATION unless its value is a plain decimal integer.
 */
export function getExpiration(event) {
  const value = expirationValue(event);
  if (value === undefined) return undefined;
  const t = core().nip40ParseExpiration(value);
  if (t < 0) throwLastError();
  return t;
}

/**
 * True from the expiration second on (now >= expiration: NIP-40 calls the timestamp the time at
 * which the event is to be deleted). False without an expiration tag. `now` is unix seconds and
 * defaults to the current time. Throws INVALID_EXPIRATION for a malformed tag.
 */
export function isEventExpired(event, now = Date.now() / 1000) {
  if (typeof now !== 'number' || Number.isNaN(now))
    throw new NostrError('INVALID_ARGUMENT', 'now must be a number of seconds');
  const value = expirationValue(event);
  if (value === undefined) return false;
  const r = core().nip40IsExpired(value, now);
  if (r < 0) throwLastError();
  return r === 1;
}

/**
 * A new template whose first `expiration` tag holds `timestamp` (later ones dropped, or a tag
 * appended when there is none). The input is not changed. Throws INVALID_EXPIRATION unless
 * timestamp is an integer from 0 to 2^53 - 1.
 */
export function withExpiration(template, timestamp) {
  const tags = tagsOf(template);
  const value = checked(core().nip40FormatExpiration(typeof timestamp === 'number' ? timestamp : NaN));
  const out = [];
  let placed = false;
  for (const t of tags) {
    if (Array.isArray(t) && t[0] === 'expiration') {
      if (placed) continue;
      out.push(['expiration', value]);
      placed = true;
    } else {
      out.push(Array.isArray(t) ? t.slice() : t);
    }
  }
  if (!placed) out.push(['expiration', value]);
  return { ...template, tags: out };
}
