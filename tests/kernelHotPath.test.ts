/**
 * The kernel's per-step lookups made once and kept (an actor's process, a connection's key, a
 * timer's index key) give what building them each time gave, and a process selector matches its
 * own actors only.
 */
import { describe, expect, it } from 'vitest';
import { actorInProcess, processOf } from '../src/sim/kernel/faults';
import { connectionKey } from '../src/sim/kernel/network';

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
