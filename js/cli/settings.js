// Settings, in order: flags, then the environment (AGX_RELAY comma-separated, AGX_PROFILE,
// AGX_HOME; the directory's AGX_API_URL, AGX_API_KEY, AGX_ORG in directory-config.js), then the
// profile's config file (<home>/<profile>/config.json), then defaults. The profile itself: --profile,
// AGX_PROFILE, the one `config use` stored (<home>/current-profile), then "default".
// Files under the home are private: folders 0700, files 0600; a key file that others can read is
// refused (as ssh does), `doctor` says how to fix it.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError, EXIT } from './common.js';

export const DEFAULT_RELAY = 'ws://127.0.0.1:7447';
export const DEFAULT_PROFILE = 'default';
export const CONFIG_KEYS = ['relays', 'org', 'nip05', 'maxAutoDepth', 'apiBaseUrl', 'orgSlug'];
export const PROFILE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

/** The file `config use` writes: the profile name used when neither --profile nor AGX_PROFILE is given. */
export const currentProfileFile = (home) => join(home, 'current-profile');

function storedProfile(home) {
  try {
    const name = readFileSync(currentProfileFile(home), 'utf8').trim();
    return PROFILE_NAME.test(name) ? name : null;
  } catch {
    return null;
  }
}

export function homeOf(env = process.env) {
  return env.AGX_HOME || join(homedir(), '.nostr-agents');
}

/** Splits comma-separated relay lists and checks each URL. */
export function relayList(items, where) {
  const list = [];
  for (const item of items)
    for (const part of String(item).split(',')) {
      const url = part.trim();
      if (url === '') continue;
      let u;
      try {
        u = new URL(url);
      } catch {
        u = null;
      }
      if (!u || (u.protocol !== 'ws:' && u.protocol !== 'wss:'))
        throw new CliError(where === '--relay' ? EXIT.USAGE : EXIT.SETUP, `${where}: "${url}" is not a ws:// or wss:// URL`);
      if (!list.includes(url)) list.push(url);
    }
  return list;
}

function readConfig(file) {
  if (!existsSync(file)) return {};
  let value;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CliError(EXIT.SETUP, `${file}: not valid JSON (${e.message})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CliError(EXIT.SETUP, `${file}: must be a JSON object`);
  return value;
}

/**
 * { profile, home, dir, files: {key, allow, config, seen (the FileSeenStore folder)}, config, relays, relaySource,
 * passphraseFile }. `values` are the parsed flags (profile, relay, passphrase-file).
 */
export function resolveSettings(values = {}, env = process.env) {
  const home = homeOf(env);
  const profile = values.profile ?? (env.AGX_PROFILE || storedProfile(home) || DEFAULT_PROFILE);
  if (!PROFILE_NAME.test(profile)) throw new CliError(EXIT.USAGE, `invalid profile name "${profile}" (letters, digits, . _ -)`);
  const dir = join(home, profile);
  const files = {
    key: join(dir, 'key'),
    allow: join(dir, 'allow.json'),
    config: join(dir, 'config.json'),
    seen: join(dir, 'seen'),
    // The directory: its API key (never in config.json), a login waiting for approval (holds the
    // device code) and its poll lock, and the listing `register` created.
    credentials: join(dir, 'credentials.json'),
    pendingLogin: join(dir, 'pending-login.json'),
    loginLock: join(dir, 'pending-login.lock'),
    directoryState: join(dir, 'directory.json'),
  };
  const config = readConfig(files.config);
  let relays;
  let relaySource;
  if (values.relay && values.relay.length) {
    relays = relayList(values.relay, '--relay');
    relaySource = 'flag';
  } else if (env.AGX_RELAY) {
    relays = relayList([env.AGX_RELAY], 'AGX_RELAY');
    relaySource = 'AGX_RELAY';
  } else if (config.relays !== undefined) {
    if (!Array.isArray(config.relays) && typeof config.relays !== 'string')
      throw new CliError(EXIT.SETUP, `${files.config}: relays must be a list of URLs`);
    relays = relayList([].concat(config.relays), files.config);
    relaySource = 'config';
  }
  if (!relays || relays.length === 0) {
    relays = [DEFAULT_RELAY];
    relaySource = 'default';
  }
  // Where the passphrase of an encrypted key file is (cli/passphrase.js); a path, never the passphrase.
  const passphraseFile = values['passphrase-file'] ?? (env.AGX_PASSPHRASE_FILE || undefined);
  return { profile, home, dir, files, config, relays, relaySource, passphraseFile };
}

/**
 * Creates the home (0700 when we create it; an existing one, e.g. AGX_HOME=$HOME, is left alone)
 * and the profile folder (always 0700: it holds the key).
 */
export function ensureProfileDir(settings) {
  if (!existsSync(settings.home)) {
    mkdirSync(settings.home, { recursive: true, mode: 0o700 });
    chmodSync(settings.home, 0o700);
  }
  if (!existsSync(settings.dir)) mkdirSync(settings.dir, { mode: 0o700 });
  chmodSync(settings.dir, 0o700);
}

/** Writes a private file (0600) atomically: a temp file in the same folder, then rename. */
export function writePrivate(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600, flag: 'w' });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** Throws EXIT.SETUP when group or others have any access to `path`. */
export function requirePrivate(path) {
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077)
    throw new CliError(
      EXIT.SETUP,
      `${path} is accessible by others (mode ${mode.toString(8).padStart(4, '0')}); fix with: chmod ${statSync(path).isDirectory() ? '700' : '600'} ${path}`,
    );
}

export function readJsonFile(file, fallback) {
  if (!existsSync(file)) return fallback;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CliError(EXIT.SETUP, `${file}: not valid JSON (${e.message})`);
  }
}

/** The profile's config with `key` set (value parsed as JSON when it parses, else a string). */
export function setConfig(settings, key, raw) {
  if (!CONFIG_KEYS.includes(key)) throw new CliError(EXIT.USAGE, `unknown config key "${key}" (${CONFIG_KEYS.join(', ')})`);
  let value = raw;
  if (key === 'relays') value = relayList([raw], 'relays');
  else if (key === 'maxAutoDepth') {
    value = Number(raw);
    if (!Number.isInteger(value) || value < 0 || value > 255) throw new CliError(EXIT.USAGE, 'maxAutoDepth must be an integer 0..255');
  }
  const config = { ...settings.config, [key]: value };
  ensureProfileDir(settings);
  writePrivate(settings.files.config, JSON.stringify(config, null, 2) + '\n');
  return config;
}
