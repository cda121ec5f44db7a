// --generate and --seed: what they accept, and one line naming the flag and the fix for what they do not.
import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../../conformance/rest/args.js';

const ops = ['listProducts'];

describe('certify --generate / --seed', () => {
  it.each([
    [[], { generate: 0, seed: undefined }],
    [['--generate', '20'], { generate: 20, seed: undefined }],
    [['--generate', '5', '--seed', '42'], { generate: 5, seed: 42 }],
    [['--all'], { generate: 10 }],
    [['--all', '--generate', '0'], { generate: 0 }],
  ])('%j', (argv, want) => {
    expect(parseCliArgs(argv as string[], ops)).toMatchObject(want);
  });

  it.each([
    [['--generate', 'many'], '--generate must be an integer from 0 to 10000 (requests per operation), not many'],
    [['--generate=-1'], '--generate must be an integer from 0 to 10000 (requests per operation), not -1'],
    [['--generate', '1.5'], '--generate must be an integer from 0 to 10000 (requests per operation), not 1.5'],
    [['--generate', '3', '--seed', 'x'], '--seed must be an integer from 0 to 2147483647 (the seed a report printed), not x'],
    [['--seed', '7'], '--seed needs --generate <n>: it seeds the generated requests'],
  ])('%j is refused with one line', (argv, message) => {
    expect(() => parseCliArgs(argv as string[], ops)).toThrow(new UsageError(message));
  });
});
