/**
 * The kernel's per-step lookups made once and kept (an actor's process, a connection's key, a
 * timer's index key, a topic-partition's key, a short string's hash) give what building them each
 * time gave, and a process selector matches its own actors only.
 */
import { describe, expect, it } from 'vitest';
import { actorInProcess, processOf } from '../src/sim/kernel/faults';
import { StreamHash, stringHash } from '../src/sim/kernel/hash';
import { connectionKey } from '../src/sim/kernel/network';
import { keyOf, topicPartitionKey } from '../src/sim/protocol/topicPartition';

describe('kernel lookups', () => {
  it('a process selector matches the process and its actors, not a process whose id it begins', () => {
    expect(actorInProcess('p1', 'p1')).toBe(true);
    expect(actorInProcess('p1.producer', 'p1')).toBe(true);
    expect(actorInProcess('p1.producer', 'p1.producer')).toBe(true);
    expect(actorInProcess('p10.producer', 'p1')).toBe(false);
    expect(actorInProcess('p1-x.producer', 'p1')).toBe(false);
    expect(actorInProcess('p1', 'p1.producer')).toBe(false);
    expect(actorInProcess('p', 'p1')).toBe(false);
  });

  it("an actor's process is the id before its first dot, asked once or many times", () => {
    for (let i = 0; i < 2; i++) {
      expect(processOf('orders-service.producer')).toBe('orders-service');
      expect(processOf('broker-0')).toBe('broker-0');
      expect(processOf('app.consumer.fetcher')).toBe('app');
    }
  });

  it("a connection's key is client>server, the same string each time", () => {
    const a = connectionKey('p1.producer', 'broker-0');
    expect(a).toBe('p1.producer>broker-0');
    expect(connectionKey('p1.producer', 'broker-0')).toBe(a);
    expect(connectionKey('broker-0', 'p1.producer')).toBe('broker-0>p1.producer');
  });
});

describe('lookups kept between calls', () => {
  it("a topic-partition's key is the same text each time, for any partition number", () => {
    for (let i = 0; i < 2; i++) {
      expect(topicPartitionKey('orders', 0)).toBe('orders-0');
      expect(topicPartitionKey('orders', 7)).toBe('orders-7');
      expect(topicPartitionKey('my-topic', 12)).toBe('my-topic-12');
      expect(topicPartitionKey('orders', 70000)).toBe('orders-70000');
      expect(topicPartitionKey('orders', -1)).toBe('orders--1');
      expect(keyOf({ topic: 'orders', partition: 3 })).toBe('orders-3');
    }
  });

  it("a string folds into the hash as its stringHash, met once or often, short or long; a field name's hash kept or not", () => {
    const fold = (s: string) => new StreamHash().str(s).digest();
    const direct = (s: string) => new StreamHash().int(stringHash(s)).digest();
    const samples = ['', 'kind', 'read_committed', 'x'.repeat(32), 'y'.repeat(33), 'naïve ünïcode 한국어'];
    for (let round = 0; round < 2; round++) for (const s of samples) expect(fold(s)).toBe(direct(s));
    for (let i = 0; i < 20000; i++) {
      const s = `k${i}`;
      if (i % 997 === 0) expect(fold(s)).toBe(direct(s));
      else new StreamHash().str(s);
    }
    for (const s of samples) expect(fold(s)).toBe(direct(s));
    // a field name's hash, kept or not: the same before and after the kept names are cleared
    const value = { kind: 'append', topic: 'orders', offsets: [1, 2.5], nested: { a: null, b: 'read_committed' } };
    const first = new StreamHash().value(value).digest();
    for (let i = 0; i < 5000; i++) new StreamHash().value({ [`field${i}`]: i });
    expect(new StreamHash().value(structuredClone(value)).digest()).toBe(first);
    expect(new StreamHash().value({ kind: 'x' }).digest()).not.toBe(new StreamHash().value({ kinds: 'x' }).digest());
  });
});
