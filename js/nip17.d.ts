// NIP-17 private direct messages (nostr-tools' nip17 names). With a secret key (bytes or hex) the
// functions are synchronous; with a Signer they return Promises. Errors: NIP-59's codes, INVALID_ARGUMENT.
import type { NostrEvent } from './index.js';
import type { Signer } from './signer.js';
import type { Rumor, UnwrapOptions } from './nip59.js';

/** Kind of a NIP-17 chat message (the rumor inside the wraps). */
export const PRIVATE_DIRECT_MESSAGE_KIND: 14;

/** A recipient: its hex public key, and a relay hint for its p tag. */
export interface Recipient {
  publicKey: string;
  relayUrl?: string;
}
/** The message replied to (an e tag with the `reply` marker). */
export interface ReplyTo {
  eventId: string;
  relayUrl?: string;
}

/** The unsigned kind 14 message. */
export function createMessage(recipients: Recipient | Recipient[], message: string, conversationTitle?: string, replyTo?: ReplyTo): { kind: 14; tags: string[][]; content: string };
/** The gift wrap (kind 1059) of a message to one recipient. */
export function wrapEvent(senderSecretKey: Uint8Array | string, recipient: Recipient, message: string, conversationTitle?: string, replyTo?: ReplyTo): NostrEvent;
export function wrapEvent(signer: Signer, recipient: Recipient, message: string, conversationTitle?: string, replyTo?: ReplyTo): Promise<NostrEvent>;
/** The sender's copy first, then one per recipient; one rumor p-tagging every recipient. */
export function wrapManyEvents(senderSecretKey: Uint8Array | string, recipients: Recipient[], message: string, conversationTitle?: string, replyTo?: ReplyTo): NostrEvent[];
export function wrapManyEvents(signer: Signer, recipients: Recipient[], message: string, conversationTitle?: string, replyTo?: ReplyTo): Promise<NostrEvent[]>;
/** The message inside a wrap addressed to this key (every NIP-59 check applies). */
export function unwrapEvent(wrap: NostrEvent, recipientSecretKey: Uint8Array | string, options?: UnwrapOptions): Rumor;
export function unwrapEvent(wrap: NostrEvent, signer: Signer, options?: UnwrapOptions): Promise<Rumor>;
/** The messages of the wraps that open, oldest first (the others are skipped). */
export function unwrapManyEvents(wraps: NostrEvent[], recipientSecretKey: Uint8Array | string, options?: UnwrapOptions): Rumor[];
export function unwrapManyEvents(wraps: NostrEvent[], signer: Signer, options?: UnwrapOptions): Promise<Rumor[]>;
