// nip13: filled in by its own change.
export {};
