// Type-checked (never run) use of nip19: the overloads narrow decode() by prefix.
import { nip19, NostrError } from 'nostr-agents';

const pk = '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d';
const npub: nip19.NPub = nip19.npubEncode(pk);
const note: nip19.Note = nip19.noteEncode(pk);
const nsec: nip19.NSec = nip19.nsecEncode(new Uint8Array(32));
const nprofile: nip19.NProfile = nip19.nprofileEncode({ pubkey: pk, relays: ['wss://r'] });
const nevent: nip19.NEvent = nip19.neventEncode({ id: pk, author: pk, kind: 1 });
const naddr: nip19.NAddr = nip19.naddrEncode({ identifier: 'd', pubkey: pk, kind: 30023 });
const lnurl: `lnurl1${string}` = nip19.encodeBytes('lnurl', new Uint8Array(4));

const hexKey: string = nip19.decode(npub).data;
const idHex: string = nip19.decode(note).data;
const sk: Uint8Array = nip19.decode(nsec).data;
const profile: nip19.ProfilePointer = nip19.decode(nprofile).data;
const relays: string[] = nip19.decode(nprofile).data.relays; // always present after decode
const ev = nip19.decode(nevent).data;
const kind: number | undefined = ev.kind;
const author: string | undefined = ev.author;
const addr: nip19.AddressPointer = nip19.decode(naddr).data;

// An unknown string narrows on `type`.
const any = nip19.decode('npub1...' as string);
if (any.type === 'nsec') {
  const bytes: Uint8Array = any.data;
  console.log(bytes);
} else if (any.type === 'naddr') {
  const ident: string = any.data.identifier;
  console.log(ident);
}

const uri = nip19.decodeNostrURI(`nostr:${npub}`);
if (uri.type === 'npub') {
  const h: string = uri.data;
  console.log(h);
} else {
  const nothing: null = uri.data;
  console.log(nothing);
}
const loose = nip19.decodeNostrURI('whatever');
if (loose.type === 'invalid') console.log(loose.data === null);

if (nip19.NostrTypeGuard.isNPub(hexKey)) {
  const typed: nip19.NPub = hexKey;
  console.log(typed);
}
const max: 5000 = nip19.Bech32MaxSize;

try {
  nip19.decode('garbage');
} catch (err) {
  if (err instanceof NostrError) console.log(err.code);
}

// @ts-expect-error nsecEncode takes bytes, not hex
nip19.nsecEncode(pk);
// @ts-expect-error naddr needs a kind
nip19.naddrEncode({ identifier: '', pubkey: pk });

console.log(lnurl, idHex, sk, profile, relays, kind, author, addr, max);
