/**
 * A session timeout outside the brokers' range (GroupCoordinatorService.joinGroup: below
 * group.min.session.timeout.ms = 6000 or above group.max.session.timeout.ms = 1800000) is refused
 * with INVALID_SESSION_TIMEOUT before any group logic; the classic consumer treats it as fatal
 * (AbstractCoordinator.JoinGroupResponseHandler): poll() throws InvalidSessionTimeoutException and
 * the next poll() sends JoinGroup again. A consumer application whose poll() throws stops.
 */
import { describe, expect, it } from 'vitest';
import { type ConsumerContext, consumerMachine } from '../../src/sim/consumer/consumer.machine';
import { type GroupCoordinatorContext, groupCoordinatorMachine } from '../../src/sim/coordinator/groupCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { runScenario } from '../../src/sim/run';
import { plainBatch } from '../fixtures/plainBatch';
import { sent } from '../machines/consumerDriver';
import { calls, drive, inputOf, joinNewMember, sends } from '../machines/harness';

const scenario = (sessionTimeoutMs: number) => ({
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [
    { id: 'p', type: 'producer', script: [{ op: 'send', topic: 't', key: 'k', value: 'v' }] },
    {
      id: 'c',
      type: 'consumer',
      config: { 'group.id': 'g', 'auto.offset.reset': 'earliest', 'session.timeout.ms': sessionTimeoutMs, 'heartbeat.interval.ms': 1000 },
      topics: ['t'],
    },
  ],
});

let envelope = 1;
const joinGroup = (sessionTimeoutMs: number) => ({
  type: 'JoinGroup',
  from: 'c.consumer',
  envelopeId: envelope++,
  inReplyTo: null,
  payload: { correlationId: 0, groupId: 'g', memberId: '', sessionTimeoutMs, rebalanceTimeoutMs: 30000, topics: ['t'] },
});
const joinAnswer = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'send' && e.rpc === 'JoinGroupResponse' ? [e.payload as Record<string, unknown>] : []))[0];

describe('group coordinator: JoinGroup with a session timeout outside [6000, 1800000]', () => {
  it.each([5999, 1800001])('%i ms: INVALID_SESSION_TIMEOUT, no member added, no session timer', (ms) => {
    const m = drive(groupCoordinatorMachine, inputOf(scenario(10000), 'group-coordinator'));
    const fx = m.send(joinGroup(ms), 10);
    expect(joinAnswer(fx)).toMatchObject({ error: 'INVALID_SESSION_TIMEOUT', generationId: -1 });
    expect(fx.filter((e) => e.type === 'timer')).toEqual([]);
    expect(m.context<GroupCoordinatorContext>().groups.g).toBeUndefined();
  });

  it('6000 and 1800000 ms are accepted (the bounds are inclusive)', () => {
    for (const ms of [6000, 1800000]) {
      const m = drive(groupCoordinatorMachine, inputOf(scenario(10000), 'group-coordinator'));
      joinNewMember(m, joinGroup(ms), 10);
      expect(Object.keys(m.context<GroupCoordinatorContext>().groups.g?.members ?? {})).toHaveLength(1);
    }
  });
});

