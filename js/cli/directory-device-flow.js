// The client half of the OAuth 2.0 device authorization grant (RFC 8628) as the directory's login
// contract (§1.2, §1.3) defines it: plain JSON over fetch, never a redirect, and nothing from a
// response body echoed into an error but its sanitized `error` and `error_description` (the one
// body that matters holds the key). The clock, the sleep and fetch come from `rt`, so tests step
// time instead of waiting out intervals.
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { CliError, EXIT } from './common.js';
import { ensureProfileDir, writePrivate } from './settings.js';
import { isWellFormedApiKey, rememberSecret } from './secrets.js';
import { realRuntime, redirectRefused, retryAfterSeconds, serverText, userAgent } from './directory-api.js';

export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
export const CLIENT_ID = 'agx';
/** The whole scope vocabulary, canonical order; `:write` does not imply `:read`. */
export const SCOPES = ['listings:read', 'listings:write', 'domains:read', 'domains:write'];

const REQUEST_TIMEOUT_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;
const MAX_FAILURES = 5;
const SLOW_DOWN_STEP = 5; // s
const DEFAULT_INTERVAL = 5; // s

const iso = (ms) => new Date(ms).toISOString();
const hostOf = (base) => new URL(base).host;

async function postJson(rt, url, body, signal) {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let response;
  try {
    response = await rt.fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': userAgent() },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (e) {
    if (signal?.aborted) throw interrupted();
    throw e;
  }
  let parsed = null;
  try {
    const value = JSON.parse(await response.text());
    if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value;
  } catch {
    if (signal?.aborted) throw interrupted();
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

function interrupted() {
  return new CliError(EXIT.INTERRUPTED, 'interrupted', {
    code: 'INTERRUPTED',
    remediation: 'The login code stays valid until it expires; the same command resumes it:\n  agx login',
  });
}

const sameOrigin = (url, base) => {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
};

const positive = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;
const nonEmpty = (v) => typeof v === 'string' && v.length > 0;

/**
 * POST <base>/api/auth/device/code. Stops BEFORE a code is shown when the answer does not prove a
 * server of the contract: no `scope` echo (it would mint an unscoped key that never expires), or a
 * verification page on another origin (the code would be typed into someone else's page).
 * Returns the pending login to save (it holds the device code: 0600).
 */
export async function requestDeviceCode(base, request, rt = realRuntime) {
  const body = { client_id: CLIENT_ID, scope: SCOPES.join(' '), host_label: request.hostLabel };
  if (request.orgHint) body.org_hint = request.orgHint;
  if (request.newOrg) {
    body.new_org = true;
    if (request.newOrgName) body.new_org_name = request.newOrgName;
    if (request.newOrgSlug) body.new_org_slug = request.newOrgSlug;
  }
  const host = hostOf(base);
  let r;
  try {
    r = await postJson(rt, `${base}/api/auth/device/code`, body, request.signal);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw unreachable(`cannot reach ${host} to start the login`, e);
  }
  if (r.status >= 300 && r.status < 400) throw redirectRefused(r.status, 'starting the login');
  if (r.status === 429) {
    const wait = retryAfterSeconds(r.headers, rt.now());
    throw new CliError(EXIT.PEER, `${host} is rate limiting login requests${wait !== null ? `; retry after ${wait} s` : ''}`, {
      code: 'DIRECTORY_RATE_LIMITED',
      retryAfter: wait ?? undefined,
      remediation: `Wait${wait !== null ? ` ${wait} s` : ' a minute'}, then run it again:\n  agx login`,
    });
  }
  if (r.status >= 500) throw unreachable(`${host} failed to start the login (HTTP ${r.status})`, null, 'DIRECTORY_UNAVAILABLE');
  if (r.status !== 200 || !r.body) {
    const error = serverText(r.body?.error, 60);
    const description = serverText(r.body?.error_description, 200);
    throw new CliError(EXIT.PEER, `${host} refused to start the login (${error ? `${error}${description ? `: ${description}` : ''}` : `HTTP ${r.status}`})`, {
      code: 'DIRECTORY_LOGIN_REFUSED',
      remediation:
        error === 'invalid_request'
          ? 'Check --org, --new-org, --org-name and --org-slug, then run it again.'
          : 'This server may not support agx login. Check the directory address:\n  agx login --api-base-url https://HOST',
    });
  }
  const c = r.body;
  if (!nonEmpty(c.device_code) || !nonEmpty(c.user_code) || !nonEmpty(c.verification_uri) || !positive(c.expires_in))
    throw new CliError(EXIT.PEER, `${host} answered the login request with an unexpected shape`, { code: 'DIRECTORY_BAD_RESPONSE' });
  rememberSecret(c.device_code);
  if (!nonEmpty(c.scope))
    throw new CliError(EXIT.PEER, `${host} does not support scoped logins: it would issue an unscoped key that never expires, so agx stopped before showing a code`, {
      code: 'DIRECTORY_UNSCOPED_LOGIN',
      remediation: 'Use a key minted in the directory\'s Settings instead:\n  printf %s "$KEY" | agx config set apiKey',
    });
  const complete = nonEmpty(c.verification_uri_complete) ? c.verification_uri_complete : `${c.verification_uri}?code=${encodeURIComponent(c.user_code)}`;
  if (!sameOrigin(c.verification_uri, base) || !sameOrigin(complete, base))
    throw new CliError(EXIT.PEER, `${host} sent a verification page on another origin, so agx stopped before showing a code`, {
      code: 'DIRECTORY_FOREIGN_PAGE',
      remediation: 'A login code is only ever entered on the server you log in to. Check the directory address.',
    });
  const now = rt.now();
  return {
    version: 1,
    apiBaseUrl: base,
    clientId: CLIENT_ID,
    deviceCode: c.device_code,
    userCode: serverText(c.user_code, 40),
    verificationUri: c.verification_uri,
    verificationUriComplete: complete,
    scope: c.scope,
    interval: positive(c.interval) ? c.interval : DEFAULT_INTERVAL,
    expiresAt: iso(now + c.expires_in * 1000),
    createdAt: iso(now),
    lastPolledAt: null,
    request: { orgHint: request.orgHint ?? null, newOrg: !!request.newOrg, newOrgName: request.newOrgName ?? null, newOrgSlug: request.newOrgSlug ?? null },
  };
}

function unreachable(message, e, code = 'DIRECTORY_UNREACHABLE') {
  const raw = e?.cause?.code ?? e?.code;
  const shown = typeof raw === 'string' && /^[A-Z0-9_]{1,40}$/.test(raw) ? ` (${raw})` : '';
  if (e?.name === 'TimeoutError') return new CliError(EXIT.TIMEOUT, `${message}: no answer in time`, { code: 'DIRECTORY_TIMEOUT', remediation: 'The code stays valid until it expires; the same command resumes it:\n  agx login' });
  return new CliError(EXIT.RELAY, `${message}${shown}`, {
    code,
    remediation: 'Check your connection and the directory address, then run the same command (a code already shown stays valid until it expires):\n  agx login',
  });
}

const codeExpired = () =>
  new CliError(EXIT.TIMEOUT, 'the login code expired before it was approved', { code: 'expired_token', remediation: 'Start again for a fresh code:\n  agx login' });

/** The §1.3 success body, checked field by field; a failure names fields, never a value. */
function checkToken(body, host) {
  const bad = [];
  if (!isWellFormedApiKey(body.access_token)) bad.push('access_token');
  if (!nonEmpty(body.token_type)) bad.push('token_type');
  if (!nonEmpty(body.api_key_id)) bad.push('api_key_id');
  if (!body.user || !nonEmpty(body.user.id)) bad.push('user');
  const o = body.organization;
  if (!o || !nonEmpty(o.id) || !nonEmpty(o.slug) || !nonEmpty(o.name)) bad.push('organization');
  if (typeof body.access_token === 'string') rememberSecret(body.access_token);
  if (bad.length)
    throw new CliError(EXIT.PEER, `${host} approved the login but its answer has missing or malformed fields (${bad.join(', ')}); the key was not stored`, {
      code: 'DIRECTORY_BAD_RESPONSE',
      remediation: "Revoke the new key in the directory's Settings > API keys, and report the server bug.",
    });
  return body;
}

/**
 * POST <base>/api/auth/device/token until the code is approved, denied or expired (§1.3):
 * - at least `interval` between polls, counted from the last poll by any process (lastPolledAt is
 *   persisted through `persist`);
 * - slow_down raises the interval to the answer's `interval`, else by 5 s, never lowering it; a 429
 *   or a body that is not JSON counts as one, and Retry-After is waited out;
 * - 5xx and no answer back off (interval * 2^n, at most 30 s) and give up after five in a row;
 * - a redirect is refused, never followed;
 * - once our own clock passes the code's expiry, stop without asking the server again.
 * With `once`: poll once and report { kind: 'pending' } when the code still waits.
 */
export async function pollDeviceToken(base, pending, { once = false, persist = () => {}, signal } = {}, rt = realRuntime) {
  const host = hostOf(base);
  let current = { ...pending };
  const deadline = Date.parse(current.expiresAt);
  let failures = 0;
  let spacingMs = 0;
  for (;;) {
    const reference = Date.parse(current.lastPolledAt ?? current.createdAt);
    const gap = Math.max(current.interval * 1000, spacingMs);
    const waitMs = Math.min(Math.max(0, reference + gap - rt.now()), Math.max(0, deadline - rt.now()));
    if (waitMs > 0) {
      try {
        await rt.sleep(waitMs, signal);
      } catch {
        throw interrupted();
      }
    }
    if (signal?.aborted) throw interrupted();
    if (rt.now() >= deadline) throw codeExpired();
    current = { ...current, lastPolledAt: iso(rt.now()) };
    persist(current);

    let r = null;
    try {
      r = await postJson(rt, `${base}/api/auth/device/token`, { grant_type: DEVICE_GRANT_TYPE, device_code: current.deviceCode, client_id: current.clientId }, signal);
    } catch (e) {
      if (e instanceof CliError) throw e; // interrupted
      r = null;
    }
    if (r === null || r.status >= 500) {
      failures += 1;
      if (once || failures >= MAX_FAILURES)
        throw unreachable(r === null ? `cannot reach ${host} to finish the login${failures > 1 ? ` (${failures} attempts)` : ''}` : `${host} keeps failing (HTTP ${r.status}) while finishing the login`, null, r === null ? 'DIRECTORY_UNREACHABLE' : 'DIRECTORY_UNAVAILABLE');
      spacingMs = Math.min(current.interval * 1000 * 2 ** failures, MAX_BACKOFF_MS);
      continue;
    }
    if (r.status >= 300 && r.status < 400) throw redirectRefused(r.status, 'finishing the login');
    failures = 0;
    spacingMs = 0;
    if (r.status === 429 || r.body === null) {
      // Throttled in front of the API (or an HTML page in its place): back off as for slow_down.
      current = { ...current, interval: current.interval + SLOW_DOWN_STEP };
      const retryAfter = retryAfterSeconds(r.headers, rt.now());
      if (retryAfter !== null) spacingMs = retryAfter * 1000;
      persist(current);
      if (once) return { kind: 'pending', pending: current };
      continue;
    }
    if (r.status === 200) return { kind: 'approved', token: checkToken(r.body, host), pending: current };
    const error = typeof r.body.error === 'string' ? r.body.error : null;
    switch (error) {
      case 'authorization_pending':
        if (once) return { kind: 'pending', pending: current };
        continue;
      case 'slow_down': {
        const asked = positive(r.body.interval) ? r.body.interval : current.interval + SLOW_DOWN_STEP;
        current = { ...current, interval: Math.max(current.interval, asked) };
        persist(current);
        if (once) return { kind: 'pending', pending: current };
        continue;
      }
      case 'expired_token':
        throw codeExpired();
      case 'access_denied':
        throw new CliError(EXIT.AUTH, 'the login was denied in the browser', { code: 'access_denied', remediation: 'Start again if that was a mistake:\n  agx login' });
      case 'invalid_grant':
        throw new CliError(EXIT.AUTH, 'the directory no longer accepts this login code (already used, or unknown)', { code: 'invalid_grant', remediation: 'Start again:\n  agx login' });
      default:
        throw new CliError(EXIT.PEER, `${host} refused the token request (${serverText(error, 60) ?? `HTTP ${r.status}`})`, {
          code: 'DIRECTORY_LOGIN_REFUSED',
          remediation: 'Upgrade nostr-agents, then start again:\n  agx login',
        });
    }
  }
}

// ---------------------------------------------------------------- pending-login.json and its lock

export function loadPendingLogin(settings) {
  try {
    const v = JSON.parse(readFileSync(settings.files.pendingLogin, 'utf8'));
    if (v?.version !== 1 || !nonEmpty(v.deviceCode) || !nonEmpty(v.expiresAt) || !positive(v.interval)) return null;
    rememberSecret(v.deviceCode);
    return v;
  } catch {
    return null;
  }
}

export function savePendingLogin(settings, pending) {
  ensureProfileDir(settings);
  writePrivate(settings.files.pendingLogin, JSON.stringify(pending, null, 2) + '\n');
}

export function removePendingLogin(settings) {
  rmSync(settings.files.pendingLogin, { force: true });
}

/**
 * The per-profile poll lock (O_EXCL), so two `login` runs never poll one code. Returns its release
 * function, or null while another live process holds it; a lock left by a dead process is taken over.
 */
export function tryLock(file) {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid }));
      } finally {
        closeSync(fd);
      }
      let released = false;
      return () => {
        if (!released) (released = true), rmSync(file, { force: true });
      };
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (!lockIsStale(file)) return null;
      rmSync(file, { force: true });
    }
  }
  return null;
}

function lockIsStale(file) {
  let pid;
  try {
    pid = JSON.parse(readFileSync(file, 'utf8')).pid;
  } catch {
    try {
      return !existsSync(file) || Date.now() - statSync(file).mtimeMs > 5000; // still being written?
    } catch {
      return true;
    }
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return e.code !== 'EPERM';
  }
}
