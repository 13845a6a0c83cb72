// The directory commands that act for an organization: `register`, `listing`, `domain`, `search`,
// `peers`. Each is one or a few RPC calls (directory-api.js) with `orgSlug` in every input; the key,
// the directory and the organization come from directory-config.js. Text from the directory is
// printed sanitized (it is another party's text, like a peer's).
import { CliError, EXIT, err, json, numberOption, out, parse } from './common.js';
import { resolveSettings } from './settings.js';
import { sanitizeLine } from './sanitize.js';
import { npubOf, peerHex, loadPublicKey } from './keystore.js';
import { createClient, realRuntime } from './directory-api.js';
import { readDirectoryState, resolveTarget, writeDirectoryState } from './directory-config.js';
import { openSigner, signProof } from './identity-sign.js';

const VISIBILITIES = ['public', 'unlisted', 'private'];
const CATEGORIES = 'finance, sales, marketing, customer-support, hr, legal, operations, engineering, devops, data, research, productivity, communication, commerce, security';
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;
/** How often `--wait` asks again: every call makes the directory do real work (a fetch, a check). */
export const WAIT_POLL_MS = 15_000;

const line = (v) => (v === null || v === undefined || v === '' ? '-' : sanitizeLine(String(v)));
const list = (v) => (Array.isArray(v) && v.length ? v.map(line).join(', ') : '-');

function context(values, rt) {
  const settings = resolveSettings(values);
  const target = resolveTarget(settings, values, { now: rt.now() });
  return { settings, target, client: createClient(target, rt), orgSlug: target.orgSlug };
}

function checkId(id, what) {
  if (!ID.test(id)) throw new CliError(EXIT.USAGE, `${what}: not an id (1-128 of A-Z a-z 0-9 _ . : -)`);
  return id;
}

/** The listing id given, else the one `register` (or an earlier explicit id) stored for the profile. */
function listingId(settings, given) {
  if (given !== undefined) {
    checkId(given, 'listing');
    if (readDirectoryState(settings).listingId !== given) writeDirectoryState(settings, { listingId: given });
    return given;
  }
  const stored = readDirectoryState(settings).listingId;
  if (!stored)
    throw new CliError(EXIT.USAGE, 'no listing id given and none stored for this profile', { remediation: 'agx listing list   (find the id)\nagx listing get ID' });
  return stored;
}

function checkVisibility(v) {
  if (v !== undefined && !VISIBILITIES.includes(v)) throw new CliError(EXIT.USAGE, `visibility must be one of ${VISIBILITIES.join(', ')}`);
  return v;
}

function checkList(items, re, what) {
  for (const v of items ?? []) if (!re.test(v)) throw new CliError(EXIT.USAGE, `${what}: "${sanitizeLine(v).slice(0, 60)}" is not valid`);
  return items ?? [];
}

const CAPABILITY = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const WORD = /^[a-z0-9][a-z0-9-]{0,49}$/;

