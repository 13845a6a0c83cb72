// NIP-17 direct messages written against nostr-tools (the original of dm.mjs, which differs from it
// in its import lines only). Sends a message to the recipient's DM relays (their kind 10050 list,
// else NOSTR_RELAYS) with a copy for the sender, or reads the inbox.
//   NOSTR_NSEC=nsec1... NOSTR_RELAYS=wss://a node examples/dm.nostr-tools.mjs npub1... hello there
//   NOSTR_NSEC=nsec1... NOSTR_RELAYS=wss://a node examples/dm.nostr-tools.mjs inbox
import { SimplePool, useWebSocketImplementation } from 'nostr-tools/pool'
import { getPublicKey } from 'nostr-tools/pure'
import * as nip17 from 'nostr-tools/nip17'
import * as nip19 from 'nostr-tools/nip19'
import WebSocket from 'ws'

useWebSocketImplementation(WebSocket)

const relays = (process.env.NOSTR_RELAYS ?? 'wss://relay.damus.io').split(',')
const sk = nip19.decode(process.env.NOSTR_NSEC).data
const me = getPublicKey(sk)
const [to, ...words] = process.argv.slice(2)
const pool = new SimplePool()

if (to === 'inbox') {
  const wraps = await pool.querySync(relays, { kinds: [1059], '#p': [me] })
  const messages = nip17.unwrapManyEvents(wraps, sk)
  messages.sort((a, b) => a.created_at - b.created_at || (a.content < b.content ? -1 : 1))
  for (const m of messages) {
    const subject = m.tags.find(t => t[0] === 'subject')
    console.log(`from ${nip19.npubEncode(m.pubkey)}${subject ? ` [${subject[1]}]` : ''}: ${m.content}`)
  }
  console.log(`${messages.length} messages`)
  pool.close(relays)
} else {
  const recipient = nip19.decode(to).data
  const message = words.join(' ')
  // NIP-17: deliver to the relays the recipient reads DMs on (kind 10050).
  const dmRelays = await pool.get(relays, { kinds: [10050], authors: [recipient] })
  const inbox = dmRelays ? dmRelays.tags.filter(t => t[0] === 'relay').map(t => t[1]) : relays
  const forThem = nip17.wrapEvent(sk, { publicKey: recipient }, message, process.env.DM_SUBJECT)
  const forMe = nip17.wrapEvent(sk, { publicKey: me }, message, process.env.DM_SUBJECT)
  const sent = await Promise.allSettled(pool.publish(inbox, forThem))
  const kept = await Promise.allSettled(pool.publish(relays, forMe))
  const ok = results => results.filter(r => r.status === 'fulfilled').length
  console.log(`sent to ${ok(sent)}/${inbox.length} inbox relays, copy kept on ${ok(kept)}/${relays.length}`)
  pool.close([...new Set([...relays, ...inbox])])
}
