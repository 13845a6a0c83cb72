// NIP-98 HTTP auth (nostr-tools' names): a signed kind 27235 event naming the request's URL, method
// and body hash, sent as `Authorization: Nostr <base64>`. Failures are NostrErrors with the failing
// check's code. A string or byte body is hashed as those bytes (the NIP's request body); an object
// as its JSON (as nostr-tools hashes every payload).
import type { EventTemplate, NostrEvent } from './index.js';
import type { Signer } from './signer.js';

/** A request body: raw text or bytes, or an object sent as its JSON. */
export type Nip98Payload = string | Uint8Array | ArrayBuffer | ArrayBufferView | Record<string, unknown>;

/**
 * A token for a request to `loginUrl` (an absolute http(s) URL) with `httpMethod`: the event signed
 * by `sign` (a function of the template, or a Signer), base64, after "Nostr " when
 * includeAuthorizationScheme, with a `payload` tag when a payload is given. The signed event is
 * verified first. NostrError INVALID_ARGUMENT, INVALID_EVENT, ID_MISMATCH, INVALID_SIGNATURE.
 */
export function getToken(
  loginUrl: string,
  httpMethod: string,
  sign: ((e: EventTemplate) => Promise<NostrEvent> | NostrEvent) | Signer,
  includeAuthorizationScheme?: boolean,
  payload?: Nip98Payload,
): Promise<string>;

/** Resolves true or rejects with the first failing check: NIP98_INVALID_TOKEN, then validateEvent's. */
export function validateToken(token: string, url: string, method: string, body?: Nip98Payload): Promise<boolean>;

/** The event in a token, with or without "Nostr ", not verified. NostrError NIP98_INVALID_TOKEN. */
export function unpackEventFromToken(token: string): Promise<NostrEvent>;

/**
 * NIP-98's checks in order: the event's id and signature (INVALID_EVENT, ID_MISMATCH,
 * INVALID_SIGNATURE), NIP98_WRONG_KIND, NIP98_STALE (60 s or more from now), NIP98_WRONG_URL (exact),
 * NIP98_WRONG_METHOD (any case), NIP98_WRONG_PAYLOAD (when a non-empty body is given). Resolves true.
 */
export function validateEvent(event: NostrEvent, url: string, method: string, body?: Nip98Payload): Promise<boolean>;

/** True when created_at is less than 60 seconds from now, either way. */
export function validateEventTimestamp(event: { created_at: number }): boolean;
/** True for kind 27235. */
export function validateEventKind(event: { kind: number }): boolean;
/** True when the first `u` tag is exactly `url`. */
export function validateEventUrlTag(event: { tags: string[][] }, url: string): boolean;
/** True when the first `method` tag is `method`, in any case. */
export function validateEventMethodTag(event: { tags: string[][] }, method: string): boolean;
/** True when the first `payload` tag is hashPayload(payload). */
export function validateEventPayloadTag(event: { tags: string[][] }, payload: Nip98Payload): boolean;
/** SHA-256 (lowercase hex) of a body: a string's UTF-8, bytes, or an object's JSON. */
export function hashPayload(payload: Nip98Payload): string;
