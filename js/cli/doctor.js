// `doctor`: preflight checks. File permissions, the identity, a real REQ/EOSE round trip to each
// relay, and the clock against each relay (the Date header of its NIP-11 answer; stored event
// timestamps from the future as a fallback). Exit code 8 when any check fails.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { nostr } from './nostr.js';
import { EXIT, describe, json, numberOption, out, parse } from './common.js';
import { resolveSettings } from './settings.js';
import { loadPublicKey } from './keystore.js';
import { sanitizeLine } from './sanitize.js';

const { relayInfoUrl } = nostr;

export const DOCTOR_HELP = `usage: nostr-agents doctor [--timeout S]

Checks the profile's files (folders 0700, files 0600), its identity, a REQ/EOSE round trip to each
relay (default timeout 5 s) and the clock skew against each relay; when the profile has a directory
key (login, config set apiKey, AGX_API_KEY): the key file, the key at the directory (whoami) and the
listing register made. Exit code 8 when a check fails.
common options: --profile NAME, --relay URL, --json
`;

const SKEW_WARN = 60; // s: AGX and NIP-XX windows start to matter
const SKEW_FAIL = 600;

function modeCheck(name, path, want, checks, loose = 'fail') {
  if (!existsSync(path)) return false;
  const mode = statSync(path).mode & 0o777;
  const octal = mode.toString(8).padStart(3, '0');
  if (mode & 0o077) checks.push({ name, status: loose, detail: `${path} is mode ${octal}; fix: chmod ${want.toString(8)} ${path}` });
  else checks.push({ name, status: 'ok', detail: `${path} (${octal})` });
  return true;
}

// The FileSeenStore `serve` keeps: its folder 0700, its files 0600, and who holds its lock.
function seenStoreChecks(dir, checks) {
  if (!modeCheck('seen store folder', dir, 0o700, checks)) return;
  for (const f of ['seen.json', 'seen.log']) modeCheck(`seen store ${f}`, join(dir, f), 0o600, checks);
  const lock = join(dir, 'seen.lock');
  if (!existsSync(lock)) return;
  const pid = Number(readFileSync(lock, 'utf8').trim());
  let alive = false;
  if (Number.isSafeInteger(pid) && pid > 0)
    try {
      process.kill(pid, 0);
      alive = true;
    } catch (e) {
      alive = e.code === 'EPERM';
    }
  checks.push({
    name: 'seen store lock',
    status: 'ok',
    detail: alive ? `held by process ${pid} (a serve of this profile is running)` : `left by process ${pid}, which is gone (the next serve takes it over)`,
  });
}

/** Opens a socket, sends REQ, waits for EOSE. Resolves { ok, ms, detail, newest }. */
function roundTrip(url, timeoutMs) {
  return new Promise((resolve) => {
    const started = Date.now();
    const subId = `doctor-${Math.random().toString(36).slice(2, 10)}`;
    let newest = 0;
    let done = false;
    let ws;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        ws.close();
      } catch {
        // already gone
      }
      resolve({ ms: Date.now() - started, newest, ...result });
    };
    const timer = setTimeout(() => finish({ ok: false, detail: `no EOSE within ${timeoutMs} ms` }), timeoutMs);
    try {
      ws = new WebSocket(url, { handshakeTimeout: timeoutMs });
    } catch (e) {
      finish({ ok: false, detail: describe(e) });
      return;
    }
    ws.on('open', () => ws.send(JSON.stringify(['REQ', subId, { limit: 5 }])));
    ws.on('message', (data) => {
      let msg;
      try {
        msg = JSON.parse(String(data));
      } catch {
        return;
      }
      if (!Array.isArray(msg) || msg[1] !== subId) return;
      if (msg[0] === 'EVENT' && msg[2] && Number.isSafeInteger(msg[2].created_at)) newest = Math.max(newest, msg[2].created_at);
      else if (msg[0] === 'EOSE') {
        try {
          ws.send(JSON.stringify(['CLOSE', subId]));
        } catch {
          // closing anyway
        }
        finish({ ok: true, detail: 'REQ answered with EOSE' });
      } else if (msg[0] === 'CLOSED') finish({ ok: false, detail: `CLOSED: ${sanitizeLine(String(msg[2] ?? '')).slice(0, 200)}` });
    });
    ws.on('error', (e) => finish({ ok: false, detail: sanitizeLine(e.message || String(e)) }));
    ws.on('close', () => finish({ ok: false, detail: 'connection closed before EOSE' }));
  });
}

/** Seconds our clock is ahead (+) or behind (-) the relay's, from its NIP-11 Date header; null if unknown. */
async function skewFromNip11(url, timeoutMs) {
  try {
    const res = await fetch(relayInfoUrl(url), { headers: { accept: 'application/nostr+json' }, signal: AbortSignal.timeout(timeoutMs) });
    const date = res.headers.get('date');
    await res.body?.cancel().catch(() => {});
    if (!date) return null;
    const theirs = Date.parse(date);
    if (!Number.isFinite(theirs)) return null;
    return Math.round((Date.now() - theirs - 500) / 1000); // the header has whole seconds
  } catch {
    return null;
  }
}

