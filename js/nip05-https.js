// The default NIP-05 fetch in Node (nip05.queryProfile, agx.verifyNip05): one GET over node:https whose `lookup` resolves the host
// once, at connect time, and refuses it unless every address is allowed (public), so the address
// checked is the address connected to: a host cannot pass an earlier check with a public address
// and then rebind its name to a private one before the connection (DNS rebinding, SSRF against
// the user's own network). Redirects are answered as they come, never followed; the body is
// capped while it streams; an AbortSignal ends it at any step. This file imports no Node module
// (they come in as arguments); only nip05-node.js imports it, so browser bundles leave it out.
import { NostrError } from './errors.js';

/**
 * A net/dns-style lookup(hostname, options, callback) over `resolve` (host => Promise of
 * addresses) that fails with NostrError NIP05_NOT_PUBLIC unless `allowed(address)` holds for
 * every address, and NIP05_DNS when the host does not resolve.
 */
export function checkedLookup(resolve, allowed) {
  return (hostname, opts, callback) => {
    if (typeof opts === 'function') [callback, opts] = [opts, {}];
    Promise.resolve()
      .then(() => resolve(hostname))
      .then(
        (addrs) => {
          if (!Array.isArray(addrs) || addrs.length === 0 || addrs.some((a) => typeof a !== 'string'))
            throw new NostrError('NIP05_DNS', `${hostname} does not resolve`);
          if (!addrs.every((a) => allowed(a)))
            throw new NostrError('NIP05_NOT_PUBLIC', `${hostname} does not resolve to public addresses only (at connect time)`);
          let list = addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
          const wanted = list.filter((a) => !opts?.family || a.family === opts.family);
          if (wanted.length) list = wanted;
          if (opts?.all) callback(null, list);
          else callback(null, list[0].address, list[0].family);
        },
        (err) => {
          throw err instanceof NostrError ? err : new NostrError('NIP05_DNS', `${hostname} does not resolve: ${err?.code ?? err?.message ?? err}`, { cause: err });
        },
      )
      .catch((err) => callback(err));
  };
}

/**
 * GET `url` over `https` (the node:https module): options lookup (as above), ca (the trusted CA
 * certificates; omitted: Node's roots), signal, headers, maxBytes. Resolves a Response-like
 * { status, ok, redirected: false, headers: { get }, text() } once a 2xx body has been read in
 * full (over maxBytes: NostrError NIP05_TOO_LARGE), or at the status line of any other answer
 * (its body unread, the connection closed). Rejects with the lookup's or the socket's error, or
 * an Error named AbortError when the signal fires.
 */
export function httpsGet(https, url, { lookup, ca, signal, headers = {}, maxBytes }) {
  return new Promise((resolve, reject) => {
    let done = false;
    let req = null;
    const finish = (fn, value) => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      fn(value);
    };
    const fail = (err) => {
      finish(reject, err);
      req?.destroy();
    };
    const onAbort = () => fail(Object.assign(new Error('the request was aborted'), { name: 'AbortError' }));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      req = https.get(url, { lookup, ca, headers, agent: false });
    } catch (err) {
      return fail(err);
    }
    req.on('error', fail);
    req.on('response', (res) => {
      const head = {
        status: res.statusCode,
        ok: res.statusCode >= 200 && res.statusCode < 300,
        redirected: false,
        headers: { get: (name) => [].concat(res.headers[String(name).toLowerCase()] ?? []).join(', ') || null },
      };
      if (!head.ok) {
        res.destroy();
        return finish(resolve, { ...head, text: async () => '' });
      }
      const tooLarge = () => fail(new NostrError('NIP05_TOO_LARGE', `the response is over ${maxBytes} bytes`));
      if (Number(res.headers['content-length']) > maxBytes) return tooLarge();
      const chunks = [];
      let total = 0;
      res.on('data', (chunk) => {
        total += chunk.length;
        if (total > maxBytes) return tooLarge();
        chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('aborted', () => fail(new Error('the response was cut short')));
      res.on('end', () => {
        const body = new TextDecoder('utf-8', { fatal: false }).decode(concat(chunks, total));
        finish(resolve, { ...head, text: async () => body });
      });
      res.on('close', () => fail(new Error('the connection closed before the response ended')));
    });
  });
}

function concat(chunks, total) {
  const all = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.length;
  }
  return all;
}
