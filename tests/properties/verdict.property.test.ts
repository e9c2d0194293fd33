/**
 * The verdict against an independent count. For random scenarios (every kind of producer, consumer,
 * processing mode, sink and Streams application, under random faults), what each reader received,
 * each application processed and each sink applied is counted here, straight from the trace's facts
 * and the partition logs — not with the verdict's own helpers — and compared with the verdict, at
 * the end of the run and midway. Losses are checked both ways: every loss the verdict reports is real
 * (no committed or plain copy in that topic, nobody in the group processed it, the sink never took
 * it in), and the losses that can be read off the log alone — events only in aborted transactions, a
 * send that failed and never reached the log, records no application of a group processed — are
 * all reported.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeliveryFinding, LossFinding, ProcessingFinding, SinkFinding, TopicFinding, Verdict } from '../../src/sim/checks/verdict';
import { findingText } from '../../src/sim/checks/verdictText';
import { parseTopicPartition, recordAddress } from '../../src/sim/protocol/topicPartition';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import type { PartitionRow } from '../../src/sim/trace/logView';
import { eventlessTopicsOf, summarize } from '../../src/sim/trace/summary';
import { scenarioArb } from './arbitraries';
import { cases, PROPERTY_SEED } from './modelProperty';

const id = (eventId: string | null | undefined, topic: string, partition: number, offset: number) =>
  eventId ?? recordAddress(topic, partition, offset);

function factsUpTo(trace: Trace, at: number): Fact[] {
  return trace.steps.slice(0, at).flatMap((s) => s.facts as Fact[]);
}

/** Rows of the business topics by "topic-partition@offset". */
function rowsOf(partitions: readonly PartitionRow[], ignored: ReadonlySet<string>) {
  const rows = new Map<string, PartitionRow['records'][number]>();
  for (const p of partitions)
    if (!p.internal && !ignored.has(p.topic))
      for (const r of p.records) if (r.control === null) rows.set(recordAddress(p.topic, p.partition, r.offset), r);
  return rows;
}

const count = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);
const repeatedKeys = (m: Map<string, number>) =>
  [...m]
    .filter(([, n]) => n > 1)
    .map(([k]) => k)
    .sort();

interface AppShape {
  readonly id: string;
  readonly group: string;
  readonly topics: readonly string[];
  readonly isolation: string;
  readonly latest: boolean;
}

function appsOf(trace: Trace): AppShape[] {
  const out: AppShape[] = [];
  for (const c of trace.scenario.clients) {
    if (c.type === 'consumer') {
      const cfg = trace.resolved.consumers[c.id];
      out.push({
        id: c.id,
        group: cfg?.['group.id'] ?? `solo:${c.id}`,
        topics: c.topics,
        isolation: cfg?.['isolation.level'] ?? 'read_uncommitted',
        latest: cfg?.['auto.offset.reset'] !== 'earliest',
      });
    } else if (c.type === 'streams') {
      const cfg = trace.resolved.streams[c.id];
      out.push({
        id: c.id,
        group: cfg?.['application.id'] ?? c.id,
        topics: [c.inputTopic],
        isolation: cfg?.['processing.guarantee'] === 'exactly_once_v2' ? 'read_committed' : 'read_uncommitted',
        latest: false,
      });
    }
  }
  return out;
}

