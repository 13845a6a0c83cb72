// Hex <-> bytes, the encodings of ids, keys and signatures.
import { NostrError } from './errors.js';

const HEX = /* @__PURE__ */ Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function bytesToHex(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
  return out;
}

function nibble(c) {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

export function hexToBytes(hex) {
  if (typeof hex !== 'string') throw new NostrError('INVALID_HEX', 'expected a hex string');
  if (hex.length % 2 !== 0) throw new NostrError('INVALID_HEX', 'odd number of hex characters');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(hex.charCodeAt(2 * i));
    const lo = nibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) throw new NostrError('INVALID_HEX', 'non-hex character');
    out[i] = (hi << 4) | lo;
  }
  return out;
}

const LOWER_HEX_64 = /^[0-9a-f]{64}$/;
const LOWER_HEX_128 = /^[0-9a-f]{128}$/;
export const isHex32 = (s) => typeof s === 'string' && LOWER_HEX_64.test(s);
export const isHex64 = (s) => typeof s === 'string' && LOWER_HEX_128.test(s);
