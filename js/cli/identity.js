// `identity new|show|import|export|allow|deny|sign`: the profile's keypair and who may invoke its
// capabilities (`sign`, the directory's key challenge, is identity-sign.js).
import { readFileSync } from 'node:fs';
import { CliError, EXIT, json, out, parse } from './common.js';
import { resolveSettings } from './settings.js';
import {
  asNcryptsec,
  exportNsec,
  loadPublicKey,
  newSecret,
  npubOf,
  parseSecret,
  peerHex,
  readAllow,
  storeNcryptsec,
  storeSecret,
  writeAllow,
} from './keystore.js';
import { readHidden } from './passphrase.js';

export const IDENTITY_HELP = `usage: nostr-agents identity <new|show|import|export|allow|deny> [options]

  identity new [--force] [--encrypt] create a keypair for the profile
  identity show                      its npub and hex public key
  identity import [--force] [--encrypt] < FILE
                                     store an existing key: an nsec, 64 hex or an ncryptsec, read
                                     from stdin (typed hidden at a terminal), never from the
                                     command line (it would land in shell history and in ps)
  identity export                    print the nsec (the only command that does)
  identity allow [NPUB] [--capability C]  allow NPUB to invoke C (default "*"); no NPUB: list
  identity deny NPUB [--capability C]     remove NPUB (every capability unless --capability)
  identity sign NONCE [--bunker FILE|-]   sign a directory key challenge (agx identity sign --help)

--encrypt stores the key as a NIP-49 ncryptsec under a passphrase (typed twice, or read from
--passphrase-file FILE); every command that uses the key then asks for it (or reads that file).
An imported ncryptsec is stored as it is.

common options: --profile NAME, --passphrase-file FILE, --json, -h/--help
`;

function readStdin() {
  // At a terminal the key is typed without echo; from a pipe or a file it is read whole.
  const typed = readHidden('Secret key (nsec, 64 hex or ncryptsec): ', { onlyIfStdinIsTerminal: true });
  if (typed !== null) return typed;
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
  const opts = { force: { type: 'boolean' }, capability: { type: 'string' }, encrypt: { type: 'boolean' } };
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
      if (sub === 'import' && positionals[0] !== undefined && positionals[0] !== '-')
        // The argument is not repeated: it is the secret.
        throw new CliError(
          EXIT.USAGE,
          `identity import takes no key on the command line: it would stay in your shell history and show in ps. ` +
            `Pipe it in (nostr-agents identity import --profile ${profile} < key.txt) or run without it and type it`,
        );
      let sk;
      let pubkey;
      const text = sub === 'import' ? readStdin() : null;
      const ncryptsec = text === null ? null : asNcryptsec(text);
      if (ncryptsec) pubkey = storeNcryptsec(settings, ncryptsec, values.force);
      else {
        sk = sub === 'new' ? newSecret() : parseSecret(text);
        try {
          pubkey = storeSecret(settings, sk, values.force, { encrypt: values.encrypt, keySecurity: sub === 'new' ? 0x01 : 0x00 });
        } finally {
          sk.fill(0);
        }
      }
      const npub = npubOf(pubkey);
      const encrypted = Boolean(ncryptsec || values.encrypt);
      if (values.json) json({ profile, npub, pubkey, path: settings.dir, created: sub === 'new', encrypted });
      else
        out(
          `${sub === 'new' ? 'created' : 'imported'} identity for profile "${profile}"${encrypted ? ' (encrypted: ncryptsec)' : ''}\n  npub   ${npub}\n  folder ${settings.dir}`,
        );
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
