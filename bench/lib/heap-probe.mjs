// Preloaded into a benchmarked server (NODE_OPTIONS="--expose-gc --import=…") by startServer's `heapProbe`:
// on the message 'heap', runs full collections and answers with the heap still in use, in bytes. Resident
// memory alone cannot tell a leak from V8 letting its old space fill before a full collection.
process.on('message', (message) => {
  if (message !== 'heap') return;
  globalThis.gc();
  globalThis.gc();
  process.send?.({ heapUsed: process.memoryUsage().heapUsed });
});
process.channel?.unref();
