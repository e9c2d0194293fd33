/** StreamsConfig as the model takes it: commit.interval.ms atLeast(0); the record cache not modelled, so only 0. */
import { describe, expect, it } from 'vitest';
import { resolveStreamsConfig } from '../../src/sim/config/streamsConfig';

describe('Streams config', () => {
  it('commit.interval.ms accepts 0 (commit on every loop), as Kafka (atLeast(0)); a negative value is refused', () => {
    expect(resolveStreamsConfig('c', { 'commit.interval.ms': 0 })).toMatchObject({ config: { 'commit.interval.ms': 0 }, errors: [] });
    expect(resolveStreamsConfig('c', { 'commit.interval.ms': -1 }).errors.map((e) => e.key)).toEqual(['commit.interval.ms']);
  });

  it('statestore.cache.max.bytes: 0 is the model (every update written at once); any other value is refused with the reason', () => {
    expect(resolveStreamsConfig('c', {}).config['statestore.cache.max.bytes']).toBe(0);
    expect(resolveStreamsConfig('c', { 'statestore.cache.max.bytes': 0 }).errors).toEqual([]);
    const refused = resolveStreamsConfig('c', { 'statestore.cache.max.bytes': 10485760 }).errors;
    expect(refused).toHaveLength(1);
    expect(refused[0]?.message).toContain('does not model the record cache');
    expect(refused[0]?.message).toContain('10485760');
  });
});
