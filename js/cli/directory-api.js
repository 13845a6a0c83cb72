// The directory's RPC API as the login contract defines it: `POST <apiBaseUrl>/api/rpc/<path>`
// with body {"json": input}, the key in `X-API-Key`, `orgSlug` in every input that acts for an
// organization. An answer is {"json": output}, or an error {"json": {code, status, message,
// data: {code, ...}}} with HTTP status = status. A redirect is never followed (the key would go
// with it) and never read as a result. Every failure becomes a CliError with an exit code and a
// remediation (js/cli/common.js EXIT); nothing the server says reaches the terminal raw.
import { readFileSync } from 'node:fs';
import { CliError, EXIT } from './common.js';
import { sanitizeLine } from './sanitize.js';
import { isWellFormedApiKey, redact, rememberSecret } from './secrets.js';

const VERSION = (() => {
  try {
    return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
  } catch {
    return '0';
  }
})();

export const userAgent = () => `nostr-agents/${VERSION} (node ${process.versions.node}; ${process.platform})`;

/** How long one call may take (the contract's 30 s for RPC, 15 s for the device endpoints). */
export const RPC_TIMEOUT_MS = 30_000;

/** The clock, the sleep and the fetch the directory commands use; tests pass their own. */
export const realRuntime = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms);
      const onAbort = () => (clearTimeout(t), reject(signal.reason));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  fetch: (...args) => globalThis.fetch(...args),
};

/** Server text made safe to print: one line, escaped, short, secrets redacted. */
export function serverText(value, max = 300) {
  if (typeof value !== 'string' || value === '') return null;
  return sanitizeLine(redact(value)).slice(0, max);
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), or null. */
export function retryAfterSeconds(headers, now) {
  const value = headers?.get?.('retry-after');
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : null;
}

const isLoopback = (base) => {
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(base).hostname);
  } catch {
    return false;
  }
};

/** A request that got no answer: unreachable (EXIT.RELAY: the network) or too slow (EXIT.TIMEOUT). */
export function transportError(e, what, base) {
  const name = typeof e?.name === 'string' ? e.name : '';
  if (name === 'TimeoutError' || name === 'AbortError')
    return new CliError(EXIT.TIMEOUT, `${what}: the directory did not answer in time`, {
      code: 'DIRECTORY_TIMEOUT',
      remediation: 'Retry in a moment; check the directory address with:\n  agx config show',
    });
  // Only an identifier-like code is shown: a library message can quote a header value (the key).
  const raw = e?.cause?.code ?? e?.code;
  const code = typeof raw === 'string' && /^[A-Z0-9_]{1,40}$/.test(raw) ? raw : null;
  return new CliError(EXIT.RELAY, `${what}: cannot reach the directory at ${originOrBase(base)}${code ? ` (${code})` : ''}`, {
    code: 'DIRECTORY_UNREACHABLE',
    remediation: isLoopback(base)
      ? `Start the directory at ${base}, or point agx at another one:\n  agx config set apiBaseUrl URL`
      : 'Check your connection and the directory address (apiBaseUrl or AGX_API_URL):\n  agx config show',
  });
}

const originOrBase = (base) => {
  try {
    return new URL(base).origin;
  } catch {
    return base;
  }
};

export function redirectRefused(status, what) {
  return new CliError(EXIT.PEER, `${what}: the directory answered with a redirect (HTTP ${status}); agx never follows one with a credential, so nothing was sent on`, {
    code: 'DIRECTORY_REDIRECT',
    remediation: "Point agx at the directory's real origin:\n  agx config set apiBaseUrl https://HOST   (check it with: agx config show)",
  });
}

// ---------------------------------------------------------------- URLs shown to a person

function sameSite(candidate, base) {
  if (candidate.protocol !== 'https:' || base.protocol !== 'https:') return false;
  const labels = base.hostname.split('.');
  if (labels.length < 2 || /^[\d.]+$/.test(base.hostname)) return false;
  const site = labels.length >= 3 ? labels.slice(1).join('.') : base.hostname;
  return candidate.hostname === site || candidate.hostname.endsWith(`.${site}`);
}

/**
 * A URL from the server, made safe to hand to a person: a relative one is resolved against OUR
 * base; an absolute one is kept only on the base's origin (or, for the Terms, an https host of the
 * same site); anything else (another origin, `//evil`, `javascript:`) becomes <origin>/elladex.
 */
