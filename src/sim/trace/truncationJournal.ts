/**
 * The records truncation cut from each replica, as the log view draws them (issue [replication]):
 * folded from the trace's `truncated` facts (a snapshot no longer holds what a replica cut) and the
 * controller's `leaderChange` facts, which say whether the leader the replica followed was elected
 * uncleanly. Append-only and in step order, so the truncations as of any step are a prefix.
 */
import { stepsBefore } from '../checks/indexJournal';
import { keyOf } from '../protocol/topicPartition';
import type { Fact } from './facts';
import { batchRows } from './logView';
import type { TruncationRow } from './replicationView';

type F<K extends Fact['kind']> = Extract<Fact, { kind: K }>;

/**
 * Why a replica's records were not on the leader it followed: a leader elected from outside the ISR
 * (unclean) lacked records the old leader may have committed; a leader elected from the ISR lacks
 * only records above the old high watermark (acks=0/1 writes no follower had fetched).
 */
export function truncationCause(
  cut: F<'truncated'>,
  elections: readonly { readonly leaderEpoch: number; readonly unclean: boolean }[],
): TruncationRow['cause'] {
  // the epoch the cut records were written in: the elections after it chose leaders without them
  let written = -1;
  for (const b of cut.batches) if (b.lastOffset >= cut.fromOffset) written = Math.max(written, b.partitionLeaderEpoch ?? -1);
  return elections.some((e) => e.unclean && e.leaderEpoch > written && e.leaderEpoch <= cut.leaderEpoch)
    ? 'unclean-election'
    : 'leader-change';
}

/** The row of one truncation fact folded at `step` (time `t`). */
export function truncationRow(
  f: F<'truncated'>,
  step: number,
  t: number,
  elections: readonly { readonly leaderEpoch: number; readonly unclean: boolean }[],
): TruncationRow {
  return {
    broker: f.broker,
    fromOffset: f.fromOffset,
    toOffset: f.toOffset,
    leaderEpoch: f.leaderEpoch,
    at: t,
    step,
    highWatermark: f.highWatermark,
    cause: truncationCause(f, elections),
    records: batchRows(f.batches).filter((r) => r.offset >= f.fromOffset && r.offset < f.toOffset),
  };
}

export class TruncationJournal {
  private readonly steps: number[] = [];
  private readonly rows: { key: string; row: TruncationRow }[] = [];
  /** Leader elections per "topic-partition", in order. */
  private readonly elections = new Map<string, { leaderEpoch: number; unclean: boolean }[]>();

  /** Folds one step's facts (steps in order). */
  fold(step: number, t: number, facts: readonly unknown[]): void {
    for (const raw of facts) {
      const f = raw as Fact;
      if (f.kind === 'leaderChange' && f.leader !== null) {
        const key = keyOf(f);
        const list = this.elections.get(key) ?? [];
        list.push({ leaderEpoch: f.leaderEpoch, unclean: f.election === 'unclean' });
        this.elections.set(key, list);
      } else if (f.kind === 'truncated') {
        const key = keyOf(f);
        this.steps.push(step);
        this.rows.push({ key, row: truncationRow(f, step, t, this.elections.get(key) ?? []) });
      }
    }
  }

  /** The truncations of the steps before `step`, per "topic-partition", in the order they happened. */
  before(step: number): ReadonlyMap<string, readonly TruncationRow[]> {
    const out = new Map<string, TruncationRow[]>();
    const n = stepsBefore(this.steps, step);
    for (let i = 0; i < n; i++) {
      const { key, row } = this.rows[i] as { key: string; row: TruncationRow };
      const list = out.get(key);
      if (list) list.push(row);
      else out.set(key, [row]);
    }
    return out;
  }
}
