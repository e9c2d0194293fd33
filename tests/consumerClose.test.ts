/**
 * KafkaConsumer.close() with enable.auto.commit=true (ConsumerCoordinator.close →
 * maybeAutoCommitOffsetsSync, then LeaveGroup), through a whole run: an exactly-once application
 * left auto-commit at its default, its transaction times out, its commit is fenced and it closes its
 * consumer — which commits the positions of what it polled. The member that takes over starts
 * there: the two events never reach the committed output. With auto-commit off the close commits
 * nothing and the new member reads them again.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import { summarize } from '../src/sim/trace/summary';

const send = (n: number) => ({ op: 'send', topic: 'orders', key: `k${n}`, value: `v${n}`, headers: { event_id: `evt-${n}` } });

function scenario(autoCommit: boolean) {
  const consumer = { 'group.id': 'g', 'auto.offset.reset': 'earliest', 'enable.auto.commit': autoCommit };
  return {
    version: 1,
    seed: 3,
    cluster: { 'transaction.version': 1 },
    topics: [
      { name: 'orders', partitions: 1 },
      { name: 'out', partitions: 1 },
    ],
    clients: [
      { id: 'src', type: 'producer', script: [send(1), send(2), { op: 'flush' }] },
      {
        id: 'worker',
        type: 'consumer',
        config: consumer,
        topics: ['orders'],
        // slower than its transaction.timeout.ms: the coordinator aborts, commitTransaction() is fenced
        processing: { mode: 'exactly-once', outputTopic: 'out', processingMs: 9000, producerConfig: { 'transaction.timeout.ms': 5000 } },
      },
      {
        id: 'worker2',
        type: 'consumer',
        config: consumer,
        topics: ['orders'],
        processing: { mode: 'exactly-once', outputTopic: 'out' },
        startAt: 25000,
      },
    ],
  };
}

const committedOutput = (autoCommit: boolean) => {
  const trace = runScenario(scenario(autoCommit));
  const summary = summarize(trace);
  const out = summary.partitions.find((p) => p.topic === 'out')?.records ?? [];
  return {
    trace,
    offsets: summary.groups.find((g) => g.groupId === 'g')?.committed,
    committed: out.filter((r) => r.control === null && r.txnOutcome === 'committed').map((r) => r.headers.event_id),
  };
};

describe('close() with auto-commit on commits what was polled, then leaves the group', () => {
  it('the fenced instance closes: its close commits orders-0 = 2, so neither event reaches the committed output', () => {
    const { trace, offsets, committed } = committedOutput(true);
    expect(offsets).toEqual({ 'orders-0': 2 });
    expect(committed).toEqual([]);
    // the worker's OffsetCommit goes out at its close() call, its LeaveGroup once that commit is answered
    const steps = [...trace.steps];
    const close = steps.findIndex((s) => s.actor === 'worker.consumer' && s.kind === 'call' && s.label === 'close');
    expect(close).toBeGreaterThan(0);
    const rpcAfter = (rpc: string, from: number) =>
      [...trace.envelopes].find((e) => e && e.rpc === rpc && e.from === 'worker.consumer' && e.sentStep >= from);
    const commit = rpcAfter('OffsetCommit', close);
    const answer = [...trace.envelopes].find((e) => e && e.rpc === 'OffsetCommitResponse' && e.inReplyTo === commit?.id);
    const leave = rpcAfter('LeaveGroup', close);
    expect(commit && answer && leave).toBeTruthy();
    // sent where the commit's answer is handled, not before
    expect(leave?.sentStep).toBe(answer?.deliveredStep);
    expect(commit?.sentStep).toBeLessThan(leave?.sentStep ?? 0);
  });

  it('with enable.auto.commit=false the close commits nothing: the next member reads both events and commits them once', () => {
    const { offsets, committed } = committedOutput(false);
    expect(offsets).toEqual({ 'orders-0': 2 });
    expect(committed.sort()).toEqual(['evt-1', 'evt-2']);
  });
});
