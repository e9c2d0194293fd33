/**
 * A checkpoint as a recording run keeps it: its numbers as fields, the rest — queue, connections,
 * process and actor snapshots — packed into the recorder's checkpoint bytes (stateCodec.ts) and
 * unpacked when read. A checkpoint's objects are mostly new since the checkpoint before (every
 * context an actor's handler replaced), so keeping them as objects costs ~23 KB per checkpoint on
 * the benchmark pipeline, ~90 bytes per step; packed they cost a fraction of that, and what the
 * checkpoint before already wrote (an object it met, unchanged since) is referred to, not written.
 *
 * Reading any packed field unpacks them all once; the last checkpoint unpacked is kept, so a
 * restore (which reads every field) decodes once. Unpacked values are fresh objects equal to the
 * originals (the same keys in the same order, Maps and shared structure kept), which is all a
 * restore needs: state is immutable and never compared by identity across a checkpoint.
 */
import type { Checkpoint } from './checkpoint';
import { StateReader, type StateSharing, StateWriter } from './stateCodec';
import type { ByteStore, ValueTables } from './valueCodec';

/** The fields a checkpoint keeps as they are (numbers and small values). */
type Plain = Pick<
  Checkpoint,
  | 'step'
  | 'now'
  | 'seq'
  | 'envelopeCounter'
  | 'deferredForeground'
  | 'firstSeq'
  | 'instantSteps'
  | 'pendingStop'
  | 'quietDeadline'
  | 'prng'
  | 'hash'
  | 'lastFaultAt'
  | 'lastStepAt'
>;

/** The fields it packs. */
export type PackedPart = Omit<Checkpoint, keyof Plain>;

let lastUnpacked: { readonly cp: PackedCheckpoint | null; readonly part: PackedPart | null } = { cp: null, part: null };

export class PackedCheckpoint implements Checkpoint {
  readonly step: number;
  readonly now: number;
  readonly seq: number;
  readonly envelopeCounter: number;
  readonly deferredForeground: number;
  readonly firstSeq: number;
  readonly instantSteps: number;
  readonly pendingStop: Checkpoint['pendingStop'];
  readonly quietDeadline: number | null;
  readonly prng: Checkpoint['prng'];
  readonly hash: [number, number];
  readonly lastFaultAt: number;
  readonly lastStepAt: number;

  /**
   * `unpack` gives the packed fields back; `bytes` is what they take (for memory budgets).
   */
  constructor(
    plain: Plain,
    private readonly unpack: () => PackedPart,
    readonly bytes: number,
  ) {
    this.step = plain.step;
    this.now = plain.now;
    this.seq = plain.seq;
    this.envelopeCounter = plain.envelopeCounter;
    this.deferredForeground = plain.deferredForeground;
    this.firstSeq = plain.firstSeq;
    this.instantSteps = plain.instantSteps;
    this.pendingStop = plain.pendingStop;
    this.quietDeadline = plain.quietDeadline;
    this.prng = plain.prng;
    this.hash = plain.hash;
    this.lastFaultAt = plain.lastFaultAt;
    this.lastStepAt = plain.lastStepAt;
  }

  /** The packed fields, unpacked (once for consecutive reads of one checkpoint). */
  part(): PackedPart {
    if (lastUnpacked.cp !== this) lastUnpacked = { cp: this, part: this.unpack() };
    return lastUnpacked.part as PackedPart;
  }

  /** The same checkpoint with some fields changed (a fork's view of a recorded one); unpacks only when read. */
  derive(plain: Partial<Plain>, part: (p: PackedPart) => PackedPart): PackedCheckpoint {
    return new PackedCheckpoint({ ...plainOf(this), ...plain }, () => part(this.part()), this.bytes);
  }

  get queue(): Checkpoint['queue'] {
    return this.part().queue;
  }
  get cancelled(): Checkpoint['cancelled'] {
    return this.part().cancelled;
  }
  get timerIndex(): Checkpoint['timerIndex'] {
    return this.part().timerIndex;
  }
  get foreground(): Checkpoint['foreground'] {
    return this.part().foreground;
  }
  get requestTimeouts(): Checkpoint['requestTimeouts'] {
    return this.part().requestTimeouts;
  }
  get network(): Checkpoint['network'] {
    return this.part().network;
  }
  get faultCounters(): Checkpoint['faultCounters'] {
    return this.part().faultCounters;
  }
  get openRequests(): Checkpoint['openRequests'] {
    return this.part().openRequests;
  }
  get processes(): Checkpoint['processes'] {
    return this.part().processes;
  }
  get actors(): Checkpoint['actors'] {
    return this.part().actors;
  }
}

function plainOf(cp: Checkpoint): Plain {
  return {
    step: cp.step,
    now: cp.now,
    seq: cp.seq,
    envelopeCounter: cp.envelopeCounter,
    deferredForeground: cp.deferredForeground,
    firstSeq: cp.firstSeq,
    instantSteps: cp.instantSteps,
    pendingStop: cp.pendingStop,
    quietDeadline: cp.quietDeadline,
    prng: cp.prng,
    hash: cp.hash,
    lastFaultAt: cp.lastFaultAt,
    lastStepAt: cp.lastStepAt,
  };
}

/**
 * `cp` packed at the end of `store` (one encoding, so structure shared between its fields stays
 * shared); what the checkpoints packed before it into this store wrote is referred to, not written
 * again (`sharing`: one per store).
 */
export function packCheckpoint(cp: Checkpoint, store: ByteStore, tables: ValueTables, sharing: StateSharing): PackedCheckpoint {
  const start = store.length;
  const refsBefore = sharing.refs.length;
  const w = new StateWriter(store, tables, sharing);
  const fields = [
    cp.queue,
    cp.cancelled,
    cp.timerIndex,
    cp.foreground,
    cp.requestTimeouts,
    cp.network,
    cp.faultCounters,
    cp.openRequests,
    cp.processes,
    cp.actors,
  ];
  w.writeShared(fields);
  const refs = w.refs;
  const unpack = (): PackedPart => {
    const f = new StateReader(store.bytes, tables, refs, start).read() as unknown[];
    return {
      queue: f[0],
      cancelled: f[1],
      timerIndex: f[2],
      foreground: f[3],
      requestTimeouts: f[4],
      network: f[5],
      faultCounters: f[6],
      openRequests: f[7],
      processes: f[8],
      actors: f[9],
    } as PackedPart;
  };
  return new PackedCheckpoint(plainOf(cp), unpack, store.length - start + (refs.length - refsBefore) * 8);
}
