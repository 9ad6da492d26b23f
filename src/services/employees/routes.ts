import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, FastifySchemaValidationError, HTTPMethods } from 'fastify';
import { HttpError } from '../../platform/errors.js';
import { strictValidatorCompiler } from '../../platform/http.js';
import { parseJsonBody } from '../../platform/json-body.js';
import type { ErrorInfo } from '../../platform/service.js';
import type { Authenticator, Caller } from './auth.js';
import { sendFullList } from './full-list.js';
import {
  CreateEmployeeBody,
  DeletedReply,
  EmployeeListReply,
  EmployeeReply,
  ErrorReply,
  errorReplies,
  IdParams,
  maxId,
  ReplaceEmployeeBody,
} from './schemas.js';
import type { EmployeesSettings } from './settings.js';
import type { EmployeeFields, EmployeeStore } from './store.js';

export const prefix = '/api/2';

export const messages = {
  list: 'Successfully! All records has been fetched.',
  fetched: 'Successfully! Record has been fetched.',
  added: 'Successfully! Record has been added.',
  updated: 'Successfully! Record has been updated.',
  deleted: 'Successfully! Record has been deleted',
};

export const errorEnvelope = (message: string) => ({ status: 'error' as const, data: null, message });

const fieldRules: Record<string, string> = {
  id: 'a positive integer up to 2147483647',
  name: 'a non-empty string of at most 255 characters',
  age: 'an integer from 0 to 150, or a string of digits with such a value',
  image: 'a string or null',
};

/** Turns the first schema violation of a request into one sentence a client developer can act on. */
function describeValidation(issue: FastifySchemaValidationError | undefined, method: string | undefined) {
  const missing = issue?.keyword === 'required';
  const field = missing
    ? String((issue.params as { missingProperty: string }).missingProperty)
    : issue?.instancePath.split('/')[1];
  if (!field || !(field in fieldRules)) return 'The request body must be a JSON object';
  if (missing) {
    const why = method === 'PUT' ? ' (PUT replaces the whole record: send name, age and image)' : '';
    return `Missing field "${field}"${why}`;
  }
  return `Invalid field "${field}": must be ${fieldRules[field]}`;
}

/** Any failure the platform renders, in the envelope; validation failures say which field and why. */
export const errorBody = ({ message, validation, route }: ErrorInfo) =>
  errorEnvelope(validation ? describeValidation(validation[0], route?.method) : message);

const badRequest = (message: string) => new HttpError(400, errorEnvelope(message));

/** A positive integer id, or undefined for anything else (which is then simply "not found"). */
function parseId(raw: string): number | undefined {
  if (!/^[0-9]{1,10}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id >= 1 && id <= maxId ? id : undefined;
}

function toFields(body: { name: string; age: number | string; image?: string | null }): EmployeeFields {
  return { name: body.name, age: Number(body.age), image: body.image ? body.image : null };
}

const notFound = (reply: FastifyReply, raw: string) =>
  reply.status(404).send(errorEnvelope(`Not found! No record with id ${raw.slice(0, 40)}`));

const knownPaths: Array<{ url: string; allow: HTTPMethods[] }> = [
  { url: '/employees', allow: ['GET'] },
  { url: '/employees/:id', allow: ['GET'] },
  { url: '/employee/:id', allow: ['GET'] },
  { url: '/create', allow: ['POST'] },
  { url: '/update/:id', allow: ['PUT'] },
  { url: '/delete/:id', allow: ['DELETE'] },
];
const answeredMethods: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];

export interface RouteDeps {
  store: EmployeeStore;
  auth: Authenticator;
  settings: EmployeesSettings;
}

