// `relay`: the dev relay's own command line (js/relay-server/cli.js). With --json its one line of
// stdout ("... listening on URL") becomes {"type":"ready","url":...}.
import { safeJson } from './sanitize.js';

export async function run(argv) {
  const { run: runRelay } = await import('../relay-server/cli.js');
  if (!argv.includes('--json')) return runRelay(argv);
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    const m = /listening on (\S+)/.exec(String(chunk));
    return write(m ? safeJson({ type: 'ready', url: m[1] }) + '\n' : chunk, ...rest);
  };
  try {
    return await runRelay(argv.filter((a) => a !== '--json'));
  } finally {
    process.stdout.write = write;
  }
}
