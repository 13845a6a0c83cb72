// `nostr-agents relay`: runs the dev relay until SIGINT or SIGTERM.
import { parseArgs } from 'node:util';
import { startRelay } from './relay.js';

const HELP = `usage: nostr-agents relay [options]

Runs a NIP-01 relay for local development and prints its ws:// URL.

options:
  --port P        port to listen on (default 7447; 0 picks a free one)
  --host H        address to bind (default 127.0.0.1)
  --db FILE       SQLite database file (default ./nostr-agents-relay.sqlite)
  --memory        keep events in memory only
  --agx-policy    gift wraps (kind 1059) need an expiration <= 31 days ahead and >= 12 bits of PoW
  --store-kinds K,K,...  also store these ephemeral kinds (e.g. 25802,25803,25805 for NIP-XX recovery)
  --auth          require NIP-42 authentication before EVENT, REQ and COUNT
  --max-message-length N   largest accepted message in bytes (default 262144)
  -h, --help      this help
`;

export async function run(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      db: { type: 'string' },
      memory: { type: 'boolean' },
      'agx-policy': { type: 'boolean' },
      auth: { type: 'boolean' },
      'store-kinds': { type: 'string' },
      'max-message-length': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const port = values.port === undefined ? 7447 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${values.port}`);
  const opts = {
    port,
    host: values.host ?? '127.0.0.1',
    memory: !!values.memory,
    db: values.memory ? undefined : (values.db ?? 'nostr-agents-relay.sqlite'),
    agxPolicy: !!values['agx-policy'],
    auth: !!values.auth,
    log: (m) => process.stderr.write(m + '\n'),
  };
  if (values['store-kinds'] !== undefined) {
    const kinds = values['store-kinds'].split(',').map((k) => Number(k.trim()));
    if (kinds.some((k) => !Number.isInteger(k) || k < 0 || k > 65535)) throw new Error('--store-kinds takes comma-separated kind numbers');
    opts.storeKinds = kinds;
  }
  if (values['max-message-length'] !== undefined) {
    const n = Number(values['max-message-length']);
    if (!Number.isInteger(n) || n < 1024) throw new Error('--max-message-length must be an integer >= 1024');
    opts.maxMessageLength = n;
  }
  const relay = await startRelay(opts);
  const where = relay.storage === 'sqlite' ? `SQLite ${opts.db}` : 'memory (not persisted)';
  process.stdout.write(`nostr-agents relay listening on ${relay.url}\n`);
  process.stderr.write(
    `storage: ${where}` +
      (opts.agxPolicy ? '; agx policy on' : '') +
      (opts.auth ? '; NIP-42 auth required' : '') +
      '\nstop with Ctrl-C\n',
  );
  await new Promise((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await relay.close();
  return 0;
}
