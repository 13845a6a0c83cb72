// Signers: filled in by its own change.
export {};
