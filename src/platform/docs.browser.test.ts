import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchOfflineBrowser, openOffline } from '../../test/browser.js';
import { startTestService, type TestService } from '../../test/service.js';
import { employees } from '../services/employees/index.js';
import { machines } from '../services/machines/index.js';

let svc: TestService;
let browser: Awaited<ReturnType<typeof launchOfflineBrowser>>;
before(async () => {
  svc = await startTestService(employees, { listen: true });
  browser = await launchOfflineBrowser();
});
after(async () => {
  await browser?.close();
  await svc?.close();
});

test('the /docs reference renders in a browser with no internet access', async () => {
  const { page, blocked, errors, close } = await openOffline(browser, `${svc.url}/docs`);
  try {
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 15_000 });
    assert.match((await page.textContent('.swagger-ui .info .title')) ?? '', /backlot employees/);
    // The operations of the service are listed, read from the service's own /openapi.json.
    assert.ok((await page.locator('.opblock').count()) > 0, 'operations are listed');
    assert.deepEqual(blocked, [], 'no request left the machine');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('Authorize on /docs takes a token, and "Try it out" on a guarded operation then answers 200', async () => {
  const token = `dop_v1_${'ab'.repeat(32)}`;
  const guarded = await startTestService(machines, {
    listen: true,
    env: { MACHINES_TOKENS: `docs=${token}` },
  });
  const { page, blocked, errors, close } = await openOffline(browser, `${guarded.url}/docs`);
  try {
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 15_000 });
    await page.click('button.authorize');
    await page.fill('.auth-container input[type=text], .auth-container input[type=password]', token);
    await page.click('.auth-btn-wrapper button.authorize');
    await page.click('button.btn-done');

    const operation = page
      .locator('.opblock.opblock-get')
      .filter({ has: page.locator('.opblock-summary-path[data-path="/v2/machines"]') })
      .first();
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    assert.equal((await status.textContent())?.trim(), '200');
    const sent = guarded.harness.journal.list().at(-1);
    assert.equal(sent?.path, '/v2/machines');
    assert.equal(sent?.status, 200);
    assert.deepEqual(blocked, []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
    await guarded.close();
  }
});
