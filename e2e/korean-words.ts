/**
 * What counts as English on a Korean page (e2e/korean.test.ts). Korean EOS Lab keeps Kafka's own
 * names in Latin script, as the seed articles write them: RPCs, config keys and values, error codes
 * and exceptions, states, API calls, and the run's own identifiers (client, topic, group and event
 * ids, keys, values). Everything else written in Latin letters is a word that should have been
 * translated. Text inside an element marked lang="en" is English on purpose (Kafka's own messages,
 * the "English" language button) and is not read.
 */
import { chartOf, nodesOf } from '../src/sim/charts/chart';
import { DOCUMENTED } from '../src/sim/charts/docs';
import { CLUSTER_CONFIG } from '../src/sim/config/clusterConfig';
import { CONSUMER_CONFIG } from '../src/sim/config/consumerConfig';
import { PRODUCER_CONFIG } from '../src/sim/config/producerConfig';
import { STREAMS_CONFIG } from '../src/sim/config/streamsConfig';
import { TOPIC_CONFIG } from '../src/sim/config/topicConfig';
import { ALL_RPCS } from '../src/sim/kernel/envelope';
import { METRIC_GROUPS, METRIC_MEANINGS } from '../src/sim/metrics/clientMetrics';
import { KAFKA_ERRORS } from '../src/sim/protocol/errors';
import { PROCESSING_MODES, type Scenario } from '../src/sim/scenario/schema';

/** Kafka's and the simulator's names that stay in Latin script in Korean text. */
const KAFKA_WORDS = [
  // the product and Kafka
  'EOS',
  'Lab',
  'Kafka',
  'Streams',
  'KafkaProducer',
  'KafkaConsumer',
  'Apache',
  'KRaft',
  // Kafka's terms the Korean articles keep in Latin script
  'offset',
  'offsets',
  'producerId',
  'epoch',
  'seq',
  'sequence',
  'generation',
  'event_id',
  'memberId',
  'LSO',
  'HW',
  'LEO',
  'ISR',
  'COMMIT',
  'ABORT',
  'CreateTime',
  'baseOffset',
  'producerEpoch',
  'coordinatorEpoch',
  'headers',
  'key',
  'value',
  'null',
  'changelog',
  'repartition',
  'outbox',
  'inbox',
  'upsert',
  'insert',
  'INSERT',
  'UPDATE',
  'CDC',
  'API',
  'HTTP',
  'GC',
  'DB',
  'KIP',
  'exactly_once_v2',
  'at_least_once',
  'read_committed',
  'read_uncommitted',
  'earliest',
  'latest',
  'none',
  'all',
  'true',
  'false',
  'eager',
  'range',
  'groupBy',
  'jitter',
  'backoff',
  'poll',
  'fetch',
  'dropped-records',
  // classic group and transaction states, coordinator states
  'Empty',
  'Stable',
  'PreparingRebalance',
  'CompletingRebalance',
  'Dead',
  'Ongoing',
  'PrepareCommit',
  'PrepareAbort',
  'CompleteCommit',
  'CompleteAbort',
  'PrepareEpochFence',
  // the simulator's formats and files
  'traceHash',
  'SVG',
  'PNG',
  'JSON',
  'URL',
  'iframe',
  'eos-lab',
  'postMessage',
  'Java',
  'Mermaid',
  'stateDiagram-v2',
  // the Korean articles write it in Latin script ("Exactly-once 처리")
  'Exactly-once',
  'ms',
  'px',
  'seed',
  // keyboard keys in the help dialog
  'Space',
  'Shift',
  'Home',
  'End',
  'Enter',
  'Esc',
  'Ctrl',
  'Tab',
  'Alt',
  // units and the like in numbers
  'GB',
  'KB',
  'MB',
  's',
  // the name of the other language, on its button and in the help
  'English',
  // kafka-consumer-groups.sh's LAG column; kafka-transactions.sh's subcommands and the hanging transaction they find
  'lag',
  'find-hanging',
  'abort',
  'hanging',
  // kafka-consumer-groups.sh --reset-offsets --execute and its options, named as an operator types them
  'kafka-consumer-groups',
  'reset-offsets',
  'execute',
  'shift-by',
  // kafka-transactions.sh abort's option, named as an operator types it
  'start-offset',
  // KafkaConsumer's and KafkaProducer's methods named in prose
  'seek',
  'flush',
  'subscribe',
  'unsubscribe',
  // Kafka Streams closes a task "dirty" (StreamTask.closeDirty) when it cannot commit it
  'dirty',
  'commitSync',
  'commitAsync',
  // an HTTP header the API sink takes
  'Idempotency-Key',
  // the scenario format's modes (processing, database, API), shown as the scenario names them
  ...PROCESSING_MODES,
  'insert',
  'upsert',
  'inbox',
  'offsets-in-db',
  'outbox',
  'plain',
  'idempotency-key',
  'lookup-before-retry',
];

