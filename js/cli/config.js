// `config show|set|use|list|path`: profiles and their settings. The directory's API key is the one
// setting that never goes in config.json nor through argv: `config set apiKey` reads it from stdin
// or --file and stores it in <profile>/credentials.json (0600), bound to the directory's origin.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, EXIT, err, json, out, parse } from './common.js';
import { PROFILE_NAME, currentProfileFile, ensureProfileDir, homeOf, resolveSettings, setConfig, writePrivate } from './settings.js';
import { checkCardSetting } from './agx-adapter.js';
import { ORG_SLUG, apiBase, checkApiBaseUrl, originOf, readCredential, writeCredential } from './directory-config.js';
import { isWellFormedApiKey, maskKey, rememberSecret } from './secrets.js';
import { sanitizeLine } from './sanitize.js';

export const CONFIG_HELP = `usage: nostr-agents config <show|set|use|list|path> [options]

  config show              the profile's settings and where each came from (never the API key)
  config set KEY VALUE     KEY: relays (comma-separated), org, nip05, maxAutoDepth,
                           apiBaseUrl (the directory), orgSlug (its organization)
  config set apiKey [--file FILE]
                           the directory's API key, read from stdin (or FILE), never from argv;
                           stored in <profile>/credentials.json (0600), sent only to apiBaseUrl's origin
  config use PROFILE       make PROFILE the default (when neither --profile nor AGX_PROFILE is given)
  config list              the profiles, the default marked with *
  config path              the profile's folder

environment: AGX_API_URL, AGX_API_KEY, AGX_ORG override apiBaseUrl, the stored key and orgSlug
common options: --profile NAME, --relay URL, --json
`;

function readKeyInput(file) {
  // A key typed at a terminal would be echoed on the screen: pipe it in or name a file.
  if (file === undefined && process.stdin.isTTY)
    throw new CliError(EXIT.USAGE, 'no key on stdin: pipe it in, e.g. printf %s "$KEY" | agx config set apiKey (or --file PATH)');
  let text;
  try {
    text = readFileSync(file ?? 0, 'utf8');
  } catch (e) {
    if (file === undefined) throw new CliError(EXIT.USAGE, 'no key on stdin: pipe it in, e.g. printf %s "$KEY" | agx config set apiKey');
    throw new CliError(EXIT.SETUP, `cannot read ${file}: ${e.code ?? 'error'}`);
  }
  // One line: the key alone (a trailing newline is fine, anything else is refused unquoted).
  const key = text.replace(/\r?\n$/, '');
  if (key === '') throw new CliError(EXIT.USAGE, 'the key is empty: pipe it in, e.g. printf %s "$KEY" | agx config set apiKey');
  if (!isWellFormedApiKey(key)) throw new CliError(EXIT.USAGE, 'that is not an API key (one line of 1 to 512 printable characters, no spaces); nothing was stored');
  return rememberSecret(key);
}

function setApiKey(settings, values, rest) {
  if (rest.length > 0)
    throw new CliError(EXIT.USAGE, 'an API key is never taken from the command line (shell history and the process list would keep it)', {
      remediation: 'Pipe it in, or name a file:\n  printf %s "$KEY" | agx config set apiKey\n  agx config set apiKey --file PATH\nor log in instead: agx login',
    });
  const key = readKeyInput(values.file);
  const base = apiBase(settings);
  const origin = originOf(base.url);
  writeCredential(settings, {
    apiBaseUrl: origin,
    apiKey: key,
    apiKeyId: null,
    source: 'manual',
    clientId: null,
    organization: null,
    user: null,
    scopes: null,
    expiresAt: null,
    createdAt: new Date().toISOString(),
  });
  if (values.json) json({ profile: settings.profile, stored: settings.files.credentials, origin });
  else out(`stored the API key of profile "${settings.profile}" in ${settings.files.credentials}; it is only ever sent to ${origin}`);
  return EXIT.OK;
}

function profilesIn(home) {
  if (!existsSync(home)) return [];
  return readdirSync(home)
    .filter((name) => PROFILE_NAME.test(name) && statSync(join(home, name)).isDirectory())
    .sort();
}

/** What `config show` says about the key: where it comes from and for which origin, never the key. */
function keySummary(settings) {
  if (process.env.AGX_API_KEY) return { source: 'AGX_API_KEY', key: maskKey(process.env.AGX_API_KEY) };
  let entry = null;
  try {
    entry = readCredential(settings);
  } catch (e) {
    return { source: 'credentials.json', problem: e.message };
  }
  if (!entry) return null;
  return {
    source: entry.source ?? 'manual',
    origin: originOf(entry.apiBaseUrl),
    organization: entry.organization?.slug ?? null,
    expiresAt: entry.expiresAt ?? null,
    key: maskKey(entry.apiKey),
  };
}

