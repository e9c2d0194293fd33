/**
 * What "Break it" asks of each shipped preset by default: the property its story is about, and the
 * class of faults its story scripts (a lost ack is a network fault, a consumer crash a crash …).
 * The search starts from the preset's configuration with its scripted failures taken out.
 *
 * What the answer must be is not written here: it is read from the preset's `expectedVerdict`
 * (expectedOutcome): when the preset shows the finding the property is about as a duplicate, a loss
 * or a stall, the preset is a pitfall and the search must find a counterexample showing it; when the
 * preset shows it once, the preset is a defense and the search must find none within its bound.
 */
import type { Preset } from '../presets';
import type { FaultKind, FaultSpaceOptions } from './faultSpace';
import type { Property } from './property';

export interface PresetGoal {
  readonly property: Property;
  readonly kinds: readonly FaultKind[];
  /** Only faults of these processes (the story's own): e.g. the coordinator whose failover it shows. */
  readonly processes?: readonly string[];
  /**
   * Keep the preset's scripted faults: they are its workload, not failures to search (an operator
   * stops the application for a deploy and resets its group's offsets).
   */
  readonly keepFaults?: boolean;
}

const NETWORK: readonly FaultKind[] = ['drop', 'delay', 'duplicate'];
const CRASH: readonly FaultKind[] = ['crash'];
const PAUSE: readonly FaultKind[] = ['pause'];
const PROCESS: readonly FaultKind[] = ['crash', 'pause'];
const ALL: readonly FaultKind[] = ['crash', 'pause', 'drop', 'delay', 'duplicate'];

/** The brokers of the replication presets: their stories are the brokers' failures. */
const BROKERS = ['broker-0', 'broker-1', 'broker-2'];

const g = (id: Property['id'], at: string, kinds: readonly FaultKind[], stallMs?: number, processes?: readonly string[]): PresetGoal => ({
  property: { id, at, ...(stallMs !== undefined ? { stallMs } : {}) },
  kinds,
  ...(processes ? { processes } : {}),
});

