import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { startTestService, type TestService } from '../../../test/service.js';
import { profiles } from './index.js';
import type { ProfilesSettings } from './settings.js';

/** The few DOM calls made inside the page (this project compiles without the DOM library). */
interface PageDocument {
  querySelector(
    selector: string,
  ): { textContent: string | null; CodeMirror?: { setValue(value: string): void } } | null;
}
let service: TestService<ProfilesSettings>;
let browser: Browser;
before(async () => {
  service = await startTestService(profiles, { listen: true });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});
after(async () => {
  await browser?.close();
  await service.close();
});

test('GET / serves the IDE page with security headers and its assets locally', async () => {
  const response = await fetch(`${service.url}/`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(response.headers.get('x-frame-options'), 'SAMEORIGIN');
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  const html = await response.text();
  assert.doesNotMatch(html, /https?:\/\//);
  for (const asset of ['react.js', 'react-dom.js', 'graphiql.js', 'graphiql.css', 'playground.js']) {
    const file = await fetch(`${service.url}/ide/${asset}`);
    assert.equal(file.status, 200, asset);
  }
  assert.equal((await fetch(`${service.url}/ide/other.js`)).status, 404);
});

test('the IDE loads with no network, runs { users { id } } and shows the result', async () => {
  const { rows } = await service.db.query<{ id: string }>(
    `INSERT INTO profiles.users (id, full_name, email, img_uri, date_created)
     VALUES (gen_random_uuid(), 'Ide User', 'ide@example.com', 'p', '01-01-2026') RETURNING id`,
  );
  const id = rows[0]?.id as string;
  const context = await browser.newContext();
  const blocked: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') return route.continue();
    blocked.push(url.toString());
    return route.abort();
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  try {
    await page.goto(`${service.url}/`);
    await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 20_000 });
    await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: PageDocument }).document;
      doc.querySelector('.graphiql-query-editor .CodeMirror')?.CodeMirror?.setValue('{ users { id } }');
    });
    // The playground's document has several operations, so the button is a menu until GraphiQL re-reads the edit.
    await page.click('.graphiql-execute-button:not([aria-haspopup])');
    await page.waitForFunction(
      (expected) =>
        (globalThis as unknown as { document: PageDocument }).document
          .querySelector('.graphiql-response')
          ?.textContent?.includes(expected),
      id,
      { timeout: 20_000 },
    );
    const shown = await page.textContent('.graphiql-response');
    assert.match(shown ?? '', /"users"/);
    assert.deepEqual(blocked, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
