import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { newRequestId, requestIdOf } from './request-id.js';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const requestWith = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

test('request ids are random version 4 UUIDs, all different, across many batches', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const id = newRequestId();
    assert.match(id, uuidV4);
    seen.add(id);
  }
  assert.equal(seen.size, 5000);
});

test('the hex digits of request ids are evenly used (they come from random bytes)', () => {
  const counts = new Map<string, number>();
  for (let i = 0; i < 2000; i++) {
    // The 30 digits that are neither the version nor the variant.
    const digits = newRequestId().replaceAll('-', '');
    for (const [at, digit] of [...digits].entries())
      if (at !== 12 && at !== 16) counts.set(digit, (counts.get(digit) ?? 0) + 1);
  }
  assert.equal(counts.size, 16);
  // 60,000 digits, 3,750 expected each: a generator stuck on some values is far outside this band.
  for (const [digit, count] of counts) assert.ok(count > 3300 && count < 4200, `${digit}: ${count}`);
});

test('a sane x-request-id from the client is kept; anything else gets a fresh UUID', () => {
  assert.equal(requestIdOf(requestWith({ 'x-request-id': 'abc-123.x:y_z' })), 'abc-123.x:y_z');
  assert.match(requestIdOf(requestWith({ 'x-request-id': 'bad id' })), uuidV4);
  assert.match(requestIdOf(requestWith({ 'x-request-id': 'a'.repeat(129) })), uuidV4);
  assert.match(requestIdOf(requestWith({})), uuidV4);
});