export function actionUrl(url, baseUrl, { sameSiteOk = false } = {}) {
  const base = new URL(baseUrl);
  const fallback = `${base.origin}/elladex`;
  if (typeof url !== 'string' || url.trim() === '') return fallback;
  let resolved;
  try {
    resolved = new URL(url, `${base.origin}/`);
  } catch {
    return fallback;
  }
  if (resolved.protocol !== 'https:' && resolved.protocol !== 'http:') return fallback;
  resolved.username = '';
  resolved.password = '';
  if (resolved.origin === base.origin) return resolved.href;
  if (sameSiteOk && sameSite(resolved, base)) return resolved.href;
  return fallback;
}

// ---------------------------------------------------------------- error mapping

/** The fixed remediations by `data.code` (login contract §1.7), with our exit codes. */
function fromDataCode(data, what, baseUrl, retryAfter) {
  const code = typeof data?.code === 'string' ? data.code : null;
  if (!code) return null;
  const e = (exitCode, message, remediation, extra = {}) => new CliError(exitCode, `${what}: ${message}`, { code, remediation, ...extra });
  switch (code) {
    case 'HUMAN_CONFIRMATION_REQUIRED': {
      const url = actionUrl(data.url, baseUrl);
      const listingId = typeof data.listingId === 'string' && /^[\w.-]{1,100}$/.test(data.listingId) ? data.listingId : null;
      return e(EXIT.ACTION, `an organization admin has to confirm this in the browser: ${url}`, 'Open the link (or send it to an org admin) and publish there; nothing else makes the listing public.', {
        actionRequired: { reason: code, url, userCode: null, expiresIn: null, ...(listingId ? { listingId } : {}) },
      });
    }
    case 'TERMS_ACCEPTANCE_REQUIRED': {
      const url = actionUrl(data.url, baseUrl, { sameSiteOk: true });
      return e(EXIT.ACTION, `the current Terms have to be accepted first: ${url}`, data.loginRequired === true ? 'Accept them by logging in again:\n  agx login --force' : 'Accept them in the browser, then run the command again.', {
        actionRequired: { reason: code, url, userCode: null, expiresIn: null },
      });
    }
    case 'INSUFFICIENT_SCOPE': {
      const required = serverText(data.required, 60);
      return e(EXIT.AUTH, `this key's scopes do not cover this call${required ? ` (it needs ${required})` : ''}`, 'A login covers listings and domains only. Mint a key in the directory\'s Settings > API keys and give it its own profile:\n  printf %s "$KEY" | agx config set apiKey --profile settings-key');
    }
    case 'API_KEY_INVALID':
      return e(EXIT.AUTH, 'the API key is not valid (unknown, revoked or deleted)', 'agx login');
    case 'API_KEY_EXPIRED':
      return e(EXIT.AUTH, 'the API key has expired', 'agx login');
    case 'API_KEY_DISABLED':
      return e(EXIT.AUTH, 'the API key is disabled', "Re-enable it in the directory's Settings > API keys, or log in for a new one:\n  agx login");
    case 'API_KEY_OWNER_NOT_MEMBER':
      return e(EXIT.AUTH, "the account that owns this key is no longer a member of the key's organization", 'Log in with an account of the organization:\n  agx login --force');
    case 'API_KEY_RATE_LIMITED': {
      const seconds = Number.isFinite(data.retryAfterMs) ? Math.ceil(data.retryAfterMs / 1000) : retryAfter;
      return e(EXIT.PEER, `this key is rate limited${seconds !== null ? `; retry after ${seconds} s` : ''}`, 'Wait, then retry; retrying in a tight loop keeps the limit locked.', {
        retryAfter: seconds ?? undefined,
      });
    }
    case 'API_KEY_USAGE_EXCEEDED':
      return e(EXIT.PEER, 'this key has used up its request quota', 'Mint a new key, or log in for one without a quota:\n  agx login');
    case 'API_KEY_SELF_REVOKE_ONLY':
      return e(EXIT.PEER, 'an API key may only revoke itself', "Revoke other keys in the directory's Settings > API keys.");
    case 'LISTING_SLUG_TAKEN':
      return e(EXIT.PEER, 'that listing slug is already taken in this organization', 'Pick another one: --slug ANOTHER-SLUG');
    case 'LISTING_ADDRESS_LIVE': {
      const listingId = typeof data.listingId === 'string' && /^[\w.-]{1,100}$/.test(data.listingId) ? data.listingId : null;
      return e(
        EXIT.PEER,
        `this agent address already has a live listing${listingId ? ` (${listingId}, in this organization)` : ' (in another organization)'}`,
        listingId ? `Work with it:\n  agx listing get ${listingId}` : 'An address is live in one listing only; use another identity for a new one:\n  agx identity new --profile NAME',
        listingId ? { listingId } : {},
      );
    }
    default:
      return null; // a newer server's code: mapped by status, with its message
  }
}

