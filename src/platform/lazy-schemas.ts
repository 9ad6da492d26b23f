import { createRequire } from 'node:module';
import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifyServerOptions } from 'fastify';

/**
 * Route schemas compiled on a route's first request instead of when it is registered. Fastify compiles every
 * route's Ajv validators and fast-json-stringify serializers at start-up: for the seven services that was ~0.4 s
 * of the main thread, mostly for routes a session never calls, and their compiled code stayed in memory. The
 * wrappers compile with the very compiler Fastify would have used, so what is accepted, refused and sent is
 * the same; only a schema that cannot compile fails later (its first request answers 500), which is why
 * `compilePendingSchemas` lets the tests compile every route's schemas.
 */

type Compiled = ((...args: unknown[]) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** What was not compiled yet, so tests can compile all of it. */
const pending = new Set<() => unknown>();

function onFirstUse<F>(compile: () => F): () => F {
  let compiled: F | undefined;
  const get = () => {
    if (compiled === undefined) {
      compiled = compile();
      pending.delete(get);
    }
    return compiled;
  };
  pending.add(get);
  return get;
}

/** Compiles every schema whose route has not been called yet; throws what a schema's compiler throws. */
export function compilePendingSchemas(): number {
  const all = [...pending];
  for (const compile of all) compile();
  return all.length;
}

/**
 * `compile` (an Ajv-based validator compiler) run on first use. Fastify reads the validator's `schemaEnv` before
 * calling it (to let Ajv coerce a root value through its parent) and `errors` after a failure: both are
 * forwarded from the compiled function, compiling it if need be.
 */
export function lazyValidatorCompiler(
  compile: FastifySchemaCompiler<unknown>,
): FastifySchemaCompiler<unknown> {
  return (route) => {
    const get = onFirstUse(() => compile(route) as Compiled);
    const validate = (data: unknown, context?: unknown) => get()(data, context);
    Object.defineProperties(validate, {
      errors: { get: () => get().errors },
      schemaEnv: { get: () => get().schemaEnv },
    });
    return validate as ReturnType<FastifySchemaCompiler<unknown>>;
  };
}

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
/** What Fastify calls with a context's shared schemas and its `ajv` or `serializerOpts` option. */
type Factory<C> = (externalSchemas: unknown, options: unknown) => C;

// Fastify's own default compilers, from the copies Fastify itself loads.
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const defaultValidators = (
  fastifyRequire('@fastify/ajv-compiler') as { AjvCompiler: () => Factory<FastifySchemaCompiler<unknown>> }
).AjvCompiler();
const defaultSerializers = (
  fastifyRequire('@fastify/fast-json-stringify-compiler') as {
    SerializerSelector: () => Factory<FastifySerializerCompiler<unknown>>;
  }
).SerializerSelector;

/**
 * Fastify's default validators (its own Ajv, built on first use too), for plugins that fall back to them: a
 * plugin that adds shared schemas (`addSchema`) gets a validator from this factory, not the app's compiler.
 */
const lazyDefaultValidators: Factory<FastifySchemaCompiler<unknown>> = (externalSchemas, options) => {
  let compile: FastifySchemaCompiler<unknown> | undefined;
  return lazyValidatorCompiler((route) => {
    compile ??= defaultValidators(externalSchemas, options);
    return compile(route);
  });
};

/** Fastify's default response serializers (fast-json-stringify), each built on first use. */
const lazySerializers: Factory<FastifySerializerCompiler<unknown>> = (externalSchemas, options) => {
  const compile = defaultSerializers()(externalSchemas, options);
  return (route) => {
    const get = onFirstUse(() => compile(route));
    return (data) => get()(data);
  };
};

/** The `schemaController` option that makes Fastify's default compilers lazy. */
export const lazyCompilers: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    buildValidator: lazyDefaultValidators as unknown as CompilersFactory['buildValidator'],
    buildSerializer: lazySerializers as unknown as CompilersFactory['buildSerializer'],
  },
};
