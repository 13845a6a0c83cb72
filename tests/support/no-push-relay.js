// A relay that never pushes live events, like the AGX reference's dev relay (`agx relay`,
// packages/cli/src/relay/server.ts of ellavox-ai/nip-agx): EVENT is stored and answered OK; REQ is
// answered with the stored events that match (newest first, up to the filter's limit or 500) and
// EOSE, and nothing after it, however long the subscription stays open; CLOSE gets CLOSED.
// Expired events (NIP-40) are not served. Events and filters are checked with nostr-tools
// (verifyEvent, matchFilter), not with our core. Resolves to { url, port, events(), close() }.
import { WebSocketServer } from 'ws';
import { matchFilter, verifyEvent } from 'nostr-tools';

function expired(ev) {
  const tag = ev.tags.find((t) => t[0] === 'expiration');
  const at = tag ? Number(tag[1]) : NaN;
  return Number.isFinite(at) && at <= Math.floor(Date.now() / 1000);
}

export async function startNoPushRelay() {
  const stored = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) => {
    ws.on('error', () => {});
    ws.on('message', (data) => {
      let msg;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (!Array.isArray(msg)) return;
      if (msg[0] === 'EVENT' && msg[1] && typeof msg[1] === 'object') {
        const ev = msg[1];
        const ok = verifyEvent(ev);
        if (ok && !stored.some((e) => e.id === ev.id)) stored.unshift(ev);
        ws.send(JSON.stringify(['OK', ev.id, ok, ok ? '' : 'invalid: bad event']));
      } else if (msg[0] === 'REQ' && typeof msg[1] === 'string') {
        const subId = msg[1];
        for (const f of msg.slice(2)) {
          const hits = stored
            .filter((ev) => !expired(ev) && matchFilter(f, ev))
            .sort((a, b) => b.created_at - a.created_at)
            .slice(0, f.limit ?? 500);
          for (const ev of hits) ws.send(JSON.stringify(['EVENT', subId, ev]));
        }
        ws.send(JSON.stringify(['EOSE', subId]));
      } else if (msg[0] === 'CLOSE') {
        ws.send(JSON.stringify(['CLOSED', msg[1], '']));
      }
    });
  });
  const port = wss.address().port;
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    events: () => [...stored],
    close: () =>
      new Promise((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  };
}
