// The package, loaded once with its WASM core ready.
import * as nostr from '../index.node.js';

await nostr.init();

export { nostr };
