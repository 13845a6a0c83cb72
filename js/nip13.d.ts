// NIP-13 proof of work.
import type { UnsignedEvent } from './index.js';

/** What mining reads of an AbortSignal (structural, so no DOM or Node types are needed). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
}

/** Options of minePow and minePowAsync. */
export interface MinePowOptions {
  /** Checked between slices: aborting rejects (async) or throws (sync) with the signal's reason. */
  signal?: AbortSignalLike;
  /** First nonce to try (default 0), e.g. to resume a search. */
  start?: number;
}

/** Number of leading zero bits of a hex event id. Throws NostrError INVALID_HEX. */
export function getPow(hexId: string): number;

/** Third entry of the first nonce tag, when it is an integer 0..256. */
export function getCommittedTarget(event: { tags: string[][] }): number | undefined;

/** Difficulty >= target, and a committed target (if any, or required) >= target. */
export function checkPow(
  event: { id: string; tags: string[][] },
  target: number,
  options?: { requireCommitment?: boolean },
): boolean;

/**
 * A new event with a last tag ["nonce", n, difficulty] whose id has `difficulty` leading zero bits.
 * created_at is kept. Throws NostrError POW_INVALID_TARGET, INVALID_EVENT.
 */
export function minePow(
  unsignedEvent: UnsignedEvent,
  difficulty: number,
  options?: MinePowOptions,
): UnsignedEvent & { id: string };

/** minePow in slices of about 8 ms, yielding to the event loop between them. */
export function minePowAsync(
  unsignedEvent: UnsignedEvent,
  difficulty: number,
  options?: MinePowOptions,
): Promise<UnsignedEvent & { id: string }>;
