/**
 * exactly_once_v2 within Kafka, checked from the logs: the committed output of a Streams
 * application holds each input record's result at most once. Per event id, no more committed
 * output records than input records that carry it (a source that wrote an event twice may see it
 * counted twice; the application may not add a copy). Aborted output is what read_committed readers
 * never see, so it does not count. Every exactly_once_v2 instance of one application shares the
 * count: a task that moves between instances must not be committed by both.
 */
import { stateAt, type Trace } from '../../src/sim/run';
import { partitionRows } from '../../src/sim/trace/logView';

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
  const problems: string[] = [];
  for (const pair of pairs) {
    const [input, output] = JSON.parse(pair) as [string, string];
    const inputs = count(input, false);
    for (const [id, n] of count(output, true)) {
      const held = inputs.get(id) ?? 0;
      if (n > held)
        problems.push(`exactly_once_v2: ${id} is ${n} time(s) in the committed output ${output}, from ${held} input record(s) in ${input}`);
    }
  }
  return problems;
}
