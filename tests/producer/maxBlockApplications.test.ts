/**
 * What the model's applications do when a blocking producer call throws TimeoutException: what
 * KafkaProducer's javadoc says is safe — the same call again (it waits for the same result) — not
 * abortTransaction(), which TransactionManager refuses while a commit that timed out is pending. On
 * the old code no call timed out, and a commitTransaction() that failed with TimeoutException aborted.
 */
import { describe, expect, it } from 'vitest';
import { consumerAppGuards } from '../../src/sim/application/consumerApp.machine';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

const reply = (call: string, error: string) => ({ type: 'reply', from: 'e.producer', now: 0, args: { call, ok: false, error } });

describe('the consumer application retries a call that timed out', () => {
  it('neither stops nor aborts on a TimeoutException of initTransactions, commitTransaction or abortTransaction', () => {
    const context = { plan: [], step: 0, commitIntervalMs: null, txnOpen: false, txnGeneration: null } as never;
    for (const call of ['initTransactions', 'commitTransaction', 'abortTransaction']) {
      const event = reply(call, 'TimeoutException') as never;
      expect(consumerAppGuards.fatalReply({ context, event })).toBe(false);
      expect(consumerAppGuards.abortsTransaction({ context, event })).toBe(false);
    }
    // sendOffsetsToTransaction keeps no pending transition: its TimeoutException is followed by an abort
    expect(consumerAppGuards.abortsTransaction({ context, event: reply('sendOffsetsToTransaction', 'TimeoutException') as never })).toBe(
      true,
    );
    expect(consumerAppGuards.abortsTransaction({ context, event: reply('commitTransaction', 'TRANSACTION_ABORTABLE') as never })).toBe(
      true,
    );
  });

  /** consume-transform-produce whose InitProducerId and EndTxn are each slower than max.block.ms (1000). */
  const scenario = {
    version: 1,
    id: 'ctp-max-block',
    seed: 34,
    topics: [
      { name: 'orders', partitions: 1 },
      { name: 'order-results', partitions: 1 },
    ],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        script: [
          { op: 'send', topic: 'orders', key: 'order-1', value: 'OrderCreated #1', headers: { event_id: 'evt-1' } },
          { op: 'flush' },
        ],
      },
      {
        id: 'enricher',
        type: 'consumer',
        config: { 'group.id': 'enricher', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
        topics: ['orders'],
        processing: {
          mode: 'exactly-once',
          outputTopic: 'order-results',
          producerConfig: { 'transactional.id': 'enricher-0', 'max.block.ms': 1000 },
        },
      },
      {
        id: 'auditor',
        type: 'consumer',
        config: { 'group.id': 'auditor', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest' },
        topics: ['order-results'],
        processing: { mode: 'at-least-once' },
      },
    ],
    faults: [
      { type: 'delay', rpc: 'EndTxn', from: 'enricher', nth: 1, delayMs: 2500 },
      { type: 'delay', rpc: 'InitProducerId', from: 'enricher', nth: 1, delayMs: 1500 },
    ],
  };

  it('calls initTransactions() and commitTransaction() again until they return; the output is committed once', () => {
    const trace = runScenario(scenario as never);
    const facts = trace.steps.flatMap((s) => (s.facts as Fact[]).map((f) => ({ t: s.t, f })));
    const timeouts = facts.flatMap((x) => (x.f.kind === 'clientError' && x.f.error === 'TimeoutException' ? [x.f.during] : []));
    expect(timeouts).toEqual([
      'initTransactions: Timeout expired after 1000ms while awaiting InitProducerId',
      'commitTransaction: Timeout expired after 1000ms while awaiting EndTxn(true)',
      'commitTransaction: Timeout expired after 1000ms while awaiting EndTxn(true)',
    ]);
    const appCalls = trace.steps
      .filter((s) => s.kind === 'call' && s.from === 'enricher.app' && s.actor === 'enricher.producer')
      .map((s) => s.label);
    expect(appCalls.filter((c) => c !== 'send')).toEqual([
      'initTransactions',
      'initTransactions',
      'beginTransaction',
      'sendOffsetsToTransaction',
      'commitTransaction',
      'commitTransaction',
      'commitTransaction',
    ]);
    expect(facts.some((x) => x.f.kind === 'note' && /stops|closes/.test(x.f.text))).toBe(false);
    const processed = facts.filter((x) => x.f.kind === 'processed' && x.f.app === 'auditor');
    expect(processed).toHaveLength(1);
  });
});
