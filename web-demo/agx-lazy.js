// The AGX panel's part of the package (Agent Cards, the requesting side of AGX: its wrap, unwrap,
// routes and replay guard), imported by the page the first time the panel looks up a card or
// sends a task: a page that only chats never loads it. The same package instance as the page's
// (one WASM module, the page's pool and signer). `npm run build:demo` makes it a chunk of its own.
export { agx } from '../dist/index.browser.js';
