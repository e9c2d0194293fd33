/**
 * A Kafka Streams task's uncommitted work at a rebalance (StreamsRebalanceListener, called from the
 * main consumer's ConsumerCoordinator.onJoinPrepare): onPartitionsRevoked → TaskManager.handleRevocation
 * commits the task before its partitions go, so the records it processed since its last commit are
 * not read again from older committed offsets; onPartitionsLost (the generation gone) → handleLostAll
 * closes the task dirty. Before the fix the main consumer gave its partitions up without telling the
 * thread: a second instance joining was enough for the first to process its open transaction's
 * records again inside that same transaction and commit both copies, with no fault at all.
 *
 * Each rule is tested where it lives — the consumer's REVOKING state, the thread's answer — and
 * then in a whole run.
 */

import { describe, expect, it } from 'vitest';
import { type ConsumerContext, membershipState } from '../../src/sim/consumer/consumer.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { findPreset } from '../../src/sim/presets';
import type { Scenario } from '../../src/sim/scenario/schema';
import { initialContext, type StreamThreadInput } from '../../src/sim/streams/streamThreadContext';
import { answer, joinedAsLeader, sent, synced } from '../machines/consumerDriver';
import { inputOf, sends } from '../machines/harness';
import { runWith } from '../presets/helpers';
import { storeOf } from './storeOf';
import { threadAt } from './threadAt';
import { THREAD_INPUT } from './threadInput';

const callsOf = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'call' ? [{ to: e.to, name: e.name, args: e.args }] : []));

const consumerScenario = {
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'c', type: 'consumer', config: { 'group.id': 'g', 'enable.auto.commit': false }, topics: ['t'] }],
};

/** A main consumer with a revocation listener (as Streams builds it), STABLE with t-0, its app's first poll() (the one that joined) waiting. */
function stableMainConsumer(revocationListener: boolean) {
  const { m, sync } = joinedAsLeader({ ...(inputOf(consumerScenario, 'c.consumer') as object), revocationListener });
  synced(m, sync, [{ topic: 't', partition: 0 }]);
  expect(m.context<ConsumerContext>().pollWaiting).toBe('c.app');
  return m;
}

describe("the main consumer's onJoinPrepare calls the rebalance listener first (ConsumerCoordinator.onJoinPrepare)", () => {
  it('REBALANCE_IN_PROGRESS (COOPERATIVE): onJoinPrepare revokes nothing — JoinGroup at once, with the partitions it owns', () => {
    const m = stableMainConsumer(true);
    const fx = m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3000);
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
    expect(sent(fx, 'JoinGroup')?.payload).toMatchObject({ ownedPartitions: [{ topic: 't', partition: 0 }] });
    // no onPartitionsRevoked: only TaskManager.handleRebalanceStart (no commit until the assignment)
    expect(callsOf(fx)).toEqual([{ to: 'c.app', name: 'onRebalanceStart', args: {} }]);
    expect(m.context<ConsumerContext>().assignment).toEqual([{ topic: 't', partition: 0 }]);
  });

  it('UNKNOWN_MEMBER_ID: the generation is gone, so the listener is told the partitions are lost', () => {
    const m = stableMainConsumer(true);
    const fx = m.send(answer('HeartbeatResponse', 99, { error: 'UNKNOWN_MEMBER_ID' }), 3000);
    expect(membershipState(m.state())).toBe('REVOKING');
    expect(callsOf(fx)[0]?.args).toMatchObject({ lost: true });
  });

  it('a plain consumer (no such listener) rejoins at once, as before', () => {
    const m = stableMainConsumer(false);
    const fx = m.send(answer('HeartbeatResponse', 99, { error: 'REBALANCE_IN_PROGRESS' }), 3000);
    expect(membershipState(m.state())).toBe('PREPARING_REBALANCE');
    expect(sends(fx)).toContain('JoinGroup→group-coordinator');
  });
});

const THREAD: StreamThreadInput = { ...THREAD_INPUT, commitIntervalMs: 10000 };

/** The thread in `state` with three records processed since its last commit and a poll() out. */
function thread(state: string, guarantee: StreamThreadInput['guarantee'] = 'exactly_once_v2') {
  const context = {
    ...initialContext({ ...THREAD, guarantee }),
    uncommitted: 3,
    pollOutstanding: true,
    positions: { 'in-0': 3 },
    groupMetadata: { groupId: 'app', generationId: 1, memberId: 'st-0' },
  };
  const t = threadAt({ running: state }, context);
  const send = (event: Record<string, unknown> & { type: string }) => callsOf(t.send(event)).map((c) => `${c.name}→${c.to}`);
  return {
    revoked: (lost: boolean) => send({ type: 'onPartitionsRevoked', now: 5000, from: 'st.consumer', args: { partitions: [], lost } }),
    reply: (from: string, call: string, ok = true) => send({ type: 'reply', now: 5010, from, args: { call, ok, error: null } }),
    state: t.state,
  };
}

