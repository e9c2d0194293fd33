/**
 * Two kinds of copy that are in the leader's log but not committed yet (Kafka's readers fetch only
 * below the high watermark, read_committed ones only below the LSO ≤ HW):
 * - a COMMIT marker at or above the HW: the transaction's records, below it, stay behind the LSO
 *   until the followers copy the marker (ProducerStateManager.unreplicatedTxns: the finished
 *   transaction holds the LSO at its first offset until onHighWatermarkUpdated passes the marker),
 *   and the coordinator stays in PrepareCommit until the WriteTxnMarkers append is replicated;
 * - a second copy of an event above the HW: no reader sees it, it is a duplicate only once the HW
 *   passes it (or never, if a leader change truncates it).
 * On the old code the first counted "once" and, for the steps until the marker was replicated, told
 * a read_committed reader "stalled … an open transaction (coordinator state PrepareCommit)"; the
 * second counted "twice".
 */
import { describe, expect, it } from 'vitest';
import { computeVerdict, type DeliveryFinding, type TopicFinding } from '../../src/sim/checks/verdict';
import { findingSentence, findingText } from '../../src/sim/checks/verdictText';
import { PRESETS } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { verdictAtStep } from '../../src/sim/trace/summary';
import { append, input, partition, sendResult, step } from './handmade';

const layer = <T>(layers: readonly { layer: string; subject: string | null }[], id: string, subject: string | null) =>
  layers.find((l) => l.layer === id && l.subject === subject) as T;

/** payments-0: e1 and e2 of a committed transaction at 0 and 1, its COMMIT marker at 2, the HW at 2. */
function markerAboveHw(final: boolean) {
  const e1 = { offset: 0, eventId: 'e1', outcome: 'committed' as const, origin: { client: 'p', ref: 0 } };
  const e2 = { offset: 1, eventId: 'e2', outcome: 'committed' as const, origin: { client: 'p', ref: 1 } };
  const marker = { offset: 2, control: 'COMMIT' as const };
  return computeVerdict(
    input({
      final,
      steps: [
        step(0, 1, append('payments', e1)),
        step(1, 2, append('payments', e2)),
        step(2, 3, sendResult('p', 0, 'payments', 'e1', 0)),
        step(3, 4, sendResult('p', 1, 'payments', 'e2', 1)),
      ],
      partitions: [
        {
          ...partition('payments', [e1, e2, marker]),
          highWatermark: 2,
          lastStableOffset: 0,
          unreplicatedTxns: [{ producerId: 1000, firstOffset: 0, lastOffset: 2 }],
        },
      ],
      consumers: [{ id: 'reader', isolationLevel: 'read_committed', groupId: 'reader', topics: ['payments'] }],
    }),
  );
}

