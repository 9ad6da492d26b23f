import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchOfflineBrowser, openOffline } from '../../test/browser.js';
import { startTestService, type TestService } from '../../test/service.js';
import { employees } from '../services/employees/index.js';

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
