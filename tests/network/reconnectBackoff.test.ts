/**
 * A client's per-node connection state (src/sim/cluster/connectionStates.ts) as a pure record,
 * against Kafka's ClusterConnectionStates and ExponentialBackoff (trunk, Oct 2024): the reconnect
 * backoff raised at every disconnect (updateReconnectBackoff), reset when a connection works
 * (ready → resetReconnectBackoff), canConnect once it has passed, isUnavailable inside it
 * (NetworkClientUtils.isUnavailable); and the two config keys with Kafka's defaults, validation and
 * postProcessReconnectBackoffConfigs. No jitter (the project's rule, as for retry.backoff.ms).
 */
import { describe, expect, it } from 'vitest';
import {
  backoffOver,
  type ConnectionStates,
  canConnect,
  connecting,
  disconnected,
  isConnecting,
  isUnavailable,
  NO_CONNECTION_STATES,
  nodeOf,
  ownNode,
  ready,
  reconnectBackoff,
  takesClose,
} from '../../src/sim/cluster/connectionStates';
import { CONSUMER_CONFIG, resolveConsumerConfig } from '../../src/sim/config/consumerConfig';
import { PRODUCER_CONFIG, resolveProducerConfig } from '../../src/sim/config/producerConfig';

const DEFAULTS = { 'reconnect.backoff.ms': 50, 'reconnect.backoff.max.ms': 1000 };

describe('reconnectBackoff: ExponentialBackoff(reconnect.backoff.ms, 2, reconnect.backoff.max.ms), no jitter', () => {
  it('50 ms doubling per failure in a row, at most 1000 ms', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => reconnectBackoff(DEFAULTS, n))).toEqual([50, 100, 200, 400, 800, 1000, 1000, 1000]);
  });

  it('a maximum at or below the base is a constant backoff of the maximum (the constructor takes min(max, initial); expMax 0)', () => {
    expect([0, 1, 5].map((n) => reconnectBackoff({ 'reconnect.backoff.ms': 300, 'reconnect.backoff.max.ms': 300 }, n))).toEqual([
      300, 300, 300,
    ]);
    expect([0, 3].map((n) => reconnectBackoff({ 'reconnect.backoff.ms': 500, 'reconnect.backoff.max.ms': 200 }, n))).toEqual([200, 200]);
    expect(reconnectBackoff({ 'reconnect.backoff.ms': 0, 'reconnect.backoff.max.ms': 1000 }, 4)).toBe(0);
  });
});

