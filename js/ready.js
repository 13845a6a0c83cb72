// `nostr-agents/ready`: the package's API with the WASM core loaded on import (a top-level await),
// for code written against nostr-tools, whose functions need no init(): a port changes its import
// lines only. The other entries load nothing until init() is called.
import { init } from 'nostr-agents';

await init();

export * from 'nostr-agents';
