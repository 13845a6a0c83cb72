// NIP-XX AI Agent Messages over relays: the client (discover, prompt) and the agent runtime (serveAgent).
export { AgentError } from './errors.js';
export { discover, prompt, Run } from './client.js';
export { serveAgent } from './runtime.js';
