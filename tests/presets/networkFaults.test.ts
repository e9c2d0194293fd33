/**
 * Network faults as TCP and Kafka's NetworkClient make them, and the request timers that used to
 * outlive their replies — scenario by scenario, with the outcome Kafka's Java client gives.
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations } from '../../src/sim/checks/invariants';
import { membershipState } from '../../src/sim/consumer/consumer.machine';
import { type RequestRpc, RPCS } from '../../src/sim/kernel/envelope';
import { findPreset, PRESETS } from '../../src/sim/presets';
import { runScenario, type Trace } from '../../src/sim/run';
import type { FaultSpec, Scenario } from '../../src/sim/scenario/schema';
import { runWith } from './helpers';

const opening = findPreset('opening-story')?.scenario as Scenario;
const withFaults = (s: Scenario, faults: FaultSpec[]): Scenario => ({ ...s, faults: [...(s.faults ?? []), ...faults] });

function sound(t: Trace): void {
  const violations = checkInvariants(t);
  expect(violations, formatViolations(violations)).toEqual([]);
}

describe('opening-story with its first Produce dropped (the Java client: Sender, NetworkClient)', () => {
  const r = runWith(withFaults(opening, [{ type: 'drop', rpc: 'Produce', nth: 1 }]));
  const produces = r.trace.envelopes.filter((e) => e.rpc === 'Produce');
  const [first, second] = produces;

  it('the second Produce stalls behind the lost one on the same connection', () => {
    expect(first).toMatchObject({ fate: 'dropped', sentAt: 7 });
    expect(second).toMatchObject({ fate: 'lost', sentAt: 27, connection: first?.connection, generation: 0 });
    expect(second?.fault).toBe('stalled behind Produce #9 on orders-service.producer→broker-0');
  });

  it('at request.timeout.ms the connection is closed: both requests fail with REQUEST_TIMED_OUT, oldest first', () => {
    const closes = r.trace.steps.filter((s) => s.kind === 'disconnected');
    expect(closes.map((s) => [s.t, s.envelope, s.detail?.reason])).toEqual([
      [30007, first?.id, 'timeout'],
      [30007, second?.id, 'timeout'],
    ]);
    expect(r.errors('orders-service')).toEqual(['REQUEST_TIMED_OUT', 'REQUEST_TIMED_OUT']);
    expect(r.facts('rejected')).toEqual([]);
  });

  it('both batches are retried in order on a new connection, with the same producerId, epoch and sequences', () => {
    const retries = produces.slice(2);
    expect(
      retries.map((e) => {
        const b = (e.payload as { partitions: { batch: { producerEpoch: number; baseSequence: number } }[] }).partitions[0]?.batch as {
          producerEpoch: number;
          baseSequence: number;
        };
        return [e.sentAt, e.generation, b.producerEpoch, b.baseSequence];
      }),
    ).toEqual([
      // retry.backoff.ms after the close; while retrying only the first sequence is in flight
      [30107, 1, 0, 0],
      [30109, 1, 0, 1],
    ]);
  });

  it('the log holds evt-789 at offsets 100 and 101 (sequences 0 and 1, epoch 0), as without the fault', () => {
    expect(r.data('orders-0').map((x) => [x.offset, x.producerId, x.producerEpoch, x.sequence, x.headers.event_id])).toEqual([
      [100, 1000, 0, 0, 'evt-789'],
      [101, 1000, 0, 1, 'evt-789'],
    ]);
    expect(r.received('billing').map((x) => x.offset)).toEqual([100, 101]);
    expect(r.trace.stopReason).toBe('quiescent');
    sound(r.trace);
  });
});

describe('a closed connection with batches of two partitions in flight', () => {
  // found by group-faults: the close's notices came one step at a time, and between them a new batch
  // of orders-0 went out on the next connection ahead of that partition's own retries
  it('every batch of the closed connection is retried before any new batch of its partition: no gap, no loss', () => {
    const scenario: Scenario = {
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 2 }],
      clients: [
        {
          id: 'source',
          type: 'producer',
          script: [
            ...[1, 1, 1, 0, 0, 0].map((partition, i) => ({
              op: 'send' as const,
              topic: 'orders',
              key: `k${i}`,
              value: `v${i}`,
              partition,
              headers: { event_id: `e${i}` },
              delayMs: 5,
            })),
          ],
        },
      ],
      faults: [{ type: 'drop', rpc: 'ProduceResponse', nth: 1 }],
    };
    const r = runWith(scenario);
    expect(r.facts('rejected')).toEqual([]);
    expect(r.errors('source').every((e) => e === 'REQUEST_TIMED_OUT')).toBe(true);
    for (const tp of ['orders-0', 'orders-1']) expect(r.data(tp).map((x) => x.sequence)).toEqual(r.data(tp).map((_, i) => i));
    expect(r.data('orders-0').length + r.data('orders-1').length).toBe(6);
    sound(r.trace);
  });
});

describe('a connection reset', () => {
  it('fails every request on the connection at once with NETWORK_EXCEPTION; they are retried on a new one', () => {
    const r = runWith(withFaults(opening, [{ type: 'reset', rpc: 'Produce', nth: 1 }]));
    const closes = r.trace.steps.filter((s) => s.kind === 'disconnected');
    expect(closes.map((s) => [s.t, s.detail?.reason])).toEqual([[7, 'reset']]);
    expect(r.errors('orders-service')).toEqual(['NETWORK_EXCEPTION']);
    expect(r.data('orders-0').map((x) => [x.offset, x.sequence])).toEqual([
      [100, 0],
      [101, 1],
    ]);
    sound(r.trace);
  });
});

describe('request timers never outlive their replies', () => {
  it('an OffsetFetch answer that arrives while the member rejoins completes its request: no REQUEST_TIMED_OUT 30 s later', () => {
    // rebalance-zombie-fenced: after its pause worker-a's heartbeat thread closes its connection to the
    // coordinator (its session expired) and heartbeats retry.backoff.ms later — 5 ms here, so the
    // UNKNOWN_MEMBER_ID comes back before the application's abort; then worker-a seeks to its
    // committed offsets (OffsetFetch) and its next poll() rejoins the group — the answer arrives while
    // it is joining
    const preset = findPreset('rebalance-zombie-fenced')?.scenario as Scenario;
    const clients = preset.clients.map((c) => (c.id === 'worker-a' ? { ...c, config: { ...c.config, 'retry.backoff.ms': 5 } } : c));
    const r = runWith({ ...preset, clients } as Scenario);
    const fetches = r.trace.envelopes.filter((e) => e.rpc === 'OffsetFetchResponse' && e.to === 'worker-a.consumer');
    const states = fetches.map((e) => membershipState(r.trace.steps.at(e.deliveredStep as number)?.before ?? ''));
    expect(states).toContain('PREPARING_REBALANCE');
    expect(r.errors('worker-a')).toEqual(['UNKNOWN_MEMBER_ID', 'UNKNOWN_MEMBER_ID', 'CommitFailedException']);
    expect(r.errors('worker-a')).not.toContain('REQUEST_TIMED_OUT');
    expect(r.trace.steps.filter((s) => s.kind === 'disconnected')).toEqual([]);
    sound(r.trace);
  });

  it('a ListOffsets answer handled after a long pause ends its request: no stale timeout, and the run settles', () => {
    const paused: Scenario = {
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        { id: 'p', type: 'producer', script: [{ op: 'send', topic: 'orders', key: 'a', value: '1' }, { op: 'flush' }] },
        {
          id: 'a',
          type: 'consumer',
          config: { 'group.id': 'g', 'auto.offset.reset': 'earliest' },
          topics: ['orders'],
          processing: { mode: 'at-least-once' },
        },
      ],
      // paused right after its ListOffsets went out, for longer than request.timeout.ms
      faults: [{ type: 'pause', target: 'a', at: 3009, durationMs: 35000 }],
    };
    const r = runWith(paused);
    const answer = r.trace.envelopes.find((e) => e.rpc === 'ListOffsetsResponse' && e.to === 'a.consumer');
    expect(r.trace.steps.at(answer?.deliveredStep as number)?.t).toBe(38009);
    expect(r.errors('a')).toEqual([]);
    expect(r.received('a').map((x) => x.offset)).toEqual([0]);
    expect(r.trace.stopReason).toBe('quiescent');
    sound(r.trace);
  });
});

describe('quiescence', () => {
  it('a transaction left open after a pause is not background: the coordinator aborts it at transaction.timeout.ms', () => {
    const s: Scenario = {
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        {
          id: 'p',
          type: 'producer',
          config: { 'transactional.id': 't1', 'transaction.timeout.ms': 60000 },
          script: [
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'k', value: 'v' },
            { op: 'flush' },
            { op: 'abortTransaction' },
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'k2', value: 'v2' },
            { op: 'flush' },
          ],
        },
      ],
      // the pause holds the producer's events; the second transaction is then left open
      faults: [{ type: 'pause', target: 'p', at: 4, durationMs: 40000 }],
    };
    const r = runWith(s);
    const aborted = r.facts('txnState').filter((f) => f.to === 'PrepareAbort');
    expect(aborted.length).toBeGreaterThanOrEqual(2);
    // the second transaction started at ~40 s: its timeout check aborts it at the 10 s tick after 60 s
    const last = r.trace.steps
      .filter((st) => st.facts.some((f) => f.kind === 'txnState' && (f as unknown as { to: string }).to === 'PrepareAbort'))
      .at(-1);
    expect(last?.t).toBe(110000);
    expect(r.data('orders-0').every((x) => x.txnOutcome === 'aborted')).toBe(true);
    sound(r.trace);
  });
});

/** The first preset that sends each request (and protocol-v1 variants of the transactional ones). */
function sendersByRpc(): Map<RequestRpc, Scenario> {
  const found = new Map<RequestRpc, Scenario>();
  const v1 = PRESETS.filter((p) => p.id === 'ctp-exactly-once-crash').map((p) => ({
    ...p,
    scenario: { ...p.scenario, id: `${p.id}-v1`, cluster: { ...p.scenario.cluster, 'transaction.version': 1 } } as Scenario,
  }));
  for (const p of [...PRESETS, ...v1]) {
    const t = runScenario(p.scenario);
    for (const e of t.envelopes) if (e.rpc in RPCS && !found.has(e.rpc as RequestRpc)) found.set(e.rpc as RequestRpc, p.scenario);
  }
  return found;
}