export function employeeRoutes({ store, auth, settings }: RouteDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // No type coercion: `"name": 5` or `"age": true` is a client mistake to report, not a value to convert.
    app.setValidatorCompiler(strictValidatorCompiler);

    // Tutorials often send JSON without a JSON content type (fetch's default is text/plain): read any body as JSON.
    app.removeContentTypeParser('text/plain');
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, body === '' ? undefined : parseJsonBody(body as string));
      } catch (error) {
        // A BodyError (400) saying what is wrong, worded into the envelope by errorBody.
        done(error as Error, undefined);
      }
    });

    /** The caller, or undefined after answering 401 (or 429 to a client with too many failed logins). */
    const authenticate = async (
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<Caller | undefined> => {
      const header = request.headers.authorization;
      const found = header ? await auth.authenticate(header, request.ip) : undefined;
      if (found && 'retryAfter' in found) {
        reply
          .status(429)
          .header('retry-after', String(found.retryAfter))
          .send(
            errorEnvelope(`Too many failed logins from this address; try again in ${found.retryAfter} s`),
          );
        return undefined;
      }
      const caller = found;
      if (!caller) {
        reply
          .status(401)
          .header('www-authenticate', 'Basic realm="employees"')
          .send(
            errorEnvelope(
              header
                ? 'Unauthorized! Wrong user name or password'
                : 'Unauthorized! This request needs HTTP Basic credentials',
            ),
          );
      }
      return caller;
    };

    const requireAccount = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!(await authenticate(request, reply))) return reply;
    };

    const requireEditor = async (request: FastifyRequest, reply: FastifyReply) => {
      if (settings.openWrites) return;
      const caller = await authenticate(request, reply);
      if (!caller) return reply;
      if (caller.role !== 'editor') {
        return reply
          .status(403)
          .send(
            errorEnvelope(
              `Forbidden! ${caller.name} has the ${caller.role} role, which may not change records`,
            ),
          );
      }
    };

    const writeAccess = settings.openWrites
      ? 'Open to anyone (EMPLOYEES_OPEN_WRITES=true).'
      : 'Needs HTTP Basic credentials of an account with the editor role.';

    const errors = errorReplies;
    const writeErrors = settings.openWrites ? [] : [401, 403];

    await app.register(
      async (plain) => {
        const api = plain.withTypeProvider<TypeBoxTypeProvider>();
        api.get(
          '/employees',
          {
            schema: {
              summary: 'All employee records',
              tags: ['employees'],
              response: { 200: EmployeeListReply, ...errors(405) },
            },
          },
          async (_request, reply) => sendFullList(reply, store, messages.list),
        );

        const getOne = async (rawId: string, reply: FastifyReply) => {
          const id = parseId(rawId);
          const employee = id === undefined ? undefined : await store.findEmployee(id);
          if (!employee) return notFound(reply, rawId);
          return { status: 'success' as const, data: employee, message: messages.fetched };
        };

        api.get(
          '/employees/:id',
          {
            schema: {
              summary: 'One employee record',
              tags: ['employees'],
              params: IdParams,
              response: { 200: EmployeeReply, ...errors(404, 405) },
            },
          },
          async (request, reply) => getOne(request.params.id, reply),
        );

        api.get(
          '/employee/:id',
          {
            onRequest: requireAccount,
            schema: {
              security: [{ basic: [] }],
              summary: 'One employee record, for callers with credentials (any role)',
              tags: ['employees'],
              description: 'Needs HTTP Basic credentials of any account (editor or viewer).',
              params: IdParams,
              response: { 200: EmployeeReply, ...errors(401, 404, 405) },
            },
          },
          async (request, reply) => getOne(request.params.id, reply),
        );

        api.post(
          '/create',
          {
            onRequest: requireEditor,
            schema: {
              security: [{ basic: [] }],
              summary: 'Add a record',
              tags: ['employees'],
              description: writeAccess,
              body: CreateEmployeeBody,
              response: { 201: EmployeeReply, 409: ErrorReply, ...errors(400, ...writeErrors, 405, 413) },
            },
          },
          async (request, reply) => {
            const fields = toFields(request.body);
            const requestedId = request.body.id;
            const employee =
              requestedId === undefined
                ? await store.createEmployee(fields)
                : await store.createEmployeeWithId(requestedId, fields);
            if (!employee) {
              const message =
                requestedId === undefined
                  ? `Conflict! Every id up to the highest (${maxId}) is in use: send an unused id`
                  : `Conflict! A record with id ${requestedId} already exists`;
              return reply.status(409).send(errorEnvelope(message));
            }
            reply.status(201).header('location', `${prefix}/employees/${employee.id}`);
            return { status: 'success' as const, data: employee, message: messages.added };
          },
        );

        api.put(
          '/update/:id',
          {
            onRequest: requireEditor,
            schema: {
              security: [{ basic: [] }],
              summary: 'Replace a record (name, age and image are all required)',
              tags: ['employees'],
              description: writeAccess,
              params: IdParams,
              body: ReplaceEmployeeBody,
              response: { 200: EmployeeReply, ...errors(400, ...writeErrors, 404, 405, 413) },
            },
          },
          async (request, reply) => {
            const id = parseId(request.params.id);
            if (id === undefined) return notFound(reply, request.params.id);
            if (request.body.id !== undefined && request.body.id !== id) {
              throw badRequest(
                `The id in the body (${request.body.id}) does not match the id in the path (${id})`,
              );
            }
            const employee = await store.replaceEmployee(id, toFields(request.body));
            if (!employee) return notFound(reply, request.params.id);
            return { status: 'success' as const, data: employee, message: messages.updated };
          },
        );

        api.delete(
          '/delete/:id',
          {
            onRequest: requireEditor,
            schema: {
              security: [{ basic: [] }],
              summary: 'Delete a record',
              tags: ['employees'],
              description: writeAccess,
              params: IdParams,
              response: { 200: DeletedReply, ...errors(...writeErrors, 404, 405) },
            },
          },
          async (request, reply) => {
            const id = parseId(request.params.id);
            if (id === undefined || !(await store.deleteEmployee(id)))
              return notFound(reply, request.params.id);
            return { status: 'success' as const, data: String(id), message: messages.deleted };
          },
        );

        // A known path with another method is 405 with the methods it does answer, not 404.
        for (const { url, allow } of knownPaths) {
          const allowed = allow.includes('GET') ? [...allow, 'HEAD'] : allow;
          api.route({
            method: answeredMethods.filter((m) => !allowed.includes(m)),
            url,
            exposeHeadRoute: false,
            schema: { hide: true },
            handler: async (request, reply) =>
              reply
                .status(405)
                .header('allow', allowed.join(', '))
                .send(
                  errorEnvelope(
                    `Method not allowed! ${url.replace(':id', '{id}')} answers ${allowed.join(', ')}, not ${request.method}`,
                  ),
                ),
          });
        }
      },
      { prefix },
    );
  };
}
