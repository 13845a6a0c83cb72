// Preload (node --require) that makes SQLite unloadable (better-sqlite3 and node:sqlite), to test
// the refusal with --db and the memory fallback without it.
const Module = require('node:module');
const hidden = new Set(['better-sqlite3', 'node:sqlite', 'sqlite']);
const load = Module._load;
Module._load = function (request, ...rest) {
  if (hidden.has(request)) {
    const err = new Error(`Cannot find module '${request}' (hidden by no-sqlite.cjs)`);
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return load.call(this, request, ...rest);
};
