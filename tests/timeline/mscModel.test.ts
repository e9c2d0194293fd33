import { describe, expect, it } from 'vitest';
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import { buildMscModel, envelopeSpan, envelopeStateAt, mscSummary, sentBefore, visibleEnvelopes } from '../../src/ui/timeline/mscModel';
import { openingStory, openingStoryLostAck } from './fixtures';

describe('message-sequence model', () => {
  const trace = openingStory();
  const model = buildMscModel(trace);
  const produce = model.envelopes.find((e) => e.rpc === 'Produce') as EnvelopeRecord;

  it('has one lane per process, clients around the brokers and coordinators', () => {
    expect(model.lanes.map((l) => l.id)).toEqual(['orders-service', 'txn-coordinator', 'broker-0', 'group-coordinator', 'billing']);
    const i = model.envelopes.indexOf(produce);
    expect(model.lanes[model.fromLane[i] as number]?.id).toBe('orders-service');
    expect(model.lanes[model.toLane[i] as number]?.id).toBe('broker-0');
  });

  it('shows only envelopes sent before the step, in flight until delivered', () => {
    expect(sentBefore(model, produce.sentStep)).toBe(model.envelopes.indexOf(produce));
    expect(sentBefore(model, produce.sentStep + 1)).toBe(model.envelopes.indexOf(produce) + 1);
    expect(envelopeStateAt(model, produce, produce.sentStep + 1)).toBe('in-flight');
    expect(envelopeStateAt(model, produce, (produce.deliveredStep ?? 0) + 1)).toBe('delivered');
  });

  it('places arrows in virtual time or by step, an in-flight one as far as it got', () => {
    const delivered = envelopeSpan(model, produce, 'time', trace.steps.length, trace.endTime);
    expect(delivered).toEqual({ state: 'delivered', start: produce.sentAt, end: produce.deliverAt, progress: 1 });
    const byStep = envelopeSpan(model, produce, 'step', trace.steps.length, trace.endTime);
    expect([byStep.start, byStep.end]).toEqual([produce.sentStep + 1, (produce.deliveredStep ?? 0) + 1]);
    const flying = envelopeSpan(model, produce, 'step', produce.sentStep + 1, produce.sentAt);
    expect(flying.state).toBe('in-flight');
    expect(flying.end).toBe(produce.sentStep + 1);
    expect(flying.progress).toBe(0);
  });

  it('hides background traffic (heartbeats, idle fetches) unless asked', () => {
    const end = trace.steps.length;
    const all = visibleEnvelopes(model, end, true);
    const foreground = visibleEnvelopes(model, end, false);
    expect(all.length).toBe(model.envelopes.length);
    expect(foreground.length).toBeLessThan(all.length);
    expect(Array.from(foreground).every((i) => !model.envelopes.at(i)?.background)).toBe(true);
  });

  it('summarises the envelopes for the text alternative', () => {
    const end = trace.steps.length;
    const shown = visibleEnvelopes(model, end, false);
    const text = mscSummary(model, shown, end, sentBefore(model, end) - shown.length);
    expect(text).toContain('Produce ×2');
    expect(text).toContain('ProduceResponse ×2');
    expect(text).toMatch(/\d+ background messages \(heartbeats, idle fetches\) hidden/);
    const ko = mscSummary(model, shown, end, sentBefore(model, end) - shown.length, 'ko');
    expect(ko).toContain(`단계 ${end}까지 보낸 메시지 ${shown.length}개: `);
    expect(ko).toContain('Produce ×2');
    expect(ko).toMatch(/백그라운드 메시지\(하트비트, 빈 fetch\) \d+개 숨김/);
  });

  it('marks a dropped envelope dropped from the step that sent it, with its fault', () => {
    const lost = buildMscModel(openingStoryLostAck());
    const dropped = lost.envelopes.find((e) => e.fate === 'dropped') as EnvelopeRecord;
    expect(dropped.rpc).toBe('ProduceResponse');
    expect(envelopeStateAt(lost, dropped, dropped.sentStep + 1)).toBe('dropped');
    expect(envelopeSpan(lost, dropped, 'time', dropped.sentStep + 1, dropped.sentAt)).toMatchObject({ state: 'dropped', end: null });
    const shown = visibleEnvelopes(lost, dropped.sentStep + 1, false);
    expect(mscSummary(lost, shown, dropped.sentStep + 1, 0)).toContain(
      `faults: ProduceResponse #${dropped.id} broker-0 → orders-service.producer dropped (the ack of the first send is lost)`,
    );
  });
});
