// `identity sign NONCE`: proof that we hold the profile's key, for the directory's key challenge
// (the browser's submit page shows a nonce; `register` runs the same proof over the API). The
// directory accepts any signed event whose pubkey is the claimed key and whose content carries the
// nonce; kind, created_at and tags are not inspected. What we sign is chosen so that the signature
// is good for nothing else: kind 27235 is ephemeral (relays do not store it, no client shows it as
// a note), and without NIP-98's `u` and `method` tags no HTTP server takes it as a login; the
// content is a fixed text plus a nonce limited to base64url characters.
import { readFileSync } from 'node:fs';
import { nostr } from './nostr.js';
import { CliError, EXIT, err, parse } from './common.js';
import { resolveSettings } from './settings.js';
import { loadSigner } from './keystore.js';
import { rememberSecret } from './secrets.js';
import { sanitizeLine } from './sanitize.js';

export const PROOF_KIND = 27235;
export const PROOF_PREFIX = 'agent-index proof ';
/** Nonces as directories issue them: base64url or hex, 16 to 256 characters. */
const NONCE = /^[A-Za-z0-9_-]{16,256}$/;

export const SIGN_HELP = `usage: agx identity sign NONCE [--bunker FILE|-]

Signs a directory key challenge with the profile's key and prints the signed event (one JSON line)
to paste into the directory's submit page. \`agx register\` runs the same proof itself.
  --bunker FILE|-   sign with a NIP-46 remote signer instead: FILE (or stdin for -) holds its
                    bunker:// URI (it carries a secret, so it is never taken from argv)
common options: --profile NAME
`;

export function checkNonce(nonce) {
  if (typeof nonce !== 'string' || !NONCE.test(nonce))
    throw new CliError(EXIT.USAGE, 'not a challenge nonce (16 to 256 of A-Z a-z 0-9 _ -)', {
      code: 'DIRECTORY_BAD_NONCE',
      remediation: "Copy the nonce from the directory's submit page, or let agx register fetch one.",
    });
  return nonce;
}

/** The signed proof event for `nonce` (the signer's key, our proof kind, the nonce in content). */
export async function signProof(signer, nonce, now = Date.now()) {
  const event = await signer.signEvent({ kind: PROOF_KIND, created_at: Math.floor(now / 1000), tags: [], content: PROOF_PREFIX + checkNonce(nonce) });
  const { id, pubkey, created_at, kind, tags, content, sig } = event;
  return { id, pubkey, created_at, kind, tags, content, sig };
}

/**
 * { signer, pubkey, close() }: the profile's LocalSigner, or with `bunker` (a file, or - for stdin)
 * a NIP-46 remote signer connected through the URI it holds.
 */
export async function openSigner(settings, bunker) {
  if (bunker === undefined) {
    const { signer, pubkey } = loadSigner(settings);
    return { signer, pubkey, close: async () => signer.dispose() };
  }
  let uri;
  try {
    uri = readFileSync(bunker === '-' ? 0 : bunker, 'utf8').trim();
  } catch (e) {
    throw new CliError(EXIT.SETUP, `--bunker: cannot read ${bunker === '-' ? 'stdin' : bunker} (${e.code ?? 'error'})`);
  }
  rememberSecret(uri);
  const secret = /[?&]secret=([^&]+)/.exec(uri)?.[1];
  if (secret) rememberSecret(decodeURIComponent(secret));
  let signer;
  try {
    signer = await nostr.Nip46Signer.connect(uri, {
      onauth: (url) => err(`the remote signer asks for approval: open ${sanitizeLine(String(url)).slice(0, 500)}`),
    });
  } catch (e) {
    const code = typeof e?.code === 'string' ? e.code : 'SIGNER_UNAVAILABLE';
    throw new CliError(code === 'INVALID_ARGUMENT' ? EXIT.USAGE : EXIT.RELAY, `--bunker: could not connect to the remote signer (${code})`, { code });
  }
  const pubkey = await signer.getPublicKey();
  return { signer, pubkey, close: () => signer.close() };
}

export async function sign(argv) {
  const { values, positionals } = parse(argv, { bunker: { type: 'string' } }, { min: 1, max: 1, usage: SIGN_HELP });
  if (values.help) return process.stdout.write(SIGN_HELP), EXIT.OK;
  const nonce = checkNonce(positionals[0].trim());
  const settings = resolveSettings(values);
  const opened = await openSigner(settings, values.bunker);
  try {
    const event = await signProof(opened.signer, nonce);
    if (!nostr.verifyEvent(event) || event.pubkey !== opened.pubkey)
      throw new CliError(EXIT.PEER, 'the signer returned an event that does not verify for its key', { code: 'SIGNER_BAD_SIGNATURE' });
    // Data to paste or pipe, byte for byte, with or without --json.
    process.stdout.write(JSON.stringify(event) + '\n');
    return EXIT.OK;
  } finally {
    await opened.close();
  }
}
