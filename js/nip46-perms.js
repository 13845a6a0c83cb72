// NIP-46 permissions on the bunker side: what a client asked for at connect (`perms`, e.g.
// "sign_event:1,nip44_encrypt"), what the bunker lets a connection grant, and the check of one
// request against what was granted.
import { NostrError } from './errors.js';

/** Methods a perm can name; connect, ping, get_public_key and switch_relays need none. */
const GUARDED = new Set(['sign_event', 'nip44_encrypt', 'nip44_decrypt']);

/** Everything the bunker can do: the default ceiling of what a connection may be granted. */
export const ALL_PERMS = /* @__PURE__ */ Object.freeze(['sign_event', 'nip44_encrypt', 'nip44_decrypt']);

const KIND = /^(0|[1-9]\d{0,9})$/;

/** One perm in its canonical form ("sign_event", "sign_event:<kind>", "nip44_…"), or null. */
function canonical(perm) {
  if (typeof perm !== 'string') return null;
  const p = perm.trim();
  const colon = p.indexOf(':');
  const method = colon < 0 ? p : p.slice(0, colon);
  if (!GUARDED.has(method)) return null;
  if (colon < 0) return method;
  const arg = p.slice(colon + 1);
  // Only sign_event takes an argument (the kind); "nip44_encrypt:x" names nothing we know.
  if (method !== 'sign_event' || !KIND.test(arg) || Number(arg) > 0xffffffff) return null;
  return `sign_event:${Number(arg)}`;
}

/**
 * A client's perms (a comma-separated string or a list) as a sorted list of the ones the bunker
 * knows; unknown ones (nip04_*, get_relays, junk) are dropped.
 */
export function parsePerms(perms) {
  const list = typeof perms === 'string' ? perms.split(',') : Array.isArray(perms) ? perms : [];
  const out = new Set();
  for (const p of list.slice(0, 256)) {
    const c = canonical(p);
    if (c) out.add(c);
  }
  return [...out].sort();
}

/** A perms option of startBunker as its canonical list; INVALID_ARGUMENT for anything unknown. */
export function permsOption(perms, name) {
  if (!Array.isArray(perms) || !perms.every((p) => canonical(p) !== null))
    throw new NostrError('INVALID_ARGUMENT', `${name} must be a list of NIP-46 perms: sign_event, sign_event:<kind>, nip44_encrypt, nip44_decrypt`);
  return parsePerms(perms);
}

/** True when `granted` (canonical perms) allows `method`, for sign_event of `kind`. */
export function permits(granted, method, kind) {
  if (!GUARDED.has(method)) return true;
  if (granted.includes(method)) return true;
  return method === 'sign_event' && Number.isInteger(kind) && granted.includes(`sign_event:${kind}`);
}

/** What of `requested` the `ceiling` allows: "sign_event" asked under "sign_event:1" stays unasked. */
export function grantPerms(requested, ceiling) {
  return requested.filter((p) => {
    const [method, kind] = p.split(':');
    return kind === undefined ? ceiling.includes(method) : permits(ceiling, method, Number(kind));
  });
}

/** The perm a request needs ("sign_event:4"), for the refusal message. */
export function neededPerm(method, kind) {
  return method === 'sign_event' && Number.isInteger(kind) ? `sign_event:${kind}` : method;
}
