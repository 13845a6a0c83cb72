// Child process entry: a relay nobody here wrote (@nostr-relay/core with its SQLite repository,
// wired to a `ws` server as its README shows). Started by startThirdPartyRelay() in relays.js.
//   node third-party-relay.js <port> <sqlite-file> [auth]
// Sends {port} over IPC once listening; exits when the parent goes away.
import { WebSocketServer } from 'ws';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { NostrRelay } = require('@nostr-relay/core');
const { EventRepositorySqlite } = require('@nostr-relay/event-repository-sqlite');
const { Validator } = require('@nostr-relay/validator');
const { LogLevel, createOutgoingNoticeMessage } = require('@nostr-relay/common');

const [portArg, file, mode] = process.argv.slice(2);
const host = '127.0.0.1';

const repository = new EventRepositorySqlite(file, { defaultLimit: 500 });
await repository.init();
const relay = new NostrRelay(repository, {
  // NIP-42 is on when a hostname is set; the relay then only gates DMs (kind 4) on it.
  hostname: mode === 'auth' ? host : undefined,
  logLevel: LogLevel.ERROR,
  // The default 1 s cache of REQ results would serve stale answers to back-to-back REQs.
  filterResultCacheTtl: 0,
});
const validator = new Validator();

const wss = new WebSocketServer({ host, port: Number(portArg) });
wss.on('connection', (ws) => {
  relay.handleConnection(ws, host);
  ws.on('message', async (data) => {
    try {
      const message = await validator.validateIncomingMessage(data);
      await relay.handleMessage(ws, message);
    } catch (error) {
      if (error instanceof Error) ws.send(JSON.stringify(createOutgoingNoticeMessage(error.message)));
    }
  });
  ws.on('close', () => relay.handleDisconnect(ws));
  ws.on('error', () => {});
});
wss.on('error', (err) => {
  process.send?.({ error: err.message, code: err.code });
  process.exit(1);
});
wss.on('listening', () => process.send?.({ port: wss.address().port }));

process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
