/**
 * A copy gone from the log because a replica truncated it (a deposed leader's append, cut when it
 * follows the new leader, which wrote the producer's retry at that offset) is said to be cut by
 * truncation after a leader change — never "removed by compaction" — in English and Korean.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeVerdict, type TopicFinding } from '../../src/sim/checks/verdict';
import { findingText } from '../../src/sim/checks/verdictText';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';
import { append, input, partition, step } from './handmade';

const e1 = { offset: 0, eventId: 'e1', key: 'k', origin: { client: 'p', ref: 0 } };

describe('a copy truncation cut', () => {
  it('hand-made: e1 appended at offset 0 twice (the second after a leader change), the log holds the second', () => {
    const v = computeVerdict(
      input({ steps: [step(0, 1, append('orders', e1)), step(1, 2, append('orders', e1))], partitions: [partition('orders', [e1])] }),
    );
    const log = v.layers.find((l) => l.layer === 'log' && l.subject === 'orders') as TopicFinding;
    expect(log.status).toBe('once');
    expect(log.notable[0]?.copies.map((c) => [c.state, c.removedBy ?? null])).toEqual([
      ['removed', 'truncation'],
      ['plain', null],
    ]);
    expect(findingText(log, 'en')).toContain(
      "orders-0@0 cut from the log by truncation after a leader change (a replica's records the new leader did not have)",
    );
    expect(findingText(log, 'ko')).toContain('orders-0@0은 리더가 바뀐 뒤 복제본이 잘라 내어 로그에서 사라졌습니다');
    for (const lang of ['en', 'ko'] as const) expect(findingText(log, lang)).not.toMatch(/compaction|컴팩션/);
  });

  it('hand-made: a copy cleaned from the middle of the log is still removed by compaction', () => {
    const first = { offset: 0, eventId: 'e1', key: 'k' };
    const later = { offset: 1, eventId: 'e1', key: 'k' };
    const v = computeVerdict(
      input({
        steps: [step(0, 1, append('orders', first)), step(1, 2, append('orders', later))],
        partitions: [partition('orders', [later])],
      }),
    );
    const log = v.layers.find((l) => l.layer === 'log' && l.subject === 'orders') as TopicFinding;
    expect(log.notable[0]?.copies.find((c) => c.state === 'removed')?.removedBy).toBeUndefined();
    expect(findingText(log, 'en')).not.toContain('truncation');
  });

  it('the fuzz regression deposed-leader-append-then-retry-same-instant: the verdict says truncation, not compaction', () => {
    const file = join(import.meta.dirname, '..', 'properties', 'regressions', 'deposed-leader-append-then-retry-same-instant.json');
    const verdict = summarize(runScenario(JSON.parse(readFileSync(file, 'utf8')))).verdict;
    const log = verdict.layers.find((l) => l.layer === 'log' && l.subject === 'in1') as TopicFinding;
    expect(log.sentence).toBe(
      // the event's one copy is the retry's on the new leader: counted once, and the cut copy told
      "Kafka log in1: the one event once; in1-1@0 cut from the log by truncation after a leader change (a replica's records the new leader did not have).",
    );
    for (const lang of ['en', 'ko'] as const) for (const f of verdict.layers) expect(findingText(f, lang)).not.toMatch(/compaction|컴팩션/);
  });
});
