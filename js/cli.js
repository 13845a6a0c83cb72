#!/usr/bin/env node
// nostr-agents (alias agx): dispatches to one module per command group (js/cli/), loaded on demand.
// Exit codes: js/cli/common.js EXIT, documented in docs/cli.md.
import { basename } from 'node:path';

const COMMANDS = {
  identity: { load: () => import('./cli/identity.js'), fn: 'run', summary: 'new | show | import | export | allow | deny | sign: the profile keypair' },
  config: { load: () => import('./cli/config.js'), fn: 'runConfig', summary: 'show | set | use | list | path: profiles and their settings' },
  serve: { load: () => import('./cli/agx.js'), fn: 'serve', summary: 'run as an AGX agent' },
  request: { load: () => import('./cli/agx.js'), fn: 'request', summary: 'send an AGX task request and wait for the result' },
  send: { load: () => import('./cli/agx.js'), fn: 'send', summary: 'send an AGX message' },
  card: { load: () => import('./cli/agx.js'), fn: 'card', summary: "read an agent's Agent Card (--verify: its NIP-05; --retract: ours)" },
  agent: { load: () => import('./cli/agent.js'), fn: 'run', summary: 'serve | ask | info: NIP-XX AI agents' },
  ask: { load: () => import('./cli/agent.js'), fn: 'ask', summary: 'prompt a NIP-XX agent and stream its answer' },
  info: { load: () => import('./cli/agent.js'), fn: 'info', summary: "print a NIP-XX agent's ai.info" },
  relay: { load: () => import('./cli/relay.js'), fn: 'run', summary: 'run a local Nostr relay for development' },
  doctor: { load: () => import('./cli/doctor.js'), fn: 'run', summary: 'check permissions, identity, relays and clock' },
  // The agent directory (Elladex), an HTTP service: js/cli/directory*.js.
  login: { load: () => import('./cli/directory-login.js'), fn: 'login', summary: 'log in to the directory in the browser (OAuth device flow)' },
  logout: { load: () => import('./cli/directory-login.js'), fn: 'logout', summary: "revoke the profile's directory key and forget it" },
  whoami: { load: () => import('./cli/directory-login.js'), fn: 'whoami', summary: 'who the directory key acts as, according to the directory' },
  org: { load: () => import('./cli/directory-login.js'), fn: 'org', summary: 'list | create: organizations the directory key can see' },
  register: { load: () => import('./cli/directory.js'), fn: 'register', summary: 'prove the key is ours and create a directory listing' },
  listing: { load: () => import('./cli/directory.js'), fn: 'listing', summary: 'create | list | get | publish | delist | delete | set-visibility | set-policy' },
  domain: { load: () => import('./cli/directory.js'), fn: 'domain', summary: 'add | list | verify | remove: NIP-05 domains for verified handles' },
  search: { load: () => import('./cli/directory.js'), fn: 'search', summary: 'search the directory' },
  peers: { load: () => import('./cli/directory.js'), fn: 'peers', summary: "list | allowlist | accept | refuse | ignore | block: a team's trust decisions" },
};

// The same program answers to both bin names; messages use the one it was started as.
const PROG = basename(process.argv[1] ?? '').replace(/\.js$/, '') === 'agx' ? 'agx' : 'nostr-agents';

function usage(out) {
  const lines = [`usage: ${PROG} <command> [options]   (${PROG === 'agx' ? 'also: nostr-agents' : 'also installed as: agx'})`, '', 'commands:'];
  for (const [name, c] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(10)} ${c.summary}`);
  lines.push(
    '',
    'common options: --profile NAME, --relay URL (repeatable or comma-separated), --json, -h/--help',
    'environment: AGX_RELAY (comma-separated), AGX_PROFILE, AGX_HOME (default ~/.nostr-agents),',
    '             AGX_API_URL, AGX_API_KEY, AGX_ORG (the directory)',
    `Run \`${PROG} <command> --help\` for the options of a command.`,
  );
  out.write(lines.join('\n') + '\n');
}

// Exit codes (also in js/cli/common.js, which the commands use).
const USAGE = 2;
const FAILURE = 1;
const RELAY = 4;
const TIMEOUT = 5;

const [name, ...rest] = process.argv.slice(2);
if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
  usage(name === undefined ? process.stderr : process.stdout);
  process.exit(name === undefined ? USAGE : 0);
}
if (name === '--version' || name === '-v') {
  const { readFileSync } = await import('node:fs');
  process.stdout.write(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version + '\n');
  process.exit(0);
}
const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
if (!command) {
  process.stderr.write(`${PROG}: unknown command "${String(name).slice(0, 40).replace(/[^\x20-\x7e]/g, '?')}"\n`);
  usage(process.stderr);
  process.exit(USAGE);
}

function exitCodeOf(err) {
  if (err && typeof err.exitCode === 'number') return err.exitCode;
  const code = err && typeof err.code === 'string' ? err.code : '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code.startsWith('ERR_PARSE_ARGS')) return USAGE;
  if (code === 'AGX_TOO_LARGE') return USAGE; // a message or payload over the wrap's size limit, refused before sending
  if (code.startsWith('RELAY_') || code === 'AGX_PUBLISH_FAILED' || code === 'POOL_CLOSED') return RELAY;
  if (code.endsWith('TIMEOUT')) return TIMEOUT;
  return FAILURE;
}

try {
  const mod = await command.load();
  const code = await mod[command.fn](rest);
  process.exitCode = typeof code === 'number' ? code : 0;
} catch (err) {
  const exitCode = exitCodeOf(err);
  const { describe } = await import('./cli/common.js');
  const { redact } = await import('./cli/secrets.js');
  const message = redact(err && err.name === 'CliError' ? String(err.message) : describe(err));
  // A directory error says what to do next (err.remediation); some carry more for --json.
  const remediation = err && typeof err.remediation === 'string' ? redact(err.remediation) : null;
  if (rest.includes('--json') && !(err && err.printed)) {
    const { safeJson } = await import('./cli/sanitize.js');
    const error = { code: (err && typeof err.code === 'string' && err.code) || 'CLI_ERROR', message };
    if (remediation) error.remediation = remediation;
    if (err && Number.isFinite(err.retryAfter)) error.retryAfter = err.retryAfter;
    const extra = err && err.actionRequired ? { actionRequired: err.actionRequired } : {};
    process.stdout.write(redact(safeJson({ ok: false, ...extra, error, exitCode })) + '\n');
  }
  const hint = exitCode === RELAY && !remediation ? ' (is the relay running? check with: nostr-agents doctor)' : '';
  process.stderr.write(`${PROG} ${name}: ${message}${hint}\n`);
  if (remediation) process.stderr.write(remediation.replace(/^/gm, '  ') + '\n');
  process.exitCode = exitCode;
}
// Open handles (sockets closing, timers) must not keep a finished command alive.
setTimeout(() => process.exit(), 200).unref();
