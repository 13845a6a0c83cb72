// nip19: filled in by its own change.
export {};
