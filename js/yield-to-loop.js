// A turn of the event loop between slices of long work (proof-of-work mining), without
// setTimeout's clamp (1 ms in Node, 4 ms nested in browsers), which costs more than a slice.
export const yieldToLoop = /* @__PURE__ */ (() => {
  const sched = globalThis.scheduler;
  if (sched && typeof sched.yield === 'function') return () => sched.yield();
  if (typeof globalThis.setImmediate === 'function') return () => new Promise((r) => globalThis.setImmediate(r));
  if (typeof globalThis.MessageChannel === 'function') {
    const waiting = [];
    let channel = null;
    return () =>
      new Promise((r) => {
        if (!channel) {
          channel = new MessageChannel();
          channel.port1.onmessage = () => waiting.shift()();
        }
        waiting.push(r);
        channel.port2.postMessage(null);
      });
  }
  return () => new Promise((r) => setTimeout(r, 0));
})();
