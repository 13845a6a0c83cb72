// `login` (the OAuth device flow), `logout`, `whoami` and `org`: the profile's directory key.
// The key goes from the token answer straight into <profile>/credentials.json (0600) and is never
// printed; nothing on stdout or stderr contains it or the device code (login contract §1.8).
import { readdirSync, existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CliError, EXIT, err, json, out, parse } from './common.js';
import { PROFILE_NAME, resolveSettings, setConfig } from './settings.js';
import { sanitizeLine } from './sanitize.js';
import { createClient, keyRefused, realRuntime, serverText } from './directory-api.js';
import { ORG_SLUG, apiBase, checkApiBaseUrl, originOf, readCredential, removeCredential, resolveKey, writeCredential } from './directory-config.js';
import {
  CLIENT_ID,
  loadPendingLogin,
  pollDeviceToken,
  removePendingLogin,
  requestDeviceCode,
  savePendingLogin,
  tryLock,
} from './directory-device-flow.js';

export const LOGIN_HELP = `usage: agx login [--api-base-url URL] [--org SLUG | --new-org [--org-name N] [--org-slug S]] [--no-wait] [--force]

Logs the profile in to the directory with the OAuth device flow: agx prints a URL and a code, a
person approves them in the browser (signing in, picking or creating the organization, accepting
the Terms), and agx receives a scoped, expiring key for one organization. The key is stored in
<profile>/credentials.json (0600) and only ever sent to the server that issued it.

  --api-base-url URL   the directory (default: AGX_API_URL, config apiBaseUrl, https://app.ellaworks.ai)
  --org SLUG           preselect this organization on the approval page
  --new-org            create an organization on the approval page (--org-name, --org-slug prefill it)
  --no-wait            do not wait: print the URL and code and exit 10; run it again to finish
  --force              log in again although the profile is logged in

Ctrl-C (or SIGTERM, SIGHUP) keeps the code; the same command resumes it until it expires.
common options: --profile NAME, --json
`;

export const LOGOUT_HELP = `usage: agx logout [--all] [--local]

Revokes the profile's directory key on the server that issued it, then forgets it. A key the
server already refuses is forgotten; any other failure keeps it (exit 4 or 6) unless --local.
  --all     every profile
  --local   forget the key even when the server cannot revoke it (it stays valid until it expires)
common options: --profile NAME, --json
`;

export const WHOAMI_HELP = `usage: agx whoami

Who the profile's directory key acts as, according to the directory (account.principal.get):
user (masked email), organization and role, the key's scopes and expiry. Never prints the key.
common options: --profile NAME, --json
`;

export const ORG_HELP = `usage: agx org list
       agx org create NAME [--slug SLUG] [login options]

list: the organizations the key can see (a login key sees only its own).
create: logs in with --new-org: a person creates the organization on the approval page.
common options: --profile NAME, --json
`;

const iso = (ms) => new Date(ms).toISOString();

/** "a•••@acme.com": never more of an email than the directory's own mask shows. */
export function maskEmail(email) {
  if (typeof email !== 'string' || !email.includes('@')) return null;
  const at = email.lastIndexOf('@');
  return sanitizeLine(`${email.slice(0, 1)}•••${email.slice(at)}`).slice(0, 120);
}

function minutesLeft(seconds) {
  return seconds < 90 ? `${Math.max(0, seconds)} s` : `${Math.round(seconds / 60)} min`;
}

function loginAction(pending, now) {
  return {
    reason: 'LOGIN_APPROVAL_REQUIRED',
    url: pending.verificationUriComplete,
    userCode: pending.userCode,
    expiresIn: Math.max(0, Math.floor((Date.parse(pending.expiresAt) - now) / 1000)),
    expiresAt: pending.expiresAt,
    verificationUri: pending.verificationUri,
  };
}

function stillPending(action) {
  return new CliError(EXIT.ACTION, `this login needs approval in the browser: open ${action.url} and check the code ${action.userCode} (expires in ${minutesLeft(action.expiresIn)})`, {
    code: 'LOGIN_APPROVAL_REQUIRED',
    actionRequired: action,
    remediation: 'Once it is approved, run the same command again to finish:\n  agx login --no-wait',
  });
}

const sameRequest = (a, b) => a.orgHint === b.orgHint && a.newOrg === b.newOrg && a.newOrgName === b.newOrgName && a.newOrgSlug === b.newOrgSlug;

