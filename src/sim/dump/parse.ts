/**
 * A parser for `kafka-dump-log.sh --files …` output (Kafka's DumpLogSegments, core
 * kafka/tools/DumpLogSegments.scala: dumpLog, printBatchLevel), with or without `--deep-iteration`
 * and `--print-data-log`, as Kafka 3.x and 4.x print it, and for EOS Lab's own CLI, whose partition
 * dumps follow the same shape. The formats it accepts, line by line:
 *
 * - `Dumping <path>`; EOS Lab: `Dumping <topic>-<partition> (leader <id>)`
 * - `Log starting offset: N` (3.3+), `Starting offset: N` (before KAFKA-13845)
 * - batch: `baseOffset: … lastOffset: … count: … baseSequence: … lastSequence: … producerId: …
 *   producerEpoch: … partitionLeaderEpoch: … isTransactional: … isControl: … [deleteHorizonMs: …]
 *   position: … CreateTime: … size: … magic: 2 compresscodec: … crc: … isvalid: …`
 * - record: `| offset: … CreateTime: … keySize: … valueSize: … sequence: … headerKeys: [..]`, then
 *   for a control record ` endTxnMarker: COMMIT coordinatorEpoch: N`, for a data record with
 *   --print-data-log ` key: … payload: …` (each left out when null); 2.8–3.0 printed batch fields on
 *   every record line too (they are read and ignored); `--skip-record-metadata` prints `| key: … payload: …`
 * - `.txnindex` dumps: `version: … producerId: … firstOffset: … lastOffset: … lastStableOffset: …`
 * - what the tool writes to stderr, if pasted along: `Non-consecutive offsets in …`, `  a is followed by b`,
 *   `Found N invalid bytes at the end of …`, `Ignoring unknown file …`
 * - EOS Lab only: `logStartOffset=… highWatermark=… lastStableOffset=… logEndOffset=…`, ` (transaction …)`
 *   after a batch line, ` headers: k:v,…` after the payload, and the paragraphs of `npm run sim` that are
 *   not partition dumps (scenario, groups, consumers, verdict), which are skipped.
 *
 * Pure and synchronous (no DOM), so a Web Worker can run it. Never throws on input: every line it
 * cannot read is an issue with its line number and what was expected.
 */
import type { AbortedTxnEntry, DumpBatch, DumpIssue, DumpIssueCode, DumpRecord, DumpSegment, ParseResult } from './types';

export interface DumpSource {
  /** A file name, or "pasted". */
  readonly name: string;
  readonly text: string;
}

const MAX_ERRORS = 20;
const FIELD = /([A-Za-z]+): (\S+)/g;
const CLI_PARAGRAPHS = /^(Scenario |traceHash |GROUP |Consumer |Client |Verdict:| {2})/;
const EOS_LAB_DUMPING = /^Dumping (.+)-(\d+) \(leader (.+)\)$/;
const SUMMARY = /^logStartOffset=(\d+) highWatermark=(\d+) lastStableOffset=(\d+) logEndOffset=(\d+)$/;

function fields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(FIELD)) if (!out.has(m[1] as string)) out.set(m[1] as string, m[2] as string);
  return out;
}

/** topic and partition from a segment path: Kafka keeps a partition's segments in `<log.dir>/<topic>-<partition>/`. */
export function partitionOfPath(path: string): { topic: string; partition: number } | null {
  const parts = path.split(/[\\/]/).filter((p) => p.length > 0);
  for (let i = parts.length - 2; i >= 0; i--) {
    const m = /^(.+)-(\d+)$/.exec(parts[i] as string);
    if (m) return { topic: m[1] as string, partition: Number(m[2]) };
  }
  return null;
}

class Reader {
  readonly errors: DumpIssue[] = [];
  readonly warnings: DumpIssue[] = [];
  constructor(readonly source: string) {}

  issue(severity: 'error' | 'warning', line: number, code: DumpIssueCode, detail: string, text: string): void {
    const list = severity === 'error' ? this.errors : this.warnings;
    if (list.length < MAX_ERRORS) list.push({ source: this.source, line, code, severity, detail, text: text.slice(0, 120) });
  }

  int(f: Map<string, string>, name: string, line: number, text: string, required: boolean): number | null {
    const v = f.get(name);
    if (v === undefined || v === 'null') {
      if (required) this.issue('error', line, 'missing-field', name, text);
      return null;
    }
    if (!/^-?\d+$/.test(v)) {
      this.issue('error', line, 'not-a-number', `${name}: ${v}`, text);
      return null;
    }
    return Number(v);
  }

