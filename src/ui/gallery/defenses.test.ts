/** The gallery's table covers every scenario the issues name, and reads PRESETS at run time. */
import { describe, expect, it } from 'vitest';
import { PRESETS, type Preset, settingsDiff } from '../../sim';
import { DEFENSE_ROWS, OTHER_PAIRS } from './defenses';
import { galleryRows } from './Gallery';

const NAMED = [
  'lost-ack-idempotent',
  'lost-ack-no-idempotence',
  'app-resend',
  'producer-restart-new-pid',
  'sequence-gap',
  'acks-0-loss',
  'compaction-is-not-dedup',
  'commit-two-partitions',
  'abort-hidden-from-read-committed',
  'open-transaction-pins-lso',
  'transaction-timeout',
  'zombie-fencing',
  'same-payload-twice-in-one-transaction',
  'coordinator-failover-mid-commit',
  'hanging-transaction',
  'at-most-once-consumer-crash',
  'at-least-once-consumer-crash',
  'ctp-without-transactions-crash',
  'ctp-exactly-once-crash',
  'commit-last-instead-of-next',
  'auto-commit-pitfall',
  'db-sink-duplicate',
  'db-sink-inbox',
  'db-sink-offsets-in-db',
  'api-lost-response',
  'api-idempotency-key',
  'outbox-cdc',
  'rebalance-zombie-fenced',
  'streams-eos-crash-restore',
  'streams-eos-repartition',
  'streams-alos-crash-duplicate',
  'upstream-duplicate-event-id',
  'opening-story',
  'db-sink-upsert',
  'api-lookup-before-retry',
  'counter-set-vs-incr',
  'late-duplicate-after-expiry',
  'retry-mints-new-event-id',
  'business-id-is-not-transactional-id',
  'rekey-by-event-id',
  'compaction-erases-events',
  'eos-auto-commit-rebalance',
  'offset-reset-replays-output',
  'streams-task-migration',
  // [replication]
  'acks-1-leader-failover-loss',
  'min-insync-blocks-writes',
  'idempotence-survives-failover',
  'hw-behind-leo-slow-follower',
  'unclean-election-loses-committed',
  'transaction-state-under-replicated',
  'epoch-bump-duplicate',
  'producer-state-expired',
  'producer-close-timeout-zero',
  'delivery-timeout-written',
  'rolling-restart-acks-1',
  'transactional-id-expired',
];

describe('the problem → defense table', () => {
  it("has the seed's seven rows, in English and Korean", () => {
    expect(DEFENSE_ROWS.length).toBeGreaterThanOrEqual(7);
    for (const r of DEFENSE_ROWS)
      for (const text of [r.problem, r.defense, r.boundary]) {
        expect(text.en.length).toBeGreaterThan(5);
        expect(text.ko.length).toBeGreaterThan(3);
      }
    expect(DEFENSE_ROWS.map((r) => r.defense.ko)).toContain('멱등 프로듀서');
    expect(DEFENSE_ROWS.map((r) => r.defense.ko)).toContain('로그 컴팩션');
  });

  it('has the defenses the syllabus adds: idempotent writes, how long ids are remembered, keys and order', () => {
    const keys = DEFENSE_ROWS.map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining(['idempotent-write', 'dedup-window', 'ordering']));
    const row = (key: string) => DEFENSE_ROWS.find((r) => r.key === key);
    expect(row('idempotent-write')?.defense.en).toContain('SET key value instead of INCR key');
    expect(row('ordering')?.defense.ko).toBe('메시지 키는 order_id로 유지하고 event_id는 헤더에');
  });

  it('places every named scenario in exactly one row', () => {
    const ids = DEFENSE_ROWS.flatMap((r) => r.scenarios.map((s) => s.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...NAMED].sort());
  });

  it('marks scenarios missing from the build as coming and lists unplaced presets apart', () => {
    const fake = (id: string): Preset => ({
      id,
      title: id,
      question: 'q',
      expected: 'e',
      expectedVerdict: [],
      scenario: PRESETS[0]!.scenario,
    });
    const { rows, others } = galleryRows([fake('db-sink-inbox'), fake('my-own')], 'ko');
    const db = rows.find((r) => r.key === 'db-then-commit')!;
    expect(db.problem).toBe('컨슈머가 DB를 반영한 뒤 offset 커밋에 실패');
    expect(db.scenarios.find((s) => s.id === 'db-sink-inbox')?.preset?.id).toBe('db-sink-inbox');
    expect(db.scenarios.find((s) => s.id === 'db-sink-duplicate')?.preset).toBeNull();
    expect(others.map((p) => p.id)).toEqual(['my-own']);
  });

  it('finds every shipped preset in this build', () => {
    const { rows, others } = galleryRows(PRESETS, 'en');
    const shown = rows.flatMap((r) => r.scenarios.filter((s) => s.preset).map((s) => s.id));
    expect([...shown, ...others.map((p) => p.id)].sort()).toEqual(PRESETS.map((p) => p.id).sort());
  });
});

describe('[your-data] the pairs the table opens as A/B comparisons', () => {
  const byId = new Map(PRESETS.map((p) => [p.id, p]));
  const pairs = [...DEFENSE_ROWS.flatMap((r) => r.pairs ?? []), ...OTHER_PAIRS];
  it('name a problem and a defense of their row, both shipped, one setting or more apart', () => {
    expect(pairs).toContainEqual(['db-sink-duplicate', 'db-sink-inbox']);
    for (const r of DEFENSE_ROWS)
      for (const [a, b] of r.pairs ?? []) {
        const ids = r.scenarios.map((s) => s.id);
        expect(ids, r.key).toContain(a);
        expect(ids, r.key).toContain(b);
      }
    for (const [a, b] of pairs) {
      const pa = byId.get(a);
      const pb = byId.get(b);
      expect(pa && pb, `${a} / ${b}`).toBeTruthy();
      if (pa && pb) expect(settingsDiff(pa.scenario, pb.scenario).length, `${a} / ${b}`).toBeGreaterThan(0);
    }
  });
  it('appear in the gallery rows that hold them', () => {
    const { rows } = galleryRows(PRESETS, 'en');
    const db = rows.find((r) => r.key === 'db-then-commit');
    expect(db?.pairs.map(([a, b]) => [a.id, b.id])).toContainEqual(['db-sink-duplicate', 'db-sink-inbox']);
  });
});