export async function runConfig(argv) {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    (sub === undefined ? process.stderr : process.stdout).write(CONFIG_HELP);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  const counts = { show: [0, 0], set: [1, 2], path: [0, 0], use: [1, 1], list: [0, 0] }[sub];
  if (counts === undefined) throw new CliError(EXIT.USAGE, `unknown config command "${String(sub).slice(0, 40)}"\n${CONFIG_HELP}`);
  const { values, positionals } = parse(rest, sub === 'set' ? { file: { type: 'string' } } : {}, { min: counts[0], max: counts[1], usage: CONFIG_HELP });
  if (values.help) return process.stdout.write(CONFIG_HELP), EXIT.OK;

  if (sub === 'use') {
    const name = positionals[0];
    if (!PROFILE_NAME.test(name)) throw new CliError(EXIT.USAGE, `invalid profile name "${name.slice(0, 64)}" (letters, digits, . _ -)`);
    const settings = resolveSettings({ profile: name });
    const created = !existsSync(settings.dir);
    ensureProfileDir(settings);
    writePrivate(currentProfileFile(settings.home), name + '\n');
    if (values.json) json({ profile: name, created });
    else out(`${created ? `created profile "${name}"; ` : ''}the default profile is now "${name}"`);
    if (process.env.AGX_PROFILE && process.env.AGX_PROFILE !== name) err(`notice: AGX_PROFILE=${process.env.AGX_PROFILE} still takes precedence in this shell`);
    return EXIT.OK;
  }
  if (sub === 'list') {
    const home = homeOf();
    const current = resolveSettings({}).profile;
    const names = profilesIn(home);
    if (values.json) json({ current, profiles: names });
    else if (names.length === 0) out(`(no profiles in ${home} yet: agx identity new, or agx config use NAME)`);
    else
      for (const name of names) {
        let orgSlug = '';
        try {
          orgSlug = resolveSettings({ profile: name }).config.orgSlug ?? '';
        } catch {
          orgSlug = '(unreadable config.json)';
        }
        out(`${name === current ? '*' : ' '} ${name.padEnd(20)} ${sanitizeLine(orgSlug)}`);
      }
    return EXIT.OK;
  }

  const settings = resolveSettings(values);
  if (sub === 'path') {
    if (values.json) json({ profile: settings.profile, path: settings.dir });
    else out(settings.dir);
  } else if (sub === 'set') {
    const [key, raw] = positionals;
    if (key === 'apiKey') return setApiKey(settings, values, positionals.slice(1));
    if (values.file !== undefined) throw new CliError(EXIT.USAGE, '--file goes with apiKey');
    if (raw === undefined) throw new CliError(EXIT.USAGE, `config set ${key.slice(0, 40)} needs a VALUE\n${CONFIG_HELP}`);
    let value = raw;
    if (key === 'apiBaseUrl') value = checkApiBaseUrl(raw, { exitCode: EXIT.USAGE });
    else if (key === 'orgSlug' && !ORG_SLUG.test(raw)) throw new CliError(EXIT.USAGE, 'orgSlug: not an organization slug (3-32 of a-z, 0-9, -)');
    else checkCardSetting(key, raw);
    const config = setConfig(settings, key, value);
    if (values.json) json({ profile: settings.profile, config });
    else out(`set ${key} in ${settings.files.config}`);
    if (key === 'apiBaseUrl') {
      const entry = readCredential(settings);
      if (entry && originOf(entry.apiBaseUrl) !== originOf(value))
        err(`notice: the stored key of profile "${settings.profile}" belongs to ${originOf(entry.apiBaseUrl)}, so directory commands will refuse to send it to ${originOf(value)}; log in there: agx login`);
    }
  } else {
    const base = apiBase(settings);
    const orgSlug = process.env.AGX_ORG ? { value: process.env.AGX_ORG, source: 'AGX_ORG' } : settings.config.orgSlug ? { value: settings.config.orgSlug, source: 'config' } : null;
    const key = keySummary(settings);
    const { apiBaseUrl: _a, orgSlug: _o, ...rest } = settings.config;
    const shown = {
      profile: settings.profile,
      home: settings.home,
      relays: settings.relays,
      relaySource: settings.relaySource,
      config: settings.config,
      apiBaseUrl: base.url,
      apiBaseUrlSource: base.source,
      orgSlug: orgSlug?.value ?? null,
      orgSlugSource: orgSlug?.source ?? null,
      apiKey: key,
    };
    if (values.json) json(shown);
    else {
      out(`profile     ${shown.profile}\nhome        ${shown.home}\nrelays      ${shown.relays.join(', ')} (from ${shown.relaySource})`);
      for (const [k, v] of Object.entries(rest)) if (k !== 'relays') out(`${k.padEnd(11)} ${sanitizeLine(typeof v === 'string' ? v : JSON.stringify(v))}`);
      out(`apiBaseUrl  ${base.url} (from ${base.source})`);
      out(`orgSlug     ${orgSlug ? `${sanitizeLine(orgSlug.value)} (from ${orgSlug.source})` : '-'}`);
      out(
        `apiKey      ${
          !key
            ? 'none (agx login)'
            : key.problem
              ? sanitizeLine(key.problem)
              : `${key.key} from ${key.source}${key.origin ? `, for ${key.origin}` : ''}${key.organization ? `, organization ${sanitizeLine(key.organization)}` : ''}${key.expiresAt ? `, expires ${key.expiresAt.slice(0, 10)}` : ''}`
        }`,
      );
    }
  }
  return EXIT.OK;
}