/** The profile's relays a listing can advertise: public wss:// ones (a loopback relay helps nobody). */
function advertisedRelays(relays) {
  const keep = [];
  for (const url of relays) {
    const u = new URL(url);
    if (u.protocol === 'wss:' && !['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)) keep.push(url);
    else err(`notice: not advertising ${url} in the listing (only public wss:// relays reach other organizations)`);
  }
  return keep;
}

function printListing(l, heading) {
  if (heading) out(heading);
  out(`id            ${line(l?.id)}`);
  out(`slug          ${line(l?.slug)}`);
  if (l?.displayName !== undefined) out(`name          ${line(l.displayName)}`);
  if (l?.npub !== undefined) out(`npub          ${line(l.npub)}`);
  if (l?.handle !== undefined) out(`handle        ${l.handle ? `${line(l.handle)}${l.verified ? '' : ' (unverified)'}` : '-'}`);
  out(`status        ${line(l?.status)}`);
  out(`visibility    ${line(l?.visibility)}`);
  out(`capabilities  ${list(l?.capabilities)}`);
  if (l?.relays !== undefined) out(`relays        ${list(l.relays)}`);
}

const LISTING_FIELDS = {
  'display-name': { type: 'string' },
  capability: { type: 'string', multiple: true },
  summary: { type: 'string' },
  description: { type: 'string' },
  'use-cases': { type: 'string' },
  category: { type: 'string', multiple: true },
  tag: { type: 'string', multiple: true },
  runtime: { type: 'string' },
  visibility: { type: 'string' },
  handle: { type: 'string' },
  'domain-id': { type: 'string' },
  org: { type: 'string' },
};

/** The createListing fields the flags give (checked), without the address. */
function listingInput(values) {
  const slug = values.slug;
  if (!slug || !SLUG.test(slug)) throw new CliError(EXIT.USAGE, '--slug is required: lowercase letters, digits and dashes, at most 64');
  if (values.handle !== undefined && values['domain-id'] === undefined)
    throw new CliError(EXIT.USAGE, '--handle needs --domain-id', { remediation: 'Claim a domain first:\n  agx domain add example.com\n  agx domain list' });
  if (values.handle !== undefined && !/^[a-z0-9._-]{1,64}$/.test(values.handle)) throw new CliError(EXIT.USAGE, '--handle: a NIP-05 name is lowercase letters, digits, . _ -');
  if (values['domain-id'] !== undefined) checkId(values['domain-id'], '--domain-id');
  checkVisibility(values.visibility);
  checkList(values.capability, CAPABILITY, '--capability');
  checkList(values.category, WORD, `--category (${CATEGORIES})`);
  checkList(values.tag, WORD, '--tag');
  for (const k of ['display-name', 'summary', 'description', 'use-cases', 'runtime'])
    if (values[k] !== undefined && (values[k].length === 0 || values[k].length > 4000)) throw new CliError(EXIT.USAGE, `--${k} must be 1..4000 characters`);
  const titled = slug
    .split('-')
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
  return {
    slug,
    displayName: values['display-name'] ?? titled,
    ...(values.summary !== undefined && { summary: values.summary }),
    ...(values.description !== undefined && { description: values.description }),
    ...(values['use-cases'] !== undefined && { useCases: values['use-cases'] }),
    ...(values.capability?.length && { capabilities: values.capability }),
    ...(values.category?.length && { categories: values.category }),
    ...(values.tag?.length && { tags: values.tag }),
    ...(values.runtime !== undefined && { runtime: values.runtime }),
    ...(values.visibility !== undefined && { visibility: values.visibility }),
    ...(values.handle !== undefined && { handleName: values.handle }),
    ...(values['domain-id'] !== undefined && { domainId: values['domain-id'] }),
  };
}

// ---------------------------------------------------------------- register

export const REGISTER_HELP = `usage: agx register --slug SLUG --capability C [--capability C ...] [options]

Proves to the directory that the profile holds its key (createKeyChallenge, a signed proof,
submitKeyProof) and creates an external listing for it (a draft: publish it with
\`agx listing publish\`). Running it again for a key that already has a listing in the organization
reports that listing instead of creating another.
  --slug SLUG            the listing's slug (lowercase, dashes)
  --capability C         a capability the agent handles (repeatable; one is needed to publish)
  --display-name N       default: from the slug
  --summary T, --description T, --use-cases T, --runtime R
  --category C           repeatable: ${CATEGORIES}
  --tag T                repeatable
  --visibility V         public | unlisted | private
  --handle NAME --domain-id ID   a NIP-05 handle on a claimed domain
  --org SLUG             the organization (default: AGX_ORG, config orgSlug, the login's)
  --bunker FILE|-        sign the proof with a NIP-46 remote signer (its bunker:// URI in FILE or on stdin)
common options: --profile NAME, --relay URL (the relays the listing advertises), --json
`;

export async function register(argv, rt = realRuntime) {
  const { values } = parse(argv, { slug: { type: 'string' }, ...LISTING_FIELDS, bunker: { type: 'string' } }, { max: 0, usage: REGISTER_HELP });
  if (values.help) return process.stdout.write(REGISTER_HELP), EXIT.OK;
  const input = listingInput(values);
  if (!input.capabilities) err('notice: no --capability given; a listing needs one before it can be published');
  const { settings, client, orgSlug } = context(values, rt);
  const opened = await openSigner(settings, values.bunker);
  try {
    const npub = npubOf(opened.pubkey);
    const resumed = async (id) => {
      const got = await client.call('agentIndex.getListing', { orgSlug, listingId: id });
      return report(got?.listing ?? got, true);
    };
    const report = (listing, wasResumed) => {
      if (listing?.id !== undefined) writeDirectoryState(settings, { listingId: String(listing.id), listingSlug: listing.slug ?? null });
      if (values.json) json({ ok: true, resumed: wasResumed, listing });
      else {
        printListing(listing, wasResumed ? `${npub} already has this listing in "${orgSlug}":` : `listing created for ${npub} in "${orgSlug}":`);
        if (!wasResumed) out('Listings start as drafts; publishing is a separate step: agx listing publish');
        if (listing?.visibility !== 'public') err(`notice: visibility is "${line(listing?.visibility)}"; search only returns public, listed entries (agx listing set-visibility public)`);
      }
      return EXIT.OK;
    };
    // Idempotent: a listing of this key in the organization is reported, not created twice.
    try {
      const owned = await client.call('agentIndex.getOwnedListingByAddress', { orgSlug, address: npub });
      if (typeof owned?.listingId === 'string') return await resumed(checkId(owned.listingId, 'getOwnedListingByAddress'));
    } catch (e) {
      if (e.exitCode !== EXIT.NOT_FOUND) throw e;
    }
    const challenge = await client.call('agentIndex.createKeyChallenge', { orgSlug, pubkey: npub });
    if (typeof challenge?.nonce !== 'string') throw new CliError(EXIT.PEER, 'createKeyChallenge: the answer has no nonce', { code: 'DIRECTORY_BAD_RESPONSE' });
    if (typeof challenge.pubkey === 'string' && challenge.pubkey !== npub && challenge.pubkey !== opened.pubkey)
      throw new CliError(EXIT.PEER, 'createKeyChallenge: the challenge is for another key; nothing was signed', { code: 'DIRECTORY_BAD_RESPONSE' });
    const signedEvent = await signProof(opened.signer, challenge.nonce, rt.now());
    try {
      await client.call('agentIndex.submitKeyProof', { orgSlug, pubkey: npub, nonce: challenge.nonce, signedEvent });
    } catch (e) {
      // The directory consumes a challenge before it verifies it: a failed proof burns the nonce.
      e.remediation = `${e.remediation ? `${e.remediation}\n` : ''}Challenges are single-use; run the same command again for a fresh one.`;
      throw e;
    }
    if (!values.json) err('possession of the key is proven and recorded for this organization');
    const relays = advertisedRelays(settings.relays);
    try {
      const listing = await client.call('agentIndex.createListing', { orgSlug, pubkey: npub, ...input, ...(relays.length && { relays }) });
      return report(listing, false);
    } catch (e) {
      // Our own live listing for this address (the directory names it): resume it.
      if (e.code === 'LISTING_ADDRESS_LIVE' && e.listingId) return await resumed(e.listingId);
      throw e;
    }
  } finally {
    await opened.close();
  }
}

// ---------------------------------------------------------------- listing

export const LISTING_HELP = `usage: agx listing <command> [options]

  create --slug S (--team ID | --pubkey NPUB [--relay URL...]) [register's listing options]
                                  a listing for a team the directory holds a key for, or an
                                  external key with a recorded proof (agx register does both steps)
  list [--limit N]                the organization's own listings, any status
  get [ID]                        one listing (default: the profile's, from register)
  publish [ID] [--visibility V] [--wait [--timeout S]]
                                  list it in the directory; with a login key an organization admin
                                  confirms a public listing in the browser (exit 10 with the URL;
                                  --wait checks every 15 s until it is public, default 1800 s)
  delist [ID]                     take it out of the directory (its card retraction is requested)
  delete [ID] --yes               delete it for good
  set-visibility LEVEL [ID]       public | unlisted | private
  set-policy [ID] [--auto-allow | --no-auto-allow] [--capability C...] [--daily-cap N]
                                  first-contact auto-allow (directory-hosted teams only)
options: --org SLUG; common options: --profile NAME, --json
`;

export async function listing(argv, rt = realRuntime) {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    (sub === undefined ? process.stderr : process.stdout).write(LISTING_HELP);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  const specs = {
    create: [{ slug: { type: 'string' }, team: { type: 'string' }, pubkey: { type: 'string' }, ...LISTING_FIELDS }, 0, 0],
    list: [{ org: { type: 'string' }, limit: { type: 'string' } }, 0, 0],
    get: [{ org: { type: 'string' } }, 0, 1],
    publish: [{ org: { type: 'string' }, visibility: { type: 'string' }, wait: { type: 'boolean' }, timeout: { type: 'string' } }, 0, 1],
    delist: [{ org: { type: 'string' } }, 0, 1],
    delete: [{ org: { type: 'string' }, yes: { type: 'boolean' } }, 0, 1],
    'set-visibility': [{ org: { type: 'string' } }, 1, 2],
    'set-policy': [{ org: { type: 'string' }, 'auto-allow': { type: 'boolean' }, 'no-auto-allow': { type: 'boolean' }, capability: { type: 'string', multiple: true }, 'daily-cap': { type: 'string' } }, 0, 1],
  }[sub];
  if (!specs) throw new CliError(EXIT.USAGE, `unknown listing command "${String(sub).slice(0, 40)}"\n${LISTING_HELP}`);
  const { values, positionals } = parse(rest, specs[0], { min: specs[1], max: specs[2], usage: LISTING_HELP });
  if (values.help) return process.stdout.write(LISTING_HELP), EXIT.OK;
  const done = (result, text) => {
    if (values.json) json({ ok: true, ...result });
    else text();
    return EXIT.OK;
  };

  if (sub === 'create') {
    const input = listingInput(values);
    if (!values.team === !values.pubkey)
      throw new CliError(EXIT.USAGE, 'pass exactly one of --team or --pubkey', { remediation: 'For an external key, agx register proves possession first, which createListing requires.' });
    if (values.team !== undefined) checkId(values.team, '--team');
    if (values.team !== undefined && values.relay?.length) throw new CliError(EXIT.USAGE, "--relay goes with --pubkey (a team listing advertises the team's relays)");
    const { settings, client, orgSlug } = context(values, rt);
    let address = {};
    if (values.pubkey !== undefined) {
      const hex = peerHex(values.pubkey);
      // The profile's relays are the key's address only when the key is the profile's own.
      let own = null;
      try {
        own = loadPublicKey(settings).pubkey;
      } catch {
        own = null;
      }
      const relays = values.relay?.length || own === hex ? advertisedRelays(settings.relays) : [];
      if (!values.relay?.length && own !== hex) err('notice: --pubkey is not this profile\'s key, so its relays are unknown: pass them with --relay wss://...');
      address = { pubkey: npubOf(hex), ...(relays.length && { relays }) };
    } else address = { teamId: values.team };
    const created = await client.call('agentIndex.createListing', { orgSlug, ...input, ...address });
    if (created?.source === 'external' && created?.id !== undefined) writeDirectoryState(settings, { listingId: String(created.id), listingSlug: created.slug ?? null });
    return done({ listing: created }, () => {
      printListing(created, 'listing created (a draft):');
      out(`publish it with: agx listing publish ${line(created?.id)}`);
    });
  }
  if (sub === 'list') {
    const limit = numberOption(values, 'limit', 50, { min: 1, integer: true });
    const { client, orgSlug } = context(values, rt);
    const result = await client.call('agentIndex.searchListings', { orgSlug, mine: true, limit });
    const rows = Array.isArray(result?.listings) ? result.listings : [];
    return done({ listings: rows, total: result?.total ?? rows.length }, () => {
      if (rows.length === 0) out(`(no listings in "${orgSlug}")`);
      for (const l of rows) out(`${line(l.id).padEnd(14)} ${line(l.slug).padEnd(24)} ${line(l.status).padEnd(9)} ${line(l.visibility).padEnd(9)} ${list(l.capabilities)}`);
    });
  }

  const { settings, client, orgSlug } = context(values, rt);
  if (sub === 'get') {
    const id = listingId(settings, positionals[0]);
    const result = await client.call('agentIndex.getListing', { orgSlug, listingId: id });
    const l = result?.listing ?? result;
    return done({ listing: l, verificationEvents: result?.verificationEvents ?? [] }, () => {
      printListing(l, sanitizeLine(String(l?.displayName ?? id)));
      if (l?.summary) out(`summary       ${line(l.summary)}`);
      if (l?.status === 'listed' && l?.visibility !== 'public') err(`notice: listed, but visibility is "${line(l.visibility)}": search returns public entries only`);
    });
  }
  if (sub === 'set-visibility') {
    const [level, given] = positionals;
    checkVisibility(level);
    const id = listingId(settings, given);
    const result = await client.call('agentIndex.updateListing', { orgSlug, listingId: id, visibility: level });
    return done({ listing: result }, () => {
      out(`visibility of ${id} is now "${line(result?.visibility ?? level)}"`);
      if (result?.cardRetractionRequested) out('card retraction requested (a NIP-09 deletion; relays need not honor it)');
    });
  }
  if (sub === 'delist') {
    const id = listingId(settings, positionals[0]);
    const result = await client.call('agentIndex.delistListing', { orgSlug, listingId: id });
    return done(result ?? {}, () => {
      out(`listing ${id} is now "${line(result?.listing?.status)}"`);
      if (result?.cardRetractionRequested) out('card retraction requested (a NIP-09 deletion; relays need not honor it, so the card may persist)');
    });
  }
  if (sub === 'delete') {
    const id = listingId(settings, positionals[0]);
    if (!values.yes) throw new CliError(EXIT.USAGE, 'deleting a listing cannot be undone', { remediation: `Confirm with: agx listing delete ${id} --yes` });
    const result = await client.call('agentIndex.deleteListing', { orgSlug, listingId: id });
    if (readDirectoryState(settings).listingId === id) writeDirectoryState(settings, { listingId: null, listingSlug: null });
    return done(result ?? {}, () => {
      out(`listing ${id} deleted`);
      if (result?.cardRetractionRequested) out('card retraction requested (a NIP-09 deletion; relays need not honor it)');
    });
  }
  if (sub === 'set-policy') {
    const id = listingId(settings, positionals[0]);
    if (values['auto-allow'] && values['no-auto-allow']) throw new CliError(EXIT.USAGE, '--auto-allow and --no-auto-allow do not go together');
    checkList(values.capability, CAPABILITY, '--capability');
    const cap = values['daily-cap'] === undefined ? undefined : numberOption(values, 'daily-cap', 0, { min: 0, integer: true });
    const patch = {
      ...(values['auto-allow'] && { autoAllowContact: true }),
      ...(values['no-auto-allow'] && { autoAllowContact: false }),
      ...(values.capability?.length && { autoAllowCapabilities: values.capability }),
      ...(cap !== undefined && { autoAllowDailyCap: cap }),
    };
    if (Object.keys(patch).length === 0) throw new CliError(EXIT.USAGE, 'nothing to set: --auto-allow, --no-auto-allow, --capability or --daily-cap');
    const result = await client.call('agentIndex.updateListing', { orgSlug, listingId: id, ...patch });
    return done({ listing: result }, () => {
      out(`auto-allow policy of ${id}: contact ${result?.autoAllowContact ? 'on' : 'off'}, capabilities ${list(result?.autoAllowCapabilities)}, daily cap ${line(result?.autoAllowDailyCap)}`);
      if (result?.autoAllowContact && !(result?.autoAllowCapabilities ?? []).length) err('notice: auto-allow is on with no capability, which admits nobody');
    });
  }
  // publish
  const id = listingId(settings, positionals[0]);
  checkVisibility(values.visibility);
  const timeoutS = numberOption(values, 'timeout', 1800);
  if (values.timeout !== undefined && !values.wait) throw new CliError(EXIT.USAGE, '--timeout goes with --wait');
  let gated = null;
  let result = null;
  try {
    if (values.visibility !== undefined) await client.call('agentIndex.updateListing', { orgSlug, listingId: id, visibility: values.visibility });
    result = await client.call('agentIndex.publishListing', { orgSlug, listingId: id });
  } catch (e) {
    if (!(values.wait && e.code === 'HUMAN_CONFIRMATION_REQUIRED')) throw e;
    gated = e;
  }
  if (gated) {
    // Hand the URL to a person once, then check every 15 s until the listing is public and listed.
    if (values.json) process.stderr.write(JSON.stringify({ actionRequired: gated.actionRequired }) + '\n');
    else err(`${gated.message}\nwaiting until it is public (checking every ${WAIT_POLL_MS / 1000} s, for up to ${timeoutS} s)...`);
    const deadline = rt.now() + timeoutS * 1000;
    for (;;) {
      const left = deadline - rt.now();
      if (left <= 0) throw gated;
      await rt.sleep(Math.min(WAIT_POLL_MS, left));
      const got = await client.call('agentIndex.getListing', { orgSlug, listingId: id });
      const l = got?.listing ?? got;
      if (l?.status === 'listed' && l?.visibility === 'public') return done({ listing: l, confirmed: true }, () => printListing(l, 'listing confirmed and public:'));
    }
  }
  const l = result?.listing ?? result;
  return done({ listing: l, cardPublished: result?.cardPublished ?? false }, () => {
    printListing(l, `listing ${id} is now "${line(l?.status)}"`);
    if (result?.cardPublished) out('agent card: published by the directory to the team\'s relays');
    else if (l?.source === 'external') out('agent card: none published by the directory (it never holds an external key): publish your own with agx serve --advertise');
    if (l?.visibility !== 'public') err(`notice: visibility is "${line(l?.visibility)}"; other organizations cannot find it (agx listing set-visibility public)`);
  });
}

// ---------------------------------------------------------------- domain

export const DOMAIN_HELP = `usage: agx domain <command> [options]

  add DOMAIN [--handle NAME]   claim DOMAIN for the organization and print the nostr.json it must
                               serve at https://DOMAIN/.well-known/nostr.json for NAME (this
                               profile's key)
  list                         the organization's domains
  verify ID [--wait [--timeout S]]
                               run the NIP-05 check now (--wait: every 15 s until verified, default 600 s)
  remove ID --yes              release it (handles and badges on it are cleared)
options: --org SLUG; common options: --profile NAME, --json
`;

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export async function domain(argv, rt = realRuntime) {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    (sub === undefined ? process.stderr : process.stdout).write(DOMAIN_HELP);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  const specs = {
    add: [{ org: { type: 'string' }, handle: { type: 'string' } }, 1],
    list: [{ org: { type: 'string' } }, 0],
    verify: [{ org: { type: 'string' }, wait: { type: 'boolean' }, timeout: { type: 'string' } }, 1],
    remove: [{ org: { type: 'string' }, yes: { type: 'boolean' } }, 1],
  }[sub];
  if (!specs) throw new CliError(EXIT.USAGE, `unknown domain command "${String(sub).slice(0, 40)}"\n${DOMAIN_HELP}`);
  const { values, positionals } = parse(rest, specs[0], { min: specs[1], max: specs[1], usage: DOMAIN_HELP });
  if (values.help) return process.stdout.write(DOMAIN_HELP), EXIT.OK;

  if (sub === 'add') {
    const name = positionals[0].toLowerCase();
    if (!DOMAIN.test(name))
      throw new CliError(EXIT.USAGE, `"${sanitizeLine(name).slice(0, 80)}" is not a public domain name`, {
        remediation: 'NIP-05 verification fetches https://DOMAIN/.well-known/nostr.json from the internet: localhost and IP addresses cannot be verified.',
      });
    if (values.handle !== undefined && !/^[a-z0-9._-]{1,64}$/.test(values.handle)) throw new CliError(EXIT.USAGE, '--handle: a NIP-05 name is lowercase letters, digits, . _ -');
    const { settings, client, orgSlug } = context(values, rt);
    const result = await client.call('agentIndex.createDomain', { orgSlug, domain: name });
    let pubkey = null;
    try {
      pubkey = loadPublicKey(settings).pubkey;
    } catch {
      pubkey = null;
    }
    const handle = values.handle ?? '<handle>';
    const shownDomain = typeof result?.domain === 'string' && DOMAIN.test(result.domain) ? result.domain : name;
    const nostrJson = {
      url: `https://${shownDomain}/.well-known/nostr.json?name=${encodeURIComponent(handle)}`,
      path: '/.well-known/nostr.json',
      body: { names: { [handle]: pubkey ?? '<64-hex public key>' } },
    };
    if (values.json) json({ ok: true, domain: result, nostrJson });
    else {
      out(`claimed ${shownDomain} (id ${line(result?.id)}, status ${line(result?.status)})`);
      out(`serve this at https://${shownDomain}${nostrJson.path} as JSON, with Access-Control-Allow-Origin: *`);
      out(JSON.stringify(nostrJson.body, null, 2));
      out(`then: agx register --slug SLUG --handle ${handle} --domain-id ${line(result?.id)}; agx domain verify ${line(result?.id)} --wait`);
      if (values.handle === undefined) err('notice: no --handle: <handle> above is a placeholder');
      if (!pubkey) err('notice: this profile has no identity yet, so the key above is a placeholder (agx identity new)');
    }
    return EXIT.OK;
  }
  const { client, orgSlug } = context(values, rt);
  if (sub === 'list') {
    const result = await client.call('agentIndex.listDomains', { orgSlug });
    const rows = Array.isArray(result?.domains) ? result.domains : [];
    if (values.json) json({ ok: true, domains: rows });
    else {
      if (rows.length === 0) out(`(no domains claimed by "${orgSlug}")`);
      for (const d of rows) out(`${line(d.id).padEnd(14)} ${line(d.domain).padEnd(30)} ${line(d.status).padEnd(10)} ${d.verified ? 'verified' : '-'} ${d.lastFailureReason ? line(d.lastFailureReason) : ''}`);
    }
    return EXIT.OK;
  }
  const id = checkId(positionals[0], 'domain');
  if (sub === 'remove') {
    if (!values.yes) throw new CliError(EXIT.USAGE, 'removing a domain clears the handle and verification badge of every listing on it', { remediation: `Confirm with: agx domain remove ${id} --yes` });
    await client.call('agentIndex.deleteDomain', { orgSlug, domainId: id });
    if (values.json) json({ ok: true, domainId: id });
    else out(`domain ${id} removed; handles and badges on it were cleared`);
    return EXIT.OK;
  }
  // verify
  if (values.timeout !== undefined && !values.wait) throw new CliError(EXIT.USAGE, '--timeout goes with --wait');
  const timeoutS = numberOption(values, 'timeout', 600);
  const deadline = rt.now() + timeoutS * 1000;
  let result = await client.call('agentIndex.verifyDomain', { orgSlug, domainId: id });
  let attempts = 1;
  while (values.wait && !result?.domain?.verified) {
    const left = deadline - rt.now();
    if (left <= 0) break;
    if (attempts === 1 && !values.json) err(`not verified yet; checking every ${WAIT_POLL_MS / 1000} s for up to ${timeoutS} s...`);
    await rt.sleep(Math.min(WAIT_POLL_MS, left));
    if (rt.now() >= deadline) break;
    result = await client.call('agentIndex.verifyDomain', { orgSlug, domainId: id });
    attempts += 1;
  }
  const verified = result?.domain?.verified === true;
  if (values.json) json({ ok: verified || !values.wait, ...result, attempts });
  else {
    out(`domain    ${line(result?.domain?.domain)}\nstatus    ${line(result?.domain?.status)}\nverified  ${verified ? 'yes' : 'no'}`);
    for (const r of Array.isArray(result?.results) ? result.results : []) out(`  ${line(r.handle).padEnd(24)} ${r.ok ? 'pass' : 'fail'} ${r.reason ? line(r.reason) : ''}`);
    if (!verified) err('notice: verification fetches https://DOMAIN/.well-known/nostr.json?name=HANDLE over public HTTPS and needs it to map to the listing\'s key');
  }
  if (values.wait && !verified)
    throw new CliError(EXIT.PEER, `${line(result?.domain?.domain ?? id)} was still not verified after ${attempts} attempt(s)`, {
      code: 'DOMAIN_NOT_VERIFIED',
      printed: !!values.json,
      remediation: `Check that the domain serves the nostr.json that agx domain add printed, then:\n  agx domain verify ${id} --wait`,
    });
  return EXIT.OK;
}

// ---------------------------------------------------------------- search

export const SEARCH_HELP = `usage: agx search ["QUERY"] [--capability C...] [--category C...] [--verified-only] [--mine] [--limit N] [--offset N]

Searches the directory: listings that are public and listed (--mine: the organization's own, any status).
options: --org SLUG; common options: --profile NAME, --json
`;

export async function search(argv, rt = realRuntime) {
  const { values, positionals } = parse(
    argv,
    {
      org: { type: 'string' },
      capability: { type: 'string', multiple: true },
      category: { type: 'string', multiple: true },
      'verified-only': { type: 'boolean' },
      mine: { type: 'boolean' },
      limit: { type: 'string' },
      offset: { type: 'string' },
    },
    { max: 1, usage: SEARCH_HELP },
  );
  if (values.help) return process.stdout.write(SEARCH_HELP), EXIT.OK;
  const query = positionals[0];
  if (query !== undefined && query.length > 500) throw new CliError(EXIT.USAGE, 'the query is longer than 500 characters');
  checkList(values.capability, CAPABILITY, '--capability');
  checkList(values.category, WORD, `--category (${CATEGORIES})`);
  const limit = numberOption(values, 'limit', 20, { min: 1, integer: true });
  const offset = numberOption(values, 'offset', 0, { integer: true });
  const { client, orgSlug } = context(values, rt);
  const result = await client.call('agentIndex.searchListings', {
    orgSlug,
    ...(query && { query }),
    ...(values.capability?.length && { capabilities: values.capability }),
    ...(values.category?.length && { categories: values.category }),
    ...(values['verified-only'] && { verifiedOnly: true }),
    ...(values.mine && { mine: true }),
    limit,
    offset,
  });
  const rows = Array.isArray(result?.listings) ? result.listings : [];
  const total = Number.isFinite(result?.total) ? result.total : rows.length;
  if (values.json) json({ ok: true, listings: rows, total });
  else {
    out(`${total} result${total === 1 ? '' : 's'} (searching as "${orgSlug}")`);
    for (const l of rows)
      out(`${line(l.displayName).padEnd(24)} ${line(l.npub)} ${l.handle ? `${line(l.handle)}${l.verified ? ' (verified)' : ''}` : '-'}  ${list(l.capabilities)}`);
    if (total === 0 && !values.mine) err('notice: search returns listings that are both public and listed; --mine shows your own drafts');
  }
  return EXIT.OK;
}

// ---------------------------------------------------------------- peers

export const PEERS_HELP = `usage: agx peers <command> --team ID [options]

A team's trust decisions, kept by the directory for directory-hosted teams (a login key does not
cover them: use a Settings key, agx config set apiKey):
  list --team ID                               the team's peers (pending = quarantined)
  allowlist --team ID --npub NPUB [--name N]   approve a peer: the team may message it, and its
                                               messages are delivered instead of quarantined
  accept | ignore | block --team ID --peer PEER_ID
  refuse --team ID --peer PEER_ID --reason TEXT
options: --org SLUG; common options: --profile NAME, --json
`;

const DECISIONS = { accept: 'acceptPeer', refuse: 'refusePeer', ignore: 'ignorePeer', block: 'blockPeer' };

export async function peers(argv, rt = realRuntime) {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    (sub === undefined ? process.stderr : process.stdout).write(PEERS_HELP);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (sub !== 'list' && sub !== 'allowlist' && !DECISIONS[sub]) throw new CliError(EXIT.USAGE, `unknown peers command "${String(sub).slice(0, 40)}"\n${PEERS_HELP}`);
  const { values } = parse(rest, { org: { type: 'string' }, team: { type: 'string' }, npub: { type: 'string' }, name: { type: 'string' }, peer: { type: 'string' }, reason: { type: 'string' } }, { max: 0, usage: PEERS_HELP });
  if (values.help) return process.stdout.write(PEERS_HELP), EXIT.OK;
  if (values.team === undefined) throw new CliError(EXIT.USAGE, `--team ID is required\n${PEERS_HELP}`);
  const teamId = checkId(values.team, '--team');
  if (sub === 'allowlist' && values.npub === undefined) throw new CliError(EXIT.USAGE, '--npub NPUB is required');
  if (DECISIONS[sub] && values.peer === undefined) throw new CliError(EXIT.USAGE, '--peer PEER_ID is required', { remediation: `Find it with: agx peers list --team ${teamId}` });
  if (sub === 'refuse' && !values.reason) throw new CliError(EXIT.USAGE, '--reason is required when refusing');
  if (values.reason !== undefined && values.reason.length > 500) throw new CliError(EXIT.USAGE, '--reason: at most 500 characters');
  if (values.name !== undefined && (values.name.length === 0 || values.name.length > 200)) throw new CliError(EXIT.USAGE, '--name must be 1..200 characters');
  const npub = values.npub !== undefined ? npubOf(peerHex(values.npub)) : undefined;
  const peerId = values.peer !== undefined ? checkId(values.peer, '--peer') : undefined;
  const { client, orgSlug } = context(values, rt);
  if (sub === 'list') {
    const result = await client.call('exchange.listPeers', { orgSlug, teamId });
    const rows = Array.isArray(result?.peers) ? result.peers : [];
    if (values.json) json({ ok: true, peers: rows });
    else {
      if (rows.length === 0) out(`(team ${teamId} has no peers)`);
      for (const p of rows) {
        let shown = line(p.pubkey);
        try {
          shown = npubOf(peerHex(p.pubkey));
        } catch {
          // not a key: shown as sent, escaped
        }
        out(`${line(p.id).padEnd(14)} ${shown} ${line(p.status).padEnd(10)} ${line(p.nip05)} ${p.displayName ? line(p.displayName) : ''}`);
      }
      err('notice: pending means quarantined: filed but invisible to the team\'s agents until accepted');
    }
    return EXIT.OK;
  }
  if (sub === 'allowlist') {
    const result = await client.call('exchange.allowlistPeer', { orgSlug, teamId, identity: npub, ...(values.name !== undefined && { displayName: values.name }) });
    if (values.json) json({ ok: true, ...result });
    else out(`${npub} is now "${line(result?.status)}" for team ${teamId}: the team may message it, and its messages are delivered`);
    return EXIT.OK;
  }
  const procedure = DECISIONS[sub];
  const result = await client.call(`exchange.${procedure}`, { orgSlug, teamId, peerId, ...(values.reason !== undefined && { reason: values.reason }) });
  if (values.json) json({ ok: true, ...result });
  else {
    out(`peer ${peerId} is now "${line(result?.status)}"`);
    if (Number.isFinite(result?.delivered)) out(`released ${result.delivered} of ${line(result.total)} quarantined message(s)`);
  }
  return EXIT.OK;
}