/** The directory, only when the profile uses one: its key file, the key (whoami), the listing. */
async function directoryChecks(settings, checks) {
  const hasFile = modeCheck('directory key file', settings.files.credentials, 0o600, checks);
  if (!hasFile && !process.env.AGX_API_KEY) return;
  const { createClient } = await import('./directory-api.js');
  const { readDirectoryState, resolveTarget } = await import('./directory-config.js');
  let target;
  let client;
  try {
    target = resolveTarget(settings);
    client = createClient(target);
    const p = await client.call('account.principal.get', {});
    const who = sanitizeLine(`${p?.user?.emailMasked ?? p?.user?.id ?? '?'} in ${p?.organization?.slug ?? target.orgSlug}`);
    const expires = typeof p?.apiKey?.expiresAt === 'string' ? `, key expires ${sanitizeLine(p.apiKey.expiresAt.slice(0, 10))}` : '';
    checks.push({ name: `directory ${target.baseUrl}`, status: 'ok', detail: `the key (from ${target.source}) acts as ${who}${expires}` });
  } catch (e) {
    checks.push({ name: `directory ${target?.baseUrl ?? ''}`.trim(), status: 'fail', detail: `${e.message}${typeof e.remediation === 'string' ? ` (${e.remediation.split('\n').join(' ')})` : ''}` });
    return;
  }
  const listingId = readDirectoryState(settings).listingId;
  if (!listingId) return;
  try {
    const got = await client.call('agentIndex.getListing', { orgSlug: target.orgSlug, listingId });
    const l = got?.listing ?? got;
    const status = l?.status === 'listed' && l?.visibility === 'public' ? 'ok' : 'warn';
    checks.push({ name: `listing ${listingId}`, status, detail: sanitizeLine(`${l?.status}, ${l?.visibility}${status === 'warn' ? ' (search finds public, listed entries only: agx listing publish)' : ''}`) });
  } catch (e) {
    checks.push({ name: `listing ${listingId}`, status: 'fail', detail: e.message });
  }
}

export async function run(argv) {
  const { values } = parse(argv, { timeout: { type: 'string' } }, { max: 0, usage: DOCTOR_HELP });
  if (values.help) return process.stdout.write(DOCTOR_HELP), EXIT.OK;
  const timeoutMs = Math.round(numberOption(values, 'timeout', 5, { min: 0.1 }) * 1000);
  const checks = [];
  let settings;
  try {
    settings = resolveSettings(values);
    checks.push({ name: 'settings', status: 'ok', detail: `profile ${settings.profile}, relays from ${settings.relaySource}` });
  } catch (e) {
    checks.push({ name: 'settings', status: 'fail', detail: e.message });
  }
  if (settings) {
    // The home may be shared (AGX_HOME=$HOME): loose is a warning there; the profile folder holds the key.
    if (!modeCheck('home folder', settings.home, 0o700, checks, 'warn')) checks.push({ name: 'home folder', status: 'fail', detail: `${settings.home} does not exist (nostr-agents identity new)` });
    if (!modeCheck('profile folder', settings.dir, 0o700, checks))
      checks.push({ name: 'profile folder', status: 'fail', detail: `${settings.dir} does not exist (nostr-agents identity new --profile ${settings.profile})` });
    for (const what of ['allow', 'config']) modeCheck(`${what} file`, settings.files[what], 0o600, checks);
    seenStoreChecks(settings.files.seen, checks);
    if (!modeCheck('key file', settings.files.key, 0o600, checks))
      checks.push({ name: 'identity', status: 'fail', detail: `no identity in profile "${settings.profile}" (nostr-agents identity new --profile ${settings.profile})` });
    else {
      try {
        const { npub } = loadPublicKey(settings);
        checks.push({ name: 'identity', status: 'ok', detail: npub });
      } catch (e) {
        checks.push({ name: 'identity', status: 'fail', detail: e.message });
      }
    }
    await directoryChecks(settings, checks);
    await Promise.all(
      settings.relays.map(async (url) => {
        const [rt, skew] = await Promise.all([roundTrip(url, timeoutMs), skewFromNip11(url, timeoutMs)]);
        checks.push({ name: `relay ${url}`, status: rt.ok ? 'ok' : 'fail', detail: rt.ok ? `${rt.detail} in ${rt.ms} ms` : rt.detail, ms: rt.ms });
        if (!rt.ok) return;
        let s = skew;
        let source = 'NIP-11 Date header';
        if (s === null && rt.newest > Math.floor(Date.now() / 1000) + SKEW_WARN) {
          s = Math.floor(Date.now() / 1000) - rt.newest;
          source = 'a stored event from our future';
        }
        if (s === null) checks.push({ name: `clock vs ${url}`, status: 'warn', detail: 'the relay gives no time to compare with' });
        else {
          const status = Math.abs(s) > SKEW_FAIL ? 'fail' : Math.abs(s) > SKEW_WARN ? 'warn' : 'ok';
          checks.push({ name: `clock vs ${url}`, status, detail: `${s >= 0 ? '+' : ''}${s} s (${source})`, skew: s });
        }
      }),
    );
  }
  const ok = checks.every((c) => c.status !== 'fail');
  if (values.json) json({ ok, profile: settings?.profile ?? null, checks });
  else {
    for (const c of checks) out(`${c.status === 'ok' ? 'ok  ' : c.status === 'warn' ? 'warn' : 'FAIL'}  ${c.name}: ${c.detail}`);
    out(ok ? 'all checks passed' : 'some checks failed');
  }
  return ok ? EXIT.OK : EXIT.CHECK;
}