/** Did another agx process store the login from this code while we waited for the lock? */
function finishedElsewhere(settings, base, pending) {
  let entry = null;
  try {
    entry = readCredential(settings);
  } catch {
    return null;
  }
  if (entry && entry.source === 'login' && entry.apiKeyId !== pending.replacesApiKeyId && originOf(entry.apiBaseUrl) === originOf(base) && Date.parse(entry.createdAt) >= Date.parse(pending.createdAt))
    return entry;
  return null;
}

function resultOf(settings, base, entry, { alreadyLoggedIn, requestedOrg = null }) {
  return {
    loggedIn: true,
    alreadyLoggedIn,
    profile: settings.profile,
    apiBaseUrl: base,
    user: entry.user ?? null,
    organization: entry.organization ?? null,
    requestedOrg,
    scopes: entry.scopes ?? [],
    expiresAt: entry.expiresAt ?? null,
    apiKeyId: entry.apiKeyId ?? null,
  };
}

function report(result, asJson) {
  if (asJson) return json(result);
  const who = result.user?.email ?? result.user?.id ?? 'this account';
  out(
    `${result.alreadyLoggedIn ? 'already logged in' : 'logged in'} as ${sanitizeLine(who)}, organization ${sanitizeLine(result.organization?.slug ?? '-')} ` +
      `(${result.scopes.join(', ') || 'no scopes'}; expires ${result.expiresAt ? result.expiresAt.slice(0, 10) : 'never'})\n  ${result.apiBaseUrl}, profile "${result.profile}"`,
  );
}

/** The server's view of a stored login, or null when the key no longer works there. */
async function principalOrNull(base, apiKey, rt) {
  try {
    return await createClient({ baseUrl: base, apiKey }, rt).call('account.principal.get', {});
  } catch (e) {
    if (e.exitCode === EXIT.AUTH || e.exitCode === EXIT.NOT_FOUND) return null;
    throw e;
  }
}

/** Best effort: revoke the login key a new login replaces, at the origin it was issued for. */
async function revokeReplaced(old, rt) {
  const origin = originOf(old.apiBaseUrl);
  if (!origin || !old.apiKeyId) return;
  try {
    await createClient({ baseUrl: origin, apiKey: old.apiKey }, rt).call('prm.apiKeys.delete', { apiKeyId: old.apiKeyId });
  } catch (e) {
    if (keyRefused(e)) return;
    err(`notice: could not revoke the previous login key (${sanitizeLine(old.apiKeyId)}); it expires on its own${old.expiresAt ? ` on ${old.expiresAt.slice(0, 10)}` : ''}, or revoke it in the directory's Settings > API keys`);
  }
}

const LOGIN_OPTIONS = {
  'api-base-url': { type: 'string' },
  org: { type: 'string' },
  'new-org': { type: 'boolean' },
  'org-name': { type: 'string' },
  'org-slug': { type: 'string' },
  'no-wait': { type: 'boolean' },
  force: { type: 'boolean' },
};

export async function login(argv, rt = realRuntime) {
  const { values } = parse(argv, LOGIN_OPTIONS, { max: 0, usage: LOGIN_HELP });
  if (values.help) return process.stdout.write(LOGIN_HELP), EXIT.OK;
  return runLogin(values, rt);
}