describe("the stream thread's StreamsRebalanceListener (TaskManager.handleRevocation / handleLostAll)", () => {
  it('exactly_once_v2, a transaction open: it commits the transaction with the input offsets, and returns after', () => {
    const t = thread('pollingInTransaction');
    // prepareCommit's flush() first, then StreamsProducer.commitTransaction
    expect(t.revoked(false)).toEqual(['flush→st.producer']);
    expect(t.reply('st.producer', 'flush')).toEqual(['sendOffsetsToTransaction→st.producer']);
    expect(t.reply('st.producer', 'sendOffsetsToTransaction')).toEqual(['commitTransaction→st.producer']);
    expect(t.reply('st.producer', 'commitTransaction')).toEqual(['partitionsRevokedDone→st.consumer']);
    expect(t.state()).toBe('running.polling');
  });

  it('at_least_once, offsets not yet committed: flush() and commitSync() first', () => {
    const t = thread('polling', 'at_least_once');
    expect(t.revoked(false)).toEqual(['flush→st.producer']);
    expect(t.reply('st.producer', 'flush')).toEqual(['commitSync→st.consumer']);
    expect(t.reply('st.consumer', 'commitSync')).toEqual(['partitionsRevokedDone→st.consumer']);
  });

  it('a commit already under way: the listener returns when it ends', () => {
    const t = thread('committingWhilePolling');
    expect(t.revoked(false)).toEqual([]);
    expect(t.reply('st.producer', 'commitTransaction')).toEqual(['partitionsRevokedDone→st.consumer']);
  });

  it('onPartitionsLost with a transaction open: returns at once and closes the task dirty (the transaction aborted)', () => {
    const t = thread('pollingInTransaction');
    expect(t.revoked(true)).toEqual(['partitionsRevokedDone→st.consumer', 'abortTransaction→st.producer']);
    expect(t.state()).toBe('migrating.aborting');
  });

  it('onPartitionsLost under exactly_once_v2 with nothing uncommitted: handleLostAll still closes the task dirty and re-creates the producer', () => {
    const idle = threadAt({ running: 'polling' }, { ...initialContext(THREAD), stores: { 0: { a: 2 } } });
    const fx = idle.send({ type: 'onPartitionsRevoked', now: 5000, from: 'st.consumer', args: { partitions: [], lost: true } });
    expect(callsOf(fx).map((c) => `${c.name}→${c.to}`)).toEqual(['partitionsRevokedDone→st.consumer', 'close→st.producer']);
    expect(idle.state()).toBe('migrating.closingProducer');
    expect(idle.context().stores).toEqual({});
  });

  it('nothing to commit: it returns at once', () => {
    const idle = threadAt({ running: 'polling' }, initialContext(THREAD));
    const fx = idle.send({ type: 'onPartitionsRevoked', now: 5000, from: 'st.consumer', args: { partitions: [], lost: false } });
    expect(callsOf(fx).map((c) => c.name)).toEqual(['partitionsRevokedDone']);
    expect(idle.state()).toBe('running.polling');
  });
});

/** streams-task-migration without its faults: counter-b joins at 7.7 s while counter-a holds views in an open transaction. */
function secondInstanceJoins(guarantee: 'exactly_once_v2' | 'at_least_once'): Scenario {
  const base = findPreset('streams-task-migration')?.scenario as Scenario;
  return {
    ...base,
    id: `rebalance-${guarantee.replaceAll('_', '-')}`,
    faults: [],
    clients: base.clients.map((c) =>
      c.type === 'streams'
        ? {
            ...c,
            config: { ...c.config, 'processing.guarantee': guarantee, 'commit.interval.ms': 10000 },
            ...(c.id === 'counter-b' ? { startAt: 7700 } : {}),
          }
        : c,
    ),
  } as Scenario;
}

describe('a second instance joins while the first has uncommitted work (no fault): the task stays with the first', () => {
  for (const guarantee of ['exactly_once_v2', 'at_least_once'] as const)
    it(`${guarantee}: every view is counted once and written once`, () => {
      const run = runWith(secondInstanceJoins(guarantee));
      // counter-a's thread was told, and answered only after its commit
      const stepOf = (label: string, actor: string) => {
        for (let i = 0; i < run.trace.steps.length; i++) {
          const s = run.trace.steps.at(i);
          if (s?.label === label && s.actor === actor) return i;
        }
        return -1;
      };
      // COOPERATIVE and sticky: counter-a keeps page-views-0's task (the one task, both caught up), so
      // nothing is revoked — counter-a's thread goes on with its transaction through the rebalance
      expect(stepOf('onRebalanceStart', 'counter-a.app')).toBeGreaterThan(0);
      expect(stepOf('onPartitionsRevoked', 'counter-a.app')).toBe(-1);
      for (const l of run.summary.verdict.layers) expect(l.status, `${l.layer} ${l.subject ?? ''}`).not.toBe('more than once');
      expect(run.layer('output', 'view-counts')?.status).toBe('once');
      // the counts are each page's views: page-a 3, page-b 2, in the store and as the last committed output
      const stores = run.summary.streams.map(storeOf);
      expect(stores).toContainEqual({ 'page-a': 3, 'page-b': 2 });
      const output = run.data('view-counts-0').filter((r) => r.txnOutcome !== 'aborted');
      expect(output.map((r) => `${r.key}=${r.value}`)).toEqual(['page-a=1', 'page-b=1', 'page-a=2', 'page-a=3', 'page-b=2']);
    });
});