describe('consumer: INVALID_SESSION_TIMEOUT is fatal to poll(), not retried', () => {
  const refused = (correlationId: number) => ({
    type: 'JoinGroupResponse',
    from: 'group-coordinator',
    envelopeId: envelope++,
    inReplyTo: 0,
    payload: { correlationId, error: 'INVALID_SESSION_TIMEOUT', generationId: -1, memberId: '', leader: '' },
  });
  const poll = { type: 'poll', from: 'c.app', args: {} };
  const answerOf = (type: string, request: { payload: Record<string, unknown> } | undefined, payload: Record<string, unknown>) => ({
    type,
    from: 'group-coordinator',
    envelopeId: envelope++,
    inReplyTo: 0,
    payload: { correlationId: (request?.payload.correlationId as number) ?? 99, ...payload },
  });
  /** A FetchResponse to `fetch` with the one record at `offset` of t-0. */
  const fetched = (fetch: ReturnType<typeof sent>, offset: number) => ({
    ...answerOf('FetchResponse', fetch, {
      partitions: [
        {
          error: 'NONE',
          topic: 't',
          partition: 0,
          highWatermark: offset + 1,
          lastStableOffset: offset + 1,
          logStartOffset: 0,
          batches: [plainBatch([{ offset }])],
          abortedTransactions: [],
        },
      ],
    }),
    from: fetch?.to,
  });
  const pollReplies = (fx: readonly Effect[]) => (calls(fx) as { call?: string }[]).filter((c) => c.call === 'poll');

  it('a poll() waiting for the join throws InvalidSessionTimeoutException; the next poll() joins again', () => {
    const m = drive(consumerMachine, inputOf(scenario(3000), 'c.consumer'));
    m.send({ type: 'boot' }, 0);
    // the first poll() sends the JoinGroup and waits for it
    expect(sends(m.send(poll, 1))).toEqual(['JoinGroup→group-coordinator']);
    const fx = m.send(refused(0), 2);
    expect(pollReplies(fx)).toEqual([{ to: 'c.app', name: 'reply', call: 'poll', ok: false, error: 'InvalidSessionTimeoutException' }]);
    // no rejoin backoff: nothing is retried until the application calls poll() again
    expect(fx.filter((e) => e.type === 'timer')).toEqual([]);
    expect(sends(m.send(poll, 3))).toEqual(['JoinGroup→group-coordinator']);
  });

  it('refused while no poll() waits: the next poll() throws at once, the one after joins again', () => {
    // a COOPERATIVE member (Kafka Streams' main consumer) rejoining from a poll() that returned the
    // records it had buffered at once: its JoinGroup is answered while no poll() waits
    const input = inputOf(scenario(3000), 'c.consumer') as { config: Record<string, unknown> };
    // (no auto-commit: onJoinPrepare would commit before the JoinGroup)
    const m = drive(consumerMachine, { ...input, config: { ...input.config, 'enable.auto.commit': false }, revocationListener: true });
    m.send({ type: 'boot' }, 0);
    const join = sent(m.send(poll, 0), 'JoinGroup');
    const sync = sent(
      m.send(answerOf('JoinGroupResponse', join, { error: 'NONE', generationId: 1, memberId: 'c-0', leader: 'c-0' }), 10),
      'SyncGroup',
    );
    const offsets = sent(
      m.send(answerOf('SyncGroupResponse', sync, { error: 'NONE', assignment: [{ topic: 't', partition: 0 }] }), 20),
      'OffsetFetch',
    );
    const fetch = sent(
      m.send(
        answerOf('OffsetFetchResponse', offsets, { error: 'NONE', offsets: [{ topic: 't', partition: 0, offset: 0, error: 'NONE' }] }),
        30,
      ),
      'Fetch',
    );
    // the first poll() returns record 0; the prefetch brings record 1, buffered
    const prefetch = sent(m.send(fetched(fetch, 0), 40), 'Fetch');
    m.send(fetched(prefetch, 1), 50);
    m.send(answerOf('HeartbeatResponse', undefined, { error: 'REBALANCE_IN_PROGRESS' }), 1000);
    const rejoined = m.send(poll, 1100);
    const rejoin = sent(rejoined, 'JoinGroup');
    expect(pollReplies(rejoined)).toMatchObject([{ ok: true }]);
    expect(m.context<ConsumerContext>().pollWaiting).toBeNull();
    m.send(refused(rejoin?.payload.correlationId as number), 1102);
    expect(m.context<ConsumerContext>().pollError).toEqual({ exception: 'InvalidSessionTimeoutException', thrown: false });
    const first = m.send(poll, 1103);
    expect(pollReplies(first)).toMatchObject([{ ok: false, error: 'InvalidSessionTimeoutException' }]);
    expect(sends(first)).toEqual([]);
    expect(sends(m.send(poll, 1104))).toEqual(['JoinGroup→group-coordinator']);
  });
});

describe('a whole run: session.timeout.ms=3000', () => {
  it('the consumer never joins, its application stops with the exception, nothing is read', () => {
    const trace = runScenario(scenario(3000));
    type Snapshot = { value: unknown; context: unknown };
    const appAtEnd = (t: typeof trace) => t.checkpoints.at(-1)?.actors.find(([id]) => id === 'c.app')?.[1] as Snapshot | undefined;
    const app = appAtEnd(trace);
    expect(app?.value).toBe('stopped');
    expect((app?.context as { stopped?: string }).stopped).toContain('InvalidSessionTimeoutException');
    const joins = [...trace.envelopes].filter((e) => e?.rpc === 'JoinGroupResponse');
    expect(joins.length).toBeGreaterThan(0);
    expect(joins.every((e) => (e?.payload as { error: string }).error === 'INVALID_SESSION_TIMEOUT')).toBe(true);
    // the same scenario with 6000 ms reads the record
    const ok = runScenario(scenario(6000));
    expect(appAtEnd(ok)?.value).not.toBe('stopped');
  });
});
