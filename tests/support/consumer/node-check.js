// Child-process consumer: `node node-check.js <specifier>` imports the package by that specifier
// from the current project, runs the shared checks and prints one JSON line.
import { runChecks } from './checks.js';

const specifier = process.argv[2];
try {
  const t0 = performance.now();
  const nostr = await import(specifier);
  const importMs = performance.now() - t0;
  const result = await runChecks(nostr, `node ${specifier}`);
  const resolved = import.meta.resolve(specifier);
  console.log(JSON.stringify({ ...result, importMs, resolved }));
} catch (err) {
  console.log(JSON.stringify({ error: String(err && err.stack ? err.stack : err) }));
  process.exitCode = 1;
}
