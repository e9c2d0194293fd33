/**
 * Plain-text views of a run in the spirit of Kafka's own tools: partitions as
 * `kafka-dump-log.sh --print-data-log` prints them, groups as `kafka-consumer-groups.sh --describe`,
 * then what each consumer received and the verdict. Every piece of text that comes from the scenario
 * (keys, values, header names and values, group ids, titles, event ids in the verdict) passes through
 * `t`, which writes control characters as visible escapes: the output goes to a terminal.
 */
import { STATUS_NAMES } from '../checks/verdictText';
import { keyOf, parseTopicPartition, recordAddress, topicPartitionKey } from '../protocol/topicPartition';
import type { EmptyBatchRow, PartitionRow, RecordRow } from './logView';
import type { TraceSummary } from './summary';
import { escapeForTerminal as t } from './terminalText';
import { textTable } from './textTable';

function batches(rows: readonly RecordRow[]): RecordRow[][] {
  const out: RecordRow[][] = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (last && (last[0] as RecordRow).baseOffset === r.baseOffset) last.push(r);
    else out.push([r]);
  }
  return out;
}

/** A batch the cleaner kept as a header alone: DumpLogSegments prints its header line, `count: 0`. */
function emptyBatchLine(b: EmptyBatchRow): string {
  return `baseOffset: ${b.baseOffset} lastOffset: ${b.lastOffset} count: 0 baseSequence: ${b.baseSequence} lastSequence: ${b.lastSequence} producerId: ${b.producerId} producerEpoch: ${b.producerEpoch} isTransactional: ${b.transactional} isControl: ${b.control !== null} CreateTime: ${b.timestamp}`;
}

export function dumpPartition(p: PartitionRow): string {
  const lines = [
    `Dumping ${topicPartitionKey(t(p.topic), p.partition)} (leader ${t(p.leader)})`,
    `Log starting offset: ${p.logStartOffset}`,
  ];
  const empty = p.emptyBatches ?? [];
  let e = 0;
  for (const b of batches(p.records)) {
    for (; e < empty.length && (empty[e] as EmptyBatchRow).baseOffset < (b[0] as RecordRow).baseOffset; e++)
      lines.push(emptyBatchLine(empty[e] as EmptyBatchRow));
    const first = b[0] as RecordRow;
    const last = b[b.length - 1] as RecordRow;
    const seq = (r: RecordRow) => r.sequence;
    lines.push(
      `baseOffset: ${first.baseOffset} lastOffset: ${last.offset} count: ${b.length} baseSequence: ${seq(first)} lastSequence: ${seq(last)} producerId: ${first.producerId} producerEpoch: ${first.producerEpoch} isTransactional: ${first.transactional} isControl: ${first.control !== null} CreateTime: ${first.timestamp}${first.txnOutcome ? ` (transaction ${first.txnOutcome})` : ''}`,
    );
    for (const r of b) {
      if (r.control) {
        lines.push(
          `| offset: ${r.offset} CreateTime: ${r.timestamp} keySize: 4 valueSize: 6 sequence: -1 headerKeys: [] endTxnMarker: ${r.control} coordinatorEpoch: ${r.coordinatorEpoch ?? 0}`,
        );
        continue;
      }
      const headerKeys = Object.keys(r.headers);
      const headers = headerKeys.length ? ` headers: ${headerKeys.map((k) => `${t(k)}:${t(r.headers[k] ?? '')}`).join(',')}` : '';
      lines.push(
        `| offset: ${r.offset} CreateTime: ${r.timestamp} keySize: ${r.key?.length ?? -1} valueSize: ${r.value?.length ?? -1} sequence: ${r.sequence} headerKeys: [${headerKeys.map(t).join(',')}] key: ${r.key === null ? 'null' : t(r.key)} payload: ${r.value === null ? 'null' : t(r.value)}${headers}`,
      );
    }
  }
  for (; e < empty.length; e++) lines.push(emptyBatchLine(empty[e] as EmptyBatchRow));
  lines.push(
    `logStartOffset=${p.logStartOffset} highWatermark=${p.highWatermark} lastStableOffset=${p.lastStableOffset} logEndOffset=${p.logEndOffset}`,
  );
  return lines.join('\n');
}

export function describeGroups(s: TraceSummary): string {
  const out: string[] = [];
  for (const g of s.groups) {
    const rows: string[][] = [['GROUP', 'TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'LOG-END-OFFSET', 'LAG', 'STATE', 'GENERATION']];
    const names = new Set([...Object.keys(g.committed), ...g.pendingTransactionalOffsets.flatMap((p) => Object.keys(p.offsets))]);
    for (const name of [...names].sort()) {
      const tp = parseTopicPartition(name);
      const p = s.partitions.find((x) => keyOf(x) === name);
      const committed = g.committed[name];
      rows.push([
        t(g.groupId),
        t(tp.topic),
        String(tp.partition),
        committed === undefined ? '-' : String(committed),
        // kafka-consumer-groups.sh reads it with ListOffsets(latest) at read_uncommitted: the high watermark
        p ? String(p.highWatermark) : '-',
        committed === undefined || !p ? '-' : String(Math.max(0, p.highWatermark - committed)),
        g.state,
        String(g.generation),
      ]);
    }
    out.push(
      rows.length > 1 ? textTable(rows) : `GROUP ${t(g.groupId)}: no committed offsets (state ${g.state}, generation ${g.generation})`,
    );
    const pending = g.pendingTransactionalOffsets;
    if (pending.length)
      out.push(
        `  pending transactional offsets: ${pending
          .map(
            (p) =>
              `producerId ${p.producerId}: ${Object.entries(p.offsets)
                .map(([k, v]) => `${t(k)}=${v}`)
                .join(', ')}`,
          )
          .join('; ')}`,
      );
  }
  return out.join('\n\n');
}

export function renderText(s: TraceSummary, options: { internal?: boolean } = {}): string {
  const parts: string[] = [];
  parts.push(`Scenario ${t(s.scenario.id ?? '(unnamed)')}${s.scenario.title ? ` — ${t(s.scenario.title)}` : ''}`);
  parts.push(
    `traceHash ${s.traceHash} · ${s.steps} steps · ${s.time} ms virtual · stopped: ${s.stopReason}${s.stopDetail ? ` (${s.stopDetail})` : ''}${s.atStep < s.steps ? ` · shown at step ${s.atStep}` : ''}`,
  );
  for (const p of s.partitions) if (!p.internal || options.internal) parts.push(dumpPartition(p));
  if (s.groups.length) parts.push(describeGroups(s));
  for (const c of s.consumers) {
    const got = c.received.map(
      (r) =>
        `${recordAddress(t(r.topic), r.partition, r.offset)} key=${r.key === null ? 'null' : t(r.key)}${r.headers.event_id ? ` event_id=${t(r.headers.event_id)}` : ''}`,
    );
    parts.push(
      `Consumer ${t(c.id)} (${t(c.isolationLevel)}${c.groupId ? `, group ${t(c.groupId)}` : ''}) received ${c.received.length} record(s)${got.length ? `:\n  ${got.join('\n  ')}` : '.'}`,
    );
  }
  const errs = s.clients.filter((c) => c.errors.length || c.notes.length);
  if (errs.length) parts.push(errs.map((c) => `Client ${t(c.id)}: ${[...c.notes, ...c.errors].map(t).join(', ')}`).join('\n'));
  parts.push(`Verdict:\n  ${s.verdict.layers.map((f) => `[${STATUS_NAMES[f.status][0]}] ${t(f.sentence)}`).join('\n  ')}`);
  return parts.join('\n\n');
}