/** A non-200 RPC answer as a CliError (data.code first, then the status). */
export function rpcError(status, body, headers, what, baseUrl, now = Date.now()) {
  const err = body && typeof body === 'object' ? body.json : null;
  const retryAfter = retryAfterSeconds(headers, now);
  const mapped = err && typeof err === 'object' && err.data && typeof err.data === 'object' ? fromDataCode(err.data, what, baseUrl, retryAfter) : null;
  if (mapped) return mapped;
  const message = serverText(err?.message) ?? `HTTP ${status}`;
  const code = typeof err?.code === 'string' && /^[A-Z_]{1,40}$/.test(err.code) ? err.code : null;
  const e = (exitCode, errCode, remediation, extra = {}) =>
    new CliError(exitCode, `${what}: ${message}`, { code: errCode, remediation, httpStatus: status, ...extra });
  if (status === 401) return e(EXIT.AUTH, 'DIRECTORY_UNAUTHORIZED', 'agx login');
  if (status === 404) return e(EXIT.NOT_FOUND, 'DIRECTORY_NOT_FOUND', null);
  if (status === 429)
    return e(EXIT.PEER, 'DIRECTORY_RATE_LIMITED', `Wait${retryAfter !== null ? ` ${retryAfter} s` : ' a moment'}, then retry.`, { retryAfter: retryAfter ?? undefined });
  if (status >= 500) return e(EXIT.RELAY, 'DIRECTORY_UNAVAILABLE', 'The directory is failing; retry in a moment.');
  if ([400, 403, 409, 412, 422].includes(status)) return e(EXIT.PEER, `DIRECTORY_${code ?? status}`, null);
  return e(EXIT.FAILURE, `DIRECTORY_${code ?? status}`, null);
}

/**
 * Did the server refuse the KEY itself (unknown, revoked, expired)? Only then may logout forget a
 * key it could not revoke. A 404, a disabled key or any other refusal proves nothing about it.
 */
export function keyRefused(e) {
  if (e?.code === 'API_KEY_INVALID' || e?.code === 'API_KEY_EXPIRED') return true;
  return e?.code === 'DIRECTORY_UNAUTHORIZED' && /^[^:]*: Invalid API key$/.test(e.message);
}

// ---------------------------------------------------------------- the client

/**
 * call(procedure, input): POST <baseUrl>/api/rpc/<procedure with / for .>, resolving to the output.
 * `rt` supplies fetch (and now, for Retry-After dates).
 */
export function createClient({ baseUrl, apiKey }, rt = realRuntime) {
  // The last check before a key goes on the wire (every entry point checks it before).
  if (!isWellFormedApiKey(apiKey)) throw new CliError(EXIT.SETUP, 'the API key is malformed (1 to 512 printable characters, no spaces)', { code: 'DIRECTORY_BAD_KEY' });
  rememberSecret(apiKey);
  return {
    baseUrl,
    async call(procedure, input = {}) {
      const what = procedure;
      const url = `${baseUrl}/api/rpc/${procedure.split('.').join('/')}`;
      let response;
      try {
        response = await rt.fetch(url, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': userAgent(), 'X-API-Key': apiKey },
          body: JSON.stringify({ json: input }),
          signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
        });
      } catch (e) {
        throw transportError(e, what, baseUrl);
      }
      if (response.status >= 300 && response.status < 400) {
        response.body?.cancel?.().catch(() => {});
        throw redirectRefused(response.status, what);
      }
      let body = null;
      try {
        body = JSON.parse(await response.text());
      } catch (e) {
        if (e?.name === 'TimeoutError' || e?.name === 'AbortError') throw transportError(e, what, baseUrl);
        body = null;
      }
      if (response.status === 200) {
        if (!body || typeof body !== 'object' || !('json' in body))
          throw new CliError(EXIT.PEER, `${what}: the answer was not a directory API response (an HTML page, or another service)`, {
            code: 'DIRECTORY_BAD_RESPONSE',
            remediation: "Check that apiBaseUrl is the directory's own origin:\n  agx config show",
          });
        return body.json;
      }
      throw rpcError(response.status, body, response.headers, what, baseUrl, rt.now());
    },
  };
}
