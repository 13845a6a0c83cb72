// Where the directory is and which key and organization a directory command uses.
//
//   apiBaseUrl: AGX_API_URL, then the profile's config (`config set apiBaseUrl`), then Elladex.
//   API key:    AGX_API_KEY, then <profile>/credentials.json (`login`, or `config set apiKey` from
//               stdin or a file). A stored key is bound to the origin it was issued for and is
//               never sent anywhere else.
//   orgSlug:    --org, then AGX_ORG, then the profile's config, then the login's organization.
//
// Keys never live in config.json and never come from argv.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { CliError, EXIT } from './common.js';
import { ensureProfileDir, requirePrivate, writePrivate } from './settings.js';
import { isWellFormedApiKey, rememberSecret } from './secrets.js';

export const DEFAULT_API_BASE_URL = 'https://app.ellaworks.ai';

/** Organization slugs as the directory takes them (and as `login --org` sends them). */
export const ORG_SLUG = /^[a-z0-9](?:[a-z0-9-]{1,30}[a-z0-9])$/;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A base URL a key may be sent to, normalized (no trailing slash): https, or http on a loopback
 * host only (a key over plain http anywhere else is readable on the way); no user name or
 * password, query or fragment (each a way to dress up a lookalike).
 */
export function checkApiBaseUrl(raw, { label = 'apiBaseUrl', exitCode = EXIT.SETUP } = {}) {
  const fail = (problem, shown = JSON.stringify(String(raw).slice(0, 200))) =>
    new CliError(exitCode, `${label} ${shown} ${problem}`, {
      code: 'DIRECTORY_BAD_URL',
      remediation: `Use the directory's origin, for example ${DEFAULT_API_BASE_URL}, or http://127.0.0.1:PORT for one on this machine.`,
    });
  let url;
  try {
    url = new URL(String(raw));
  } catch {
    throw fail('is not a URL');
  }
  // Never echoed: the password is exactly what would be printed.
  if (url.username || url.password) throw fail('must not contain a user name or password', '(not shown)');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail('must be an https:// URL');
  if (url.search || url.hash || String(raw).includes('?') || String(raw).includes('#')) throw fail('must not contain a query or fragment');
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) throw fail('uses plain http, which is only allowed for localhost, 127.0.0.1 and [::1]');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function originOf(url) {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** { url, source }: the directory every command but `login --api-base-url` talks to. */
export function apiBase(settings, env = process.env) {
  if (env.AGX_API_URL) return { url: checkApiBaseUrl(env.AGX_API_URL, { label: 'AGX_API_URL' }), source: 'AGX_API_URL' };
  if (settings.config.apiBaseUrl !== undefined)
    return { url: checkApiBaseUrl(settings.config.apiBaseUrl, { label: `apiBaseUrl of profile "${settings.profile}"` }), source: 'config' };
  return { url: DEFAULT_API_BASE_URL, source: 'default' };
}

// ---------------------------------------------------------------- credentials.json

/**
 * The profile's stored key: { apiBaseUrl (the origin it was issued for), apiKey, apiKeyId,
 * source ('login' | 'manual'), organization, user (masked email), scopes, expiresAt, createdAt },
 * or null. A file others can read is refused, as for the key file.
 */
export function readCredential(settings) {
  const file = settings.files.credentials;
  if (!existsSync(file)) return null;
  requirePrivate(file);
  let value;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // Never quote the parse error: it can contain the file's text, the key.
    throw new CliError(EXIT.SETUP, `${file}: not valid JSON`, { remediation: `Remove it and log in again:\n  rm ${file}\n  agx login` });
  }
  if (!value || typeof value !== 'object' || typeof value.apiKey !== 'string' || typeof value.apiBaseUrl !== 'string')
    throw new CliError(EXIT.SETUP, `${file}: not a credential (apiBaseUrl and apiKey expected)`, { remediation: `Remove it and log in again:\n  rm ${file}\n  agx login` });
  rememberSecret(value.apiKey);
  return value;
}

export function writeCredential(settings, entry) {
  rememberSecret(entry.apiKey);
  ensureProfileDir(settings);
  writePrivate(settings.files.credentials, JSON.stringify(entry, null, 2) + '\n');
}

export function removeCredential(settings) {
  rmSync(settings.files.credentials, { force: true });
}

const expired = (entry, now) => typeof entry.expiresAt === 'string' && Date.parse(entry.expiresAt) <= now;

/**
 * { baseUrl, apiKey, source: 'AGX_API_KEY' | 'login' | 'manual', entry }: the key a command sends.
 * EXIT.SETUP when there is none or the stored one belongs to another origin (nothing is sent);
 * EXIT.AUTH when the stored login has expired.
 */
