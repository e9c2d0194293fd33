/**
 * exactly_once_v2 within Kafka, checked from the logs: the committed output of a Streams
 * application holds each input record's result at most once. Per event id, no more committed
 * output records than input records that carry it (a source that wrote an event twice may see it
 * counted twice; the application may not add a copy). Aborted output is what read_committed readers
 * never see, so it does not count. Every exactly_once_v2 instance of one application shares the
 * count: a task that moves between instances must not be committed by both. An input record the
 * log cleaner removed (a compacted input topic: superseded by a newer value for its key) was there
 * to be processed: it counts, unless its transaction was aborted. So does an input record an unclean
 * leader election took out of the log (the elected replica never had it; unclean.leader.election.enable):
 * the application may have processed and committed it before the election, as Kafka allows.
 */
import { keyOf } from '../../src/sim/protocol/topicPartition';
import { stateAt, type Trace } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { partitionRows } from '../../src/sim/trace/logView';

/**
 * Per "topic-partition" of `topic`: each offset's event id as appended (the last append at an offset
 * wins), and the offsets an ABORT marker of their producer decided.
 */
function appendedRecords(trace: Trace, topic: string) {
  const byOffset = new Map<string, Map<number, string | null>>();
  const aborted = new Set<string>();
  const undecided = new Map<string, { offset: number; copy: { aborted: boolean } }[]>();
  // every data record ever appended, per partition (an election may write over an offset)
  const everAppended = new Map<string, { id: string | null; aborted: boolean }[]>();
  const unclean = new Set<string>();
  for (let i = 0; i < trace.steps.length; i++)
    for (const raw of trace.steps.at(i)?.facts ?? []) {
      const f = raw as Fact;
      if (f.kind === 'leaderChange' && f.topic === topic && f.election === 'unclean') unclean.add(keyOf(f));
      if (f.kind !== 'append' || f.topic !== topic) continue;
      const tp = keyOf(f);
      const txn = `${tp}|${f.producerId}`;
      if (f.control !== null) {
        if (f.control === 'ABORT')
          for (const u of undecided.get(txn) ?? []) {
            aborted.add(`${tp}@${u.offset}`);
            u.copy.aborted = true;
          }
        undecided.delete(txn);
        continue;
      }
      let m = byOffset.get(tp);
      if (!m) {
        m = new Map();
        byOffset.set(tp, m);
      }
      const copies = everAppended.get(tp) ?? [];
      everAppended.set(tp, copies);
      for (let o = f.baseOffset; o <= f.lastOffset; o++) {
        const id = f.eventIds[o - f.baseOffset] ?? null;
        m.set(o, id);
        const copy = { id, aborted: false };
        copies.push(copy);
        if (f.transactional) undecided.set(txn, [...(undecided.get(txn) ?? []), { offset: o, copy }]);
      }
    }
  return { byOffset, aborted, everAppended, unclean };
}

export function streamsOutputProblems(trace: Trace): string[] {
  const pairs = new Set<string>();
  for (const c of trace.scenario.clients)
    if (c.type === 'streams' && trace.resolved.streams[c.id]?.['processing.guarantee'] === 'exactly_once_v2')
      pairs.add(JSON.stringify([c.inputTopic, c.outputTopic]));
  if (pairs.size === 0) return [];
  const rows = partitionRows(stateAt(trace, trace.steps.length).actors);
  /** Data records of a topic per event id: those not aborted (input), or only committed ones (output). */
  const count = (topic: string, committedOnly: boolean) => {
    const n = new Map<string, number>();
    for (const p of rows) {
      if (p.topic !== topic) continue;
      for (const r of p.records) {
        const id = r.headers.event_id;
        if (r.control !== null || id === undefined) continue;
        if (committedOnly ? r.txnOutcome !== 'committed' : r.txnOutcome === 'aborted') continue;
        n.set(id, (n.get(id) ?? 0) + 1);
      }
    }
    return n;
  };
  /**
   * Input records the cleaner removed: below the log end, gone from the log, not aborted. And on a
   * partition that had an unclean election, every record ever appended there and not aborted.
   */
  const cleanedAway = (topic: string, inputs: Map<string, number>) => {
    const { byOffset, aborted, everAppended, unclean } = appendedRecords(trace, topic);
    for (const p of rows) {
      if (p.topic !== topic) continue;
      const tp = keyOf(p);
      if (unclean.has(tp)) {
        const ever = new Map<string, number>();
        for (const c of everAppended.get(tp) ?? []) if (c.id !== null && !c.aborted) ever.set(c.id, (ever.get(c.id) ?? 0) + 1);
        const inLog = new Map<string, number>();
        for (const r of p.records) {
          const id = r.headers.event_id;
          if (r.control === null && id !== undefined && r.txnOutcome !== 'aborted') inLog.set(id, (inLog.get(id) ?? 0) + 1);
        }
        // what the log holds is counted already; add what the election took out
        for (const [id, n] of ever) inputs.set(id, (inputs.get(id) ?? 0) + Math.max(0, n - (inLog.get(id) ?? 0)));
        continue;
      }
      const present = new Set(p.records.map((r) => r.offset));
      for (const [o, id] of byOffset.get(tp) ?? []) {
        if (id === null || present.has(o) || o >= p.logEndOffset || aborted.has(`${tp}@${o}`)) continue;
        inputs.set(id, (inputs.get(id) ?? 0) + 1);
      }
    }
    return inputs;
  };
  const problems: string[] = [];
  for (const pair of pairs) {
    const [input, output] = JSON.parse(pair) as [string, string];
    const inputs = cleanedAway(input, count(input, false));
    for (const [id, n] of count(output, true)) {
      const held = inputs.get(id) ?? 0;
      if (n > held)
        problems.push(`exactly_once_v2: ${id} is ${n} time(s) in the committed output ${output}, from ${held} input record(s) in ${input}`);
    }
  }
  return problems;
}
