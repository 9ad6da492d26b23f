import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium, headless, driven by playwright-core (no browser download). Every request that leaves
 * loopback is aborted, so a page passes only if it works with no internet access.
 */
export async function launchOfflineBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/**
 * Opens a page that may only talk to 127.0.0.1/localhost (in a fresh context: empty storage, `viewport` if
 * given); returns the page and the URLs it tried elsewhere.
 */
export async function openOffline(
  browser: Browser,
  url: string,
  options: { viewport?: { width: number; height: number } } = {},
) {
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  const blocked: string[] = [];
  await context.route('**/*', (route) => {
    const host = new URL(route.request().url()).hostname;
    if (host === '127.0.0.1' || host === 'localhost') return route.continue();
    blocked.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url, { waitUntil: 'networkidle' });
  return { page, blocked, errors, close: () => context.close() };
}
