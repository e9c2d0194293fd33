/**
 * An operator resets a consumer group's committed offsets: `kafka-consumer-groups.sh --group g
 * --topic t[:p] --reset-offsets --execute` with --to-earliest, --to-latest, --to-offset N or
 * --shift-by N (ConsumerGroupCommand.resetOffsets, Kafka 4.0):
 *
 * 1. DescribeGroups: only an inactive group is reset — state Empty, or Dead (a group the coordinator
 *    does not know). Any other state: the tool prints "Assignments can only be reset if the group
 *    'g' is inactive, but the current state is Stable." and changes nothing.
 * 2. prepareOffsetsToReset: --to-earliest is each partition's log start offset (ListOffsets
 *    EARLIEST); --to-latest its latest offset (ListOffsets LATEST, read_uncommitted: the high
 *    watermark); --to-offset N and --shift-by N (from the committed offset: a partition without one
 *    fails the command, "Cannot shift offset … since there is no current committed offset") are
 *    clamped to [earliest, latest] (checkOffsetsRange).
 * 3. alterConsumerGroupOffsets: an OffsetCommit with generation −1 and no member id, which the
 *    coordinator accepts while the group is Empty (ClassicGroup.validateOffsetCommit).
 *
 * Simplified (said in docs/kafka-model.md): the tool's three requests are one step at the group
 * coordinator at one instant, the partitions' bounds read from their leaders at that instant.
 */
import type { BrokerContext } from '../broker/broker.machine';
import { type AbortTransactionEvent, routeAbort } from '../broker/operatorAbort';
import type { ActorId } from '../kernel/envelope';
import { topicPartitionKey } from '../protocol/topicPartition';

export interface ResetOffsetsRequest {
  readonly groupId: string;
  readonly topic: string;
  /** The partitions to reset (--topic t:p names one; --topic t every one). */
  readonly partitions: readonly number[];
  readonly to?: 'earliest' | 'latest' | number;
  readonly shiftBy?: number;
}

/** A partition's offsets as ListOffsets answers them; null: its leader could not be asked (down, or none). */
export type PartitionBounds = { readonly earliest: number; readonly latest: number } | null;

/** The signal the kernel hands the group coordinator: the request, and the bounds read at its instant. */
export interface ResetOffsetsEvent extends ResetOffsetsRequest {
  readonly type: 'resetOffsets';
  /** The brokers that may lead the topic's partitions (where the bounds are read). */
  readonly brokers: readonly ActorId[];
  readonly bounds?: Readonly<Record<string, PartitionBounds>>;
}

export type ResetOutcome =
  | { readonly ok: true; readonly offsets: readonly { topic: string; partition: number; offset: number }[] }
  | { readonly ok: false; readonly why: string };

/** The group states the tool resets (ConsumerGroupCommand: "Empty", "Dead" — a group unknown to the coordinator). */
export function resettable(state: string): boolean {
  return state === 'Empty' || state === 'Dead';
}

export function notInactive(groupId: string, state: string): string {
  return `Assignments can only be reset if the group '${groupId}' is inactive, but the current state is ${state}.`;
}

/** The tool's option for a reset: --to-earliest, --to-latest, --to-offset N or --shift-by N. */
export function resetOption(req: Pick<ResetOffsetsRequest, 'to' | 'shiftBy'>): string {
  if (req.to === 'earliest' || req.to === 'latest') return `--to-${req.to}`;
  return req.to !== undefined ? `--to-offset ${req.to}` : `--shift-by ${req.shiftBy ?? 0}`;
}

/** The note of a reset: what the operator ran, and what came of it (narration/notes.ts translates it). */
export function resetNote(req: ResetOffsetsRequest, outcome: { readonly printed: string } | { readonly reset: string }): string {
  const ran = `an operator ran kafka-consumer-groups --reset-offsets ${resetOption(req)} on group ${req.groupId} (${req.topic})`;
  return 'printed' in outcome ? `${ran}; it printed "${outcome.printed}" and reset nothing` : `${ran}: it now starts at ${outcome.reset}`;
}

/** The offsets the tool commits (prepareOffsetsToReset, checkOffsetsRange), or why it fails. */
export function offsetsToReset(
  req: ResetOffsetsRequest,
  bounds: Readonly<Record<string, PartitionBounds>>,
  committed: Readonly<Record<string, number>>,
): ResetOutcome {
  const offsets: { topic: string; partition: number; offset: number }[] = [];
  for (const partition of req.partitions) {
    const key = topicPartitionKey(req.topic, partition);
    const b = bounds[key] ?? null;
    if (!b) return { ok: false, why: `Error getting offsets of topic partition: ${key} (its leader is not available)` };
    let offset: number;
    if (req.to === 'earliest') offset = b.earliest;
    else if (req.to === 'latest') offset = b.latest;
    else if (typeof req.to === 'number') offset = req.to;
    else {
      const current = committed[key];
      if (current === undefined)
        return { ok: false, why: `Cannot shift offset for partition ${key} since there is no current committed offset` };
      offset = current + (req.shiftBy ?? 0);
    }
    // checkOffsetsRange: above the latest → the latest, below the earliest → the earliest
    offsets.push({ topic: req.topic, partition, offset: Math.min(b.latest, Math.max(b.earliest, offset)) });
  }
  return { ok: true, offsets };
}

/**
 * Reads each partition's bounds from its leader at the reset's instant (the tool's ListOffsets):
 * the broker that leads it (with replication) or holds it (one replica); a leader that is down
 * answers nothing. `contextOf` gives a live broker's context, undefined for one that is down.
 */
export function readBounds(event: ResetOffsetsEvent, contextOf: (actor: ActorId) => unknown): ResetOffsetsEvent {
  const bounds: Record<string, PartitionBounds> = {};
  for (const partition of event.partitions) {
    const key = topicPartitionKey(event.topic, partition);
    bounds[key] = null;
    for (const broker of event.brokers) {
      const ctx = contextOf(broker) as BrokerContext | undefined;
      if (!ctx) continue;
      const leads = ctx.replication ? ctx.replication.leading[key] !== undefined : true;
      const log = ctx.partitions[key];
      if (!leads || !log) continue;
      bounds[key] = { earliest: log.logStartOffset, latest: log.highWatermark };
      break;
    }
  }
  return { ...event, bounds };
}

/**
 * The kernel's `prepareSignal` for a scenario: an offset reset gets its bounds; an operator's
 * transaction abort is routed to the partition's leader (broker/operatorAbort.ts); any other signal
 * is handed on as it is.
 */
export function prepareSignal<E extends { type: string }>(event: E, contextOf: (actor: ActorId) => unknown, now = 0): E {
  if (event.type === 'operatorAbortTransaction')
    return routeAbort(event as unknown as AbortTransactionEvent, contextOf, now) as unknown as E;
  return event.type === 'resetOffsets' ? (readBounds(event as unknown as ResetOffsetsEvent, contextOf) as unknown as E) : event;
}
