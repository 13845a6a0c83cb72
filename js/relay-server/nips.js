// Event classification and tag helpers shared by the stores and the relay (NIP-01, 09, 13, 40).

export const isReplaceable = (k) => k === 0 || k === 3 || (k >= 10000 && k < 20000);
export const isEphemeral = (k) => k >= 20000 && k < 30000;
export const isAddressable = (k) => k >= 30000 && k < 40000;

/** Value of the first tag named `name` (its second element), or undefined. */
export function tagValue(evt, name) {
  for (const t of evt.tags) if (t[0] === name && t.length >= 2) return t[1];
  return undefined;
}

/**
 * Key under which a replaceable or addressable event replaces its older versions
 * ("kind:pubkey:d", as in NIP-01 `a` tags); undefined for the other kinds.
 */
export function replacementKey(evt) {
  if (isReplaceable(evt.kind)) return `${evt.kind}:${evt.pubkey}:`;
  if (isAddressable(evt.kind)) return `${evt.kind}:${evt.pubkey}:${tagValue(evt, 'd') ?? ''}`;
  return undefined;
}

/** True when `a` should be kept over `b` for the same replacement key: newer, then lowest id. */
export function supersedes(a, b) {
  return a.created_at > b.created_at || (a.created_at === b.created_at && a.id < b.id);
}

/** NIP-40 expiration timestamp, or undefined when absent or not a decimal integer. */
export function expirationOf(evt) {
  const v = tagValue(evt, 'expiration');
  if (v === undefined || !/^\d{1,15}$/.test(v)) return undefined;
  return Number(v);
}

/** Leading zero bits of a hex id (NIP-13 difficulty). */
export function leadingZeroBits(hex) {
  let bits = 0;
  for (let i = 0; i < hex.length; i++) {
    const nibble = parseInt(hex[i], 16);
    if (nibble === 0) {
      bits += 4;
      continue;
    }
    return bits + Math.clz32(nibble) - 28;
  }
  return bits;
}

export const now = () => Math.floor(Date.now() / 1000);

/** A single-letter tag filter key ("#e") the core matches: '#' plus one ASCII character. */
export function isTagKey(key) {
  return key.length === 2 && key[0] === '#' && key.charCodeAt(1) < 128;
}

/** The NIP-09 targets of a deletion request: ids (e tags) and addresses (a tags) of its author. */
export function deletionTargets(del) {
  const ids = [];
  const addresses = [];
  for (const t of del.tags) {
    if (t.length < 2) continue;
    if (t[0] === 'e') ids.push(t[1]);
    else if (t[0] === 'a') {
      const parts = t[1].split(':');
      if (parts.length < 3) continue;
      const kind = Number(parts[0]);
      // Only the author's own addresses; `a` values are "kind:pubkey:d" (d may contain ':').
      if (parts[1] !== del.pubkey || !Number.isInteger(kind)) continue;
      addresses.push(`${kind}:${parts[1]}:${parts.slice(2).join(':')}`);
    }
  }
  return { ids, addresses };
}
