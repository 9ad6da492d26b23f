import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchOfflineBrowser, openOffline } from '../../../test/browser.js';
import { pngOfSize, storeEnv } from '../../../test/profiles.js';
import { startTestService, type TestService } from '../../../test/service.js';
import { profiles } from './index.js';
import type { ProfilesSettings } from './settings.js';

/** The few DOM calls made inside the page (this project compiles without the DOM library). */
interface Editor {
  CodeMirror?: { setValue(value: string): void };
  textContent: string | null;
}
interface PageDocument {
  querySelector(selector: string): Editor | null;
}

const usingS3 = Boolean(process.env.BACKLOT_TEST_S3_ENDPOINT);
const queryEditor = '.graphiql-query-editor .CodeMirror';
const variablesEditor = 'section.graphiql-editor-tool .graphiql-editor .CodeMirror';

let service: TestService<ProfilesSettings>;
let browser: Awaited<ReturnType<typeof launchOfflineBrowser>>;
before(async () => {
  service = await startTestService(profiles, { env: storeEnv(), listen: true });
  browser = await launchOfflineBrowser();
});
after(async () => {
  await browser?.close();
  await service?.close();
});

async function graphql(query: string, variables?: unknown) {
  const response = await fetch(`${service.url}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data: Record<string, { id: string; img_uri: string }> };
}

async function imgUriOf(id: string) {
  const { rows } = await service.db.query<{ img_uri: string }>(
    'SELECT img_uri FROM profiles.users WHERE id = $1',
    [id],
  );
  return rows[0]?.img_uri;
}

async function setEditor(page: Page, selector: string, value: string) {
  await page.evaluate(
    ([selector, value]) =>
      (globalThis as unknown as { document: PageDocument }).document
        .querySelector(selector)
        ?.CodeMirror?.setValue(value),
    [selector, value] as const,
  );
}

/**
 * Puts `value` in the query editor and waits until GraphiQL has re-read its operations (it does so shortly after
 * an edit; until then it would run with the previous document's operation name).
 */
async function setQuery(page: Page, value: string) {
  await setEditor(page, queryEditor, value);
  await page.waitForFunction(
    (selector) => {
      const editor = (globalThis as unknown as { document: PageDocument }).document.querySelector(selector)
        ?.CodeMirror as unknown as {
        getValue(): string;
        documentAST?: { loc?: { source: { body: string } } };
      };
      return editor?.documentAST?.loc?.source.body === editor?.getValue();
    },
    queryEditor,
    { timeout: 10_000 },
  );
}

/**
 * Runs what the query editor holds (`operation` of it, when it holds several) and waits until the response pane
 * shows `expected`.
 */
async function run(page: Page, expected: string, operation?: string) {
  if (operation) {
    // Several operations in the editor: the button opens GraphiQL's menu of them.
    await page.click('.graphiql-execute-button[aria-haspopup]');
    await page.click(`[role=menuitem]:has-text("${operation}")`);
  } else {
    await page.click('.graphiql-execute-button:not([aria-haspopup])');
  }
  await page.waitForFunction(
    (expected) =>
      (globalThis as unknown as { document: PageDocument }).document
        .querySelector('.graphiql-response')
        ?.textContent?.includes(expected),
    expected,
    { timeout: 20_000 },
  );
  return (await page.textContent('.graphiql-response')) ?? '';
}

/** An editor's text, and for each of its lines starting with `#` how far it ends past the editor's visible width. */
async function editorState(page: Page, selector: string) {
  return page.evaluate((selector) => {
    interface CodeMirror {
      getValue(): string;
      lineCount(): number;
      getLine(line: number): string;
      charCoords(at: { line: number; ch: number }, mode: 'window'): { right: number };
      getScrollerElement(): { clientWidth: number; getBoundingClientRect(): { left: number } };
    }
    const doc = (globalThis as unknown as { document: PageDocument }).document;
    const cm = doc.querySelector(selector)?.CodeMirror as unknown as CodeMirror;
    const scroller = cm.getScrollerElement();
    const visibleRight = scroller.getBoundingClientRect().left + scroller.clientWidth;
    const overflows: { line: string; by: number }[] = [];
    for (let line = 0; line < cm.lineCount(); line++) {
      const text = cm.getLine(line);
      if (!text.startsWith('#')) continue;
      const by = cm.charCoords({ line, ch: text.length }, 'window').right - visibleRight;
      if (by > 0) overflows.push({ line: text, by: Math.round(by) });
    }
    return { text: cm.getValue(), overflows };
  }, selector);
}

for (const width of [1400, 1920]) {
  test(`at ${width} px the Variables editor starts with the upload input and the how-to comment fits the editor`, async () => {
    const { page, errors, close } = await openOffline(browser, `${service.url}/`, {
      viewport: { width, height: 900 },
    });
    try {
      await page.waitForSelector(variablesEditor, { timeout: 20_000 });
      const variables = await editorState(page, variablesEditor);
      assert.deepEqual(JSON.parse(variables.text), {
        input: { userId: 'paste a user id here', file: null },
      });
      const query = await editorState(page, queryEditor);
      assert.match(query.text, /^# backlot profiles/);
      assert.deepEqual(query.overflows, [], 'no comment line is wider than the editor');
      assert.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

test('a reload keeps the variables typed, not the starting ones', async () => {
  const { page, errors, close } = await openOffline(browser, `${service.url}/`);
  try {
    await page.waitForSelector(variablesEditor, { timeout: 20_000 });
    const typed = '{ "input": { "userId": "typed", "file": null } }';
    await setEditor(page, variablesEditor, typed);
    // GraphiQL stores the tabs shortly after an edit.
    await page.waitForFunction(
      (typed) =>
        (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage
          .getItem('graphiql:tabState')
          ?.includes(JSON.stringify(typed).slice(1, -1)),
      typed,
      { timeout: 10_000 },
    );
    await page.reload({ waitUntil: 'networkidle' });
    await page.waitForSelector(variablesEditor, { timeout: 20_000 });
    assert.equal((await editorState(page, variablesEditor)).text, typed);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the playground uploads a file: pick it, run uploadProfileImage, img_uri changes and the bytes are stored', async () => {
  const created = await graphql(
    'mutation { createUser(input: { fullName: "Pic Ture", email: "pic@example.com" }) { id img_uri } }',
  );
  const user = created.data.createUser as { id: string; img_uri: string };
  const image = pngOfSize(3000);
  const { page, blocked, errors, close } = await openOffline(browser, `${service.url}/`);
  const sent: { type: string; body: string }[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/query') && request.method() === 'POST')
      sent.push({ type: request.headers()['content-type'] ?? '', body: request.postData() ?? '' });
  });
  try {
    await page.waitForSelector(queryEditor, { timeout: 20_000 });
    // The Files panel is open on a first visit, with one file slot for input.file.
    await page.waitForSelector('.backlot-upload input[type=file]', { timeout: 10_000 });
    assert.equal(await page.inputValue('.backlot-upload input[type=text]'), 'input.file');
    await page.setInputFiles('.backlot-upload input[type=file]', {
      name: 'portrait.png',
      mimeType: 'image/png',
      buffer: image,
    });
    assert.match((await page.textContent('.backlot-upload-status')) ?? '', /^portrait\.png, 2\.9 KiB/);

    // The playground's own document (Users, CreateUser, UploadImage): UploadImage is picked from the menu.
    await setEditor(page, variablesEditor, JSON.stringify({ input: { userId: user.id, file: null } }));
    const uploaded = await run(page, 'uploadProfileImage', 'UploadImage');
    assert.match(uploaded, /"uploadProfileImage": true/);

    // It went out as a GraphQL multipart request: operations (the file's variable null), map, then the file.
    const upload = sent.at(-1);
    assert.match(upload?.type ?? '', /^multipart\/form-data; boundary=/);
    const operations = /name="operations"\r\n\r\n(.*?)\r\n/s.exec(upload?.body ?? '')?.[1] ?? '';
    assert.deepEqual(JSON.parse(operations).variables, { input: { userId: user.id, file: null } });
    assert.match(upload?.body ?? '', /name="map"\r\n\r\n\{"0":\["variables\.input\.file"\]\}\r\n/);
    assert.match(upload?.body ?? '', /name="0"; filename="portrait\.png"\r\nContent-Type: image\/png/);

    const key = encodeURIComponent(`${user.id}-portrait.png`);
    const env = storeEnv();
    const expected = usingS3
      ? `${env.STORAGE_ENDPOINT}/${env.STORAGE_BUCKET}/${key}`
      : `${service.url}/files/${key}`;
    assert.notEqual(user.img_uri, expected);
    assert.equal(await imgUriOf(user.id), expected);

    // The users query, with the file still chosen, is plain JSON (it declares no $input) and shows the new URL.
    await setQuery(page, '{ users { id img_uri } }');
    const listed = await run(page, expected);
    assert.match(
      listed,
      new RegExp(`"id": "${user.id}",\\s*"img_uri": "${expected.replace(/[.?]/g, '\\$&')}"`),
    );
    assert.equal(sent.at(-1)?.type, 'application/json');

    const stored = await fetch(expected);
    assert.equal(stored.status, 200);
    assert.deepEqual(Buffer.from(await stored.arrayBuffer()), image);
    assert.deepEqual(blocked, [], 'no request left the machine');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('one file chosen for two variables is sent once and mapped to both paths (multipart spec deduplication)', async () => {
  const { page, blocked, errors, close } = await openOffline(browser, `${service.url}/`);
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/query') && request.method() === 'POST') sent.push(request.postData() ?? '');
  });
  try {
    await page.waitForSelector('.backlot-upload input[type=file]', { timeout: 20_000 });
    const file = { name: 'a.png', mimeType: 'image/png', buffer: pngOfSize(200) };
    await page.setInputFiles('.backlot-upload input[type=file]', file);
    await page.click('text=Add a file');
    await page.fill('.backlot-upload:nth-child(2) input[type=text]', 'second.file');
    // The same File object in both slots, as apollo-upload-client dedupes a File used twice.
    await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: unknown }).document as {
        querySelectorAll(s: string): { files: unknown; dispatchEvent(e: unknown): void }[];
      };
      const [first, second] = doc.querySelectorAll('.backlot-upload input[type=file]');
      (second as { files: unknown }).files = first?.files;
      const EventClass = (globalThis as unknown as { Event: new (t: string, o: object) => unknown }).Event;
      second?.dispatchEvent(new EventClass('change', { bubbles: true }));
    });
    const created = await graphql(
      'mutation { createUser(input: { fullName: "Two Up", email: "two@example.com" }) { id img_uri } }',
    );
    const someone = created.data.createUser as { id: string };
    await setQuery(
      page,
      `mutation Two($input: ProfileImage!, $second: ProfileImage!) {
        a: uploadProfileImage(input: $input)
        b: uploadProfileImage(input: $second)
      }`,
    );
    const variables = { input: { userId: someone.id, file: null }, second: { userId: someone.id } };
    await setEditor(page, variablesEditor, JSON.stringify(variables));
    const shown = await run(page, '"b"');
    assert.match(shown, /"a": true,\s*"b": true/);
    const body = sent.at(-1) ?? '';
    assert.match(
      body,
      /name="map"\r\n\r\n\{"0":\["variables\.input\.file","variables\.second\.file"\]\}\r\n/,
    );
    assert.equal(body.match(/filename="a\.png"/g)?.length, 1);
    const key = encodeURIComponent(`${someone.id}-a.png`);
    assert.match(await imgUriOf(someone.id), new RegExp(`/${key.replace(/[.]/g, '\\.')}$`));
    assert.deepEqual(blocked, []);
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
