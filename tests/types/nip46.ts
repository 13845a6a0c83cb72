// Type checks of the NIP-46 declarations (compiled with tsc, never run).
import {
  Nip46Signer,
  startBunker,
  parseBunkerURI,
  toBunkerURL,
  createNostrConnectURI,
  parseNostrConnectURI,
  NOSTR_CONNECT_KIND,
  LocalSigner,
  RelayPool,
  nip59,
} from 'nostr-agents';
import type { Signer, Nip46Error, Bunker, BunkerRequest, NostrConnectSession } from 'nostr-agents';

async function usage(pool: RelayPool, user: LocalSigner): Promise<void> {
  const bunker: Bunker = await startBunker({
    signer: user,
    relays: ['ws://127.0.0.1:7447'],
    pool,
    secret: 'abc',
    authorize: async (req: BunkerRequest, ctx) => {
      if (req.method === 'sign_event' && req.template?.kind === 1) {
        await ctx.sendAuthUrl('https://example.com/approve');
        return true;
      }
      return req.method === 'connect' ? true : 'not allowed';
    },
  });
  const signer: Signer = await Nip46Signer.connect(bunker.bunkerUri, {
    pool,
    connectTimeout: 5000,
    requestTimeout: 10_000,
    approvalTimeout: Infinity,
    onauth: (url: string) => void url,
  });
  const remote = signer as Nip46Signer;
  const ev = await remote.signEvent({ kind: 1, tags: [], content: 'x', created_at: 0 }, { timeout: 1000 });
  const id: string = ev.id;
  await remote.ping({ signal: new AbortController().signal });
  const relays: string[] = await remote.switchRelays();
  const raw: unknown = await remote.sendRequest('ping', []);
  const ct: string = await remote.nip44Encrypt(user.publicKey, 'hi');
  await nip59.wrapEvent({ kind: 14, tags: [], content: 'x', created_at: 0 }, remote, user.publicKey);
  const session: NostrConnectSession = Nip46Signer.nostrConnect({ relays: ['ws://127.0.0.1:7447'], pool, name: 'app' });
  const uri: string = session.uri;
  const other: Nip46Signer = await session.signer;
  await session.cancel();
  await bunker.connectTo(uri);
  const secret: string | null = bunker.secret;
  const more: string = await bunker.issueSecret({ perms: ['sign_event:1'] });
  const grants: string[] | null = bunker.permsOf(other.clientPubkey);
  await bunker.revoke(other.clientPubkey);
  const kv = new Map<string, string>();
  const strict: Bunker = await startBunker({ signer: user, relays: ['ws://127.0.0.1:7447'], perms: ['nip44_decrypt'], store: kv });
  await strict.stop();
  const p = parseBunkerURI(bunker.bunkerUri);
  const back: string = toBunkerURL(p);
  const nc = parseNostrConnectURI(createNostrConnectURI({ clientPubkey: p.pubkey, relays: p.relays, secret: 's' }));
  const k: 24133 = NOSTR_CONNECT_KIND;
  try {
    await remote.signEvent({ kind: 1, tags: [], content: 'x', created_at: 0 });
  } catch (e) {
    const err = e as Nip46Error;
    const code: string = err.code;
    if (err.reason === 'timeout' || err.reason === 'approval-timeout') void code;
  }
  // @ts-expect-error not constructible
  new Nip46Signer();
  // @ts-expect-error relays are required for nostrconnect
  Nip46Signer.nostrConnect({});
  await remote.close();
  await other.close();
  await bunker.stop();
  void [id, relays, raw, ct, back, nc, k, secret, more, grants];
}
void usage;
