/**
 * A record in the leader's log at or above the high watermark is not committed (Kafka's
 * `Partition`/`UnifiedLog`: consumers of both isolation levels read only below the HW; a later
 * leader may truncate it, or it becomes committed if the ISR recovers). The log layer names it in a
 * category of its own — not "once", not "lost" — with what its send() was told.
 */
import { describe, expect, it } from 'vitest';
import { computeVerdict, type TopicFinding } from '../../src/sim/checks/verdict';
import { findingSentence, findingText } from '../../src/sim/checks/verdictText';
import { PRESETS } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';
import { append, input, partition, processed, sendResult, step } from './handmade';

const e1 = { offset: 0, eventId: 'e1', key: 'k', origin: { client: 'p', ref: 0 } };
const e2 = { offset: 1, eventId: 'e2', key: 'k', origin: { client: 'p', ref: 1 } };

function logOf(layers: readonly { layer: string; subject: string | null }[], topic = 'orders'): TopicFinding {
  return layers.find((l) => l.layer === 'log' && l.subject === topic) as TopicFinding;
}

describe('a record above the high watermark', () => {
  it('hand-made: e2 at offset 1 with HW 1 is above the HW, not once and not lost; its failed send is said', () => {
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, append('orders', e1)),
          step(1, 2, sendResult('p', 0, 'orders', 'e1', 0)),
          step(2, 3, append('orders', e2)),
          step(3, 4, sendResult('p', 1, 'orders', 'e2', null, 'TimeoutException')),
        ],
        partitions: [{ ...partition('orders', [e1, e2]), highWatermark: 1, lastStableOffset: 1 }],
      }),
    );
    const log = logOf(v.layers);
    expect(log.status).toBe('above-hw');
    expect(log.eventIds).toEqual(['e2']);
    expect(log.aboveHighWatermark).toEqual([
      {
        eventId: 'e2',
        topic: 'orders',
        partition: 0,
        offset: 1,
        highWatermark: 1,
        reason: 'log',
        secondCopy: false,
        writer: 'p',
        told: 'TimeoutException',
      },
    ]);
    expect(log.sentence).toBe(
      "Kafka log orders: e2 in the leader's log above the high watermark (orders-0@1, HW 1) — not committed, no reader sees it; its send() by p failed (TimeoutException); 1 other event once.",
    );
    expect(findingText(log, 'ko')).toBe(
      'Kafka 로그 orders: e2는 리더의 로그에서 하이 워터마크 위에 있습니다(orders-0@1, HW 1). 커밋되지 않아 어떤 컨슈머도 읽지 못합니다. p의 send()는 실패했습니다(TimeoutException). 다른 이벤트 1개는 한 번씩 있습니다.',
    );
    const loss = v.layers.find((l) => l.layer === 'loss');
    expect(loss?.status).toBe('once');
    expect(loss?.eventIds).toEqual([]);
  });

  it('hand-made: acknowledged with acks=1 above the HW says so; an application never owes a record it cannot read', () => {
    const v = computeVerdict(
      input({
        steps: [step(0, 1, append('orders', e1)), step(1, 2, sendResult('p', 0, 'orders', 'e1', 0))],
        partitions: [{ ...partition('orders', [e1]), highWatermark: 0, lastStableOffset: 0 }],
        apps: [{ id: 'app', groupId: 'g', isolationLevel: 'read_committed', topics: ['orders'], sink: null }],
      }),
    );
    const log = logOf(v.layers);
    expect(log.status).toBe('above-hw');
    expect(log.sentence).toBe(
      "Kafka log orders: e1 in the leader's log above the high watermark (orders-0@0, HW 0) — not committed, no reader sees it; its send() by p was acknowledged.",
    );
    expect(v.layers.find((l) => l.layer === 'processing')?.status).toBe('not-applicable');
    expect(v.layers.find((l) => l.layer === 'loss')?.status).toBe('once');
  });

  it('hand-made: below the HW it is once, as before', () => {
    const v = computeVerdict(
      input({
        steps: [
          step(0, 1, append('orders', e1)),
          step(1, 2, sendResult('p', 0, 'orders', 'e1', 0)),
          step(2, 3, processed('app', 'orders', 0, 'e1')),
        ],
        partitions: [partition('orders', [e1])],
      }),
    );
    const log = logOf(v.layers);
    expect(log.status).toBe('once');
    expect(log.aboveHighWatermark).toBeUndefined();
  });

  it('the preset min-insync-blocks-writes: e3 is above the HW (not once, not lost) and its send failed', () => {
    const preset = PRESETS.find((p) => p.id === 'min-insync-blocks-writes');
    const v = summarize(runScenario(preset!.scenario)).verdict;
    const log = logOf(v.layers);
    expect(log.status).toBe('above-hw');
    expect(log.eventIds).toEqual(['e3']);
    expect(log.aboveHighWatermark?.map((a) => [a.eventId, a.offset, a.highWatermark, a.told])).toEqual([['e3', 2, 2, 'TimeoutException']]);
    expect(log.sentence).toBe(
      "Kafka log orders: e3 in the leader's log above the high watermark (orders-0@2, HW 2) — not committed, no reader sees it; its send() by orders-service failed (TimeoutException); 2 other events once.",
    );
    // the loss layer keeps its status, and says e3 is not lost but not committed either
    const loss = v.layers.find((l) => l.layer === 'loss');
    expect(loss?.status).toBe('once');
    expect(loss?.sentence).toBe("Lost: nothing — e3 is in the leader's log above the high watermark, not committed.");
    expect(loss && findingSentence(loss, v, 'ko')).toBe(
      '유실: 없습니다. 다만 e3은 리더의 로그에서 하이 워터마크 위에 있어 커밋되지 않았습니다.',
    );
  });
});