export const PRESET_GOALS: Readonly<Record<string, PresetGoal>> = {
  'opening-story': g('no-duplicates', 'orders', NETWORK),
  'lost-ack-idempotent': g('no-duplicates', 'orders', NETWORK),
  'lost-ack-no-idempotence': g('no-duplicates', 'orders', NETWORK),
  'epoch-bump-duplicate': g('no-duplicates', 'order-status', NETWORK),
  'producer-state-expired': g('no-duplicates', 'orders', NETWORK),
  // the coordinator forgets an idle producer's transactional.id: the story's fault is idleness, the
  // closest the search has is a pause of the producer (the idle time alone already loses evt-2)
  'transactional-id-expired': g('no-loss', 'orders', PAUSE),
  'app-resend': g('no-duplicates', 'orders', NETWORK),
  'producer-restart-new-pid': g('no-duplicates', 'orders', NETWORK),
  'producer-close-timeout-zero': g('no-duplicates', 'orders', NETWORK),
  'delivery-timeout-written': g('no-duplicates', 'orders', NETWORK),
  'sequence-gap': g('no-loss', 'orders', NETWORK),
  'acks-0-loss': g('nothing-lost', 'metrics', NETWORK),
  // the story is the brokers' (a crash of orders-service before its send loses a record the
  // application never handed over: not what min.insync.replicas is about)
  'min-insync-blocks-writes': g('no-loss', 'orders', CRASH, undefined, BROKERS),
  'acks-1-leader-failover-loss': g('no-loss', 'orders', CRASH),
  'idempotence-survives-failover': g('no-duplicates', 'orders', CRASH),
  'hw-behind-leo-slow-follower': g('no-loss', 'orders', CRASH, undefined, BROKERS),
  'unclean-election-loses-committed': g('no-loss', 'orders', CRASH),
  // the controlled shutdowns are the workload (an operator's rolling restart); the search looks for
  // the slow follower the story scripts: a delayed replica fetch of a broker
  'rolling-restart-acks-1': g('no-loss', 'clicks', ['delay'], undefined, BROKERS),
  'transaction-state-under-replicated': g('no-loss', 'payments', CRASH),
  'compaction-is-not-dedup': g('no-duplicates', 'account-tier', NETWORK),
  'commit-two-partitions': g('no-duplicates', 'payments', NETWORK),
  'abort-hidden-from-read-committed': g('no-loss', 'orders', NETWORK),
  'open-transaction-pins-lso': g('no-stall', 'committed-reader', PROCESS, 0),
  'transaction-timeout': g('no-loss', 'orders', PAUSE),
  'zombie-fencing': g('no-loss', 'orders', PAUSE),
  'same-payload-twice-in-one-transaction': g('no-duplicates', 'orders', NETWORK),
  // a crash of payment-service itself finds the application's own resend after a restart (a new
  // producer session): a real duplicate, but not this story's, which is the coordinator's failover
  'coordinator-failover-mid-commit': g('no-duplicates', 'payments', CRASH, undefined, ['txn-coordinator']),
  'hanging-transaction': g('no-stall', 'committed-reader', NETWORK, 0),
  'at-most-once-consumer-crash': g('processed-once', 'billing', CRASH),
  'at-least-once-consumer-crash': g('processed-once', 'billing', CRASH),
  'ctp-without-transactions-crash': g('no-duplicates', 'order-results', CRASH),
  'ctp-exactly-once-crash': g('no-duplicates', 'order-results', CRASH),
  'commit-last-instead-of-next': g('processed-once', 'billing', CRASH),
  'auto-commit-pitfall': g('processed-once', 'billing', CRASH),
  'db-sink-duplicate': g('no-duplicates', 'orders-db', CRASH),
  'db-sink-inbox': g('no-duplicates', 'orders-db', CRASH),
  'db-sink-offsets-in-db': g('no-duplicates', 'orders-db', CRASH),
  'api-lost-response': g('no-duplicates', 'payment-api', NETWORK),
  'api-idempotency-key': g('no-duplicates', 'payment-api', NETWORK),
  'rebalance-zombie-fenced': g('no-duplicates', 'order-results', PAUSE),
  'streams-eos-crash-restore': g('no-duplicates', 'view-counts', CRASH),
  'streams-alos-crash-duplicate': g('no-duplicates', 'view-counts', CRASH),
  'streams-eos-repartition': g('no-duplicates', 'view-counts', CRASH),
  'upstream-duplicate-event-id': g('no-duplicates', 'orders', NETWORK),
  'outbox-cdc': g('no-duplicates', 'order-events', CRASH),
  // the syllabus presets
  'db-sink-upsert': g('no-duplicates', 'orders-db', CRASH),
  // a lookup before the retry covers a lost response (the story), not a slow request: with 'delay'
  // the search finds the race — the lookup runs before the delayed first request reaches the API,
  // finds nothing, retries, and both charge (docs/search.md)
  'api-lookup-before-retry': g('no-duplicates', 'payment-api', ['drop']),
  'counter-set-vs-incr': g('no-duplicates', 'incr-store', CRASH),
  'late-duplicate-after-expiry': g('no-duplicates', 'ledger-db', NETWORK),
  // the retry's new event_id hides the duplicate from every layer that counts by event_id: the
  // search, which reads the verdict, cannot see it either (the checklist does)
  'retry-mints-new-event-id': g('no-duplicates', 'billing-db', NETWORK),
  'business-id-is-not-transactional-id': g('no-duplicates', 'payments', PAUSE),
  'rekey-by-event-id': g('processed-once', 'order-reader', NETWORK),
  'compaction-erases-events': g('no-loss', 'payment-approved', NETWORK),
  'eos-auto-commit-rebalance': g('no-loss', 'settlements', PAUSE),
  // the deploy's stop and the operator's reset are the story's workload, kept: the configuration
  // with them breaks no-duplicates at settlements before any fault
  'offset-reset-replays-output': { ...g('no-duplicates', 'settlements', CRASH), keepFaults: true },
  'streams-task-migration': g('no-duplicates', 'view-counts', PAUSE),
  // the cost pair is about what each guarantee costs, not a fault; asked of a crash of the enricher,
  // each holds what it promises: at-least-once loses nothing (a duplicate it may write, and the
  // search finds one), exactly-once writes its output once
  'throughput-at-least-once': g('nothing-lost', 'order-results', CRASH),
  'throughput-exactly-once': g('no-duplicates', 'order-results', CRASH),
};

/** The goal of a preset; a scenario that is not a preset gets "every property", every fault. */
export function goalFor(id: string | undefined): PresetGoal {
  return (id !== undefined ? PRESET_GOALS[id] : undefined) ?? { property: { id: 'any' }, kinds: ALL };
}

export function spaceOf(goal: PresetGoal): FaultSpaceOptions {
  return { kinds: goal.kinds, ...(goal.processes ? { processes: goal.processes } : {}) };
}

export type ExpectedOutcome =
  | { readonly kind: 'holds' }
  | { readonly kind: 'breaks'; readonly layer: string; readonly subject: string | null; readonly status: string };

const LAYERS: Readonly<Record<Property['id'], readonly string[]>> = {
  'no-duplicates': ['log', 'output', 'delivery', 'processing', 'sink'],
  'nothing-lost': ['log', 'output', 'processing', 'sink'],
  'no-loss': ['log', 'output', 'processing', 'sink'],
  'processed-once': ['processing'],
  'no-stall': ['delivery'],
  any: ['log', 'output', 'delivery', 'processing', 'sink'],
};

/** What the preset's expectedVerdict says the property's finding is: a defense that holds, or the pitfall. */
export function expectedOutcome(preset: Preset, goal: PresetGoal): ExpectedOutcome {
  const layers = LAYERS[goal.property.id];
  const bad = preset.expectedVerdict.find(
    // above the HW is neither a duplicate, a loss nor a stall: no property is broken by it
    (f) =>
      f.subject === goal.property.at &&
      layers.includes(f.layer) &&
      f.status !== 'once' &&
      f.status !== 'above-hw' &&
      f.status !== 'not-applicable',
  );
  return bad ? { kind: 'breaks', layer: bad.layer, subject: bad.subject, status: bad.status } : { kind: 'holds' };
}