export function resolveKey(settings, { env = process.env, now = Date.now() } = {}) {
  const base = apiBase(settings, env);
  if (env.AGX_API_KEY) {
    if (!isWellFormedApiKey(env.AGX_API_KEY))
      throw new CliError(EXIT.SETUP, 'AGX_API_KEY is not a well-formed API key (1 to 512 printable characters, no spaces)', {
        code: 'DIRECTORY_BAD_KEY',
        remediation: 'Set it to the key alone, or unset it to use the profile\'s own login:\n  unset AGX_API_KEY',
      });
    rememberSecret(env.AGX_API_KEY);
    return { baseUrl: base.url, baseSource: base.source, apiKey: env.AGX_API_KEY, source: 'AGX_API_KEY', entry: null };
  }
  const entry = readCredential(settings);
  if (!entry)
    throw new CliError(EXIT.SETUP, `profile "${settings.profile}" is not logged in to the directory`, {
      code: 'DIRECTORY_NOT_LOGGED_IN',
      remediation: `agx login --profile ${settings.profile}\n(in CI: printf %s "$KEY" | agx config set apiKey --profile ${settings.profile})`,
    });
  const target = originOf(base.url);
  if (originOf(entry.apiBaseUrl) !== target)
    throw new CliError(
      EXIT.SETUP,
      `the key of profile "${settings.profile}" was issued for ${originOf(entry.apiBaseUrl) ?? 'another server'}, but this command would send it to ${target}; nothing was sent`,
      {
        code: 'DIRECTORY_KEY_ORIGIN',
        remediation: `A key is only ever sent to the server that issued it. Go back to that server:\n  agx config set apiBaseUrl ${originOf(entry.apiBaseUrl)}${base.source === 'AGX_API_URL' ? '   (and unset AGX_API_URL)' : ''}\nor log in to this one:\n  agx login`,
      },
    );
  if (expired(entry, now))
    throw new CliError(EXIT.AUTH, `the directory login of profile "${settings.profile}" expired on ${entry.expiresAt}`, {
      code: 'API_KEY_EXPIRED',
      remediation: 'Log in again:\n  agx login',
    });
  if (!isWellFormedApiKey(entry.apiKey))
    throw new CliError(EXIT.SETUP, `${settings.files.credentials}: the stored key is malformed`, { remediation: 'agx logout --local, then agx login' });
  return { baseUrl: base.url, baseSource: base.source, apiKey: entry.apiKey, source: entry.source ?? 'manual', entry };
}

/**
 * resolveKey plus the organization every directory call names (`orgSlug` in its input): --org,
 * AGX_ORG, the profile's orgSlug, the login's own. A login key acts for one organization, so
 * asking it to act for another is refused here (EXIT.AUTH) rather than by the server.
 */
export function resolveTarget(settings, values = {}, opts = {}) {
  const env = opts.env ?? process.env;
  const key = resolveKey(settings, opts);
  const loginOrg = key.entry?.organization?.slug ?? null;
  const orgSlug = values.org ?? (env.AGX_ORG || settings.config.orgSlug || loginOrg);
  if (!orgSlug)
    throw new CliError(EXIT.SETUP, `profile "${settings.profile}" has no organization`, {
      code: 'DIRECTORY_NO_ORG',
      remediation: 'agx login   (or: agx config set orgSlug SLUG, or --org SLUG)',
    });
  if (!ORG_SLUG.test(orgSlug)) throw new CliError(EXIT.USAGE, `"${String(orgSlug).slice(0, 40)}" is not an organization slug (3-32 of a-z, 0-9, -)`);
  if (key.source !== 'AGX_API_KEY' && loginOrg && orgSlug !== loginOrg)
    throw new CliError(EXIT.AUTH, `this login is for organization "${loginOrg}", not "${orgSlug}"`, {
      code: 'DIRECTORY_WRONG_ORG',
      remediation: `A login key acts for one organization. Log in to the other one in its own profile:\n  agx login --org ${orgSlug} --profile ${orgSlug}`,
    });
  return { ...key, orgSlug };
}

// ---------------------------------------------------------------- directory.json

/** { listingId, listingSlug }: the listing `register` created, the default of `listing` commands. */
export function readDirectoryState(settings) {
  try {
    const v = JSON.parse(readFileSync(settings.files.directoryState, 'utf8'));
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

export function writeDirectoryState(settings, patch) {
  const next = { ...readDirectoryState(settings), ...patch };
  ensureProfileDir(settings);
  writePrivate(settings.files.directoryState, JSON.stringify(next, null, 2) + '\n');
  return next;
}
