// A directory server for tests (node:http on 127.0.0.1, a free port), written from the login
// contract's fixture (tests/vectors/agx-directory-contract-v1.json): the device endpoints apply the
// contract's §1.3 rules in order (pacing, single use, client binding) on an injectable clock; the RPC
// procedures authenticate X-API-Key, check that orgSlug is the key's organization, and keep real
// state (challenges, proofs verified with nostr-tools, listings, domains, peers); every error body is
// the fixture's. Every request is logged (method, path, headers, body).
//
//   const dir = await startDirectoryServer({ now, interval });
//   dir.approve() / deny() / expire()   the newest pending login code
//   dir.queueToken(r) / queueCode(r)    answer the next device call with r ({status, headers, body})
//   dir.queueRpc(path, r)               answer the next call of a procedure with r (or a fixture name)
//   dir.addKey({...})                   a key the directory knows without a login (a Settings key)
//   dir.redirectTo(url)                 answer everything with a 307 to url
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { verifyEvent, nip19 } from 'nostr-tools';

export const CONTRACT = JSON.parse(readFileSync(new URL('../vectors/agx-directory-contract-v1.json', import.meta.url), 'utf8'));

const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
const KNOWN_CLIENTS = new Set(['agx']);
const USER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

const clone = (v) => structuredClone(v);
const randomKey = () => `ela_${Array.from(randomBytes(64), (b) => LETTERS[b % LETTERS.length]).join('')}`;
const userCode = () => {
  const part = () => Array.from(randomBytes(4), (b) => USER_CODE_ALPHABET[b % USER_CODE_ALPHABET.length]).join('');
  return `${part()}-${part()}`;
};
const oauth = (status, body) => ({ status, body });
/** A fixture error body by name (a copy), e.g. rpcFixture('API_KEY_INVALID'). */
export const rpcFixture = (name) => {
  if (!CONTRACT.rpcErrors[name]) throw new Error(`no fixture error ${name}`);
  return clone(CONTRACT.rpcErrors[name]);
};
/** An RPC error without data.code (as a server that predates data.code answers). */
export const rpcPlain = (status, code, message) => ({ status, body: { json: { defined: false, code, status, message } } });
const ok = (output) => ({ status: 200, body: { json: output } });

function hexOf(npubOrHex) {
  if (typeof npubOrHex !== 'string') return null;
  if (/^[0-9a-f]{64}$/.test(npubOrHex)) return npubOrHex;
  try {
    const d = nip19.decode(npubOrHex);
    return d.type === 'npub' ? d.data : null;
  } catch {
    return null;
  }
}