async function runLogin(values, rt) {
  if (values.org && values['new-org']) throw new CliError(EXIT.USAGE, '--org and --new-org do not go together');
  if ((values['org-name'] || values['org-slug']) && !values['new-org']) throw new CliError(EXIT.USAGE, '--org-name and --org-slug go with --new-org');
  for (const k of ['org', 'org-slug'])
    if (values[k] !== undefined && !ORG_SLUG.test(values[k])) throw new CliError(EXIT.USAGE, `--${k}: not an organization slug (3-32 of a-z, 0-9, -)`);
  if (values['org-name'] !== undefined && (values['org-name'].length === 0 || values['org-name'].length > 100)) throw new CliError(EXIT.USAGE, '--org-name must be 1..100 characters');
  const settings = resolveSettings(values);
  const base = values['api-base-url'] !== undefined ? checkApiBaseUrl(values['api-base-url'], { label: '--api-base-url', exitCode: EXIT.USAGE }) : apiBase(settings).url;
  const asJson = !!values.json;
  const wait = !values['no-wait'];
  if (process.env.AGX_API_KEY) err('notice: AGX_API_KEY is set; it takes precedence over this login for every other command until you unset it');

  // Already logged in here, for this organization: confirm with the server and stop.
  const existing = readCredential(settings);
  const otherOrg = !!values['new-org'] || (values.org !== undefined && existing?.organization?.slug !== values.org);
  if (existing && existing.source === 'login' && !values.force && !otherOrg && originOf(existing.apiBaseUrl) === originOf(base) && !(existing.expiresAt && Date.parse(existing.expiresAt) <= rt.now())) {
    const principal = await principalOrNull(base, existing.apiKey, rt);
    if (principal) {
      const result = resultOf(settings, base, existing, { alreadyLoggedIn: true });
      if (typeof principal?.user?.emailMasked === 'string') result.user = { ...result.user, email: maskEmail(principal.user.emailMasked) };
      report(result, asJson);
      return EXIT.OK;
    }
  }

  // Resume the code this same request already has, or ask for a new one.
  const request = { orgHint: values.org ?? null, newOrg: !!values['new-org'], newOrgName: values['org-name'] ?? null, newOrgSlug: values['org-slug'] ?? null };
  let pending = loadPendingLogin(settings);
  let resumed = false;
  const sameCode = pending !== null && pending.apiBaseUrl === base && sameRequest(pending.request ?? {}, request);
  const expiredFor = sameCode ? rt.now() - Date.parse(pending.expiresAt) : 0;
  if (sameCode && expiredFor < 0) resumed = true;
  else if (sameCode && !wait && expiredFor < 24 * 3600_000) {
    // --no-wait reports on THE code a person may be looking at; it ran out, so say so once
    // instead of swapping in a new code nobody has seen. The next run starts over.
    removePendingLogin(settings);
    const done = finishedElsewhere(settings, base, pending);
    if (done) return report(resultOf(settings, base, done, { alreadyLoggedIn: false }), asJson), EXIT.OK;
    throw new CliError(EXIT.TIMEOUT, 'the login code expired before it was approved', { code: 'expired_token', remediation: 'Run the same command again for a fresh code:\n  agx login --no-wait' });
  } else {
    removePendingLogin(settings);
    const label = sanitizeLine(hostname()).slice(0, 64) || 'unknown-host';
    pending = { ...(await requestDeviceCode(base, { ...request, hostLabel: label }, rt)), replacesApiKeyId: existing?.source === 'login' ? (existing.apiKeyId ?? null) : null };
    savePendingLogin(settings, pending);
  }

  const action = loginAction(pending, rt.now());
  if (!wait && !resumed) throw stillPending(action);
  // Ctrl-C, SIGTERM, SIGHUP from here on stop the wait and keep the code (handlers first, so a
  // signal right after the prompt is ours too).
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const sig of signals) process.once(sig, onSignal);
  if (wait) {
    if (asJson) process.stderr.write(JSON.stringify({ actionRequired: action }) + '\n');
    else {
      err(`Open ${action.url} and check that it shows the code ${action.userCode} (expires in ${minutesLeft(action.expiresIn)}).`);
      err('Sign in there, pick or create the organization, accept the Terms, then approve.');
      err('Waiting for approval... (Ctrl-C keeps the code; the same command resumes it)');
    }
  }

  let outcome;
  try {
    outcome = await pollWithLock(settings, base, pending, !wait, controller.signal, rt);
  } catch (e) {
    // Denied, expired or no longer accepted: this code is finished. Interrupted: it is kept.
    if (!controller.signal.aborted && (e.exitCode === EXIT.AUTH || e.exitCode === EXIT.TIMEOUT)) removePendingLogin(settings);
    throw e;
  } finally {
    for (const sig of signals) process.off(sig, onSignal);
  }
  if (outcome.kind === 'pending') throw stillPending(loginAction(outcome.pending, rt.now()));
  if (outcome.kind === 'finished') {
    removePendingLogin(settings);
    report(resultOf(settings, base, outcome.entry, { alreadyLoggedIn: false }), asJson);
    return EXIT.OK;
  }

  // Store the key, point the profile at this server and organization, clean up.
  const { token } = outcome;
  const now = rt.now();
  const entry = {
    apiBaseUrl: originOf(base),
    apiKey: token.access_token,
    apiKeyId: token.api_key_id,
    source: 'login',
    clientId: CLIENT_ID,
    organization: { id: serverText(token.organization.id, 100), slug: serverText(token.organization.slug, 100), name: serverText(token.organization.name, 200) },
    user: { id: serverText(token.user.id, 100), email: maskEmail(token.user.email) },
    scopes: typeof token.scope === 'string' ? token.scope.split(/\s+/).filter(Boolean) : [],
    expiresAt: typeof token.expires_at === 'string' && Number.isFinite(Date.parse(token.expires_at)) ? token.expires_at : Number.isFinite(token.expires_in) ? iso(now + token.expires_in * 1000) : null,
    createdAt: iso(now),
  };
  const previous = existing;
  writeCredential(settings, entry);
  const fresh = resolveSettings(values);
  if (fresh.config.apiBaseUrl !== base) setConfig(fresh, 'apiBaseUrl', base);
  if (ORG_SLUG.test(token.organization.slug)) setConfig(resolveSettings(values), 'orgSlug', token.organization.slug);
  removePendingLogin(settings);
  const requested = values.org ?? values['org-slug'] ?? null;
  const differs = requested !== null && token.organization.slug !== requested;
  if (differs) err(`notice: you asked for organization "${requested}", but the login was approved for "${entry.organization.slug}"; agx now acts for "${entry.organization.slug}"`);
  report(resultOf(settings, base, entry, { alreadyLoggedIn: false, requestedOrg: differs ? requested : null }), asJson);
  if (previous && previous.apiKey !== entry.apiKey) {
    if (previous.source === 'login') await revokeReplaced(previous, rt);
    else err(`notice: this login replaces the ${previous.source ?? 'stored'} key of profile "${settings.profile}"; it was not revoked (it may be in use elsewhere): revoke it in the directory's Settings > API keys if nothing uses it`);
  }
  return EXIT.OK;
}

