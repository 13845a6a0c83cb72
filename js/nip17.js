// NIP-17 private direct messages (nostr-tools' nip17 names): a kind 14 chat message, sealed and
// gift-wrapped (NIP-59) for each recipient and for the sender. Unlike nostr-tools, wrapManyEvents
// wraps ONE rumor that p-tags every recipient (NIP-17: "the same" message for all), so every copy
// has the same rumor id. With a secret key the functions are synchronous; with a Signer they
// return Promises.
import { NostrError } from './errors.js';
import { hexToBytes } from './hex.js';
import * as nip59 from './nip59.js';

/** Kind of a NIP-17 chat message (the rumor). */
export const PRIVATE_DIRECT_MESSAGE_KIND = 14;

function keyOf(secretKeyOrSigner) {
  // nostr-tools also takes the secret key as hex.
  return typeof secretKeyOrSigner === 'string' ? hexToBytes(secretKeyOrSigner) : secretKeyOrSigner;
}

function recipientList(recipients) {
  const list = Array.isArray(recipients) ? recipients : [recipients];
  if (list.length === 0 || !list.every((r) => r !== null && typeof r === 'object' && typeof r.publicKey === 'string'))
    throw new NostrError('INVALID_ARGUMENT', 'recipients are { publicKey, relayUrl? } objects; at least one is required');
  return list;
}

/** The unsigned kind 14 message: p tags (with relay hints), the reply's e tag, the subject. */
export function createMessage(recipients, message, conversationTitle, replyTo) {
  if (typeof message !== 'string') throw new NostrError('INVALID_ARGUMENT', 'the message is a string');
  const tags = recipientList(recipients).map(({ publicKey, relayUrl }) => (relayUrl ? ['p', publicKey, relayUrl] : ['p', publicKey]));
  if (replyTo) tags.push(['e', replyTo.eventId, replyTo.relayUrl || '', 'reply']);
  if (conversationTitle) tags.push(['subject', conversationTitle]);
  return { kind: PRIVATE_DIRECT_MESSAGE_KIND, tags, content: message };
}

/** The gift wrap (kind 1059) of a message to one recipient. */
export function wrapEvent(senderSecretKeyOrSigner, recipient, message, conversationTitle, replyTo) {
  const [first] = recipientList(recipient);
  return nip59.wrapEvent(createMessage(recipient, message, conversationTitle, replyTo), keyOf(senderSecretKeyOrSigner), first.publicKey);
}

/** The wraps of one message: the sender's copy first, then one per recipient. */
export function wrapManyEvents(senderSecretKeyOrSigner, recipients, message, conversationTitle, replyTo) {
  const list = recipientList(recipients);
  const event = createMessage(list, message, conversationTitle, replyTo);
  return nip59.wrapManyEvents(event, keyOf(senderSecretKeyOrSigner), list.map((r) => r.publicKey));
}

/** The message inside a wrap addressed to this key (every NIP-59 check applies). */
export function unwrapEvent(wrap, recipientSecretKeyOrSigner, options) {
  return nip59.unwrapEvent(wrap, keyOf(recipientSecretKeyOrSigner), options);
}

/** The messages of the wraps that open, oldest first (the others are skipped). */
export function unwrapManyEvents(wraps, recipientSecretKeyOrSigner, options) {
  return nip59.unwrapManyEvents(wraps, keyOf(recipientSecretKeyOrSigner), options);
}
