/** ProducerConfig's idempotence rules, as Kafka 4.x applies them. */
import { describe, expect, it } from 'vitest';
import { resolveProducerConfig } from '../src/sim/config/producerConfig';
import { validateScenario } from '../src/sim/scenario/validate';

describe('producer configuration', () => {
  it('defaults to Kafka 4.x: idempotence on, acks=all, 5 in flight, linger.ms=5', () => {
    const r = resolveProducerConfig({});
    expect(r.errors).toEqual([]);
    expect(r.config).toMatchObject({
      'enable.idempotence': true,
      acks: -1,
      retries: 2147483647,
      'max.in.flight.requests.per.connection': 5,
      'linger.ms': 5,
      'delivery.timeout.ms': 120000,
    });
  });

  it('explicit enable.idempotence=true with acks=1 is a ConfigException', () => {
    const r = resolveProducerConfig({ 'enable.idempotence': true, acks: '1' });
    expect(r.errors.map((e) => e.message)).toEqual([
      'ConfigException: Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.',
    ]);
  });

  it('explicit enable.idempotence=true with retries=0 is a ConfigException', () => {
    const r = resolveProducerConfig({ 'enable.idempotence': true, retries: 0 });
    expect(r.errors[0]?.message).toBe('ConfigException: Must set retries to non-zero when using the idempotent producer.');
  });

  it('a defaulted idempotence is turned off by acks=1, with the INFO line Kafka logs', () => {
    const r = resolveProducerConfig({ acks: '1' });
    expect(r.errors).toEqual([]);
    expect(r.config['enable.idempotence']).toBe(false);
    expect(r.notes[0]?.message).toContain("Idempotence will be disabled because acks is set to 1, not set to 'all'.");
  });

  it('max.in.flight.requests.per.connection > 5 is a ConfigException even when idempotence is only defaulted (Kafka 4.0)', () => {
    expect(resolveProducerConfig({ 'max.in.flight.requests.per.connection': 6 }).errors[0]?.message).toBe(
      'ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6.',
    );
    expect(resolveProducerConfig({ 'enable.idempotence': false, 'max.in.flight.requests.per.connection': 6 }).errors).toEqual([]);
  });

  it('transactional.id without idempotence is a ConfigException', () => {
    expect(resolveProducerConfig({ 'transactional.id': 'tx', 'enable.idempotence': false }).errors[0]?.message).toBe(
      'ConfigException: Cannot set a transactional.id without also enabling idempotence.',
    );
    expect(resolveProducerConfig({ 'transactional.id': 'tx', acks: '1' }).errors[0]?.key).toBe('transactional.id');
  });

  it('a scenario with such a config is refused with the path of the key', () => {
    const v = validateScenario({
      version: 1,
      seed: 1,
      topics: [{ name: 't' }],
      clients: [
        { id: 'p1', type: 'producer', config: { 'enable.idempotence': true, 'max.in.flight.requests.per.connection': 6 }, script: [] },
      ],
    });
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.errors[0]).toMatchObject({ path: 'clients[0].config["max.in.flight.requests.per.connection"]' });
  });
});
