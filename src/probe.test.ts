import { test } from 'node:test';
import { startTestService } from '../test/service.js';
import { content } from './services/content/index.js';
test('probe', async () => {
  const logLines: string[] = [];
  const s = await startTestService(content, { env: { CONTENT_ADMIN_APP_PASSWORD: 'fuzzFUZZfuzzFUZZfuzzFUZZ', LOG_LEVEL: 'error' }, logLines });
  const auth = { authorization: `Basic ${Buffer.from('admin:fuzzFUZZfuzzFUZZfuzzFUZZ').toString('base64')}`, 'content-type': 'application/json' };
  let n = 0; const statuses: Record<number, number> = {};
  const worker = async (w: number) => {
    for (let i = 0; i < 60; i++) {
      const k = n++;
      const r = k % 3 === 0
        ? await s.app.inject({ method: 'POST', url: '/wp-json/wp/v2/posts', headers: auth, payload: { title: `Soak ${k}`, content: 'text', status: 'publish' } })
        : await s.app.inject({ url: k % 3 === 1 ? '/wp-json/wp/v2/posts?per_page=5' : '/wp-json/wp/v2/categories' });
      statuses[r.statusCode] = (statuses[r.statusCode] ?? 0) + 1;
      if (r.statusCode >= 500) console.log('500', r.body.slice(0, 200));
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
  console.log(JSON.stringify(statuses));
  for (const l of logLines) if (l.includes('"level":50') || l.includes('error')) console.log(l.slice(0, 1500));
  await s.close();
});