describe('the per-node record (ClusterConnectionStates)', () => {
  it('every disconnect raises the backoff and blacks the node out; an answer resets it', () => {
    let c: ConnectionStates = NO_CONNECTION_STATES;
    // a node the client has no state for is connectable (READY, or its first connection)
    expect(canConnect(c, 'broker-0')).toBe(true);
    expect(isUnavailable(c, 'broker-0')).toBe(false);
    c = disconnected(c, 'broker-0', 1000, DEFAULTS);
    expect(c['broker-0']).toEqual({
      state: 'DISCONNECTED',
      lastConnectAttemptMs: 1000,
      failedAttempts: 1,
      reconnectBackoffMs: 50,
      blackedOut: true,
    });
    expect(isUnavailable(c, 'broker-0')).toBe(true);
    expect(canConnect(c, 'broker-0')).toBe(false);
    // the client's timer at the backoff's end: it may be tried again, and the request then is the attempt
    c = backoffOver(c, 'broker-0');
    expect(isUnavailable(c, 'broker-0')).toBe(false);
    expect(canConnect(c, 'broker-0')).toBe(true);
    c = connecting(c, 'broker-0', 1052);
    expect(isConnecting(c, 'broker-0')).toBe(true);
    expect(c['broker-0']?.lastConnectAttemptMs).toBe(1052);
    // refused: the second failure in a row doubles the backoff
    c = disconnected(c, 'broker-0', 1054, DEFAULTS);
    expect(c['broker-0']).toMatchObject({ state: 'DISCONNECTED', failedAttempts: 2, reconnectBackoffMs: 100, lastConnectAttemptMs: 1054 });
    for (let i = 0; i < 5; i++)
      c = disconnected(connecting(backoffOver(c, 'broker-0'), 'broker-0', 2000 + i), 'broker-0', 2000 + i, DEFAULTS);
    expect(c['broker-0']).toMatchObject({ failedAttempts: 7, reconnectBackoffMs: 1000 });
    // an answer: READY, the backoff starts over (resetReconnectBackoff)
    c = ready(c, 'broker-0');
    expect(c['broker-0']).toBeUndefined();
    expect(disconnected(c, 'broker-0', 9000, DEFAULTS)['broker-0']?.reconnectBackoffMs).toBe(50);
  });

  it('a close seen while the node is DISCONNECTED is the one already taken (one connection per node in Kafka)', () => {
    const once = disconnected(NO_CONNECTION_STATES, 'broker-0', 100, DEFAULTS);
    expect(takesClose(once, 'broker-0')).toBe(false);
    expect(disconnected(once, 'broker-0', 101, DEFAULTS)).toBe(once);
    // even once the backoff has passed: only an attempt (CONNECTING) can fail again
    expect(disconnected(backoffOver(once, 'broker-0'), 'broker-0', 200, DEFAULTS)['broker-0']?.failedAttempts).toBe(1);
  });

  it('no attempt inside the backoff: a request sent there regardless leaves the record alone', () => {
    const c = disconnected(NO_CONNECTION_STATES, 'broker-0', 100, DEFAULTS);
    expect(connecting(c, 'broker-0', 120)).toBe(c);
    // nor for a node without state: its first connection is folded into its first request
    expect(connecting(NO_CONNECTION_STATES, 'broker-0', 120)).toBe(NO_CONNECTION_STATES);
  });

  it('a zero backoff never blacks a node out', () => {
    const c = disconnected(NO_CONNECTION_STATES, 'broker-0', 100, { 'reconnect.backoff.ms': 0, 'reconnect.backoff.max.ms': 0 });
    expect(isUnavailable(c, 'broker-0')).toBe(false);
    expect(canConnect(c, 'broker-0')).toBe(true);
  });

  it("nodes: the producer's transaction coordinator shares its broker's; the consumer's group coordinator has its own", () => {
    expect(nodeOf('broker-1.txn-coordinator')).toBe('broker-1');
    expect(nodeOf('broker-1')).toBe('broker-1');
    expect(ownNode('broker-1.group-coordinator')).toBe('broker-1.group-coordinator');
  });
});

describe('reconnect.backoff.ms and reconnect.backoff.max.ms (CommonClientConfigs, producer and consumer)', () => {
  it('Kafka 4.x defaults 50 and 1000; LONG at least 0', () => {
    for (const keys of [PRODUCER_CONFIG, CONSUMER_CONFIG]) {
      expect(keys.find((k) => k.name === 'reconnect.backoff.ms')).toMatchObject({ type: 'long', default: 50, min: 0 });
      expect(keys.find((k) => k.name === 'reconnect.backoff.max.ms')).toMatchObject({ type: 'long', default: 1000, min: 0 });
    }
    expect(resolveProducerConfig({}).config).toMatchObject(DEFAULTS);
    expect(resolveConsumerConfig({}).config).toMatchObject(DEFAULTS);
    expect(resolveProducerConfig({ 'reconnect.backoff.ms': -1 }).errors.map((e) => e.key)).toEqual(['reconnect.backoff.ms']);
    expect(resolveConsumerConfig({ 'reconnect.backoff.max.ms': -5 }).errors.map((e) => e.key)).toEqual(['reconnect.backoff.max.ms']);
  });

  it('reconnect.backoff.ms set without reconnect.backoff.max.ms: the exponential backoff is disabled (postProcessReconnectBackoffConfigs)', () => {
    const p = resolveProducerConfig({ 'reconnect.backoff.ms': 200 });
    expect(p.config).toMatchObject({ 'reconnect.backoff.ms': 200, 'reconnect.backoff.max.ms': 200 });
    expect(p.notes.map((n) => n.message)).toEqual([
      'WARN Disabling exponential reconnect backoff because reconnect.backoff.ms is set, but reconnect.backoff.max.ms is not.',
    ]);
    expect(resolveConsumerConfig({ 'reconnect.backoff.ms': 200 }).config).toMatchObject({ 'reconnect.backoff.max.ms': 200 });
    // both set, or only the maximum: as given
    expect(resolveProducerConfig({ 'reconnect.backoff.ms': 200, 'reconnect.backoff.max.ms': 5000 }).config).toMatchObject({
      'reconnect.backoff.max.ms': 5000,
    });
    expect(resolveConsumerConfig({ 'reconnect.backoff.max.ms': 5000 }).config).toMatchObject({ 'reconnect.backoff.ms': 50 });
  });
});
