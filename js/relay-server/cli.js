// `nostr-agents relay`: runs the dev relay until SIGINT or SIGTERM.
import { parseArgs } from 'node:util';
import { startRelay } from './relay.js';

const HELP = `usage: nostr-agents relay [options]

Runs a NIP-01 relay for local development and prints its ws:// URL.

options:
  --port P        port to listen on (default 7447; 0 picks a free one)
  --host H        address to bind (default 127.0.0.1)
  --db FILE       SQLite database file (default ./nostr-agents-relay.sqlite). SQLite comes from
                  better-sqlite3 when installed, else Node's node:sqlite (Node >= 22.13). With
                  --db and neither available, the relay refuses to start (exit 3) and names the
                  fix; without --db it keeps events in memory and says that nothing persists.
  --memory        keep events in memory only (nothing persists)
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
  if (values.memory && values.db !== undefined) throw new Error('invalid: give --db or --memory, not both');
  const log = (m) => process.stderr.write(m + '\n');
  const opts = {
    port,
    host: values.host ?? '127.0.0.1',
    memory: !!values.memory,
    agxPolicy: !!values['agx-policy'],
    auth: !!values.auth,
    log,
  };
  // The store: a database asked for with --db is opened or refused (RELAY_STORE_UNAVAILABLE: the
  // caller exits with the configuration code); the default file falls back to memory, loudly.
  const { openStore } = await import('./store.js');
  let store;
  if (values.memory) store = openStore({ memory: true });
  else if (values.db !== undefined) store = openStore({ db: values.db, log });
  else {
    try {
      store = openStore({ db: 'nostr-agents-relay.sqlite', log });
    } catch (err) {
      if (err?.code !== 'RELAY_STORE_UNAVAILABLE') throw err;
      log(`warning: ${err.message}`);
      store = openStore({ memory: true });
    }
  }
  opts.store = store;
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
  let relay;
  try {
    relay = await startRelay(opts);
  } catch (err) {
    store.close();
    throw err;
  }
  const where =
    relay.storage === 'sqlite'
      ? `SQLite ${store.file} (${store.driver}): events persist across restarts`
      : 'memory only: NOTHING PERSISTS, every event is lost when the relay stops (persist with --db FILE)';
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
  store.close();
  return 0;
}