export async function startDirectoryServer({ now = () => Date.now(), interval = Number(CONTRACT.deviceCode.response.interval), omitScopeEcho = false, verificationOrigin = null } = {}) {
  const requests = [];
  const codes = [];
  const keys = [];
  const tokenQueue = [];
  const codeQueue = [];
  const rpcQueue = new Map();
  const state = { challenges: new Map(), proofs: new Set(), listings: [], domains: [], peers: [], seq: 0 };
  const fixtureOrg = CONTRACT.deviceToken.success.organization;
  const fixtureUser = CONTRACT.deviceToken.success.user;
  let origin = '';
  let redirect = null;
  const id = (prefix) => `${prefix}_${++state.seq}`;

  const mintKey = (code) => {
    const record = {
      id: id('k'),
      key: randomKey(),
      name: `agx-${code.request.host_label ?? 'host'}`,
      organization: code.organization ?? fixtureOrg,
      user: { id: code.user?.id ?? fixtureUser.id, email: code.user?.email ?? fixtureUser.email },
      scoped: true,
      scopes: String(code.scope ?? '').split(' ').filter(Boolean),
      clientId: code.clientId,
      hostLabel: typeof code.request.host_label === 'string' ? code.request.host_label : null,
      expiresAt: new Date(now() + 90 * 86_400_000).toISOString(),
      revoked: false,
    };
    keys.push(record);
    return record;
  };

  // §1.2
  const handleCode = (body) => {
    const queued = codeQueue.shift();
    if (queued) return queued;
    const clientId = typeof body.client_id === 'string' ? body.client_id : null;
    if (clientId !== null && !KNOWN_CLIENTS.has(clientId)) return clone(CONTRACT.deviceCode.errors.invalid_client);
    if (body.scope !== undefined && (typeof body.scope !== 'string' || body.scope.split(' ').some((s) => !CONTRACT.scopes.includes(s))))
      return clone(CONTRACT.deviceCode.errors.invalid_scope);
    if (body.org_hint !== undefined && (typeof body.org_hint !== 'string' || !/^[a-z0-9-]{3,32}$/.test(body.org_hint) || body.new_org))
      return { status: 400, body: { error: 'invalid_request', error_description: 'org_hint must be a slug and does not go with new_org' } };
    const template = CONTRACT.deviceCode.response;
    const record = {
      deviceCode: randomBytes(32).toString('hex'),
      userCode: codes.length === 0 ? String(template.user_code) : userCode(),
      clientId,
      scope: typeof body.scope === 'string' ? body.scope : String(template.scope),
      request: body,
      status: 'pending',
      interval,
      lastPolledAt: null,
      expiresAt: now() + Number(template.expires_in) * 1000,
      organization: null,
      user: null,
    };
    codes.push(record);
    const page = verificationOrigin ?? origin;
    const response = {
      device_code: record.deviceCode,
      user_code: record.userCode,
      verification_uri: `${page}/auth/device`,
      verification_uri_complete: `${page}/auth/device?code=${record.userCode}`,
      expires_in: Number(template.expires_in),
      interval: record.interval,
    };
    if (clientId !== null && !omitScopeEcho) response.scope = record.scope;
    return { status: 200, body: response };
  };

  // §1.3, in order; the first match wins.
  const handleToken = (body) => {
    const deviceCode = typeof body.device_code === 'string' ? body.device_code : null;
    const record = deviceCode ? codes.find((c) => c.deviceCode === deviceCode) : undefined;
    server.onTokenPoll?.(record);
    const queued = tokenQueue.shift();
    if (queued) return queued;
    if (!deviceCode) return oauth(400, { error: 'invalid_request' });
    if (!record) return clone(CONTRACT.deviceToken.errors.invalid_grant);
    const clientId = typeof body.client_id === 'string' ? body.client_id : null;
    if (clientId !== null && !KNOWN_CLIENTS.has(clientId)) return clone(CONTRACT.deviceToken.errors.invalid_client);
    if (record.clientId !== null) {
      if (body.grant_type === undefined) return clone(CONTRACT.deviceToken.errors.invalid_request);
      if (body.grant_type !== GRANT_TYPE) return clone(CONTRACT.deviceToken.errors.unsupported_grant_type);
      if (clientId !== record.clientId) return oauth(400, { error: 'invalid_grant' });
    }
    const t = now();
    if (t > record.expiresAt && (record.status === 'pending' || record.status === 'approved')) {
      record.status = 'expired';
      return clone(CONTRACT.deviceToken.errors.expired_token);
    }
    if (record.status === 'expired') return clone(CONTRACT.deviceToken.errors.expired_token);
    if (record.status === 'denied') return clone(CONTRACT.deviceToken.errors.access_denied);
    if (record.status === 'consumed') return clone(CONTRACT.deviceToken.errors.already_used);
    if (record.status === 'pending') {
      if (record.lastPolledAt !== null && t < record.lastPolledAt + (record.interval - 1) * 1000) {
        record.interval = Math.min(record.interval + 5, 60);
        return oauth(400, { error: 'slow_down', interval: record.interval });
      }
      record.lastPolledAt = t;
      return clone(CONTRACT.deviceToken.errors.authorization_pending);
    }
    record.status = 'consumed';
    const key = mintKey(record);
    const success = clone(CONTRACT.deviceToken.success);
    return {
      status: 200,
      body: {
        ...success,
        access_token: key.key,
        api_key_id: key.id,
        expires_in: Math.floor((Date.parse(key.expiresAt) - t) / 1000),
        expires_at: key.expiresAt,
        scope: key.scopes.join(' '),
        user: { ...success.user, id: key.user.id, email: key.user.email },
        organization: key.organization,
      },
    };
  };

  // ---------------------------------------------------------------- the directory's procedures

  const forbiddenOrg = () => rpcPlain(403, 'FORBIDDEN', 'API key does not have access to this organization');
  const notFound = (what) => rpcPlain(404, 'NOT_FOUND', `${what} not found`);
  const badRequest = (message) => rpcPlain(400, 'BAD_REQUEST', message);
  const publicListing = (l) => ({
    id: l.id,
    slug: l.slug,
    displayName: l.displayName,
    handle: l.verified ? l.handle : null,
    npub: l.npub,
    verified: l.verified,
    capabilities: l.capabilities,
    visibility: l.visibility,
    status: l.status,
    source: l.source,
    summary: l.summary ?? null,
    relays: l.relays,
    autoAllowContact: l.autoAllowContact,
    autoAllowCapabilities: l.autoAllowCapabilities,
    autoAllowDailyCap: l.autoAllowDailyCap,
  });
  const ownListing = (input, key) => state.listings.find((l) => l.id === input.listingId && l.orgId === key.organization.id);
  const gate = (l, key) =>
    key.scoped && l.visibility === 'public'
      ? (() => {
          const r = rpcFixture('HUMAN_CONFIRMATION_REQUIRED');
          r.body.json.data.url = `/elladex/listings/${l.id}?org=${key.organization.slug}`;
          r.body.json.data.listingId = l.id;
          r.body.json.message = `Making this listing public needs an organization admin to confirm it in the browser: ${origin}/elladex/listings/${l.id}?org=${key.organization.slug}`;
          return r;
        })()
      : null;

  const procedures = {
    'account/principal/get': (_input, key) => {
      const template = clone(CONTRACT.principal.output);
      return ok({
        ...template,
        user: { id: key.user.id, emailMasked: `${key.user.email[0]}•••${key.user.email.slice(key.user.email.indexOf('@'))}` },
        organization: { ...key.organization, role: 'owner' },
        apiKey: { ...template.apiKey, id: key.id, name: key.name, start: key.key.slice(0, 6), scoped: key.scoped, scopes: key.scopes, clientId: key.clientId, hostLabel: key.hostLabel, expiresAt: key.expiresAt },
      });
    },
    'organizations/list': (_input, key) => {
      const own = { ...clone(CONTRACT.organizationsList.output[0]), ...key.organization };
      return ok(key.scoped ? [own] : [own, { id: 'o_2', slug: 'other-org', name: 'Other Org', role: 'member' }]);
    },
    'prm/apiKeys/delete': (input, key) => {
      if (input?.apiKeyId !== key.id) return rpcFixture('API_KEY_SELF_REVOKE_ONLY');
      key.revoked = true;
      return ok(clone(CONTRACT.apiKeysDelete.output));
    },
    'agentIndex/getOwnedListingByAddress': (input, key) => {
      const hex = hexOf(input.address);
      const l = state.listings.find((x) => x.orgId === key.organization.id && x.pubkey === hex);
      return l ? ok({ listingId: l.id }) : notFound('No listing for that address');
    },
    'agentIndex/createKeyChallenge': (input, key) => {
      const hex = hexOf(input.pubkey);
      if (!hex) return badRequest('pubkey must be an npub');
      const nonce = randomBytes(24).toString('base64url');
      state.challenges.set(nonce, { orgId: key.organization.id, pubkey: hex, used: false, expiresAt: now() + 600_000 });
      return ok({ nonce, expiresAt: new Date(now() + 600_000).toISOString(), pubkey: input.pubkey });
    },
    'agentIndex/submitKeyProof': (input, key) => {
      const c = state.challenges.get(input.nonce);
      if (!c || c.used || c.orgId !== key.organization.id || now() > c.expiresAt) return rpcPlain(403, 'FORBIDDEN', 'Unknown or used challenge');
      c.used = true; // consumed before it is verified: a failed proof burns the nonce
      const ev = input.signedEvent;
      const valid = ev && typeof ev === 'object' && verifyEvent({ ...ev }) && ev.pubkey === c.pubkey && hexOf(input.pubkey) === c.pubkey && String(ev.content).includes(input.nonce);
      if (!valid) return rpcPlain(403, 'FORBIDDEN', 'The proof does not verify');
      state.proofs.add(`${key.organization.id}:${c.pubkey}`);
      return ok({ ok: true });
    },
    'agentIndex/createListing': (input, key) => {
      if (typeof input.slug !== 'string') return badRequest('slug is required');
      if (!input.teamId === !input.pubkey) return badRequest('exactly one of teamId or pubkey');
      const hex = input.pubkey ? hexOf(input.pubkey) : null;
      if (input.pubkey && !hex) return badRequest('pubkey must be an npub');
      if (hex && !state.proofs.has(`${key.organization.id}:${hex}`)) return rpcPlain(403, 'FORBIDDEN', 'Prove possession of this key first (createKeyChallenge, submitKeyProof)');
      if (state.listings.some((l) => l.orgId === key.organization.id && l.slug === input.slug)) return rpcFixture('LISTING_SLUG_TAKEN');
      const live = hex && state.listings.find((l) => l.pubkey === hex);
      if (live) {
        const r = rpcFixture('LISTING_ADDRESS_LIVE');
        if (live.orgId === key.organization.id) r.body.json.data.listingId = live.id;
        else delete r.body.json.data.listingId;
        return r;
      }
      const teamKey = hex ?? randomBytes(32).toString('hex');
      const l = {
        id: id('l'),
        orgId: key.organization.id,
        slug: input.slug,
        displayName: input.displayName ?? input.slug,
        handle: input.handleName ?? null,
        pubkey: teamKey,
        npub: nip19.npubEncode(teamKey),
        verified: false,
        capabilities: input.capabilities ?? [],
        categories: input.categories ?? [],
        visibility: input.visibility ?? 'private',
        status: 'draft',
        source: hex ? 'external' : 'platform',
        summary: input.summary ?? null,
        relays: input.relays ?? [],
        autoAllowContact: false,
        autoAllowCapabilities: [],
        autoAllowDailyCap: 10,
      };
      state.listings.push(l);
      return ok(publicListing(l));
    },
    'agentIndex/getListing': (input, key) => {
      const l = ownListing(input, key);
      return l ? ok({ listing: publicListing(l), verificationEvents: [] }) : notFound('Listing');
    },
    'agentIndex/searchListings': (input, key) => {
      let rows = input.mine ? state.listings.filter((l) => l.orgId === key.organization.id) : state.listings.filter((l) => l.visibility === 'public' && l.status === 'listed');
      if (typeof input.query === 'string') rows = rows.filter((l) => `${l.displayName} ${l.slug} ${l.summary ?? ''}`.toLowerCase().includes(input.query.toLowerCase()));
      if (Array.isArray(input.capabilities)) rows = rows.filter((l) => input.capabilities.every((c) => l.capabilities.includes(c)));
      if (Array.isArray(input.categories)) rows = rows.filter((l) => input.categories.some((c) => l.categories.includes(c)));
      if (input.verifiedOnly) rows = rows.filter((l) => l.verified);
      const offset = input.offset ?? 0;
      const limit = input.limit ?? 20;
      return ok({ listings: rows.slice(offset, offset + limit).map(publicListing), total: rows.length });
    },
    'agentIndex/updateListing': (input, key) => {
      const l = ownListing(input, key);
      if (!l) return notFound('Listing');
      if (input.visibility !== undefined) {
        if (!['public', 'unlisted', 'private'].includes(input.visibility)) return badRequest('visibility');
        const was = l.visibility;
        l.visibility = input.visibility;
        const blocked = l.status === 'listed' ? gate(l, key) : null;
        if (blocked) {
          l.visibility = was;
          return blocked;
        }
      }
      if (input.autoAllowContact !== undefined) l.autoAllowContact = input.autoAllowContact;
      if (input.autoAllowCapabilities !== undefined) l.autoAllowCapabilities = input.autoAllowCapabilities;
      if (input.autoAllowDailyCap !== undefined) l.autoAllowDailyCap = input.autoAllowDailyCap;
      return ok({ ...publicListing(l), cardRetractionRequested: input.visibility !== undefined && input.visibility !== 'public' && l.status === 'listed' });
    },
    'agentIndex/publishListing': (input, key) => {
      const l = ownListing(input, key);
      if (!l) return notFound('Listing');
      if (l.capabilities.length === 0) return rpcPlain(422, 'UNPROCESSABLE_CONTENT', 'A listing needs at least one capability before it can be published');
      const blocked = gate(l, key);
      if (blocked) return blocked;
      l.status = 'listed';
      return ok({ listing: publicListing(l), cardPublished: l.source !== 'external' && l.visibility === 'public' });
    },
    'agentIndex/delistListing': (input, key) => {
      const l = ownListing(input, key);
      if (!l) return notFound('Listing');
      const wasListed = l.status === 'listed';
      l.status = 'delisted';
      return ok({ listing: publicListing(l), cardRetractionRequested: wasListed });
    },
    'agentIndex/deleteListing': (input, key) => {
      const l = ownListing(input, key);
      if (!l) return notFound('Listing');
      state.listings.splice(state.listings.indexOf(l), 1);
      return ok({ ok: true, cardRetractionRequested: l.status === 'listed' });
    },
    'agentIndex/createDomain': (input, key) => {
      if (typeof input.domain !== 'string') return badRequest('domain');
      if (state.domains.some((d) => d.domain === input.domain)) return rpcPlain(409, 'CONFLICT', 'That domain is already claimed.');
      const d = { id: id('d'), orgId: key.organization.id, domain: input.domain, method: 'nip05', status: 'pending', verified: false, verifiedAt: null, lastCheckedAt: null, consecutiveFailures: 0, lastFailureReason: null };
      state.domains.push(d);
      const { orgId: _o, ...shown } = d;
      return ok(shown);
    },
    'agentIndex/listDomains': (_input, key) => ok({ domains: state.domains.filter((d) => d.orgId === key.organization.id).map(({ orgId: _o, ...d }) => d) }),
    'agentIndex/verifyDomain': (input, key) => {
      const d = state.domains.find((x) => x.id === input.domainId && x.orgId === key.organization.id);
      if (!d) return notFound('Domain');
      d.lastCheckedAt = new Date(now()).toISOString();
      if (d.willVerify) Object.assign(d, { verified: true, status: 'verified', verifiedAt: d.lastCheckedAt });
      else Object.assign(d, { consecutiveFailures: d.consecutiveFailures + 1, lastFailureReason: 'nostr.json not found' });
      const { orgId: _o, willVerify: _w, ...shown } = d;
      return ok({ domain: shown, results: [{ listingId: 'l_x', handle: 'desk', ok: d.verified, ...(d.verified ? {} : { reason: 'nostr.json not found' }) }], checkedCount: 1, totalCandidates: 1 });
    },
    'agentIndex/deleteDomain': (input, key) => {
      const i = state.domains.findIndex((x) => x.id === input.domainId && x.orgId === key.organization.id);
      if (i < 0) return notFound('Domain');
      state.domains.splice(i, 1);
      return ok({ ok: true });
    },
    'exchange/listPeers': (input) => ok({ peers: state.peers.filter((p) => p.teamId === input.teamId) }),
    'exchange/allowlistPeer': (input) => {
      const hex = hexOf(input.identity);
      if (!hex) return badRequest('identity must be an npub');
      let p = state.peers.find((x) => x.teamId === input.teamId && x.pubkey === hex);
      if (!p) state.peers.push((p = { id: id('p'), teamId: input.teamId, pubkey: hex, status: 'allowed', displayName: input.displayName ?? null, nip05: null }));
      p.status = 'allowed';
      return ok({ status: p.status, pubkey: hex });
    },
  };
  for (const [name, status] of [['acceptPeer', 'allowed'], ['refusePeer', 'refused'], ['ignorePeer', 'ignored'], ['blockPeer', 'blocked']])
    procedures[`exchange/${name}`] = (input) => {
      const p = state.peers.find((x) => x.teamId === input.teamId && x.id === input.peerId);
      if (!p) return notFound('Peer');
      if (name === 'refusePeer' && !input.reason) return badRequest('reason is required');
      p.status = status;
      return ok({ status, ...(name === 'acceptPeer' ? { delivered: p.quarantined ?? 0, total: p.quarantined ?? 0 } : {}) });
    };

  const handleRpc = (path, headers, body) => {
    const presented = headers['x-api-key'];
    const key = keys.find((k) => k.key === presented);
    if (!key || key.revoked) return rpcFixture('API_KEY_INVALID');
    if (key.expiresAt && Date.parse(key.expiresAt) <= now()) return rpcFixture('API_KEY_EXPIRED');
    if (key.disabled) return rpcFixture('API_KEY_DISABLED');
    const queue = rpcQueue.get(path);
    if (queue?.length) {
      const next = queue.shift();
      return typeof next === 'string' ? rpcFixture(next) : next;
    }
    const handler = procedures[path];
    if (!handler) return rpcPlain(404, 'NOT_FOUND', 'Not found');
    const input = body && typeof body === 'object' ? (body.json ?? {}) : {};
    const orgScoped = path.startsWith('agentIndex/') || path.startsWith('exchange/');
    if (orgScoped) {
      if (typeof input.orgSlug !== 'string') return badRequest('orgSlug is required');
      if (input.orgSlug !== key.organization.slug) return forbiddenOrg();
    }
    if (path.startsWith('exchange/') && key.scoped) return rpcFixture('INSUFFICIENT_SCOPE');
    return handler(input, key);
  };

  const send = (res, r) => {
    const headers = { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...(r.raw === undefined ? { 'Content-Type': 'application/json' } : {}), ...r.headers };
    res.writeHead(r.status, headers);
    res.end(r.raw !== undefined ? r.raw : r.body === undefined ? '' : JSON.stringify(r.body));
  };

  const http = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const url = new URL(req.url ?? '/', origin);
      requests.push({ method: req.method, path: url.pathname, headers: req.headers, body });
      if (redirect) return send(res, { status: 307, headers: { Location: `${redirect}${url.pathname}` }, raw: '' });
      const json = body && typeof body === 'object' ? body : {};
      if (req.method === 'POST' && url.pathname === '/api/auth/device/code') return send(res, handleCode(json));
      if (req.method === 'POST' && url.pathname === '/api/auth/device/token') return send(res, handleToken(json));
      if (req.method === 'POST' && url.pathname.startsWith('/api/rpc/')) return send(res, handleRpc(url.pathname.slice('/api/rpc/'.length), req.headers, body));
      send(res, { status: 404, raw: '<html>not found</html>', headers: { 'Content-Type': 'text/html' } });
    });
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${http.address().port}`;

  const pick = (code) => {
    const record = code ? codes.find((c) => c.userCode === code) : codes.at(-1);
    if (!record) throw new Error('directory-server: no such login code');
    return record;
  };
  const server = {
    origin,
    requests,
    codes,
    keys,
    state,
    onTokenPoll: null,
    approve({ userCode: code, organization, user } = {}) {
      const r = pick(code);
      Object.assign(r, { status: 'approved', organization: organization ?? fixtureOrg, user: user ?? fixtureUser });
      return r;
    },
    deny(code) {
      return Object.assign(pick(code), { status: 'denied' });
    },
    expire(code) {
      return Object.assign(pick(code), { status: 'expired' });
    },
    queueToken: (r) => tokenQueue.push(r),
    queueCode: (r) => codeQueue.push(r),
    queueRpc(path, r) {
      if (!rpcQueue.has(path)) rpcQueue.set(path, []);
      rpcQueue.get(path).push(r);
    },
    redirectTo(url) {
      redirect = url;
    },
    addKey(partial = {}) {
      const record = {
        id: id('k'),
        key: randomKey(),
        name: 'Settings key',
        organization: fixtureOrg,
        user: { id: fixtureUser.id, email: fixtureUser.email },
        scoped: false,
        scopes: [],
        clientId: null,
        hostLabel: null,
        expiresAt: null,
        revoked: false,
        ...partial,
      };
      keys.push(record);
      return record;
    },
    /** Requests to a path. */
    calls: (path) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections?.();
        http.close(() => resolve());
      }),
  };
  return server;
}