/** Polls while holding the profile's lock; a run that finds it taken waits for the holder. */
async function pollWithLock(settings, base, pending, once, signal, rt) {
  let release = tryLock(settings.files.loginLock);
  const patienceUntil = rt.now() + pending.interval * 1000 + 20_000;
  let waited = false;
  while (!release) {
    waited = true;
    const done = finishedElsewhere(settings, base, pending);
    if (done) return { kind: 'finished', entry: done };
    if (loadPendingLogin(settings)?.deviceCode !== pending.deviceCode)
      throw new CliError(EXIT.AUTH, 'this login ended in another agx process without a key (denied or expired)', { remediation: 'Start again:\n  agx login' });
    if (once && rt.now() >= patienceUntil) {
      err('notice: another agx process is polling this login code');
      return { kind: 'pending', pending };
    }
    try {
      await rt.sleep(1000, signal);
    } catch {
      throw new CliError(EXIT.INTERRUPTED, 'interrupted', { code: 'INTERRUPTED' });
    }
    release = tryLock(settings.files.loginLock);
  }
  try {
    const done = finishedElsewhere(settings, base, pending);
    if (done) return { kind: 'finished', entry: done };
    const fresh = loadPendingLogin(settings);
    if (!fresh || fresh.deviceCode !== pending.deviceCode)
      throw new CliError(EXIT.AUTH, 'this login ended in another agx process without a key (denied or expired)', { remediation: 'Start again:\n  agx login' });
    if (once && waited) return { kind: 'pending', pending: fresh }; // the other process just spent this poll
    return await pollDeviceToken(base, fresh, { once, signal, persist: (next) => savePendingLogin(settings, next) }, rt);
  } finally {
    release();
  }
}

// ---------------------------------------------------------------- logout

function profilesWithCredentials(home) {
  if (!existsSync(home)) return [];
  return readdirSync(home, { withFileTypes: true })
    .filter((d) => d.isDirectory() && PROFILE_NAME.test(d.name) && (existsSync(join(home, d.name, 'credentials.json')) || existsSync(join(home, d.name, 'pending-login.json'))))
    .map((d) => d.name)
    .sort();
}

async function revoke(entry, rt) {
  const origin = originOf(entry.apiBaseUrl);
  if (!origin) return 'already-invalid';
  const client = createClient({ baseUrl: origin, apiKey: entry.apiKey }, rt);
  let apiKeyId = entry.apiKeyId;
  try {
    // A key stored with `config set apiKey` does not know its own id: ask the server.
    if (!apiKeyId) {
      const p = await client.call('account.principal.get', {});
      apiKeyId = typeof p?.apiKey?.id === 'string' ? p.apiKey.id : null;
      if (!apiKeyId) throw new CliError(EXIT.PEER, 'account.principal.get: the directory did not say which key this is, so it cannot be revoked', { code: 'DIRECTORY_BAD_RESPONSE' });
    }
    await client.call('prm.apiKeys.delete', { apiKeyId });
    return 'revoked';
  } catch (e) {
    if (keyRefused(e)) return 'already-invalid';
    throw e;
  }
}