  bool(f: Map<string, string>, name: string, line: number, text: string): boolean {
    const v = f.get(name);
    if (v === undefined) this.issue('error', line, 'missing-field', name, text);
    else if (v !== 'true' && v !== 'false') this.issue('error', line, 'not-a-boolean', `${name}: ${v}`, text);
    return v === 'true';
  }
}

const TIMESTAMP_TYPES = ['CreateTime', 'LogAppendTime', 'NoTimestampType'];

function timestampOf(f: Map<string, string>): number | null {
  for (const t of TIMESTAMP_TYPES) {
    const v = f.get(t);
    if (v !== undefined && /^-?\d+$/.test(v)) return Number(v);
  }
  return null;
}

function parseBatch(r: Reader, text: string, line: number): DumpBatch | null {
  const f = fields(text);
  const magic = f.get('magic');
  if (magic !== undefined && magic !== '2') {
    r.issue('error', line, 'legacy-format', `magic ${magic}`, text);
    return null;
  }
  const before = r.errors.length;
  const b = {
    line,
    baseOffset: r.int(f, 'baseOffset', line, text, true) ?? 0,
    lastOffset: r.int(f, 'lastOffset', line, text, true) ?? 0,
    count: r.int(f, 'count', line, text, false),
    baseSequence: r.int(f, 'baseSequence', line, text, true) ?? -1,
    lastSequence: r.int(f, 'lastSequence', line, text, true) ?? -1,
    producerId: r.int(f, 'producerId', line, text, true) ?? -1,
    producerEpoch: r.int(f, 'producerEpoch', line, text, true) ?? -1,
    partitionLeaderEpoch: r.int(f, 'partitionLeaderEpoch', line, text, false),
    isTransactional: r.bool(f, 'isTransactional', line, text),
    isControl: r.bool(f, 'isControl', line, text),
    position: r.int(f, 'position', line, text, false),
    maxTimestamp: timestampOf(f),
    outcomeHint: (/ \(transaction (committed|aborted|open)\)$/.exec(text)?.[1] ?? null) as DumpBatch['outcomeHint'],
    records: [] as DumpRecord[],
  };
  if (r.errors.length > before) return null;
  if (b.lastOffset < b.baseOffset) {
    r.issue('error', line, 'offset-outside-batch', `lastOffset ${b.lastOffset} < baseOffset ${b.baseOffset}`, text);
    return null;
  }
  return b;
}

function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const i = pair.indexOf(':');
    if (i > 0) out[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return out;
}

/** Splits ` key: … payload: …` (either may be missing) off a record line. */
function dataOf(text: string, withHeaders: boolean) {
  let key: string | null | undefined;
  let value: string | null | undefined;
  let headers: Record<string, string> = {};
  let meta = text;
  // search after the header key list, whose names could hold "key: "
  const hk = text.indexOf('headerKeys: [');
  const from = hk >= 0 ? Math.max(hk, text.indexOf(']', hk)) : 0;
  const kAt = text.startsWith('key: ') ? 0 : text.indexOf(' key: ', from);
  const pAt = text.startsWith(' payload: ') ? 0 : text.indexOf(' payload: ', kAt >= 0 ? kAt : from);
  if (kAt < 0 && pAt < 0) return { meta, key, value, headers };
  meta = text.slice(0, kAt >= 0 ? kAt : pAt);
  key = kAt >= 0 ? text.slice(kAt + (kAt === 0 ? 5 : 6), pAt >= 0 ? pAt : undefined) : null;
  value = null;
  if (pAt >= 0) {
    value = text.slice(pAt + 10);
    if (withHeaders) {
      const h = value.lastIndexOf(' headers: ');
      if (h >= 0) {
        headers = parseHeaders(value.slice(h + 10));
        value = value.slice(0, h);
      }
    }
  }
  if (key === 'null' && withHeaders) key = null;
  if (value === 'null' && withHeaders) value = null;
  return { meta, key, value, headers };
}

