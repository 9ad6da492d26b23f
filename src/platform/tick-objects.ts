import { createHook } from 'node:async_hooks';

let kept: object | undefined;

/**
 * Keeps one `process.nextTick` queue entry alive for the life of the process, so that nextTick stays fast.
 *
 * On Node 20 (V8 11.3) nextTick builds each entry as an object literal with symbol keys, and V8 remembers the
 * hidden classes those stores go through only weakly. A full GC that runs while no tick is queued (during start-up,
 * or V8's memory reducer once a server falls idle) frees the classes; the next nextTick meets new ones, V8 gives up
 * on caching the stores for good (megamorphic), and from then on every nextTick (node:http makes several per
 * request) goes through V8's runtime. On `serve posts` that is 30–40 % more CPU per request for the rest of the
 * process's life. A live entry keeps its classes, so the stores stay cached. Node 24 does not lose them; there the
 * kept entry only costs its few bytes.
 */
export function keepTickObjectClasses() {
  if (kept) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept = resource;
    },
  });
  // The hook is on only while this one entry is made.
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
}
