// NIP-40 expiration timestamps (unix seconds).

/** The first expiration tag's timestamp, or undefined. Throws NostrError INVALID_EXPIRATION. */
export function getExpiration(event: { tags: string[][] }): number | undefined;

/** now >= expiration (now defaults to the current time in seconds); false without the tag. */
export function isEventExpired(event: { tags: string[][] }, now?: number): boolean;

/** A copy of the template with its expiration set (first tag replaced, later ones dropped). */
export function withExpiration<T extends { tags: string[][] }>(template: T, timestamp: number): T;
