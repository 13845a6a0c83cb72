// The NIP-17 direct messages of dm.nostr-tools.mjs ported to nostr-agents: only its import lines
// differ from it. Sends a message to the recipient's DM relays (their kind 10050 list,
// else NOSTR_RELAYS) with a copy for the sender, or reads the inbox.
//   NOSTR_NSEC=nsec1... NOSTR_RELAYS=wss://a node examples/dm.mjs npub1... hello there
//   NOSTR_NSEC=nsec1... NOSTR_RELAYS=wss://a node examples/dm.mjs inbox
import { SimplePool, useWebSocketImplementation } from 'nostr-agents/ready'
import { getPublicKey } from 'nostr-agents/ready'
import { nip17 } from 'nostr-agents/ready'
import { nip19 } from 'nostr-agents/ready'
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
