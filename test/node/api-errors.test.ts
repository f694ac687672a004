// Misuse of the API outside the importers (options, positions, environment)
// throws a SkeinError whose code is in the catalogue and whose message the
// catalogue builds from the details (issue 19).
import { describe, expect, it } from 'vitest';
import { EventStream, SkeinError, errorMessage } from '../../src/index.js';
import { createEventStreamHandler } from '../../src/server.js';
import { createRedisSource } from '../../src/server-redis.js';
import { sanitizeHtml } from '../../src/react/display/sanitize.js';
import { expectText } from '../../src/react/display/text.js';

function thrown(run: () => unknown): SkeinError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(SkeinError);
    return e as SkeinError;
  }
  throw new Error('expected a throw');
}

describe('errors of the API are SkeinErrors from the catalogue', () => {
  it('live handler options: invalid_argument naming the option and the value', () => {
    const e = thrown(() => createEventStreamHandler(new EventStream(), { batchSize: 0 }));
    expect(e.code).toBe('invalid_argument');
    expect(e.details).toEqual(['live handler options', 'batchSize', 'a positive number', '0']);
    expect(e.message).toBe('live handler options: "batchSize" must be a positive number, got 0');
    expect(e.message).toBe(
      errorMessage('invalid_argument', ...(e.details as [string, string, string, string])),
    );
  });

  it('a Redis source without a blocking client fails its first wait with redis_no_blocking_client', async () => {
    // A client with no duplicate(): reads that find nothing must wait, and cannot.
    const client = {
      async sendCommand(args: string[]): Promise<unknown> {
        if (args[0] === 'GET') return 'stream-1';
        if (args[0] === 'XRANGE') return [];
        return 'OK';
      },
    };
    const source = await createRedisSource({ client, key: 'k' });
    expect(await source.read(null, { limit: 1, wait: false })).toEqual([]);
    await expect(source.read(null, { limit: 1, wait: true })).rejects.toMatchObject({
      name: 'SkeinError',
      code: 'redis_no_blocking_client',
    });
    await expect(source.read('x-y', { limit: 1, wait: false })).rejects.toMatchObject({
      code: 'live_bad_position',
      details: ['x-y', 'not a Redis entry id'],
    });
    await source.close();
  });

  it('sanitizeHtml without a DOM: sanitize_no_dom', () => {
    expect(thrown(() => sanitizeHtml('<b>x</b>')).code).toBe('sanitize_no_dom');
  });

  it('display data of the wrong type: display_not_text', () => {
    const e = thrown(() => expectText(42, 'text/plain'));
    expect(e.code).toBe('display_not_text');
    expect(e.message).toBe('text/plain data must be a string, got number');
  });
});
