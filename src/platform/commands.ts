import { parseArgs } from 'node:util';
import {
  type CommandFlags,
  type ServiceCommand,
  type ServiceContext,
  type ServiceDefinition,
  UsageError,
} from './service.js';

/** Flags every operator command takes besides its own; the CLI turns them into global settings. */
export const globalCommandFlags = {
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies CommandFlags;

export type GlobalCommandValues = { 'data-dir'?: string; help?: boolean };

/** `token create --name <name> [--scopes <scopes>]`: the words, the arguments, then the flags. */
export function commandUsage<S>(words: string, command: ServiceCommand<S>) {
  const required = new Set<string>(command.required ?? []);
  const flags = Object.entries(command.flags ?? {}).map(([name, option]) => {
    const flag = option.type === 'boolean' ? `--${name}` : `--${name} <${name}>`;
    if (required.has(name)) return flag;
    return option.multiple ? `[${flag}]...` : `[${flag}]`;
  });
  return [words, ...(command.args ?? []).map((a) => `<${a}>`), ...flags].join(' ');
}

/** The command whose words start `argv` (the longest such name), and the arguments after them. */
export function findCommand<S>(definition: ServiceDefinition<S>, argv: string[]) {
  const names = Object.keys(definition.commands ?? {}).sort((a, b) => b.length - a.length);
  const name = names.find((n) => n.split(' ').every((word, i) => argv[i] === word));
  if (name === undefined) return undefined;
  return { name, command: definition.commands![name]!, rest: argv.slice(name.split(' ').length) };
}

const flagList = (options: CommandFlags) =>
  Object.keys(options)
    .map((f) => `--${f}`)
    .join(', ');

/**
 * Parses a command's arguments strictly against its declared flags plus the global ones. Throws `UsageError` for an
 * unknown flag (naming the valid ones), a flag without its value, a missing required flag or a wrong argument count.
 */
export function parseCommand<S>(service: string, name: string, command: ServiceCommand<S>, argv: string[]) {
  const options: CommandFlags = { ...command.flags, ...globalCommandFlags };
  const usage = `usage: backlot ${service} ${commandUsage(name, command)}`;
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const flag = /'(-[^ ']+)/.exec(message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      throw new UsageError(
        `${service} ${name}: unknown option ${flag} (valid options: ${flagList(options)})`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const problem = /does not take an argument/.test(message) ? 'takes no value' : 'needs a value';
      throw new UsageError(`${service} ${name}: ${flag} ${problem}; ${usage}`);
    }
    throw new UsageError(`${service} ${name}: ${message}; ${usage}`);
  }
  const { help, 'data-dir': dataDir, ...flags } = parsed.values;
  const global: GlobalCommandValues = { help: help === true, 'data-dir': dataDir as string | undefined };
  if (global.help) return { global, flags, args: {}, usage };
  const missing = (command.required ?? []).find((f) => flags[f] === undefined);
  if (missing !== undefined) throw new UsageError(`${service} ${name}: --${missing} is required; ${usage}`);
  const names = command.args ?? [];
  if (parsed.positionals.length > names.length) {
    throw new UsageError(
      `${service} ${name}: unexpected argument "${parsed.positionals[names.length]}"; ${usage}`,
    );
  }
  if (parsed.positionals.length < names.length) {
    throw new UsageError(`${service} ${name}: <${names[parsed.positionals.length]}> is required; ${usage}`);
  }
  const args = Object.fromEntries(names.map((a, i) => [a, parsed.positionals[i] as string]));
  return { global, flags, args, usage };
}

/** Finds, parses and runs `backlot <service> ...argv` against a prepared context (the CLI and tests). */
export async function runCommand<S>(
  definition: ServiceDefinition<S>,
  argv: string[],
  ctx: ServiceContext<S>,
) {
  const found = findCommand(definition, argv);
  if (!found) throw new UsageError(unknownCommand(definition, argv));
  const { flags, args } = parseCommand(definition.id, found.name, found.command, found.rest);
  return found.command.run({ flags, args } as never, ctx);
}

/** The usage error for words that name no command of `definition`, listing the ones that exist. */
export function unknownCommand<S>(definition: ServiceDefinition<S>, argv: string[]) {
  const known = Object.entries(definition.commands ?? {}).map(
    ([n, c]) => `backlot ${definition.id} ${commandUsage(n, c)}`,
  );
  const flag = argv.findIndex((a) => a.startsWith('-'));
  const words = (flag === -1 ? argv : argv.slice(0, flag)).join(' ');
  return `unknown command "${words}" for ${definition.id} (valid: ${known.join('; ')})`;
}
