// The HTTP proxy WebKit's pages load through (classic WebDriver has no init scripts, no console and
// no network events, and WebKitGTK 2.50's WebDriver speaks no BiDi). It forwards every request,
// tunnel and WebSocket unchanged, except that:
// - each HTML document gets, right after its doctype, a <script src> (same origin, so a page's
//   Content-Security-Policy of script-src 'self' allows it; before the page's CSP <meta>, which only
//   governs what follows it) whose source the driver supplies for the page that is loading;
// - POST /__engines__/call runs a function the test exposed to that page, in this process;
// - every HTTP status >= 400 and every request that could not be forwarded is reported.
// The requests a page makes reach the test's servers exactly as without the proxy.
import http from 'node:http';
import net from 'node:net';

export const PREFIX = '/__engines__/';

/**
 * Starts the proxy on 127.0.0.1 (a free port). Hooks:
 * - documentPage(): the id of the page a document now loading belongs to;
 * - initScript(pageId): the source the document's injected script runs;
 * - call(pageId, name, args): the exposed function's (awaited) result;
 * - problem(text): an HTTP status >= 400 or a failed request.
 * Resolves { port, close() }.
 */
export async function startWebKitProxy({ documentPage, initScript, call, problem }) {
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    let url;
    try {
      url = new URL(req.url);
    } catch {
      res.writeHead(400).end('not a proxy request');
      return;
    }
    if (url.pathname.startsWith(PREFIX)) return own(url, req, res);
    forward(url, req, res);
  });

  async function own(url, req, res) {
    const reply = (status, type, body) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === `${PREFIX}init.js`) return reply(200, 'text/javascript; charset=utf-8', initScript(url.searchParams.get('page')));
    if (url.pathname === `${PREFIX}call` && req.method === 'POST') {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      try {
        const { page, name, args } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const value = await call(page, name, args);
        return reply(200, 'application/json', JSON.stringify({ value: value ?? null }));
      } catch (err) {
        return reply(200, 'application/json', JSON.stringify({ error: String(err?.message ?? err) }));
      }
    }
    reply(404, 'text/plain', 'no such driver path');
  }

  function forward(url, req, res) {
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    const document = (req.headers['sec-fetch-dest'] ?? (req.headers.accept?.startsWith('text/html') ? 'document' : '')) === 'document';
    if (document) headers['accept-encoding'] = 'identity'; // the HTML is rewritten: no compressed bodies
    const up = http.request(url, { method: req.method, headers, agent: false }, (upRes) => {
      if (upRes.statusCode >= 400) problem(`HTTP ${upRes.statusCode}: ${url.href}`);
      const type = upRes.headers['content-type'] ?? '';
      if (!document || !type.startsWith('text/html') || req.method === 'HEAD') {
        res.writeHead(upRes.statusCode, upRes.rawHeaders);
        upRes.pipe(res);
        return;
      }
      const chunks = [];
      upRes.on('data', (c) => chunks.push(c));
      upRes.on('end', () => {
        const html = Buffer.concat(chunks).toString('utf8');
        const tag = `<script src="${PREFIX}init.js?page=${encodeURIComponent(documentPage() ?? '')}"></script>`;
        const doctype = /^\uFEFF?\s*<!doctype[^>]*>/i.exec(html);
        const at = doctype ? doctype[0].length : 0;
        const body = Buffer.from(html.slice(0, at) + tag + html.slice(at), 'utf8');
        const out = { ...upRes.headers, 'content-length': body.length };
        delete out['transfer-encoding'];
        res.writeHead(upRes.statusCode, out);
        res.end(body);
      });
      upRes.on('error', (err) => res.destroy(err));
    });
    up.on('error', (err) => {
      problem(`requestfailed: ${url.href} ${err.code ?? err.message}`);
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(up);
  }

  // A tunnel (CONNECT host:port): wss:, https:, and ws: where the engine tunnels it.
  server.on('connect', (req, client, head) => {
    const [host, port] = splitHostPort(req.url, 443);
    const upstream = net.connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream, client);
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
  });

  // A ws: upgrade sent to the proxy as an absolute-URI request.
  server.on('upgrade', (req, client, head) => {
    let url;
    try {
      url = new URL(req.url);
    } catch {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(url.port || 80), url.hostname, () => {
      const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        if (req.rawHeaders[i].toLowerCase() !== 'proxy-connection') lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream, client);
    upstream.on('error', () => {
      if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
  });

  function track(...pair) {
    for (const s of pair) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => pair.forEach((o) => o.destroy()));
      s.on('close', () => pair.forEach((o) => o.destroy()));
    }
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    async close() {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function splitHostPort(hostPort, defaultPort) {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(hostPort);
  return [m?.[1] ?? hostPort, Number(m?.[2] ?? defaultPort)];
}