describe('every request the code sends: a lost message ends in a timeout and a retry, never a hang', () => {
  const senders = sendersByRpc();

  it('the presets send every request the model knows but LeaveGroup', () => {
    // the replicated presets send BrokerHeartbeat, PartitionChange, AlterPartition, and Metadata (a
    // producer refreshes its metadata after a connection to a leader closes)
    expect(Object.keys(RPCS).filter((rpc) => !senders.has(rpc as RequestRpc))).toEqual(['LeaveGroup']);
  });

  for (const [rpc, scenario] of senders) {
    for (const which of [rpc, RPCS[rpc].response] as const) {
      it(`${which} lost (${scenario.id})`, () => {
        const t = runScenario(withFaults(scenario, [{ type: 'drop', rpc: which, nth: 1 }]));
        const dropped = t.envelopes.find((e) => e.fate === 'dropped' && e.rpc === which);
        expect(dropped?.rpc).toBe(which);
        const request = which === rpc ? dropped : t.envelopes.at(dropped?.inReplyTo as number);
        expect(request?.rpc).toBe(rpc);
        // its client learns at its timeout (or when it goes away), and tries again
        const closed = t.steps.find((s) => s.kind === 'disconnected' && s.envelope === request?.id);
        const crashed = t.steps.some(
          (s) => s.kind === 'fault' && request && s.i > request.sentStep && request.from.startsWith(`${s.actor}.`),
        );
        if (!crashed) {
          // at its own deadline, or at the deadline of a request stalled behind it on the same
          // connection (a broker's heartbeats share its connection to the controller with AlterPartition)
          const deadlines = t.envelopes
            .filter((e) => e.connection === request?.connection && e.generation === request?.generation && e.timeoutMs !== null)
            .map((e) => e.sentAt + (e.timeoutMs as number));
          expect(deadlines).toContain(closed?.t);
          expect(closed?.t).toBeLessThanOrEqual((request?.sentAt as number) + (request?.timeoutMs as number));
          expect(closed?.detail?.reason).toBe('timeout');
          const again = t.envelopes.find((e) => e.rpc === rpc && e.from === request?.from && e.sentStep >= (closed?.i as number));
          expect(again, `${rpc} is sent again after the disconnect`).toBeDefined();
        }
        expect(['quiescent', 'empty']).toContain(t.stopReason);
        sound(t);
      });
    }
  }
});