describe('a committed transaction whose COMMIT marker is above the high watermark', () => {
  it('hand-made, at the end of a run: not once — its records wait for the marker; the reader is stalled by an ended transaction', () => {
    const v = markerAboveHw(true);
    const log = layer<TopicFinding>(v.layers, 'log', 'payments');
    expect(log.status).toBe('above-hw');
    expect(log.aboveHighWatermark?.map((a) => [a.eventId, a.offset, a.reason, a.markerOffset, a.secondCopy])).toEqual([
      ['e1', 0, 'marker', 2, false],
      ['e2', 1, 'marker', 2, false],
    ]);
    expect(log.sentence).toBe(
      'Kafka log payments: e1 and e2 (payments-0@0 and payments-0@1) in a committed transaction whose COMMIT marker is above the high watermark (payments-0@2, HW 2) — read_committed readers see them only once the followers copy the marker.',
    );
    expect(findingText(log, 'ko')).toBe(
      'Kafka 로그 payments: e1, e2(payments-0@0, payments-0@1)는 커밋된 트랜잭션에 있지만, 그 COMMIT 마커가 하이 워터마크 위에 있습니다(payments-0@2, HW 2). 팔로워가 마커를 복제해야 read_committed 컨슈머가 읽습니다.',
    );
    const delivery = layer<DeliveryFinding>(v.layers, 'delivery', 'reader');
    expect(delivery.status).toBe('stalled');
    expect(delivery.stalls[0]?.marker).toEqual({ offset: 2, type: 'COMMIT' });
    expect(delivery.stalls[0]?.hanging).toBe(false);
    expect(delivery.sentence).toContain(
      'the transaction has ended, but its COMMIT marker (payments-0@2) is above the high watermark (HW 2); the LSO moves once the followers copy it',
    );
    expect(delivery.sentence).not.toContain('an open transaction');
    // not at risk of loss: the records are below the HW, and the coordinator writes the marker again if it is cut
    const loss = layer<{ sentence: string }>(v.layers, 'loss', null);
    expect(loss.sentence).toBe('Lost: nothing.');
  });

  it('hand-made, mid-run: an ordinary commit in flight — no stall', () => {
    const v = markerAboveHw(false);
    expect(layer<TopicFinding>(v.layers, 'log', 'payments').status).toBe('above-hw');
    const delivery = layer<DeliveryFinding>(v.layers, 'delivery', 'reader');
    expect(delivery.stalls).toEqual([]);
    expect(delivery.status).not.toBe('stalled');
  });

  it('the preset transaction-state-under-replicated: between the marker append and its replication, the log waits for the marker and no reader is called stalled', () => {
    const preset = PRESETS.find((p) => p.id === 'transaction-state-under-replicated');
    const trace = runScenario(preset?.scenario);
    // from the step before the COMMIT marker is appended to payments-0 to the end
    const markerAt = trace.steps.findIndex((st) =>
      (st.facts as readonly Fact[]).some((f) => f.kind === 'append' && f.topic === 'payments' && f.control === 'COMMIT'),
    );
    expect(markerAt).toBeGreaterThan(0);
    const statuses: string[] = [];
    let markerSteps = 0;
    for (let s = markerAt; s <= trace.steps.length; s++) {
      const v = verdictAtStep(trace, stateAt(trace, s));
      const log = layer<TopicFinding>(v.layers, 'log', 'payments');
      const delivery = layer<DeliveryFinding>(v.layers, 'delivery', 'ledger');
      if (statuses.at(-1) !== log.status) statuses.push(log.status);
      if (log.aboveHighWatermark?.some((a) => a.reason === 'marker')) {
        markerSteps++;
        expect(log.eventIds).toEqual(['evt-debit-1', 'evt-credit-1']);
        // on the old code: "stalled … an open transaction (coordinator state PrepareCommit)"
        expect(delivery.status).not.toBe('stalled');
        expect(findingSentence(delivery, v, 'en')).not.toContain('open transaction');
      }
    }
    // open, then the marker waits for the followers for a few steps, then committed once
    expect(markerSteps).toBeGreaterThan(0);
    expect(statuses).toEqual(['not-applicable', 'above-hw', 'once']);
    expect(markerSteps).toBeLessThan(20);
  });
});

describe('a second copy of an event above the high watermark', () => {
  const e1 = { offset: 0, eventId: 'e1', origin: { client: 'p', ref: 0 } };
  const again = { offset: 1, eventId: 'e1', origin: { client: 'p', ref: 1 } };

  it('hand-made: committed once, its second copy not committed yet — not a duplicate, and said so', () => {
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, append('orders', e1)),
          step(1, 2, sendResult('p', 0, 'orders', 'e1', 0)),
          step(2, 3, append('orders', again)),
          step(3, 4, sendResult('p', 1, 'orders', 'e1', null, 'TimeoutException')),
        ],
        partitions: [{ ...partition('orders', [e1, again]), highWatermark: 1, lastStableOffset: 1 }],
      }),
    );
    const log = layer<TopicFinding>(v.layers, 'log', 'orders');
    expect(log.status).toBe('above-hw');
    expect(log.aboveHighWatermark?.map((a) => [a.eventId, a.offset, a.reason, a.secondCopy])).toEqual([['e1', 1, 'log', true]]);
    expect(log.notable[0]?.copies.map((c) => c.aboveHighWatermark ?? 'committed')).toEqual(['committed', 'log']);
    expect(log.sentence).toBe(
      "Kafka log orders: a second copy of e1 in the leader's log above the high watermark (orders-0@1, HW 1) — not committed, no reader sees it; a duplicate once the HW passes it; its send() by p failed (TimeoutException).",
    );
    expect(findingText(log, 'ko')).toBe(
      'Kafka 로그 orders: e1의 두 번째 사본이 리더의 로그에서 하이 워터마크 위에 있습니다(orders-0@1, HW 1). 커밋되지 않아 어떤 컨슈머도 읽지 못하지만, HW가 지나가면 중복이 됩니다. p의 send()는 실패했습니다(TimeoutException).',
    );
    // e1 has a committed copy: nothing to say in the loss layer
    expect(layer<{ sentence: string }>(v.layers, 'loss', null).sentence).toBe('Lost: nothing.');
  });

  it('hand-made: once the HW passes it, the same log is a duplicate', () => {
    const v = computeVerdict(
      input({
        steps: [step(0, 1, append('orders', e1)), step(1, 2, append('orders', again))],
        partitions: [partition('orders', [e1, again])],
      }),
    );
    const log = layer<TopicFinding>(v.layers, 'log', 'orders');
    expect(log.status).toBe('more-than-once');
    expect(log.aboveHighWatermark).toBeUndefined();
  });
});
