// certify --from-har / --from-log and the proxy's sizes: what they accept, and one line naming the flag and
// the fix for what they do not (the commands themselves run in proxy.test.ts).
import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../../conformance/rest/args.js';
import { byteSize } from '../../conformance/rest/observed/cli.js';

const ops = ['listProducts'];

describe('certify --from-har / --from-log', () => {
  it.each([
    [['--from-har', 's.har'], { fromFile: { format: 'har', file: 's.har' } }],
    [['--from-log', 'access.ndjson', '--strict', '--store-id', 'my-store'], { fromFile: { format: 'log', file: 'access.ndjson' }, strict: true, storeId: 'my-store' }],
  ])('%j', (argv, want) => {
    expect(parseCliArgs(argv as string[], ops)).toMatchObject(want);
  });

  it('a replay has no file', () => {
    expect(parseCliArgs([], ops).fromFile).toBeUndefined();
  });

  it.each([
    [['--from-har', 'a.har', '--from-log', 'b.ndjson'], '--from-har and --from-log: give one file per run (certify it twice for two files)'],
    [['--from-har', 'a.har', '--base-url', 'http://x'], '--from-har judges recorded traffic, nothing is sent: leave out --base-url'],
    [['--from-log', 'a.ndjson', '--generate', '5'], '--from-log judges recorded traffic, nothing is sent: leave out --generate'],
    [['--from-har='], '--from-har is empty; give the file to judge'],
  ])('%j is refused with one line', (argv, message) => {
    expect(() => parseCliArgs(argv as string[], ops)).toThrow(new UsageError(message));
  });
});

describe('proxy --max-body', () => {
  it.each([
    ['65536', 65536],
    ['4MiB', 4 * 2 ** 20],
    ['512KiB', 512 * 1024],
    [undefined, 7],
  ])('%s', (raw, want) => {
    expect(byteSize('max-body', raw, 7)).toBe(want);
  });

  it.each(['0', 'lots', '2GiB', '-1'])('%s is refused with one line', (raw) => {
    expect(() => byteSize('max-body', raw, 7)).toThrow(new UsageError(`--max-body must be a size from 1 byte to 1024MiB (e.g. 4MiB, 512KiB, 65536), got "${raw}"`));
  });
});
