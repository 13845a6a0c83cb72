// Real TLS for tests: a throwaway self-signed certificate made by `openssl` at test time (nothing
// secret is committed), and a fetch for the package's `fetch` options that trusts that certificate
// and connects to a local port while keeping the URL's host name for SNI, the Host header and the
// certificate check (what a user with a private CA and a pinned address would write).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/**
 * A self-signed certificate (P-256, one day) for `hosts` (DNS names in subjectAltName):
 * { key, cert (PEM strings), certFile (a path, e.g. for NODE_EXTRA_CA_CERTS), cleanup() }.
 */
export function selfSignedCert(hosts) {
  const dir = mkdtempSync(join(tmpdir(), 'nostr-agents-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', `/CN=${hosts[0]}`,
    '-addext', `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}`,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  return {
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A fetch(url, init) over node:https that connects to `address`:`port` whatever the URL's host,
 * trusts `ca` (PEM; omit it to trust only the system's roots), never follows redirects, honours
 * init.signal and init.headers, and returns a WHATWG Response with a streamed body.
 */
export function pinnedHttpsFetch({ port, address = '127.0.0.1', ca }) {
  return (input, init = {}) =>
    new Promise((resolve, reject) => {
      const url = new URL(String(input));
      if (url.protocol !== 'https:') return reject(new TypeError(`pinnedHttpsFetch: https only, not ${url.protocol}`));
      const req = https.request({
        host: address,
        port,
        servername: url.hostname,
        path: url.pathname + url.search,
        method: init.method ?? 'GET',
        headers: { ...Object.fromEntries(new Headers(init.headers ?? {})), host: url.host },
        ca,
        signal: init.signal,
        agent: false,
      });
      req.on('error', reject);
      req.on('response', (res) => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) for (const one of [].concat(v)) headers.append(k, one);
        const body = NULL_BODY.has(res.statusCode) ? null : Readable.toWeb(res);
        if (!body) res.resume();
        resolve(new Response(body, { status: res.statusCode, statusText: res.statusMessage, headers }));
      });
      req.end();
    });
}
