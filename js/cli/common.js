// What every command shares: exit codes, the error that carries one, option parsing, printing.
import { parseArgs } from 'node:util';
import { safeJson, sanitizeLine } from './sanitize.js';
import { redact } from './secrets.js';

/** Exit codes (docs/cli.md, "Exit codes"). */
export const EXIT = Object.freeze({
  OK: 0,
  FAILURE: 1, // anything unexpected
  USAGE: 2, // bad command line
  SETUP: 3, // identity, profile, config or file permissions
  RELAY: 4, // no relay reachable, or none accepted what we published
  TIMEOUT: 5, // no answer in time
  PEER: 6, // the peer or the directory refused or failed (task failed, ai.error, NIP-05 mismatch, an HTTP refusal)
  NOT_FOUND: 7, // nothing published or found (no Agent Card, no ai.info, no such listing)
  CHECK: 8, // doctor: a check failed
  AUTH: 9, // the directory refused the credential (invalid, expired, wrong organization), or a login was denied
  ACTION: 10, // a person has to act in a browser first (approve a login, confirm a public listing, accept the Terms)
  INTERRUPTED: 130, // Ctrl-C
});

export class CliError extends Error {
  constructor(exitCode, message, extra = {}) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
    Object.assign(this, extra);
  }
}

/** Options every command accepts. */
export const COMMON_OPTIONS = {
  profile: { type: 'string' },
  'passphrase-file': { type: 'string' }, // of an encrypted key file (cli/passphrase.js)
  relay: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** parseArgs with the common options; a bad command line is EXIT.USAGE. */
export function parse(argv, options, { min = 0, max = Infinity, usage = '' } = {}) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(EXIT.USAGE, `${err.message}${usage ? `\n${usage}` : ''}`);
  }
  const { values, positionals } = parsed;
  if (!values.help && (positionals.length < min || positionals.length > max))
    throw new CliError(EXIT.USAGE, `wrong number of arguments${usage ? `\n${usage}` : ''}`);
  return { values, positionals };
}

/** A number option, or `fallback`; EXIT.USAGE when it is not a number in range. */
export function numberOption(values, name, fallback, { min = 0, integer = false } = {}) {
  const v = values[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n)))
    throw new CliError(EXIT.USAGE, `--${name} must be ${integer ? 'an integer' : 'a number'} >= ${min}`);
  return n;
}

export const out = (line = '') => process.stdout.write(line + '\n');
export const err = (line = '') => process.stderr.write(redact(line) + '\n');
export const json = (value) => process.stdout.write(safeJson(value) + '\n');

/** A log line on stderr (text from peers must already be sanitized by the caller). */
export function log(line) {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${redact(line)}\n`);
}

/** A short, safe description of an error for a log line. */
export function describe(e) {
  if (!e) return 'unknown error';
  const code = e.code && typeof e.code === 'string' ? `${e.code}: ` : '';
  const msg = typeof e.message === 'string' ? e.message.replace(/^[A-Z][A-Z0-9_]+: /, '') : String(e);
  return sanitizeLine(redact(code + msg));
}

/** Resolves on the first SIGINT or SIGTERM (then the default handling is restored). */
export function untilSignal() {
  return new Promise((resolve) => {
    const on = (sig) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(sig);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
