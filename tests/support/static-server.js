// A tiny static file server for browser tests: 127.0.0.1 on an ephemeral port, correct MIME types
// (application/wasm, so browsers can compile the .wasm while it streams), no caching, and a log
// of every request with the status and content type it got.
import http from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.ico': 'image/x-icon',
};

/**
 * Serves `root` until close() is called. `requests` lists { method, path, status, contentType,
 * bytes } in arrival order.
 */
export async function startStaticServer(root) {
  const absRoot = path.resolve(root);
  const requests = [];

  const server = http.createServer(async (req, res) => {
    const entry = { method: req.method, path: req.url, status: 0, contentType: null, bytes: 0 };
    requests.push(entry);
    const send = (status, body, type = 'text/plain; charset=utf-8') => {
      entry.status = status;
      entry.contentType = type;
      entry.bytes = Buffer.byteLength(body);
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
      const pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      let file = path.join(absRoot, pathname);
      const rel = path.relative(absRoot, file);
      if (rel.startsWith('..') || path.isAbsolute(rel)) return send(403, 'forbidden');
      let info = await stat(file).catch(() => null);
      if (info && info.isDirectory()) {
        file = path.join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      if (!info || !info.isFile()) return send(404, `not found: ${pathname}`);
      const type = MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      entry.status = 200;
      entry.contentType = type;
      entry.bytes = info.size;
      res.writeHead(200, { 'content-type': type, 'content-length': info.size, 'cache-control': 'no-store' });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file)
        .on('error', (err) => res.destroy(err))
        .pipe(res);
    } catch (err) {
      if (!res.headersSent) send(500, String(err));
      else res.destroy(err);
    }
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;

  let closed = false;
  return {
    origin,
    requests,
    /** Requests whose path (without the query) is `p`. */
    requestsFor(p) {
      return requests.filter((r) => new URL(r.path, origin).pathname === p);
    },
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
