import assert from 'node:assert/strict';
import { test } from 'node:test';
import { services } from '../services/index.js';
import { commandUsage, findCommand, globalCommandFlags, parseCommand, unknownCommand } from './commands.js';
import { defineCommand, UsageError } from './service.js';

const command = defineCommand({
  summary: 'a test command',
  flags: { name: { type: 'string' }, tag: { type: 'string', multiple: true }, force: { type: 'boolean' } },
  required: ['name'],
  args: ['id'],
  run: async () => '',
});
const parse = (...argv: string[]) => parseCommand('things', 'thing rename', command, argv);
const usage = 'usage: backlot things thing rename <id> --name <name> [--tag <tag>]... [--force]';

test('flags parse to their declared types, in either spelling, with the global ones apart', () => {
  assert.equal(commandUsage('thing rename', command), usage.slice('usage: backlot things '.length));
  const parsed = parse('7', '--name=Lamp', '--tag', 'a', '--tag', 'b', '--force', '--data-dir', '/srv/data');
  assert.deepEqual({ ...parsed.flags }, { name: 'Lamp', tag: ['a', 'b'], force: true });
  assert.deepEqual(parsed.args, { id: '7' });
  assert.deepEqual(parsed.global, { help: false, 'data-dir': '/srv/data' });
  assert.equal(parse('-h').global.help, true, '--help needs nothing else');
});

test('an unknown flag, a flag without its value, a missing flag or argument, an extra argument: usage errors', () => {
  const refuses = (argv: string[], message: string) =>
    assert.throws(() => parse(...argv), new UsageError(`things thing rename: ${message}`));
  refuses(
    ['7', '--name', 'x', '--nmae', 'y'],
    'unknown option --nmae (valid options: --name, --tag, --force, --data-dir, --help)',
  );
  refuses(['7', '--force=yes', '--name', 'x'], `--force takes no value; ${usage}`);
  refuses(['7', '--name'], `--name needs a value; ${usage}`);
  refuses(['7', '--name', '--force'], `--name needs a value; ${usage}`);
  refuses(['7'], `--name is required; ${usage}`);
  refuses(['--name', 'x'], `<id> is required; ${usage}`);
  refuses(['7', '8', '--name', 'x'], `unexpected argument "8"; ${usage}`);
});

test("every service's commands are found by their words and declare what they require", async () => {
  const definitions = await Promise.all(services.map((s) => s.load()));
  for (const service of definitions) {
    for (const [name, c] of Object.entries(service.commands ?? {})) {
      const found = findCommand(service, [...name.split(' '), '--help']);
      assert.equal(found?.name, name);
      assert.deepEqual(found?.rest, ['--help']);
      for (const flag of Object.keys(c.flags ?? {})) {
        assert.ok(!(flag in globalCommandFlags), `${service.id} ${name} redeclares the global --${flag}`);
      }
      for (const flag of c.required ?? [])
        assert.ok(flag in (c.flags ?? {}), `${service.id} ${name} --${flag}`);
    }
  }
  const machines = definitions.find((s) => s.id === 'machines')!;
  assert.equal(findCommand(machines, ['token', 'rotate']), undefined);
  assert.match(
    unknownCommand(machines, ['token', 'rotate', '--name', 'x']),
    /^unknown command "token rotate" for machines \(valid: backlot machines token create --name <name> \[--scopes <scopes>\]; /,
  );
});
