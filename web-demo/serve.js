// The demo's static server: the page (web-demo/), the package's browser build (js/, dist/) and
// nothing else, with the right MIME types (application/wasm lets the browser compile the core
// while it downloads). `/` redirects to the page, keeping the query (relay and agent).
import http from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVED = ['web-demo', 'js', 'dist'];
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
};

/** Serves on host:port (0: a free one). Resolves `{ origin, port, close() }`. */
export async function startStaticServer({ port = 0, host = '127.0.0.1' } = {}) {
  const server = http.createServer(async (req, res) => {
    const send = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
      const url = new URL(req.url, 'http://localhost');
      if (url.pathname === '/') return send(302, '', { location: `/web-demo/${url.search}` });
      const rel = path.normalize(decodeURIComponent(url.pathname)).replace(/^[/\\]+/, '');
      if (!SERVED.includes(rel.split(/[/\\]/)[0]) || rel.split(/[/\\]/).includes('..')) return send(404, 'not found');
      let file = path.join(ROOT, rel);
      let info = await stat(file).catch(() => null);
      if (info?.isDirectory()) {
        file = path.join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      if (!info?.isFile()) return send(404, 'not found');
      res.writeHead(200, {
        'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
        'content-length': info.size,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).on('error', (err) => res.destroy(err)).pipe(res);
    } catch {
      if (!res.headersSent) send(500, 'error');
      else res.destroy();
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const actual = server.address().port;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    port: actual,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
