import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { Employee as EmployeeSchema } from './schemas.js';
import type { Employee, EmployeeStore } from './store.js';

/** Rows per query of the streamed list: ~100 KB of JSON (fewer round trips; each waits for a pooled connection), so memory stays flat however many records there are. */
export const batchRows = 2000;

/**
 * The full list's answer. A list that fits one batch is answered whole, as before (same bytes and headers); a
 * longer one streams: the envelope opens, records follow in keyset batches serialized by the route's own item
 * schema as they arrive, and the envelope closes. Batches are separate statements: a write during a long read
 * shows up or not depending on where it falls, as with any paged read.
 */
export async function sendFullList(
  reply: FastifyReply,
  store: EmployeeStore,
  message: string,
  batch = batchRows,
) {
  const first = await store.employeesAfter(0, batch);
  if (first.length < batch) return { status: 'success' as const, data: first, message };
  const item = reply.compileSerializationSchema(EmployeeSchema) as unknown as (employee: Employee) => string;
  async function* body() {
    yield '{"status":"success","data":[';
    let rows = first;
    let separator = '';
    while (rows.length > 0) {
      let chunk = '';
      for (const row of rows) {
        chunk += separator + item(row);
        separator = ',';
      }
      yield chunk;
      if (rows.length < batch) break;
      rows = await store.employeesAfter((rows[rows.length - 1] as Employee).id, batch);
    }
    yield `],"message":${JSON.stringify(message)}}`;
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(body(), { objectMode: false }));
}
