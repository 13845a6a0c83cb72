// nip40: filled in by its own change.
export {};
