import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// A request a service makes of itself in process (content's /batch/v1 runs each sub-request through its own
// routes with Fastify's inject). The outer request already went through the harness (faults, delay, journal), so
// these are marked to be counted once: by a header whose value only this process knows, so a client cannot forge it.

const INNER_HEADER = 'x-backlot-inner';
const secret = randomBytes(24).toString('base64url');

/** The headers that mark an in-process request. */
export const innerRequestHeaders = (): Record<string, string> => ({ [INNER_HEADER]: secret });

/** Whether this request was made by the service itself (see innerRequestHeaders). */
export const isInnerRequest = (raw: IncomingMessage) => raw.headers[INNER_HEADER] === secret;
