/**
 * exactly_once_v2: a commit flushes the producer before the offsets join the transaction
 * (TaskExecutor.commitTasksAndMaybeUpdateCommittableOffsets → StreamTask.prepareCommit → flush →
 * RecordCollectorImpl.flush → StreamsProducer.flush → producer.flush(); then
 * commitOffsetsOrTransaction → StreamsProducer.commitTransaction: sendOffsetsToTransaction, then
 * commitTransaction). Before the fix the model called sendOffsetsToTransaction at once, so records
 * still lingering in the producer (linger.ms=100) were written only by commitTransaction's own flush
 * — after the TxnOffsetCommit — and a crash between the two lost them unwritten.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/sim/scenario/schema';
import { initialContext } from '../../src/sim/streams/streamThreadContext';
import { runWith } from '../presets/helpers';
import { storeOf } from './storeOf';
import { threadAt } from './threadAt';
import { THREAD_INPUT } from './threadInput';

describe('exactly_once_v2 commit order: flush, sendOffsetsToTransaction, commitTransaction', () => {
  it('the commit that falls due while poll() waits flushes first, and sends the offsets only once the flush returned', () => {
    const context = {
      ...initialContext(THREAD_INPUT),
      uncommitted: 2,
      pollOutstanding: true,
      positions: { 'in-0': 2 },
      groupMetadata: { groupId: 'app', generationId: 1, memberId: 'st-0' },
    };
    const t = threadAt({ running: 'pollingInTransaction' }, context);
    const send = (event: Record<string, unknown> & { type: string }) =>
      t.send(event).flatMap((e) => (e.type === 'call' ? [{ name: e.name, to: e.to, args: e.args }] : []));
    expect(send({ type: 'commitDue', now: 200, key: 'commitDue', data: {} }).map((c) => `${c.name}→${c.to}`)).toEqual([
      'flush→st.producer',
    ]);
    const offsets = send({ type: 'reply', now: 205, from: 'st.producer', args: { call: 'flush', ok: true, error: null } });
    expect(offsets.map((c) => `${c.name}→${c.to}`)).toEqual(['sendOffsetsToTransaction→st.producer']);
    expect(offsets[0]?.args).toMatchObject({ offsets: [{ topic: 'in', partition: 0, offset: 2 }], generationId: 1 });
    expect(
      send({ type: 'reply', now: 207, from: 'st.producer', args: { call: 'sendOffsetsToTransaction', ok: true, error: null } }).map(
        (c) => c.name,
      ),
    ).toEqual(['commitTransaction']);
    expect(t.state()).toBe('running.committingWhilePolling');
  });
});

describe('a crash after sendOffsetsToTransaction (the audit scenario)', () => {
  const scenario = JSON.parse(
    readFileSync(join(import.meta.dirname, 'scenarios', 'eos-crash-after-send-offsets.json'), 'utf8'),
  ) as Scenario;
  const run = runWith(scenario);
  const steps = [...Array(run.trace.steps.length).keys()].map((i) => run.trace.steps.at(i));
  const sendOffsets = steps.findIndex(
    (s) => s?.actor === 'counter.producer' && s.label === 'sendOffsetsToTransaction' && s.t > 4000 && s.kind === 'call',
  );

  it("view-4's changelog and output records are written and acknowledged before the offsets go into the transaction", () => {
    expect(sendOffsets).toBeGreaterThan(0);
    const before = steps.slice(0, sendOffsets);
    // the flush returned, with the records acknowledged, just before
    const flushed = before.findLastIndex((s) => s?.actor === 'counter.app' && (s.detail as { call?: string })?.call === 'flush');
    const acked = before.findLastIndex((s) => s?.actor === 'counter.producer' && s.label === 'ProduceResponse');
    expect(flushed).toBeGreaterThan(acked);
    expect(acked).toBeGreaterThan(before.findLastIndex((s) => s?.actor === 'counter.producer' && s.label === 'flush'));
    // the transaction's first partitions were the data partitions (added by broker-0's verification
    // of the Produce), not __consumer_offsets (added for the group coordinator's TxnOffsetCommit)
    const began = before.findLastIndex((s) => s?.actor === 'counter.producer' && s.label === 'beginTransaction');
    const adds = steps
      .slice(began)
      .filter((s) => s?.actor === 'txn-coordinator' && s.label === 'AddPartitionsToTxn')
      .map((s) => s?.from);
    expect(adds.slice(0, 2)).toEqual(['broker-0', 'group-coordinator']);
  });

  it("the restart aborts them: view-counts holds an aborted copy of view-4, and each view's count once committed", () => {
    const view4 = run.data('view-counts-0').filter((r) => r.headers.event_id === 'view-4');
    expect(view4.map((r) => r.txnOutcome)).toEqual(['aborted', 'committed']);
    expect(run.layer('output', 'view-counts')?.sentence).toContain('1 aborted copy (view-4)');
    expect(run.layer('output', 'view-counts')?.status).toBe('once');
    expect(storeOf(run.summary.streams[0])).toEqual({ 'page-a': 3, 'page-b': 2 });
  });
});