export async function logout(argv, rt = realRuntime) {
  const { values } = parse(argv, { all: { type: 'boolean' }, local: { type: 'boolean' } }, { max: 0, usage: LOGOUT_HELP });
  if (values.help) return process.stdout.write(LOGOUT_HELP), EXIT.OK;
  const first = resolveSettings(values);
  const names = values.all ? profilesWithCredentials(first.home) : [first.profile];
  const rows = [];
  let failure = null;
  for (const name of names) {
    const settings = values.all ? resolveSettings({ ...values, profile: name }) : first;
    removePendingLogin(settings);
    const entry = readCredential(settings);
    if (!entry) {
      rows.push({ profile: name, revoked: false, reason: 'not-logged-in' });
      continue;
    }
    try {
      const reason = await revoke(entry, rt);
      removeCredential(settings);
      rows.push({ profile: name, revoked: reason === 'revoked', reason });
    } catch (e) {
      if (values.local) {
        removeCredential(settings);
        rows.push({ profile: name, revoked: false, reason: 'not-revoked-local' });
        err(`notice: forgot the key of profile "${name}" without revoking it (${e.message}); it stays valid until it expires${entry.expiresAt ? ` on ${entry.expiresAt.slice(0, 10)}` : ''}: revoke it in the directory's Settings > API keys`);
      } else {
        rows.push({ profile: name, revoked: false, reason: 'revoke-failed' });
        failure ??= new CliError(e.exitCode ?? EXIT.FAILURE, `could not revoke the key of profile "${name}": ${e.message}; the key was kept`, {
          code: e.code ?? 'DIRECTORY_REVOKE_FAILED',
          remediation:
            e.exitCode === EXIT.RELAY
              ? 'Run it again when the directory is reachable, or forget the key on this machine only:\n  agx logout --local'
              : "Revoke it in the directory's Settings > API keys, then forget it here:\n  agx logout --local",
        });
      }
    }
  }
  if (process.env.AGX_API_KEY) err('notice: AGX_API_KEY is still set in this shell, so commands keep using it: unset AGX_API_KEY');
  if (values.json) json({ ok: failure === null, loggedOut: rows });
  else
    for (const r of rows)
      out(
        {
          revoked: `logged out of profile "${r.profile}"; the key was revoked`,
          'already-invalid': `logged out of profile "${r.profile}"; the directory already refused the key`,
          'not-revoked-local': `logged out of profile "${r.profile}" on this machine only (the key was not revoked)`,
          'revoke-failed': `profile "${r.profile}": the key could not be revoked and was kept`,
          'not-logged-in': `profile "${r.profile}" was not logged in`,
        }[r.reason],
      );
  if (failure) {
    failure.printed = !!values.json;
    throw failure;
  }
  return EXIT.OK;
}

// ---------------------------------------------------------------- whoami