function parseRecord(r: Reader, batch: DumpBatch, raw: string, line: number, eosLab: boolean): DumpRecord | null {
  const text = raw.replace(/^\|\s?/, '');
  const { meta, key, value, headers } = dataOf(text, eosLab);
  const f = fields(meta);
  const prev = batch.records[batch.records.length - 1];
  let offset: number | null;
  if (f.has('offset')) offset = r.int(f, 'offset', line, raw, true);
  else if (key !== undefined || value !== undefined)
    offset = prev ? prev.offset + 1 : batch.baseOffset; // --skip-record-metadata
  else {
    r.issue('error', line, 'missing-field', 'offset', raw);
    return null;
  }
  if (offset === null) return null;
  if (offset < batch.baseOffset || offset > batch.lastOffset) {
    r.issue('error', line, 'offset-outside-batch', `${offset} ∉ [${batch.baseOffset}, ${batch.lastOffset}]`, raw);
    return null;
  }
  if (prev && offset <= prev.offset) {
    r.issue('error', line, 'offsets-backwards', `${prev.offset} → ${offset}`, raw);
    return null;
  }
  const hkm = /headerKeys: \[([^\]]*)\]/.exec(meta);
  const markerType = f.get('endTxnMarker');
  const marker = markerType === 'COMMIT' || markerType === 'ABORT' ? markerType : null;
  return {
    offset,
    line,
    timestamp: timestampOf(f),
    sequence: r.int(f, 'sequence', line, raw, false),
    keySize: r.int(f, 'keySize', line, raw, false),
    valueSize: r.int(f, 'valueSize', line, raw, false),
    headerKeys: hkm?.[1] ? (hkm[1] as string).split(',') : [],
    headers,
    key,
    value,
    marker,
    coordinatorEpoch: r.int(f, 'coordinatorEpoch', line, raw, false),
  };
}

interface State {
  segment: DumpSegment | null;
  batch: DumpBatch | null;
  skipping: boolean;
  deep: boolean;
  data: boolean;
}

function newSegment(file: string, line: number, source: string, index: number): DumpSegment {
  const m = EOS_LAB_DUMPING.exec(`Dumping ${file}`);
  if (m)
    return {
      file,
      line,
      shape: 'eos-lab',
      topic: m[1] as string,
      partition: Number(m[2]),
      leader: m[3] as string,
      baseOffset: null,
      batches: [],
      abortedTxns: [],
      summary: null,
    };
  const p = partitionOfPath(file);
  const base = /(\d+)\.\w+$/.exec(file);
  return {
    file,
    line,
    shape: 'kafka',
    topic: p?.topic ?? source.replace(/\.[^.]*$/, ''),
    partition: p?.partition ?? index,
    leader: null,
    baseOffset: base ? Number(base[1]) : null,
    batches: [],
    abortedTxns: [],
    summary: null,
  };
}

function checkCount(r: Reader, b: DumpBatch | null): void {
  if (b && b.records.length > 0 && b.count !== null && b.records.length !== b.count)
    r.issue('warning', b.line, 'count-mismatch', `${b.count} ≠ ${b.records.length}`, `baseOffset: ${b.baseOffset}`);
}

