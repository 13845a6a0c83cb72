// nip59: filled in by its own change.
export {};