export async function whoami(argv, rt = realRuntime) {
  const { values } = parse(argv, {}, { max: 0, usage: WHOAMI_HELP });
  if (values.help) return process.stdout.write(WHOAMI_HELP), EXIT.OK;
  const settings = resolveSettings(values);
  if (!process.env.AGX_API_KEY && !readCredential(settings)) {
    if (values.json) json({ loggedIn: false, profile: settings.profile });
    throw new CliError(EXIT.AUTH, `profile "${settings.profile}" is not logged in to the directory`, { code: 'DIRECTORY_NOT_LOGGED_IN', remediation: 'agx login', printed: !!values.json });
  }
  const key = resolveKey(settings, { now: rt.now() });
  let principal = null;
  try {
    principal = await createClient(key, rt).call('account.principal.get', {});
  } catch (e) {
    // A 404 without data.code: a server without whoami; show the local record, unverified.
    if (e.code !== 'DIRECTORY_NOT_FOUND') throw e;
  }
  const entry = key.entry;
  const t = (v, n = 100) => serverText(v, n);
  const o = principal?.organization;
  const k = principal?.apiKey;
  const result = {
    loggedIn: true,
    verified: principal !== null,
    profile: settings.profile,
    apiBaseUrl: key.baseUrl,
    source: key.source,
    user: principal?.user ? { id: t(principal.user.id), email: maskEmail(principal.user.emailMasked) } : (entry?.user ?? null),
    organization: o ? { id: t(o.id), slug: t(o.slug), name: t(o.name, 200), role: t(o.role, 40) } : entry?.organization ? { ...entry.organization, role: null } : null,
    apiKey: k
      ? {
          id: t(k.id),
          name: t(k.name, 200),
          scoped: k.scoped === true,
          scopes: Array.isArray(k.scopes) ? k.scopes.map((s) => t(s, 60)).filter(Boolean) : [],
          clientId: t(k.clientId, 60),
          hostLabel: t(k.hostLabel, 64),
          expiresAt: t(k.expiresAt, 40),
        }
      : entry
        ? { id: entry.apiKeyId ?? null, name: null, scoped: entry.clientId === CLIENT_ID, scopes: entry.scopes ?? [], clientId: entry.clientId ?? null, hostLabel: null, expiresAt: entry.expiresAt ?? null }
        : null,
  };
  if (values.json) json(result);
  else {
    out(`profile       ${settings.profile}`);
    out(`user          ${result.user?.email ?? result.user?.id ?? '-'}`);
    out(`organization  ${result.organization ? `${result.organization.slug}${result.organization.role ? ` (${result.organization.role})` : ''}` : '-'}`);
    out(`scopes        ${result.apiKey?.scoped ? result.apiKey.scopes.join(', ') : 'full access (unscoped key)'}`);
    out(`expires       ${result.apiKey?.expiresAt ?? 'never'}`);
    out(`key from      ${key.source}`);
    out(`directory     ${key.baseUrl}`);
    if (!result.verified) err("notice: this directory has no whoami procedure; the details above are agx's own record, not confirmed by the directory");
  }
  return EXIT.OK;
}

// ---------------------------------------------------------------- org

export async function org(argv, rt = realRuntime) {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    (sub === undefined ? process.stderr : process.stdout).write(ORG_HELP);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (sub === 'create') {
    const { values, positionals } = parse(rest, { ...LOGIN_OPTIONS, slug: { type: 'string' } }, { min: 1, max: 1, usage: ORG_HELP });
    if (values.help) return process.stdout.write(ORG_HELP), EXIT.OK;
    if (values.org || values['new-org'] || values['org-name'] || values['org-slug']) throw new CliError(EXIT.USAGE, `org create takes NAME and --slug\n${ORG_HELP}`);
    const { slug, ...others } = values;
    return runLogin({ ...others, 'new-org': true, 'org-name': positionals[0], ...(slug !== undefined ? { 'org-slug': slug } : {}) }, rt);
  }
  if (sub !== 'list') throw new CliError(EXIT.USAGE, `unknown org command "${String(sub).slice(0, 40)}"\n${ORG_HELP}`);
  const { values } = parse(rest, {}, { max: 0, usage: ORG_HELP });
  if (values.help) return process.stdout.write(ORG_HELP), EXIT.OK;
  const settings = resolveSettings(values);
  const key = resolveKey(settings, { now: rt.now() });
  const list = await createClient(key, rt).call('organizations.list', {});
  if (!Array.isArray(list)) throw new CliError(EXIT.PEER, 'organizations.list: the answer is not a list', { code: 'DIRECTORY_BAD_RESPONSE' });
  const current = process.env.AGX_ORG || settings.config.orgSlug || key.entry?.organization?.slug || null;
  const rows = list
    .filter((o) => o && typeof o === 'object')
    .map((o) => ({ id: serverText(o.id, 100), name: serverText(o.name, 200), slug: serverText(o.slug, 100), role: serverText(o.role, 40), ...(typeof o.logo === 'string' ? { logo: serverText(o.logo, 500) } : {}), current: o.slug === current }));
  if (values.json) json({ organizations: rows });
  else {
    if (rows.length === 0) out('(no organizations)');
    for (const r of rows) out(`${r.current ? '*' : ' '} ${String(r.slug).padEnd(24)} ${String(r.name ?? '').padEnd(30)} ${r.role ?? ''}`);
    if (key.entry?.clientId === CLIENT_ID) err('notice: a login key covers one organization; for another: agx login --org SLUG --profile NAME');
  }
  return EXIT.OK;
}