function readSource(src: DumpSource, segments: DumpSegment[], st: State, r: Reader): number {
  const lines = src.text.split(/\r?\n/);
  const ensureSegment = (ln: number): DumpSegment => {
    if (!st.segment) {
      st.segment = newSegment(src.name, ln, src.name, segments.length);
      segments.push(st.segment);
    }
    return st.segment;
  };
  for (let i = 0; i < lines.length; i++) {
    if (r.errors.length >= MAX_ERRORS) break;
    const ln = i + 1;
    const text = lines[i] as string;
    if (text.trim() === '') {
      st.skipping = false;
      continue;
    }
    if (st.skipping) continue;
    if (text.startsWith('Dumping ')) {
      checkCount(r, st.batch);
      st.batch = null;
      st.segment = newSegment(text.slice(8).trim(), ln, src.name, segments.length);
      segments.push(st.segment);
      continue;
    }
    const c = text.charCodeAt(0);
    if (c === 124 /* | */) {
      if (!st.batch) {
        r.issue('error', ln, 'record-without-batch', '', text);
        continue;
      }
      const rec = parseRecord(r, st.batch, text, ln, st.segment?.shape === 'eos-lab');
      if (rec) {
        st.batch.records.push(rec);
        st.deep = true;
        if (rec.key !== undefined || rec.value !== undefined) st.data = true;
      }
      continue;
    }
    if (text.startsWith('baseOffset: ')) {
      checkCount(r, st.batch);
      const seg = ensureSegment(ln);
      const b = parseBatch(r, text, ln);
      const last = seg.batches[seg.batches.length - 1];
      if (b && last && b.baseOffset <= last.lastOffset) {
        r.issue('error', ln, 'offsets-backwards', `${last.lastOffset} → ${b.baseOffset}`, text);
        st.batch = null;
        continue;
      }
      st.batch = b;
      if (b) seg.batches.push(b);
      continue;
    }
    let m = /^(?:Log starting offset|Starting offset): (\d+)$/.exec(text);
    if (m) {
      const seg = ensureSegment(ln);
      seg.baseOffset = Number(m[1]);
      continue;
    }
    m = SUMMARY.exec(text);
    if (m) {
      ensureSegment(ln).summary = {
        logStartOffset: Number(m[1]),
        highWatermark: Number(m[2]),
        lastStableOffset: Number(m[3]),
        logEndOffset: Number(m[4]),
      };
      st.batch = null;
      continue;
    }
    if (text.startsWith('version: ') && text.includes(' firstOffset: ')) {
      const f = fields(text);
      const pid = r.int(f, 'producerId', ln, text, true);
      const first = r.int(f, 'firstOffset', ln, text, true);
      const last = r.int(f, 'lastOffset', ln, text, true);
      if (pid !== null && first !== null && last !== null) {
        const e: AbortedTxnEntry = { line: ln, producerId: pid, firstOffset: first, lastOffset: last };
        ensureSegment(ln).abortedTxns.push(e);
      }
      continue;
    }
    if (
      text.startsWith('Non-consecutive offsets in ') ||
      /^\s+\d+ is followed by \d+$/.test(text) ||
      text.startsWith('Ignoring unknown file ') ||
      text.startsWith('Mismatches in ')
    )
      continue;
    m = /^Found (\d+) invalid bytes at the end of (.*)$/.exec(text);
    if (m) {
      r.issue('warning', ln, 'trailing-bytes', m[1] as string, text);
      continue;
    }
    if (/^offset: \d+ position: \d+/.test(text) && text.includes('magic: ')) {
      r.issue('error', ln, 'legacy-format', 'magic 0/1', text);
      continue;
    }
    if (/^(offset: \d+ position: \d+|timestamp: \d+ offset: \d+)$/.test(text)) {
      r.issue('error', ln, 'not-a-log-segment', 'index', text);
      continue;
    }
    if (text.startsWith('producerId: ') && text.includes(' coordinatorEpoch: ')) {
      r.issue('error', ln, 'not-a-log-segment', 'snapshot', text);
      continue;
    }
    if (text === 'KRaft bootstrap snapshot' || text.startsWith('Snapshot end offset: ')) {
      r.issue('error', ln, 'not-a-log-segment', 'kraft', text);
      continue;
    }
    // the rest of `npm run sim`'s output: scenario line, groups, consumers, verdict
    if (CLI_PARAGRAPHS.test(text) && !st.batch?.records.length) {
      st.skipping = true;
      st.batch = null;
      continue;
    }
    r.issue('error', ln, 'unrecognised-line', '', text);
  }
  checkCount(r, st.batch);
  return lines.length;
}

/** Parses one or more dumps; segments keep their input order. */
export function parseDumps(sources: readonly DumpSource[]): ParseResult {
  const segments: DumpSegment[] = [];
  const errors: DumpIssue[] = [];
  const warnings: DumpIssue[] = [];
  let lines = 0;
  let deep = false;
  let data = false;
  for (const src of sources) {
    const r = new Reader(src.name);
    const st: State = { segment: null, batch: null, skipping: false, deep: false, data: false };
    lines += readSource(src, segments, st, r);
    deep ||= st.deep;
    data ||= st.data;
    errors.push(...r.errors);
    warnings.push(...r.warnings);
  }
  if (errors.length) return { ok: false, errors: errors.slice(0, MAX_ERRORS) };
  if (!segments.some((s) => s.batches.length > 0 || s.summary !== null))
    return {
      ok: false,
      errors: [{ source: sources[0]?.name ?? '', line: 1, code: 'empty', severity: 'error', detail: '', text: '' }],
    };
  return { ok: true, dump: { segments, warnings, lines, deep, data } };
}

export function parseDump(text: string, name = 'pasted'): ParseResult {
  return parseDumps([{ name, text }]);
}
