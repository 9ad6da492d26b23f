// Loaded with `--import` (NODE_OPTIONS) into a process under test: appends to $BACKLOT_MODULE_LOG the URL of every
// module it imports (a resolve hook) and, at exit, every CommonJS file in require's cache (require() from
// CommonJS bypasses the hook), so a test can prove which packages a command never loads.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const log = process.env.BACKLOT_MODULE_LOG;
if (log) {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    let log;
    export function initialize(data) { log = data.log; }
    export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      appendFileSync(log, result.url + '\\n');
      return result;
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { log } });
  process.on('exit', () => {
    const cache = createRequire(import.meta.url).cache;
    appendFileSync(log, `${Object.keys(cache).join('\n')}\n`);
  });
}