function check(trace: Trace, at: number): void {
  const summary = summarize(trace, at);
  const v: Verdict = summary.verdict;
  const final = at >= trace.steps.length;
  const ignored = eventlessTopicsOf(trace);
  const facts = factsUpTo(trace, at);
  const rows = rowsOf(summary.partitions, ignored);
  const layer = <T>(l: string, subject: string | null) => v.layers.find((f) => f.layer === l && f.subject === subject) as T | undefined;
  const where = `${trace.scenario.seed} at ${at}/${trace.steps.length}`;

  // sentences exist in both languages
  for (const f of v.layers) {
    expect(f.sentence.length, where).toBeGreaterThan(5);
    expect(findingText(f, 'ko'), where).not.toMatch(/undefined|NaN|\[object/);
    expect(f.sentence, where).not.toMatch(/undefined|NaN|\[object/);
  }

  // what each reader received, by isolation level
  for (const c of summary.consumers) {
    const got = new Map<string, number>();
    let hidden = 0;
    let n = 0;
    for (const f of facts) {
      if (f.kind !== 'delivered' || f.consumer !== c.id || ignored.has(f.topic)) continue;
      n++;
      count(got, `${f.topic}|${id(f.headers.event_id, f.topic, f.partition, f.offset)}`);
      const outcome = rows.get(recordAddress(f.topic, f.partition, f.offset))?.txnOutcome;
      if (outcome === 'aborted' || outcome === 'open') hidden++;
    }
    const d = layer<DeliveryFinding>('delivery', c.id);
    expect(d, where).toBeDefined();
    if (!d) continue;
    if (c.isolationLevel === 'read_committed') expect(hidden, `${where}: ${c.id} read an aborted or open copy`).toBe(0);
    expect({ received: d.received, events: d.events, hidden: d.uncommittedCopies }, `${where}: ${c.id}`).toEqual({
      received: n,
      events: got.size,
      hidden,
    });
    expect(d.repeated.map((e) => `${e.topic}|${e.eventId}`).sort(), `${where}: ${c.id}`).toEqual(repeatedKeys(got));
    const expected = d.stalls.length ? 'stalled' : repeatedKeys(got).length ? 'more-than-once' : n ? 'once' : 'not-applicable';
    expect(d.status, `${where}: ${c.id}`).toBe(expected);
    for (const s of d.stalls) {
      const p = summary.partitions.find((x) => x.topic === s.topic && x.partition === s.partition);
      expect(p && p.lastStableOffset < p.highWatermark, where).toBe(true);
      const pin = p?.records.find((r) => r.offset === p.lastStableOffset);
      expect(pin?.txnOutcome, where).toBe('open');
      expect(pin?.producerId, where).toBe(s.producerId);
      expect(s.blocked, where).toBe(
        p?.records.filter((r) => r.control === null && r.offset >= s.lastStableOffset && r.offset < s.highWatermark).length,
      );
    }
  }

  // what each application processed: a repeat is an event it processed after itself, or another
  // instance of its group at an earlier step, had; counted over every processing of it in the group
  const apps = appsOf(trace);
  const processings: { step: number; app: string; key: string }[] = [];
  trace.steps.slice(0, at).forEach((s, step) => {
    for (const f of s.facts as Fact[])
      if (f.kind === 'processed' && !ignored.has(f.topic))
        processings.push({ step, app: f.app, key: `${f.topic}|${id(f.eventId, f.topic, f.partition, f.offset)}` });
  });
  for (const a of apps) {
    const members = new Set(apps.filter((m) => m.group === a.group).map((m) => m.id));
    const done = new Map<string, number>();
    const again = new Set<string>();
    for (const x of processings) {
      if (x.app !== a.id) continue;
      count(done, x.key);
      if (
        (done.get(x.key) as number) > 1 ||
        processings.some((y) => y.key === x.key && y.app !== a.id && members.has(y.app) && y.step < x.step)
      )
        again.add(x.key);
    }
    const p = layer<ProcessingFinding>('processing', a.id);
    expect(p, where).toBeDefined();
    if (!p) continue;
    expect(p.events, `${where}: ${a.id}`).toBe(done.size);
    expect(p.repeated.map((e) => `${e.topic}|${e.eventId}`).sort(), `${where}: ${a.id}`).toEqual([...again].sort());
    for (const e of p.repeated)
      expect(e.times, `${where}: ${a.id} ${e.eventId}`).toBe(
        processings.filter((y) => y.key === `${e.topic}|${e.eventId}` && members.has(y.app)).length,
      );
  }

  // what each sink applied
  for (const k of trace.scenario.sinks ?? []) {
    const applied = new Map<string, number>();
    let skipped = 0;
    for (const f of facts)
      if (f.kind === 'sideEffect' && f.sink === k.id && f.eventId) {
        if (f.applied) count(applied, f.eventId);
        else skipped++;
      }
    const s = layer<SinkFinding>('sink', k.id);
    expect(s, where).toBeDefined();
    if (!s) continue;
    expect({ events: s.events, skipped: s.skipped }, `${where}: ${k.id}`).toEqual({ events: applied.size, skipped });
    expect(s.repeated.map((e) => e.eventId).sort(), `${where}: ${k.id}`).toEqual(repeatedKeys(applied));
  }

  // every reported loss is real
  const loss = layer<LossFinding>('loss', null);
  expect(loss, where).toBeDefined();
  const effectiveIn = (topic: string, key: string) =>
    [...rows].some(
      ([at, r]) =>
        at.startsWith(`${topic}-`) &&
        id(r.headers.event_id, topic, Number(at.slice(topic.length + 1).split('@')[0]), r.offset) === key &&
        (r.txnOutcome === null || r.txnOutcome === 'committed'),
    );
  for (const l of loss?.losses ?? []) {
    if (l.layer === 'log' || l.layer === 'output')
      expect(effectiveIn(l.subject, l.eventId), `${where}: ${l.eventId} in ${l.subject}`).toBe(false);
    if (l.layer === 'processing') {
      const app = apps.find((a) => a.id === l.subject);
      const group = apps.filter((a) => a.group === app?.group).map((a) => a.id);
      expect(
        facts.some((f) => f.kind === 'processed' && group.includes(f.app) && id(f.eventId, f.topic, f.partition, f.offset) === l.eventId),
        `${where}: ${l.eventId} processed by ${group}`,
      ).toBe(false);
    }
    if (l.layer === 'sink')
      expect(
        facts.some((f) => f.kind === 'sideEffect' && f.sink === l.subject && f.eventId === l.eventId),
        `${where}: ${l.eventId} at ${l.subject}`,
      ).toBe(false);
  }
  const lostAt = (layerId: string, subject: string | null, key: string) =>
    (loss?.losses ?? []).some(
      (l) =>
        (layerId === 'topic' ? l.layer === 'log' || l.layer === 'output' : l.layer === layerId) &&
        (subject === null || l.subject === subject) &&
        l.eventId === key,
    );

  // events only in aborted transactions, and failed sends that never reached the log, are losses
  const appended = new Set<string>();
  for (const f of facts)
    if (f.kind === 'append' && f.control === null && !ignored.has(f.topic) && !f.topic.startsWith('__'))
      f.eventIds.forEach((e, i) => {
        appended.add(`${f.topic}|${id(e, f.topic, f.partition, f.baseOffset + i)}`);
      });
  const byKey = new Map<string, string[]>();
  for (const [at, r] of rows) {
    const { topic, partition: part } = parseTopicPartition(at.slice(0, at.lastIndexOf('@')));
    const k = `${topic}|${id(r.headers.event_id, topic, part, r.offset)}`;
    byKey.set(k, [...(byKey.get(k) ?? []), r.txnOutcome ?? 'plain']);
  }
  for (const [k, outcomes] of byKey)
    if (outcomes.every((o) => o === 'aborted')) {
      const [topic, key] = [k.slice(0, k.indexOf('|')), k.slice(k.indexOf('|') + 1)];
      expect(lostAt('topic', topic, key), `${where}: ${key} only aborted in ${topic}`).toBe(true);
    }
  for (const f of facts)
    if (f.kind === 'sendResult' && f.error !== null && f.eventId && !ignored.has(f.topic) && !appended.has(`${f.topic}|${f.eventId}`))
      expect(lostAt('topic', f.topic, f.eventId), `${where}: failed send of ${f.eventId}`).toBe(true);

  // at the end: what no application of a group processed is lost, unless the group is stalled on it
  if (final) {
    const groups = new Map<string, AppShape[]>();
    for (const a of apps) groups.set(a.group, [...(groups.get(a.group) ?? []), a]);
    for (const members of groups.values()) {
      if (members.some((m) => m.latest)) continue;
      const stalls = members.flatMap((m) => layer<ProcessingFinding>('processing', m.id)?.stalls ?? []);
      const topics = new Set(members.flatMap((m) => m.topics));
      const processedKeys = new Set(
        facts
          .filter((f) => f.kind === 'processed' && members.some((m) => m.id === f.app))
          .map((f) => {
            const p = f as Extract<Fact, { kind: 'processed' }>;
            return `${p.topic}|${id(p.eventId, p.topic, p.partition, p.offset)}`;
          }),
      );
      for (const p of summary.partitions) {
        if (!topics.has(p.topic) || p.internal) continue;
        const stall = stalls.find((s) => s.topic === p.topic && s.partition === p.partition);
        for (const r of p.records) {
          if (r.control !== null || (r.txnOutcome !== null && r.txnOutcome !== 'committed')) continue;
          if (stall && r.offset >= stall.lastStableOffset) continue;
          const key = id(r.headers.event_id, p.topic, p.partition, r.offset);
          if (processedKeys.has(`${p.topic}|${key}`)) continue;
          expect(lostAt('processing', null, key), `${where}: ${key} in ${p.topic} never processed by ${members.map((m) => m.id)}`).toBe(
            true,
          );
        }
      }
    }
  }
  // the topic findings cover every business topic that holds a record
  for (const p of summary.partitions)
    if (!p.internal && !ignored.has(p.topic) && p.records.some((r) => r.control === null))
      expect(
        v.layers.some((f) => (f.layer === 'log' || f.layer === 'output') && (f as TopicFinding).subject === p.topic),
        `${where}: ${p.topic}`,
      ).toBe(true);
}

describe('the verdict agrees with an independent count of the trace', () => {
  it('for what every reader received, every application processed, every sink applied, and what was lost', () => {
    fc.assert(
      fc.property(scenarioArb, fc.double({ min: 0.2, max: 0.9, noNaN: true }), (scenario, where) => {
        const trace = runScenario(scenario);
        check(trace, trace.steps.length);
        check(trace, Math.floor(trace.steps.length * where));
      }),
      { numRuns: cases(150), seed: PROPERTY_SEED + 7 },
    );
  }, 900000);
});
