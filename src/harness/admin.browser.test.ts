import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { startAdminFixture } from '../../test/admin.js';
import { launchOfflineBrowser, openOffline } from '../../test/browser.js';

let fixture: Awaited<ReturnType<typeof startAdminFixture>>;
let browser: Browser;
before(async () => {
  fixture = await startAdminFixture();
  browser = await launchOfflineBrowser();
});
after(async () => {
  await browser?.close();
  await fixture?.close();
});

/** Waits (without a time assertion) until `check` holds in Node, e.g. for a click's request to reach the server. */
async function eventually(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await sleep(50);
  }
  assert.fail(`never happened: ${what}`);
}

const rowsOf = (page: Page, id: string) =>
  page
    .locator(`#service-${id} table.journal tbody tr`)
    .evaluateAll((rows) =>
      rows.map((row) =>
        Array.from((row as unknown as { cells: { textContent: string }[] }).cells, (c) => c.textContent),
      ),
    );

/**
 * Decodes a PNG in a blank page: its size, how many colours it has, the share of pixels that differ from the most
 * common (background) colour, and the colour at (5, 5). Plain JavaScript text: tsx's helpers do not exist in pages.
 */
const decodePng = `async (data) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + data;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  const counts = new Map();
  for (let i = 0; i < pixels.length; i += 4) {
    const colour = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const total = pixels.length / 4;
  const corner = (5 * image.width + 5) * 4;
  return {
    width: image.width,
    height: image.height,
    colours: counts.size,
    notBackground: (total - Math.max(...counts.values())) / total,
    header: Array.from(pixels.slice(corner, corner + 3)),
  };
}`;

async function analyse(page: Page, png: Buffer) {
  const blank = await page.context().newPage();
  try {
    const decode = await blank.evaluateHandle(`(${decodePng})`);
    return (await decode.evaluate(
      (fn, data) => (fn as unknown as (d: string) => unknown)(data),
      png.toString('base64'),
    )) as {
      width: number;
      height: number;
      colours: number;
      notBackground: number;
      header: number[];
    };
  } finally {
    await blank.close();
  }
}

test('the admin page shows every service, a live journal, fault settings and data buttons in Chromium', async () => {
  const posts = fixture.service('posts');
  const list = fixture.service('list');
  const { page, blocked, errors, close } = await openOffline(browser, fixture.admin.url);
  try {
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    assert.equal(await page.textContent('#service-posts .url'), posts.url);
    assert.equal(await page.getAttribute('#service-posts .docs', 'href'), `${posts.url}/docs`);
    assert.equal(await page.textContent('#service-list .url'), list.url);
    assert.match((await page.textContent('#service-list .banner')) ?? '', /data file .*list\.json/);
    assert.equal(await page.inputValue('#service-list input[name="delayMs"]'), '0');
    assert.ok(await page.isVisible('#reset-all'));

    // The journal is live: a request made now shows up without reloading.
    assert.equal((await fetch(`${posts.url}/posts/3?_limit=1`)).status, 200);
    await page.waitForSelector('#service-posts tbody tr td.path:text("/posts/3?_limit=1")', {
      timeout: 20_000,
    });
    const [row] = await rowsOf(page, 'posts');
    assert.deepEqual([row[1], row[2], row[3], row[5]], ['GET', '/posts/3?_limit=1', '200', '']);

    // The page rendered: a full-size screenshot with the header's colour and far more than a blank page's colours.
    const png = await page.screenshot({ fullPage: false });
    const shot = await analyse(page, png);
    assert.deepEqual([shot.width, shot.height], [1280, 720]);
    assert.deepEqual(shot.header, [23, 50, 77], 'the header bar is painted with its colour');
    assert.ok(shot.colours > 50, `${shot.colours} colours`);
    assert.ok(shot.notBackground > 0.05, `${shot.notBackground} of the pixels differ from the background`);

    await page.click('#service-posts button.clear');
    await page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } })
        .document;
      return doc.querySelectorAll('#service-posts tbody tr').length === 0;
    });
    await eventually(() => fixture.backlot.journal.list('posts').length === 0, 'the journal was cleared');

    await page.fill('#service-posts input[name="errorRate"]', '1');
    await page.fill('#service-posts input[name="errorStatus"]', '502');
    await page.click('#service-posts form.faults button[type="submit"]');
    await page.waitForSelector('#status:text("posts: faults applied")');
    assert.deepEqual(posts.harness.faults.rule, {
      delay: { min: 0, max: 0 },
      errorRate: 1,
      errorStatus: 502,
    });
    assert.equal((await fetch(`${posts.url}/posts/1`)).status, 502);
    await page.waitForSelector('#service-posts tbody tr.error td.status:text("502")', { timeout: 20_000 });
    assert.equal(await page.textContent('#service-posts tbody tr.error td.fault'), 'status 502 (setting)');

    await page.fill('#service-list input[name="delayMs"]', 'soon');
    await page.click('#service-list form.faults button[type="submit"]');
    await page.waitForSelector('#status:text("delayMs: must be milliseconds")');

    await page.check('#fault-headers');
    await eventually(() => fixture.backlot.faultHeaders.enabled, 'the header switch was turned on');

    await page.fill('#checkpoint-name', 'clean');
    await page.click('#checkpoint-save');
    await page.waitForSelector('#checkpoints li:text("clean")');
    assert.equal(await page.textContent('#checkpoints li .size'), '(2 bytes)');
    // One click at a time: each waits for its call to arrive, so the order below is the order of the clicks.
    await page.click('#reset-all');
    await eventually(() => fixture.state.calls.length === 2, 'reset all arrived');
    await page.click('#service-list button.reset');
    await eventually(() => fixture.state.calls.length === 3, 'reset list arrived');
    await page.click('#checkpoints li button');
    await eventually(() => fixture.state.calls.length === 4, 'restore arrived');
    assert.deepEqual(fixture.state.calls, [
      'checkpoint clean posts,list',
      'reset posts,list',
      'reset list',
      'restore clean posts,list',
    ]);
    await page.click('#checkpoints li button.delete');
    await page.waitForSelector('#checkpoints li', { state: 'detached' });
    assert.deepEqual(fixture.state.calls.slice(4), ['delete clean']);

    assert.deepEqual(blocked, [], 'no request left the machine');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
