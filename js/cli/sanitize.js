// Text from peers (messages, subjects, agent answers, tool names, relay notices) is attacker-
// controlled: before it reaches a terminal every control character and escape-sequence introducer
// is shown as a visible escape, so a peer cannot move the cursor, retitle the window, rewrite
// earlier lines (\r) or hide text behind bidi overrides.

// C0 (but \n and \t, kept in multi-line text), DEL, C1 (U+0080..U+009F: 8-bit CSI/OSC), line and
// paragraph separators, bidi embeddings/overrides/isolates, and lone surrogates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const UNSAFE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeChar(c) {
  const n = c.charCodeAt(0);
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  if (c === '\r') return '\\r';
  if (n >= 0xd800 && n <= 0xdfff) return '\ufffd';
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
}

/** Multi-line peer text: keeps \n and \t, escapes everything else that a terminal would act on. */
export function sanitizeText(value) {
  return String(value).replace(UNSAFE, escapeChar);
}

/** One-line peer text (names, subjects, reasons): \n and \t are escaped too. */
export function sanitizeLine(value) {
  return String(value).replace(UNSAFE_LINE, escapeChar);
}

// JSON.stringify already escapes C0 and lone surrogates; the rest of what a terminal may act on
// (DEL, C1, separators, bidi controls) is escaped here so `--json` stays safe to print and parses
// to the same value.
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** JSON text with every terminal-active character as a \uXXXX escape. */
export function safeJson(value, space) {
  return JSON.stringify(value, null, space).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
