// The feed reader of feed.nostr-tools.mjs ported to nostr-agents: only its import lines differ from
// it. The authors' profiles, their notes page by page (newest first, each
// note verified), then live notes as they are published.
//   NOSTR_RELAYS=wss://a,wss://b node examples/feed.mjs npub1... [npub1...]
// FEED_PAGE: notes per page (default 20); FEED_LIVE: live notes to wait for before exiting (default 0).
import { SimplePool, useWebSocketImplementation } from 'nostr-agents/ready'
import { verifyEvent } from 'nostr-agents/ready'
import { nip19 } from 'nostr-agents/ready'
import WebSocket from 'ws'

useWebSocketImplementation(WebSocket)

const relays = (process.env.NOSTR_RELAYS ?? 'wss://relay.damus.io').split(',')
const authors = process.argv.slice(2).map(npub => nip19.decode(npub).data)
const PAGE = Number(process.env.FEED_PAGE ?? 20)
const LIVE = Number(process.env.FEED_LIVE ?? 0)

const pool = new SimplePool()
const line = e => `${e.created_at} ${nip19.npubEncode(e.pubkey).slice(0, 16)} ${nip19.noteEncode(e.id)} ${JSON.stringify(e.content)}`

for (const pubkey of authors) {
  const profile = await pool.get(relays, { kinds: [0], authors: [pubkey] })
  let name = '(no profile)'
  try {
    if (profile) name = JSON.parse(profile.content).name ?? name
  } catch {}
  console.log(`profile ${nip19.npubEncode(pubkey)} ${name}`)
}

// Pagination: each page asks for notes up to the oldest one seen; notes seen already are skipped
// (several notes may share a second).
const seen = new Set()
let until
let pages = 0
for (;;) {
  const filter = { kinds: [1], authors, limit: PAGE }
  if (until !== undefined) filter.until = until
  const page = (await pool.querySync(relays, filter)).filter(e => !seen.has(e.id) && verifyEvent(e))
  if (page.length === 0) break
  pages++
  page.sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : 1))
  for (const e of page) {
    seen.add(e.id)
    console.log(`note ${line(e)}`)
  }
  until = page[page.length - 1].created_at
}
console.log(`${seen.size} notes in ${pages} pages`)

if (LIVE > 0) {
  let live = 0
  const sub = pool.subscribeMany(relays, { kinds: [1], authors, since: Math.floor(Date.now() / 1000) }, {
    oneose() {
      console.log('listening')
    },
    onevent(e) {
      if (!verifyEvent(e)) return
      console.log(`live ${line(e)}`)
      if (++live === LIVE) {
        sub.close()
        pool.close(relays)
      }
    },
  })
} else {
  pool.close(relays)
}
