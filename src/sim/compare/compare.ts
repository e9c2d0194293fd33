/**
 * A/B: two runs of one scenario under two configurations (same seed, same faults), compared layer by
 * layer — the verdict's status per (layer, subject), the partition logs' ends and LSOs, and the cost
 * figures — as pure data over two run summaries and their costs, so the page and the CLI show the same
 * differences.
 */
import type { Status } from '../checks/verdictTypes';
import type { RunCost } from '../cost/cost';
import { keyOf } from '../protocol/topicPartition';
import type { TraceSummary } from '../trace/summary';

export interface LayerDiff {
  readonly layer: string;
  readonly subject: string | null;
  readonly a: Status | null;
  readonly b: Status | null;
  readonly sentenceA: string | null;
  readonly sentenceB: string | null;
  readonly differs: boolean;
}

export interface FigureDiff {
  readonly name: string;
  readonly a: number | null;
  readonly b: number | null;
  readonly differs: boolean;
}

export interface Comparison {
  readonly layers: readonly LayerDiff[];
  readonly partitions: readonly FigureDiff[];
  readonly cost: readonly FigureDiff[];
  readonly differences: number;
}

function figure(name: string, a: number | null | undefined, b: number | null | undefined): FigureDiff {
  const x = a ?? null;
  const y = b ?? null;
  return { name, a: x, b: y, differs: x !== y };
}

export function compareRuns(a: { summary: TraceSummary; cost: RunCost }, b: { summary: TraceSummary; cost: RunCost }): Comparison {
  const layerKey = (l: { layer: string; subject: string | null }) => `${l.layer}\u0000${l.subject ?? ''}`;
  const la = new Map(a.summary.verdict.layers.map((l) => [layerKey(l), l]));
  const lb = new Map(b.summary.verdict.layers.map((l) => [layerKey(l), l]));
  const keys = [...new Set([...la.keys(), ...lb.keys()])];
  const layers = keys.map((k) => {
    const x = la.get(k);
    const y = lb.get(k);
    const s = (x ?? y) as { layer: string; subject: string | null };
    return {
      layer: s.layer,
      subject: s.subject,
      a: x?.status ?? null,
      b: y?.status ?? null,
      sentenceA: x?.sentence ?? null,
      sentenceB: y?.sentence ?? null,
      differs: x?.status !== y?.status || x?.sentence !== y?.sentence,
    };
  });
  const names = [...new Set([...a.summary.partitions, ...b.summary.partitions].filter((p) => !p.internal).map(keyOf))];
  const part = (s: TraceSummary, n: string) => s.partitions.find((p) => keyOf(p) === n);
  const partitions = names.flatMap((n) => [
    figure(`${n} log end offset`, part(a.summary, n)?.logEndOffset, part(b.summary, n)?.logEndOffset),
    figure(`${n} LSO`, part(a.summary, n)?.lastStableOffset, part(b.summary, n)?.lastStableOffset),
  ]);
  const consumers = [...new Set([...a.cost.consumers, ...b.cost.consumers].map((c) => c.consumer))];
  const cc = (c: RunCost, id: string) => c.consumers.find((x) => x.consumer === id);
  const cost = [
    ...consumers.flatMap((id) => [
      figure(`${id} send()→visible p50 ms`, cc(a.cost, id)?.latency.p50, cc(b.cost, id)?.latency.p50),
      figure(`${id} send()→visible p99 ms`, cc(a.cost, id)?.latency.p99, cc(b.cost, id)?.latency.p99),
      figure(`${id} behind the LSO p99 ms`, cc(a.cost, id)?.lsoWait?.p99, cc(b.cost, id)?.lsoWait?.p99),
    ]),
    figure('committed records', a.cost.committedRecords, b.cost.committedRecords),
    figure('committed records per virtual second (whole run)', a.cost.committedPerSecond, b.cost.committedPerSecond),
    figure(
      'write-path requests per committed record',
      a.cost.writePathRequestsPerCommittedRecord,
      b.cost.writePathRequestsPerCommittedRecord,
    ),
    figure(
      'transaction requests per committed record',
      a.cost.transactionRequestsPerCommittedRecord,
      b.cost.transactionRequestsPerCommittedRecord,
    ),
  ];
  return {
    layers,
    partitions,
    cost,
    differences: layers.filter((l) => l.differs).length + partitions.filter((p) => p.differs).length + cost.filter((c) => c.differs).length,
  };
}

const n = (x: number | null) => (x === null ? '-' : String(Math.round(x * 100) / 100));

export function renderComparison(c: Comparison, labels: [string, string], esc: (s: string) => string = (s) => s): string {
  const out = [`A = ${esc(labels[0])}\nB = ${esc(labels[1])}\n${c.differences} difference(s), marked with *`];
  out.push(
    `Verdict:\n${c.layers
      .map(
        (l) =>
          `${l.differs ? '*' : ' '} ${l.layer}${l.subject ? ` ${esc(l.subject)}` : ''}: A ${l.a ?? '-'} | B ${l.b ?? '-'}${l.differs ? `\n    A: ${esc(l.sentenceA ?? '-')}\n    B: ${esc(l.sentenceB ?? '-')}` : ''}`,
      )
      .join('\n')}`,
  );
  out.push(`Partitions:\n${c.partitions.map((p) => `${p.differs ? '*' : ' '} ${esc(p.name)}: A ${n(p.a)} | B ${n(p.b)}`).join('\n')}`);
  out.push(
    `Cost (virtual time; no disk or CPU model):\n${c.cost.map((p) => `${p.differs ? '*' : ' '} ${esc(p.name)}: A ${n(p.a)} | B ${n(p.b)}`).join('\n')}`,
  );
  return out.join('\n\n');
}
