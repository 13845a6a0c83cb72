// `identity new|show|import|export|allow|deny|sign`: the profile's keypair and who may invoke its
// capabilities (`sign`, the directory's key challenge, is identity-sign.js).
import { readFileSync } from 'node:fs';
import { CliError, EXIT, json, out, parse } from './common.js';
import { resolveSettings } from './settings.js';
import {
  exportNsec,
  loadPublicKey,
  newSecret,
  npubOf,
  parseSecret,
  peerHex,
  readAllow,
  storeSecret,
  writeAllow,
} from './keystore.js';

export const IDENTITY_HELP = `usage: nostr-agents identity <new|show|import|export|allow|deny> [options]

  identity new [--force]             create a keypair for the profile
  identity show                      its npub and hex public key
  identity import [NSEC|-] [--force] store an existing key (read from stdin when omitted or "-")
  identity export                    print the nsec (the only command that does)
  identity allow [NPUB] [--capability C]  allow NPUB to invoke C (default "*"); no NPUB: list
  identity deny NPUB [--capability C]     remove NPUB (every capability unless --capability)
  identity sign NONCE [--bunker FILE|-]   sign a directory key challenge (agx identity sign --help)

common options: --profile NAME, --json, -h/--help
`;

function readStdin() {
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

export async function run(argv) {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h') {
    (sub === undefined ? process.stderr : process.stdout).write(IDENTITY_HELP);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (sub === 'sign') return (await import('./identity-sign.js')).sign(rest);
  const opts = { force: { type: 'boolean' }, capability: { type: 'string' } };
  const max = { new: 0, show: 0, import: 1, export: 0, allow: 1, deny: 1 }[sub];
  if (max === undefined) throw new CliError(EXIT.USAGE, `unknown identity command "${sub}"\n${IDENTITY_HELP}`);
  const { values, positionals } = parse(rest, opts, { min: sub === 'deny' ? 1 : 0, max, usage: IDENTITY_HELP });
  if (values.help) {
    process.stdout.write(IDENTITY_HELP);
    return EXIT.OK;
  }
  const settings = resolveSettings(values);
  const profile = settings.profile;

  switch (sub) {
    case 'new':
    case 'import': {
      let sk;
      if (sub === 'new') sk = newSecret();
      else {
        const given = positionals[0];
        sk = parseSecret(given === undefined || given === '-' ? readStdin() : given);
      }
      let pubkey;
      try {
        pubkey = storeSecret(settings, sk, values.force);
      } finally {
        sk.fill(0);
      }
      const npub = npubOf(pubkey);
      if (values.json) json({ profile, npub, pubkey, path: settings.dir, created: sub === 'new' });
      else out(`${sub === 'new' ? 'created' : 'imported'} identity for profile "${profile}"\n  npub   ${npub}\n  folder ${settings.dir}`);
      return EXIT.OK;
    }
    case 'show': {
      const { pubkey, npub } = loadPublicKey(settings);
      if (values.json) json({ profile, npub, pubkey, path: settings.dir, relays: settings.relays });
      else out(`profile ${profile}\nnpub    ${npub}\npubkey  ${pubkey}\nrelays  ${settings.relays.join(', ')}`);
      return EXIT.OK;
    }
    case 'export': {
      const nsec = exportNsec(settings);
      if (values.json) json({ profile, nsec });
      else out(nsec);
      return EXIT.OK;
    }
    case 'allow': {
      const list = readAllow(settings);
      if (positionals.length === 0) {
        const shown = list.map((e) => ({ npub: npubOf(e.pubkey), pubkey: e.pubkey, capability: e.capability }));
        if (values.json) json({ profile, allow: shown });
        else if (shown.length === 0) out(`profile "${profile}" allows nobody (every task request is denied)`);
        else for (const e of shown) out(`${e.npub} ${e.capability}`);
        return EXIT.OK;
      }
      const pubkey = peerHex(positionals[0]);
      const capability = values.capability ?? '*';
      if (capability.length === 0 || capability.length > 200) throw new CliError(EXIT.USAGE, '--capability must be 1..200 characters');
      const added = !list.some((e) => e.pubkey === pubkey && e.capability === capability);
      if (added) list.push({ pubkey, capability });
      writeAllow(settings, list);
      if (values.json) json({ profile, npub: npubOf(pubkey), pubkey, capability, added });
      else out(`${added ? 'allowed' : 'already allowed'}: ${npubOf(pubkey)} may invoke ${capability} on profile "${profile}"`);
      return EXIT.OK;
    }
    case 'deny': {
      const pubkey = peerHex(positionals[0]);
      const list = readAllow(settings);
      const keep = list.filter((e) => !(e.pubkey === pubkey && (values.capability === undefined || e.capability === values.capability)));
      const removed = list.length - keep.length;
      writeAllow(settings, keep);
      if (values.json) json({ profile, npub: npubOf(pubkey), pubkey, removed });
      else out(removed ? `denied: ${npubOf(pubkey)} removed from profile "${profile}"` : `${npubOf(pubkey)} was not allowed on profile "${profile}"`);
      return EXIT.OK;
    }
  }
  return EXIT.USAGE;
}
