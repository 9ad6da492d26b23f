/**
 * Records the block types WordPress 6.1 registers (`GET /wp/v2/block-types?context=edit` on the Debian package)
 * into src/services/content/resources/block-types/core.json, as data: without `_links` (content makes them) and
 * without the `description` sentences (GPL prose; backlot is MIT). Run after a WordPress upgrade:
 *
 *   node --import tsx test/wordpress-block-types.ts
 */
import { writeFileSync } from 'node:fs';
import { startWordPress } from './wordpress.js';

const target = new URL('../src/services/content/resources/block-types/core.json', import.meta.url);

const wordpress = await startWordPress();
try {
  const authorization = `Basic ${Buffer.from(`admin:${wordpress.adminAppPassword}`).toString('base64')}`;
  const response = await fetch(`${wordpress.url}/wp-json/wp/v2/block-types?context=edit`, {
    headers: { authorization },
  });
  if (response.status !== 200) throw new Error(`block-types: ${response.status}`);
  const types = (await response.json()) as Record<string, unknown>[];
  const data = types.map(({ _links, ...type }) => ({ ...type, description: '' }));
  writeFileSync(target, `${JSON.stringify({ wordpress: wordpress.version, blockTypes: data }, null, 1)}\n`);
  console.log(`recorded ${data.length} block types of WordPress ${wordpress.version}`);
} finally {
  await wordpress.stop();
}