/** Java client exceptions the narration names as Kafka does. */
const EXCEPTIONS = [
  'TimeoutException',
  'CommitFailedException',
  'RebalanceInProgressException',
  'ConfigException',
  'KafkaException',
  'TransactionAbortedException',
  'IllegalStateException',
  'ProducerFencedException',
  'StreamsException',
  'TaskMigratedException',
  'InvalidProducerEpochException',
  'OutOfOrderSequenceException',
  'NetworkClient',
  'TransactionManager',
  'RecordAccumulator',
  'Sender',
];

/** Words of the scenario itself: its ids, names, keys, values, header names and values, notes excepted. */
export function scenarioWords(s: Scenario): string[] {
  const out: string[] = [];
  const visit = (v: unknown, key: string) => {
    if (key === 'note' || key === 'title' || key === 'question' || key === 'expected') return;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) visit(x, key);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        visit(x, k);
      }
  };
  visit(s, '');
  return out;
}

/**
 * The run's own identifiers: process and actor ids, the client.ids they use (a Streams application's
 * "<id>-restore" consumer) and every topic the cluster holds (a Streams changelog topic among them).
 */
export function runWords(built: {
  readonly processes: readonly { readonly id: string; readonly actors: readonly string[] }[];
  readonly specs: readonly { readonly input?: unknown }[];
  readonly meta: { readonly topics: Readonly<Record<string, unknown>> };
}): string[] {
  type Input = { client?: unknown; config?: Record<string, unknown> } | undefined;
  const inputs = built.specs.map((s) => s.input as Input);
  const clients = inputs.map((i) => i?.client).filter((c): c is string => typeof c === 'string');
  // a producer's transactional.id is the run's own identifier too (default `<client>-txn`)
  const transactionalIds = inputs.map((i) => i?.config?.['transactional.id']).filter((c): c is string => typeof c === 'string');
  return [...built.processes.flatMap((p) => [p.id, ...p.actors]), ...clients, ...transactionalIds, ...Object.keys(built.meta.topics)];
}

/** The statechart view's words: every state, event and guard name of every machine, as the machines name them. */
export function chartWords(): string[] {
  const out = new Set<string>();
  for (const [, , machine] of DOCUMENTED) {
    const chart = chartOf(machine);
    for (const n of nodesOf(chart)) {
      out.add(n.key);
      for (const h of n.handles) out.add(h);
    }
    for (const e of chart.edges) {
      if (e.event) out.add(e.event);
      if (e.guard) out.add(e.guard);
    }
  }
  return [...out];
}

/** The actors' state names as the machines call them (shown in monospace beside each actor). */
export function stateWords(steps: Iterable<{ readonly before: string; readonly after: string }>): string[] {
  const out = new Set<string>();
  for (const s of steps) for (const w of `${s.before} ${s.after}`.split(/[^A-Za-z0-9_-]+/)) if (w) out.add(w);
  return [...out];
}

export function allowList(extra: readonly string[]): Set<string> {
  const configKeys = [...PRODUCER_CONFIG, ...CONSUMER_CONFIG, ...CLUSTER_CONFIG, ...TOPIC_CONFIG, ...STREAMS_CONFIG].flatMap((k) => [
    k.name,
    ...(k.values ?? []).map(String),
  ]);
  // Kafka's metric names and groups (the Metrics section shows them as Kafka registers them)
  const metrics = [...Object.keys(METRIC_MEANINGS), ...METRIC_GROUPS];
  const words = [...KAFKA_WORDS, ...EXCEPTIONS, ...ALL_RPCS, ...Object.keys(KAFKA_ERRORS), ...configKeys, ...metrics, ...extra];
  return new Set(words.flatMap((w) => [w, ...w.split(/[^A-Za-z0-9_.()-]+/)]).filter((w) => w.length > 0));
}

/** A Latin-script token that is an identifier by its shape: digits, dots, underscores, parentheses, camelCase, ALL_CAPS, a single letter (a key, "A"). */
function identifier(token: string): boolean {
  if (token.length === 1) return true;
  if (/[0-9_.()=#@/:]/.test(token)) return true;
  if (/^[A-Z][A-Z0-9_]+$/.test(token)) return true; // error codes, COMMIT
  if (/^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(token)) return true; // producerId, sendOffsetsToTransaction
  if (/^(?:[A-Z][a-z0-9]+){2,}$/.test(token)) return true; // InitProducerId, TimeoutException
  return false;
}

/**
 * The English words in a text that the allow-list does not name: each Latin-script token, split
 * at spaces and punctuation (dashes and dots stay inside tokens, as in "orders-0" and
 * "enable.idempotence").
 */
export function englishWords(text: string, allowed: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const raw of text.match(/[A-Za-z][A-Za-z0-9_.()'’=#@/:-]*/g) ?? []) {
    const token = raw.replace(/[.:'’-]+$/, '').replace(/\(\)$/, '()');
    if (!token || allowed.has(token) || allowed.has(token.replace(/\(\)$/, '')) || identifier(token)) continue;
    // a hyphenated name made of allowed parts ("exactly-once" is not, "orders-service" is an id)
    if (token.includes('-') && token.split('-').every((p) => allowed.has(p) || identifier(p))) continue;
    out.push(token);
  }
  return out;
}
