// Preload (node --require) that makes better-sqlite3 unloadable, to test the memory fallback.
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3') {
    const err = new Error("Cannot find module 'better-sqlite3' (hidden by no-sqlite.cjs)");
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return resolve.call(this, request, ...rest);
};
