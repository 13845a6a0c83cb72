// Preloaded into every Node process of the JS suite (scripts/test.sh: NODE_OPTIONS=--import) when
// NOSTR_SECRETS_LOG names a directory: appends everything the process prints (console, stdout,
// stderr, process warnings, uncaught errors) to a file there, for tests/support/secrets-check.mjs
// to search for the suite's secret keys afterwards. Changes nothing the process itself sees.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';

const dir = process.env.NOSTR_SECRETS_LOG;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.log`);
  const save = (text) => {
    try {
      appendFileSync(file, text);
    } catch {
      /* a full disk must not change the test's behaviour */
    }
  };
  for (const stream of [process.stdout, process.stderr]) {
    const orig = stream.write;
    stream.write = function write(chunk, ...rest) {
      save(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1'));
      return orig.call(this, chunk, ...rest);
    };
  }
  process.on('warning', (w) => save(`\n[warning] ${inspect(w)}\n`));
  process.on('uncaughtExceptionMonitor', (err) => save(`\n[uncaught] ${inspect(err, { depth: 8, showHidden: true })}\n`));
}
