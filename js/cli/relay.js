// `relay`: the dev relay's own command line (js/relay-server/cli.js). With --json its one line of
// stdout ("... listening on URL") becomes {"type":"ready","url":...}.
import { CliError, EXIT } from './common.js';
import { safeJson } from './sanitize.js';

export async function run(argv) {
  const { run: relayCli } = await import('../relay-server/cli.js');
  // Its option checks throw plain Errors ("invalid --port ..."): a bad command line, exit 2.
  const runRelay = (args) =>
    relayCli(args).catch((e) => {
      if (e && !e.code && /^(invalid|--max-message-length)/.test(String(e.message))) throw new CliError(EXIT.USAGE, e.message);
      // --db and no SQLite: a configuration problem, with the command that fixes it.
      if (e?.code === 'RELAY_STORE_UNAVAILABLE') throw new CliError(EXIT.SETUP, e.message);
      throw e;
    });
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
