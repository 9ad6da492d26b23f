import assert from 'node:assert/strict';
import { test } from 'node:test';
import { services } from './index.js';

// The command line reads a service's manifest without loading it; what it loads must agree with that manifest.
test('every registry entry loads the service its manifest describes, with the same commands', async () => {
  for (const entry of services) {
    const definition = await entry.load();
    for (const key of ['id', 'title', 'ports', 'portEnv', 'hostEnv', 'schema', 'settings'] as const) {
      assert.deepEqual(definition[key], entry[key], `${entry.id}: ${key}`);
    }
    assert.equal(
      Boolean(definition.schema),
      (definition.migrations ?? []).length > 0,
      `${entry.id}: migrations`,
    );
    const commands = (await entry.commands?.()) ?? {};
    assert.deepEqual(Object.keys(commands), Object.keys(definition.commands ?? {}), `${entry.id}: commands`);
    for (const [name, command] of Object.entries(commands)) {
      assert.equal(command, definition.commands?.[name], `${entry.id} ${name}`);
    }
  }
  assert.deepEqual(
    services.filter((s) => s.commands).map((s) => s.id),
    ['things', 'machines', 'content'],
  );
});
