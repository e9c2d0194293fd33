/**
 * What a `kafka-dump-log.sh --files <segment>.log` dump holds, as the parser reads it: per file its
 * batches (the batch-level line DumpLogSegments prints for every batch) and, with `--deep-iteration`
 * (implied by `--print-data-log`), the records of each batch; with `--print-data-log` their key and
 * payload. Pure data: the parser runs in Node and, later, in a Web Worker.
 */

/** Which tool printed the file: Kafka's DumpLogSegments, or EOS Lab's own CLI (`npm run sim`). */
export type DumpShape = 'kafka' | 'eos-lab';

export interface DumpRecord {
  readonly offset: number;
  /** 1-based line of the record in the input. */
  readonly line: number;
  readonly timestamp: number | null;
  readonly sequence: number | null;
  readonly keySize: number | null;
  readonly valueSize: number | null;
  readonly headerKeys: readonly string[];
  /** Header values: only EOS Lab's CLI prints them (`headers: k:v,…`); Kafka prints the keys only. */
  readonly headers: Readonly<Record<string, string>>;
  /** undefined: not printed (no --print-data-log); null: printed as absent. */
  readonly key: string | null | undefined;
  readonly value: string | null | undefined;
  /** A control record's end-transaction marker (`endTxnMarker: COMMIT coordinatorEpoch: 3`). */
  readonly marker: 'COMMIT' | 'ABORT' | null;
  readonly coordinatorEpoch: number | null;
}

export interface DumpBatch {
  readonly line: number;
  readonly baseOffset: number;
  readonly lastOffset: number;
  readonly count: number | null;
  readonly baseSequence: number;
  readonly lastSequence: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly partitionLeaderEpoch: number | null;
  readonly isTransactional: boolean;
  readonly isControl: boolean;
  /** Byte position in the segment (Kafka's shape only). */
  readonly position: number | null;
  readonly maxTimestamp: number | null;
  /** EOS Lab's ` (transaction committed|aborted|open)` after a data batch: the outcome the broker's log knew. */
  readonly outcomeHint: 'committed' | 'aborted' | 'open' | null;
  readonly records: DumpRecord[];
}

/** An entry of a `.txnindex` dump: an aborted transaction of one producer on this partition. */
export interface AbortedTxnEntry {
  readonly line: number;
  readonly producerId: number;
  readonly firstOffset: number;
  readonly lastOffset: number;
}

export interface DumpSegment {
  /** What followed `Dumping ` (a path for Kafka, `topic-partition (leader …)` for EOS Lab), or a made-up name. */
  readonly file: string;
  readonly line: number;
  readonly shape: DumpShape;
  readonly topic: string;
  readonly partition: number;
  readonly leader: string | null;
  /** `Log starting offset:` (3.3+) / `Starting offset:` (earlier): the segment's base offset. */
  baseOffset: number | null;
  readonly batches: DumpBatch[];
  readonly abortedTxns: AbortedTxnEntry[];
  /** EOS Lab's closing line: the partition's offsets as the broker knew them. */
  summary: { logStartOffset: number; highWatermark: number; lastStableOffset: number; logEndOffset: number } | null;
}

export type DumpIssueCode =
  | 'unrecognised-line'
  | 'record-without-batch'
  | 'missing-field'
  | 'not-a-number'
  | 'not-a-boolean'
  | 'offset-outside-batch'
  | 'offsets-backwards'
  | 'legacy-format'
  | 'not-a-log-segment'
  | 'empty'
  | 'count-mismatch'
  | 'trailing-bytes';

/** A problem with the input: the line, what was found, what was expected. Warnings do not stop the import. */
export interface DumpIssue {
  /** The pasted or dropped file the line is in. */
  readonly source: string;
  readonly line: number;
  readonly code: DumpIssueCode;
  readonly severity: 'error' | 'warning';
  /** The field, file kind or count the message names. */
  readonly detail: string;
  /** The offending line (cut to 120 characters). */
  readonly text: string;
}

export interface ParsedDump {
  readonly segments: DumpSegment[];
  readonly warnings: DumpIssue[];
  /** Lines read. */
  readonly lines: number;
  /** Whether any record lines were present (--deep-iteration) and whether keys/payloads were (--print-data-log). */
  readonly deep: boolean;
  readonly data: boolean;
}

export type ParseResult = { ok: true; dump: ParsedDump } | { ok: false; errors: DumpIssue[] };
