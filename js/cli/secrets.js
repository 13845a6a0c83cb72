// API keys and device codes this process has seen. Every message the CLI prints passes through
// redact() (cli.js for errors, common.js for log and err lines), so a secret that reaches an error
// text anyway (a server echoing a header, a library quoting a value) is shown as [REDACTED].
const seen = new Set();

/** Registers `value` for redaction (values under 8 characters are too short to redact safely). */
export function rememberSecret(value) {
  if (typeof value === 'string' && value.length >= 8) seen.add(value);
  return value;
}

/** `text` with every remembered secret replaced by [REDACTED]. */
export function redact(text) {
  let s = String(text);
  for (const secret of seen) if (s.includes(secret)) s = s.split(secret).join('[REDACTED]');
  return s;
}

/**
 * An API key as the server issued it: 1 to 512 printable ASCII characters, no spaces, so it can
 * always go in a header (the login contract's "key shape"; Elladex keys are `ela_` + 64 letters).
 */
export function isWellFormedApiKey(value) {
  return typeof value === 'string' && /^[\x21-\x7e]{1,512}$/.test(value);
}

/** What `config show` prints instead of a key: its first 6 characters (the server's own `start`). */
export function maskKey(value) {
  return typeof value === 'string' && value.length > 12 ? `${value.slice(0, 6)}…` : '…';
}
