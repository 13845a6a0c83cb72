// nip44: filled in by its own change.
export {};
