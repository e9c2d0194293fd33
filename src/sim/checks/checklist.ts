/**
 * The seed article's pre-production checklist ("운영 전에 확인할 체크리스트"), evaluated against a
 * scenario and its run: each question answered pass / fail / not applicable (or, for a question the
 * run has not answered yet, pending) with a one-line reason. A failure names the shipped preset that
 * truly shows what goes wrong — never the scenario's own preset (that one is "shown here"), and, where
 * no shipped preset shows it, none: `wouldShow` then says what such a preset would show.
 *
 * Answers rest on the configuration (final at every step) or on what the run did up to the step
 * being looked at (`basis: 'run'`): before the run's end such an answer is a fail only when the
 * failure has already happened, and otherwise pending, said "as of step N".
 */

import { josa, type Language } from '../narration/language';
import { findPreset } from '../presets';
import { recordAddress } from '../protocol/topicPartition';
import { type SimView, stateAt, type Trace } from '../run';
import type { Scenario } from '../scenario/schema';
import { groupDigits } from '../text/groupDigits';
import { partitionRows } from '../trace/logView';
import { outputTopicsOf } from '../trace/summary';
import { type RunSoFar, runSoFar } from './runSoFar';

export type ChecklistId =
  | 'guarantee'
  | 'transactional-id'
  | 'offsets-in-transaction'
  | 'next-offset'
  | 'read-committed'
  | 'observed'
  | 'replication'
  | 'event-id'
  | 'dedup-memory'
  | 'side-effects';

export type ChecklistStatus = 'pass' | 'fail' | 'not-applicable' | 'pending';

export interface ChecklistItem {
  readonly id: ChecklistId;
  readonly question: string;
  readonly status: ChecklistStatus;
  readonly reason: string;
  /** What the answer rests on: the configuration (the same at every step) or what the run did so far. */
  readonly basis: 'configuration' | 'run';
  /** For a failure: another shipped preset that shows what goes wrong. */
  readonly preset: string | null;
  /** For a failure: this scenario is itself the preset that shows it. */
  readonly showsHere: boolean;
  /** For a failure no shipped preset shows: what a preset that does would show. */
  readonly wouldShow: string | null;
  /** The replication item's parts (user topics, min.insync.replicas and acks, unclean election, the two internal topics). */
  readonly parts?: readonly ChecklistPart[];
}

/** The questions, as the seed article asks them. */
export const CHECKLIST_QUESTIONS: Readonly<Record<ChecklistId, readonly [en: string, ko: string]>> = {
  guarantee: [
    'Which one is in use: the idempotent producer, Kafka transactions, or Kafka Streams EOS?',
    '지금 사용하는 것은 멱등 프로듀서인가, Kafka 트랜잭션인가, Kafka Streams EOS인가?',
  ],
  'transactional-id': [
    'Is transactional.id stable and unique per instance and task?',
    'transactional.id가 인스턴스와 태스크 소유권에 맞게 안정적이고 유일하게 부여되는가?',
  ],
  'offsets-in-transaction': [
    'Is auto-commit off, and are offsets sent with sendOffsetsToTransaction?',
    '컨슈머의 자동 커밋을 끄고 offset을 sendOffsetsToTransaction으로 넣는가?',
  ],
  'next-offset': [
    'Is the committed offset the next one to process, not the last processed record?',
    'offset 값은 마지막으로 처리한 레코드가 아니라 다음에 처리할 위치인가?',
  ],
  'read-committed': [
    'Do downstream consumers read transactional output with read_committed?',
    '후속 컨슈머가 read_committed로 트랜잭션 출력을 읽는가?',
  ],
  observed: [
    'Are transaction timeouts, aborts, producer fencing and commit failures observed?',
    '트랜잭션 타임아웃과 취소율, 프로듀서 펜싱, 커밋 실패를 관측하는가?',
  ],
  replication: [
    'Are replication and ISR settings of __transaction_state and the user topics sufficient?',
    '트랜잭션 상태 토픽과 사용자 토픽의 복제 및 ISR 설정이 충분한가?',
  ],
  'event-id': [
    'Does event_id survive business retries, or does each retry make a new one?',
    'event_id는 비즈니스 재시도에서도 유지되는가, 아니면 재시도마다 새 UUID가 만들어지는가?',
  ],
  'dedup-memory': [
    'How long, and over what scope, does the consumer remember processed event_ids?',
    '컨슈머가 이미 처리한 event_id를 어떤 범위와 기간 동안 기억하는가?',
  ],
  'side-effects': [
    'How are side effects outside Kafka (databases, APIs) made idempotent?',
    'DB와 외부 API처럼 Kafka 트랜잭션 밖의 부수 효과는 어떻게 멱등하게 만드는가?',
  ],
};

/** Shipped presets that show each failure (ids of src/sim/presets). */
export const CHECKLIST_PRESETS = {
  acksZero: 'acks-0-loss',
  idempotenceOff: 'lost-ack-no-idempotence',
  streamsAtLeastOnce: 'streams-alos-crash-duplicate',
  sharedTransactionalId: 'zombie-fencing',
  autoCommit: 'auto-commit-pitfall',
  ctpNoTxn: 'ctp-without-transactions-crash',
  atMostOnce: 'at-most-once-consumer-crash',
  commitLast: 'commit-last-instead-of-next',
  readUncommitted: 'abort-hidden-from-read-committed',
  timeout: 'transaction-timeout',
  fenced: 'zombie-fencing',
  fatal: 'transactional-id-expired',
  commitFailed: 'rebalance-zombie-fenced',
  aborted: 'abort-hidden-from-read-committed',
  dbInsert: 'db-sink-duplicate',
  apiPlain: 'api-lost-response',
  businessDuplicate: 'upstream-duplicate-event-id',
  eosAutoCommit: 'eos-auto-commit-rebalance',
  newEventId: 'retry-mints-new-event-id',
  increment: 'counter-set-vs-incr',
  forgotten: 'late-duplicate-after-expiry',
  producerExpired: 'producer-state-expired',
  compactedEvents: 'compaction-erases-events',
} as const;

type Say = (en: string, ko: string) => string;

interface Item {
  readonly status: ChecklistStatus;
  readonly reason: string;
  readonly preset?: string;
  readonly wouldShow?: string;
  readonly parts?: readonly ChecklistPart[];
}

const na = (reason: string): Item => ({ status: 'not-applicable', reason });
const pass = (reason: string): Item => ({ status: 'pass', reason });
const fail = (reason: string, preset: string): Item => ({ status: 'fail', reason, preset });
/** A failure no shipped preset shows yet. */
const failUnshown = (reason: string, wouldShow: string): Item => ({ status: 'fail', reason, wouldShow });

interface Writer {
  readonly client: string;
  readonly kind: 'producer' | 'consumer' | 'streams';
  readonly transactionalId: string | null;
  readonly idempotent: boolean;
  readonly acks: number;
  readonly retries: number;
  readonly deliveryTimeoutMs: number;
  readonly startAt: number;
  readonly topics: readonly string[];
}

interface ProducerSettings {
  readonly 'transactional.id': string | null;
  readonly 'enable.idempotence': boolean;
  readonly acks: number;
  readonly retries: number;
  readonly 'delivery.timeout.ms': number;
}

/** The configuration a client's producer actor was built with (producers, consume-produce applications, Streams). */
function producerConfigOf(trace: Trace, clientId: string): ProducerSettings | null {
  const spec = trace.built.specs.find((sp) => sp.id === `${clientId}.producer`);
  return (spec?.input as { config?: ProducerSettings } | undefined)?.config ?? null;
}

/** Every producer of the scenario: producer clients, consume-produce applications and Streams tasks. */
function writers(trace: Trace): Writer[] {
  const out: Writer[] = [];
  for (const c of trace.scenario.clients) {
    const cfg = producerConfigOf(trace, c.id);
    if (!cfg) continue;
    const topics =
      c.type === 'producer'
        ? [...new Set(c.script.flatMap((op) => (op.op === 'send' ? [op.topic] : [])))]
        : c.type === 'consumer'
          ? c.processing?.outputTopic
            ? [c.processing.outputTopic]
            : []
          : [c.outputTopic];
    out.push({
      client: c.id,
      kind: c.type,
      transactionalId: cfg['transactional.id'],
      idempotent: cfg['enable.idempotence'],
      acks: cfg.acks,
      retries: cfg.retries,
      deliveryTimeoutMs: cfg['delivery.timeout.ms'],
      startAt: c.startAt ?? 0,
      topics,
    });
  }
  return out;
}

function streamsGuarantee(trace: Trace, id: string): string {
  return trace.resolved.streams[id]?.['processing.guarantee'] ?? 'at_least_once';
}

type ConsumerSpec = Extract<Scenario['clients'][number], { type: 'consumer' }>;

function modeOf(trace: Trace, c: ConsumerSpec): string {
  return c.processing?.mode ?? (trace.resolved.consumers[c.id]?.['enable.auto.commit'] ? 'auto-commit' : 'at-least-once');
}

function consumers(trace: Trace): ConsumerSpec[] {
  return trace.scenario.clients.filter((c): c is ConsumerSpec => c.type === 'consumer');
}

function sinkOf(trace: Trace, id: string | undefined) {
  return id ? (trace.scenario.sinks ?? []).find((k) => k.id === id) : undefined;
}

function sinkMode(k: NonNullable<Scenario['sinks']>[number]): string {
  return k.mode ?? (k.type === 'database' ? 'insert' : k.type === 'http-api' ? 'plain' : 'outbox');
}

const join = (items: readonly string[]) => items.join(', ');
const ids = (cs: readonly { id: string }[]) => join(cs.map((c) => c.id));

// ---------------------------------------------------------------- configuration

function guarantee(trace: Trace, say: Say): Item {
  const ws = writers(trace);
  if (ws.length === 0) return na(say('No producer writes in this scenario.', '이 시나리오에는 기록하는 프로듀서가 없습니다.'));
  const fireAndForget = ws.filter((w) => w.acks === 0);
  if (fireAndForget.length) {
    const who = join(fireAndForget.map((w) => w.client));
    return fail(
      say(
        `${who} sends with acks=0: the broker never answers, so the producer counts a send as done when the request leaves — a lost request is lost without anyone knowing (retries cannot help, and idempotence is off).`,
        `${josa(who, '은/는')} acks=0으로 보냅니다. 브로커가 응답하지 않으므로 요청이 나가는 순간 전송이 끝난 것으로 칩니다. 요청을 잃으면 아무도 모르게 유실됩니다(재시도도 소용없고 멱등성도 꺼짐).`,
      ),
      CHECKLIST_PRESETS.acksZero,
    );
  }
  const noRetries = ws.filter((w) => !w.idempotent && w.retries === 0);
  if (noRetries.length) {
    const who = join(noRetries.map((w) => w.client));
    return failUnshown(
      say(
        `${who} runs with retries=0 (so without idempotence): a batch whose request or ack is lost is not retried — send() fails, and unless the application sends again the record may be lost.`,
        `${josa(who, '은/는')} retries=0(따라서 멱등성 없음)으로 실행됩니다. 요청이나 ack를 잃은 배치를 재시도하지 않아 send()가 실패하고, 애플리케이션이 다시 보내지 않으면 레코드가 유실될 수 있습니다.`,
      ),
      say(
        'No shipped scenario shows it yet: one with retries=0 and a dropped Produce request would show send() failing and the record never written.',
        '아직 이를 보여 주는 시나리오가 없습니다. retries=0에서 Produce 요청을 잃는 시나리오라면 send()가 실패하고 레코드가 기록되지 않는 것을 보여 줄 것입니다.',
      ),
    );
  }
  const off = ws.filter((w) => !w.idempotent);
  if (off.length) {
    const who = join(off.map((w) => w.client));
    return fail(
      say(
        `${who} runs with enable.idempotence=false: a batch retried after a lost ack is written twice.`,
        `${josa(who, '은/는')} enable.idempotence=false로 실행됩니다. 확인 응답을 잃고 재시도한 배치가 두 번 기록됩니다.`,
      ),
      CHECKLIST_PRESETS.idempotenceOff,
    );
  }
  // TransactionLogConfig's advice: producer.id.expiration.ms no lower than delivery.timeout.ms, or a
  // retry can outlive the broker's memory of its producer and be appended again. A transactional
  // producer is not expired while its transaction is open, and after its marker its epoch fences the retry.
  const expirationMs = trace.resolved.cluster['producer.id.expiration.ms'];
  const outlived = ws.filter((w) => w.transactionalId === null && w.deliveryTimeoutMs > expirationMs);
  if (outlived.length) {
    const who = join(outlived.map((w) => w.client));
    const ms = groupDigits(expirationMs);
    return fail(
      say(
        `${who} is idempotent, but the brokers forget an idle producer after producer.id.expiration.ms (${ms} ms), less than its delivery.timeout.ms: a retry that comes later meets no producer state and is appended again. Kafka advises producer.id.expiration.ms no lower than delivery.timeout.ms.`,
        `${josa(who, '은/는')} 멱등하지만, 브로커는 쉬고 있는 프로듀서를 producer.id.expiration.ms(${ms} ms) 뒤에 잊습니다. 이 값이 delivery.timeout.ms보다 작아서 그보다 늦게 온 재시도는 프로듀서 상태를 만나지 못하고 다시 기록됩니다. Kafka는 producer.id.expiration.ms를 delivery.timeout.ms보다 작게 두지 말라고 권합니다.`,
      ),
      CHECKLIST_PRESETS.producerExpired,
    );
  }
  const alos = ws.filter((w) => w.kind === 'streams' && !streamsGuarantee(trace, w.client).startsWith('exactly_once'));
  if (alos.length) {
    const who = join(alos.map((w) => w.client));
    return fail(
      say(
        `${who} runs Kafka Streams with processing.guarantee=at_least_once (the default): its producer is idempotent, but after a crash it processes input again and writes its output again — exactly_once_v2 must be set explicitly.`,
        `${josa(who, '은/는')} Kafka Streams를 processing.guarantee=at_least_once(기본값)로 실행합니다. 프로듀서는 멱등하지만 중단 뒤에는 입력을 다시 처리해 출력을 다시 씁니다. exactly_once_v2는 명시해야 합니다.`,
      ),
      CHECKLIST_PRESETS.streamsAtLeastOnce,
    );
  }
  const streams = ws.filter((w) => w.kind === 'streams').map((w) => w.client);
  const txn = ws.filter((w) => w.transactionalId !== null && w.kind !== 'streams').map((w) => w.client);
  const idem = ws.filter((w) => w.transactionalId === null && w.kind !== 'streams').map((w) => w.client);
  const parts: string[] = [];
  if (idem.length) parts.push(say(`idempotent producer (${join(idem)})`, `멱등 프로듀서(${join(idem)})`));
  if (txn.length) parts.push(say(`Kafka transactions (${join(txn)})`, `Kafka 트랜잭션(${join(txn)})`));
  if (streams.length) parts.push(say(`Streams exactly_once_v2 (${join(streams)})`, `Streams exactly_once_v2(${join(streams)})`));
  return pass(say(`In use: ${parts.join('; ')}.`, `사용 중: ${parts.join('; ')}.`));
}

function transactionalIds(trace: Trace, say: Say): Item {
  const ws = writers(trace).filter((w) => w.transactionalId !== null);
  if (ws.length === 0) return na(say('No producer uses a transactional.id.', 'transactional.id를 쓰는 프로듀서가 없습니다.'));
  const byId = new Map<string, Writer[]>();
  for (const w of ws) byId.set(w.transactionalId as string, [...(byId.get(w.transactionalId as string) ?? []), w]);
  const shared = [...byId].filter(([, group]) => group.length > 1);
  // instances that start together both mean to run: each initTransactions fences the other
  const concurrent = shared.find(([, group]) => new Set(group.map((w) => w.startAt)).size < group.length);
  if (concurrent) {
    const [id, group] = concurrent;
    const who = join(group.map((w) => w.client));
    return fail(
      say(
        `${who} start together with the same transactional.id ${id}: only the newest instance may write; the other is fenced as a zombie. Give each instance (each task) its own id.`,
        `${josa(who, '이/가')} 같은 transactional.id ${josa(id, '으로/로')} 함께 시작합니다. 가장 새로운 인스턴스만 쓸 수 있고 나머지는 좀비로 펜싱됩니다. 인스턴스(태스크)마다 고유한 id를 주세요.`,
      ),
      CHECKLIST_PRESETS.sharedTransactionalId,
    );
  }
  const takeovers = shared.map(([id, group]) => {
    const sorted = [...group].sort((a, b) => a.startAt - b.startAt);
    return say(
      `${join(sorted.slice(1).map((w) => w.client))} takes over ${id} from ${(sorted[0] as Writer).client}`,
      `${josa(join(sorted.slice(1).map((w) => w.client)), '이/가')} ${(sorted[0] as Writer).client}의 ${josa(id, '을/를')} 이어받음`,
    );
  });
  return pass(
    takeovers.length
      ? say(
          `Each transactional.id belongs to one instance at a time: ${takeovers.join('; ')} — a replacement keeps the id, which is what lets the coordinator fence the older instance.`,
          `transactional.id마다 한 번에 한 인스턴스만 씁니다: ${takeovers.join('; ')}. 대체 인스턴스가 같은 id를 쓰기 때문에 코디네이터가 이전 인스턴스를 펜싱할 수 있습니다.`,
        )
      : say(
          `Each transactional producer has its own transactional.id (${join([...byId.keys()])}), kept across restarts.`,
          `트랜잭션 프로듀서마다 고유한 transactional.id(${join([...byId.keys()])})가 있고 재시작해도 유지됩니다.`,
        ),
  );
}

function offsetsInTransaction(trace: Trace, say: Say): Item {
  const cs = consumers(trace);
  const auto = cs.filter((c) => modeOf(trace, c) === 'auto-commit');
  if (auto.length)
    return fail(
      say(
        `${ids(auto)} relies on enable.auto.commit: poll() commits positions only every auto.commit.interval.ms, so after a crash everything processed since the last auto-commit is processed again — at-least-once, never exactly-once.`,
        `${josa(ids(auto), '은/는')} enable.auto.commit에 의존합니다. poll()이 auto.commit.interval.ms마다만 위치를 커밋하므로, 중단되면 마지막 자동 커밋 이후 처리한 것을 모두 다시 처리합니다. 최소 한 번일 뿐 정확히 한 번이 아닙니다.`,
      ),
      CHECKLIST_PRESETS.autoCommit,
    );
  const noTxn = cs.filter((c) => modeOf(trace, c) === 'consume-produce-no-transactions');
  if (noTxn.length)
    return fail(
      say(
        `${ids(noTxn)} produces its results and commits offsets separately: a crash between the two writes the output again.`,
        `${josa(ids(noTxn), '은/는')} 결과를 쓰고 offset을 따로 커밋합니다. 그 사이에 중단되면 출력을 다시 씁니다.`,
      ),
      CHECKLIST_PRESETS.ctpNoTxn,
    );
  const eos = cs.filter((c) => modeOf(trace, c) === 'exactly-once');
  const autoOn = eos.filter((c) => trace.resolved.consumers[c.id]?.['enable.auto.commit']);
  if (autoOn.length)
    return fail(
      say(
        `${ids(autoOn)} sends offsets with sendOffsetsToTransaction but leaves enable.auto.commit=true: poll() — and onJoinPrepare before a rebalance — also commits positions outside the transaction, past records whose transaction may still abort.`,
        `${josa(ids(autoOn), '은/는')} sendOffsetsToTransaction을 쓰지만 enable.auto.commit=true입니다. poll()이, 그리고 리밸런스 전의 onJoinPrepare가 트랜잭션 밖에서도 위치를 커밋하므로, 아직 취소될 수 있는 트랜잭션의 레코드 너머까지 커밋됩니다.`,
      ),
      CHECKLIST_PRESETS.eosAutoCommit,
    );
  const alos = trace.scenario.clients.filter((c) => c.type === 'streams' && !streamsGuarantee(trace, c.id).startsWith('exactly_once'));
  if (alos.length)
    return fail(
      say(
        `${ids(alos)} runs Kafka Streams with processing.guarantee=at_least_once: its input offsets are committed with commitSync() after the output is written, outside any transaction — a crash between the two writes the output again.`,
        `${josa(ids(alos), '은/는')} Kafka Streams를 processing.guarantee=at_least_once로 실행합니다. 입력 offset은 출력을 쓴 뒤 트랜잭션 밖에서 commitSync()로 커밋되므로, 그 사이에 중단되면 출력을 다시 씁니다.`,
      ),
      CHECKLIST_PRESETS.streamsAtLeastOnce,
    );
  const streams = trace.scenario.clients.filter((c) => c.type === 'streams' && streamsGuarantee(trace, c.id).startsWith('exactly_once'));
  if (eos.length || streams.length)
    return pass(
      say(
        `${ids([...eos, ...streams])}: enable.auto.commit=false, and the next offsets go into the transaction with sendOffsetsToTransaction.`,
        `${ids([...eos, ...streams])}: enable.auto.commit=false이고 다음 offset을 sendOffsetsToTransaction으로 트랜잭션에 넣습니다.`,
      ),
    );
  return na(
    say(
      'No application writes its results to Kafka in a transaction (no exactly-once consume-transform-produce).',
      'Kafka에 결과를 트랜잭션으로 쓰는 애플리케이션이 없습니다(정확히 한 번 소비-변환-발행 아님).',
    ),
  );
}

function nextOffset(trace: Trace, say: Say): Item {
  const cs = consumers(trace);
  const last = cs.filter((c) => modeOf(trace, c) === 'commit-last-processed');
  if (last.length)
    return fail(
      say(
        `${ids(last)} commits the last processed offset instead of the next one: after a restart that record is processed again.`,
        `${josa(ids(last), '은/는')} 다음 위치 대신 마지막으로 처리한 offset을 커밋합니다. 재시작하면 그 레코드를 다시 처리합니다.`,
      ),
      CHECKLIST_PRESETS.commitLast,
    );
  const early = cs.filter((c) => modeOf(trace, c) === 'at-most-once');
  if (early.length)
    return fail(
      say(
        `${ids(early)} commits the position after a polled batch before processing it (at-most-once): the committed offset is past records not yet processed, so a crash loses them.`,
        `${josa(ids(early), '은/는')} 가져온 배치를 처리하기 전에 그 뒤 위치를 커밋합니다(최대 한 번). 커밋된 offset이 아직 처리하지 않은 레코드를 지나 있어 중단되면 그 레코드를 잃습니다.`,
      ),
      CHECKLIST_PRESETS.atMostOnce,
    );
  const committing = cs.filter((c) => trace.resolved.consumers[c.id]?.['group.id'] !== null || modeOf(trace, c) === 'offsets-in-sink');
  if (committing.length === 0) return na(say('No consumer commits offsets.', 'offset을 커밋하는 컨슈머가 없습니다.'));
  return pass(
    say(
      // a configuration answer: what these consumers commit, true also of one that processed nothing
      // (its position moved past aborted records or markers alone)
      `${ids(committing)} ${committing.length > 1 ? 'commit' : 'commits'} the next offset to read (after a processed record, its offset + 1), never the last processed offset itself.`,
      `${josa(ids(committing), '은/는')} 다음에 읽을 위치를 커밋합니다(레코드를 처리했다면 그 offset + 1). 마지막으로 처리한 offset 자체는 커밋하지 않습니다.`,
    ),
  );
}

function readCommitted(trace: Trace, say: Say): Item {
  const txnTopics = new Set(writers(trace).flatMap((w) => (w.transactionalId !== null ? w.topics : [])));
  if (txnTopics.size === 0) return na(say('Nothing is written in transactions.', '트랜잭션으로 쓰는 것이 없습니다.'));
  const readers = consumers(trace).filter((c) => c.topics.some((t) => txnTopics.has(t)));
  if (readers.length === 0)
    return na(
      say(
        `No consumer reads the transactional output (${join([...txnTopics])}).`,
        `트랜잭션 출력(${join([...txnTopics])})을 읽는 컨슈머가 없습니다.`,
      ),
    );
  const uncommitted = readers.filter((c) => trace.resolved.consumers[c.id]?.['isolation.level'] !== 'read_committed');
  if (uncommitted.length)
    return fail(
      say(
        `${ids(uncommitted)} reads ${join([...txnTopics])} with read_uncommitted: it receives aborted and still-open records.`,
        `${josa(ids(uncommitted), '은/는')} ${josa(join([...txnTopics]), '을/를')} read_uncommitted로 읽어 취소되거나 아직 열린 레코드도 받습니다.`,
      ),
      CHECKLIST_PRESETS.readUncommitted,
    );
  return pass(
    say(
      `${ids(readers)} reads ${join([...txnTopics])} with read_committed.`,
      `${josa(ids(readers), '은/는')} ${josa(join([...txnTopics]), '을/를')} read_committed로 읽습니다.`,
    ),
  );
}

// ---------------------------------------------------------------- replication

/** A user topic's replication settings as the scenario gives them. */
export interface TopicReplication {
  readonly name: string;
  readonly replicationFactor: number;
  /** min.insync.replicas (topic, else broker default; Kafka's default 1). */
  readonly minInsyncReplicas: number;
  readonly uncleanLeaderElection: boolean;
}

export type ReplicationPartId = 'user-topics' | 'min-insync' | 'unclean' | 'transaction-state' | 'consumer-offsets';

/** One of the replication item's answers (the seed asks one question; it has five parts). */
export interface ChecklistPart {
  readonly id: ReplicationPartId;
  readonly status: Exclude<ChecklistStatus, 'pending'>;
  readonly reason: string;
}

/** Presets of issue [replication] that show each failure, when shipped (until then the item says what one would show). */
export const REPLICATION_PRESETS = {
  acksOne: 'acks-1-leader-failover-loss',
  minInsync: 'min-insync-blocks-writes',
  unclean: 'unclean-election-loses-committed',
} as const;

const positiveInt = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : null);

/**
 * Each user topic's replication factor (`replicationFactor`, else the length of its `replicas`
 * assignment, else 1 = default.replication.factor), min.insync.replicas and
 * unclean.leader.election.enable (topic config, else the cluster's, else Kafka's defaults 1 and false).
 */
export function topicReplication(trace: Trace): TopicReplication[] {
  const cluster = trace.resolved.cluster as unknown as Readonly<Record<string, unknown>>;
  return trace.scenario.topics.map((t) => {
    const spec = t as unknown as { replicationFactor?: unknown; replicas?: unknown };
    const first = Array.isArray(spec.replicas) && Array.isArray(spec.replicas[0]) ? (spec.replicas[0] as unknown[]).length : null;
    const config = (trace.resolved.topics[t.name] ?? {}) as unknown as Readonly<Record<string, unknown>>;
    const minIsr = positiveInt(config['min.insync.replicas']) ?? positiveInt(cluster['min.insync.replicas']) ?? 1;
    const unclean = config['unclean.leader.election.enable'] ?? cluster['unclean.leader.election.enable'];
    return {
      name: t.name,
      replicationFactor: positiveInt(spec.replicationFactor) ?? positiveInt(first) ?? 1,
      minInsyncReplicas: minIsr,
      uncleanLeaderElection: unclean === true,
    };
  });
}

/** __transaction_state's settings as the scenario gives them (null: not set, one replica in the simulator). */
export interface TxnStateReplication {
  readonly replicationFactor: number | null;
  readonly minIsr: number | null;
}

const TXN_STATE_UNSET: TxnStateReplication = { replicationFactor: null, minIsr: null };

/** transaction.state.log.replication.factor / min.isr from the scenario's resolved cluster settings. */
export function txnStateReplication(trace: Trace): TxnStateReplication {
  const cluster = trace.resolved.cluster as unknown as Readonly<Record<string, unknown>>;
  return {
    replicationFactor: positiveInt(cluster['transaction.state.log.replication.factor']),
    minIsr: positiveInt(cluster['transaction.state.log.min.isr']),
  };
}

/**
 * The transaction state topic: with transaction.state.log.replication.factor set above 1 it is
 * replicated and judged like a user topic (replication factor ≥ 3, 2 ≤ min ISR < replication
 * factor); unset, it keeps one replica in the simulator: said, not judged.
 */
function transactionStatePart(t: TxnStateReplication, say: Say): PartResult {
  const rf = t.replicationFactor ?? 1;
  if (rf <= 1)
    return {
      id: 'transaction-state',
      status: 'not-applicable',
      reason: say(
        'Not modelled: __transaction_state keeps one replica in the simulator (its transaction coordinator is a fixed process) unless the scenario sets transaction.state.log.replication.factor above 1. In production keep transaction.state.log.replication.factor 3 and transaction.state.log.min.isr 2 (the defaults).',
        '모델링하지 않음: 시나리오가 transaction.state.log.replication.factor를 1보다 크게 두지 않으면 시뮬레이터에서 __transaction_state는 복제본 하나입니다(트랜잭션 코디네이터는 고정된 프로세스). 운영에서는 transaction.state.log.replication.factor 3, transaction.state.log.min.isr 2(기본값)를 유지하세요.',
      ),
    };
  const minIsr = t.minIsr ?? 2;
  const settings = `transaction.state.log.replication.factor ${rf}, transaction.state.log.min.isr ${minIsr}`;
  const shown = say(
    'Two brokers of the __transaction_state ISR down: the coordinator cannot write PrepareCommit, EndTxn gets COORDINATOR_NOT_AVAILABLE and the LSO stays pinned.',
    '__transaction_state ISR의 브로커 둘이 죽으면 코디네이터가 PrepareCommit을 쓰지 못해 EndTxn이 COORDINATOR_NOT_AVAILABLE을 받고 LSO가 묶여 있습니다.',
  );
  if (minIsr < 2)
    return failPart(
      'transaction-state',
      say(
        `${settings}: the coordinator's writes are acknowledged by the leader alone, so a failover can lose a PrepareCommit the producer was told about.`,
        `${settings}: 코디네이터의 쓰기가 리더 혼자 확인되므로, 리더가 바뀌면 프로듀서가 응답받은 PrepareCommit을 잃을 수 있습니다.`,
      ),
      TXN_STATE_PRESET,
      shown,
    );
  if (rf < 3 || minIsr >= rf)
    return failPart(
      'transaction-state',
      say(
        `${settings}: one broker down leaves fewer in-sync replicas than the min ISR, and every transaction of its coordinator stops with COORDINATOR_NOT_AVAILABLE.`,
        `${settings}: 브로커 하나만 죽어도 동기화 복제본이 최소 ISR보다 적어져, 그 코디네이터의 모든 트랜잭션이 COORDINATOR_NOT_AVAILABLE로 멈춥니다.`,
      ),
      TXN_STATE_PRESET,
      shown,
    );
  return {
    id: 'transaction-state',
    status: 'pass',
    reason: say(
      `${settings}: a coordinator write is on ${minIsr} replicas before it is answered, and one broker down neither stops transactions nor loses their state (the coordinator moves with the leader).`,
      `${settings}: 코디네이터의 쓰기는 응답 전에 복제본 ${minIsr}개에 있고, 브로커 하나가 죽어도 트랜잭션이 멈추거나 상태를 잃지 않습니다(코디네이터는 리더를 따라 옮겨 갑니다).`,
    ),
  };
}

/** The preset that shows an under-replicated __transaction_state. */
const TXN_STATE_PRESET = 'transaction-state-under-replicated';

/** __consumer_offsets' settings as the scenario gives them: offsets.topic.replication.factor (null: not set, one replica) and the brokers' min.insync.replicas. */
export interface OffsetsReplication {
  readonly replicationFactor: number | null;
  readonly minIsr: number;
}

const OFFSETS_UNSET: OffsetsReplication = { replicationFactor: null, minIsr: 1 };

/** offsets.topic.replication.factor and min.insync.replicas (the topic has no min ISR of its own) from the resolved cluster settings. */
export function offsetsReplication(trace: Trace): OffsetsReplication {
  const cluster = trace.resolved.cluster as unknown as Readonly<Record<string, unknown>>;
  return {
    replicationFactor: positiveInt(cluster['offsets.topic.replication.factor']),
    minIsr: positiveInt(cluster['min.insync.replicas']) ?? 1,
  };
}

/**
 * The offsets topic: with offsets.topic.replication.factor set above 1 it is replicated and its
 * group coordinator lives on the leader, so it is judged like the transaction state topic
 * (replication factor ≥ 3, 2 ≤ the brokers' min.insync.replicas < replication factor: the
 * coordinator answers a commit only when the HW passes it, and the HW stops below min ISR);
 * unset, it keeps one replica in the simulator: said, not judged.
 */
function consumerOffsetsPart(o: OffsetsReplication, say: Say): PartResult {
  const rf = o.replicationFactor ?? 1;
  if (rf <= 1)
    return {
      id: 'consumer-offsets',
      status: 'not-applicable',
      reason: say(
        'Not modelled: __consumer_offsets keeps one replica in the simulator (its group coordinator is a fixed process) unless the scenario sets offsets.topic.replication.factor above 1. In production keep offsets.topic.replication.factor 3 (the default); the broker min.insync.replicas applies to it.',
        '모델링하지 않음: 시나리오가 offsets.topic.replication.factor를 1보다 크게 두지 않으면 시뮬레이터에서 __consumer_offsets는 복제본 하나입니다(그룹 코디네이터는 고정된 프로세스). 운영에서는 offsets.topic.replication.factor 3(기본값)을 유지하세요. 이 토픽에는 브로커의 min.insync.replicas가 적용됩니다.',
      ),
    };
  const settings = `offsets.topic.replication.factor ${rf}, min.insync.replicas ${o.minIsr}`;
  const shown = say(
    'Two brokers of the __consumer_offsets ISR down: the HW stops, every OffsetCommit and TxnOffsetCommit fails with COORDINATOR_NOT_AVAILABLE after offsets.commit.timeout.ms.',
    '__consumer_offsets ISR의 브로커 둘이 죽으면 HW가 멈추고, 모든 OffsetCommit과 TxnOffsetCommit이 offsets.commit.timeout.ms 뒤 COORDINATOR_NOT_AVAILABLE로 실패합니다.',
  );
  if (o.minIsr < 2)
    return failPart(
      'consumer-offsets',
      say(
        `${settings}: a commit is answered when the leader alone holds it, so the failure of that broker leaves the group's offsets with no in-sync copy.`,
        `${settings}: 리더 혼자 가진 커밋에도 응답하므로, 그 브로커가 죽으면 그룹의 offset에 동기화된 사본이 남지 않습니다.`,
      ),
      OFFSETS_PRESET,
      shown,
    );
  if (rf < 3 || o.minIsr >= rf)
    return failPart(
      'consumer-offsets',
      say(
        `${settings}: one broker down leaves fewer in-sync replicas than min.insync.replicas; the HW stops and the group's commits fail with COORDINATOR_NOT_AVAILABLE.`,
        `${settings}: 브로커 하나만 죽어도 동기화 복제본이 min.insync.replicas보다 적어져 HW가 멈추고, 그룹의 커밋이 COORDINATOR_NOT_AVAILABLE로 실패합니다.`,
      ),
      OFFSETS_PRESET,
      shown,
    );
  return {
    id: 'consumer-offsets',
    status: 'pass',
    reason: say(
      `${settings}: a commit is answered only once ${o.minIsr} replicas hold it, and one broker down neither stops commits nor loses them (the group coordinator moves with the leader and loads the offsets from its replica).`,
      `${settings}: 커밋은 복제본 ${o.minIsr}개가 가진 뒤에야 응답되고, 브로커 하나가 죽어도 커밋이 멈추거나 사라지지 않습니다(그룹 코디네이터가 리더를 따라 옮겨 가 자기 복제본에서 offset을 읽습니다).`,
    ),
  };
}

/** The preset an under-replicated __consumer_offsets would show (not shipped yet: the part says what it would show). */
const OFFSETS_PRESET = 'consumer-offsets-under-replicated';

/** The internal topics, each from its settings. */
function internalParts(
  say: Say,
  txnState: TxnStateReplication = TXN_STATE_UNSET,
  offsets: OffsetsReplication = OFFSETS_UNSET,
): PartResult[] {
  return [transactionStatePart(txnState, say), consumerOffsetsPart(offsets, say)];
}

interface PartResult extends ChecklistPart {
  readonly preset?: string;
  readonly wouldShow?: string;
}

/** A failing part points at its preset once it ships, and says what it would show until then. */
function failPart(id: ReplicationPartId, reason: string, preset: string, wouldShow: string): PartResult {
  return findPreset(preset) ? { id, status: 'fail', reason, preset } : { id, status: 'fail', reason, wouldShow };
}

/**
 * The replication item from the topics' settings and the producers' acks: replication factor ≥ 3,
 * min.insync.replicas ≥ 2 and below the replication factor, every producer of a replicated topic on
 * acks=all, unclean.leader.election.enable off. A scenario whose topics all have one replica does
 * not exercise replication: not applicable, with what production needs.
 */
export function replicationItem(
  topics: readonly TopicReplication[],
  producers: readonly { readonly client: string; readonly acks: number; readonly topics: readonly string[] }[],
  say: Say,
  txnState: TxnStateReplication = TXN_STATE_UNSET,
  offsets: OffsetsReplication = OFFSETS_UNSET,
): Item & { readonly parts: readonly ChecklistPart[] } {
  const replicated = topics.filter((t) => t.replicationFactor > 1);
  if (replicated.length === 0 && (txnState.replicationFactor ?? 1) <= 1 && (offsets.replicationFactor ?? 1) <= 1)
    return {
      ...na(
        say(
          `Every topic here has one replica (replication.factor 1: ${join(topics.map((t) => t.name))}), so this scenario does not exercise replication. In production give your topics replication.factor ≥ 3 and min.insync.replicas 2, and produce with acks=all.`,
          `이 시나리오의 토픽은 모두 복제본이 하나(replication.factor 1: ${join(topics.map((t) => t.name))})라 복제를 다루지 않습니다. 운영에서는 토픽에 replication.factor ≥ 3, min.insync.replicas 2를 두고 acks=all로 보내세요.`,
        ),
      ),
      parts: internalParts(say),
    };
  const parts: PartResult[] = [];
  const low = topics.filter((t) => t.replicationFactor < 3);
  const rf = (ts: readonly TopicReplication[]) => join(ts.map((t) => `${t.name} ${t.replicationFactor}`));
  parts.push(
    low.length
      ? failPart(
          'user-topics',
          say(
            `replication.factor below 3 (${rf(low)}): one broker failure leaves ${low.some((t) => t.replicationFactor === 1) ? 'a partition with no replica, or ' : ''}a single copy, and acks=all with min.insync.replicas 2 then stops.`,
            `replication.factor가 3보다 작습니다(${rf(low)}). 브로커 하나가 죽으면 ${low.some((t) => t.replicationFactor === 1) ? '복제본이 없는 파티션이나 ' : ''}사본 하나만 남고, min.insync.replicas 2인 acks=all 쓰기는 멈춥니다.`,
          ),
          REPLICATION_PRESETS.minInsync,
          say(
            'A broker failure that leaves fewer in-sync replicas than min.insync.replicas: acks=all writes fail with NOT_ENOUGH_REPLICAS.',
            '동기화된 복제본이 min.insync.replicas보다 적게 남는 브로커 장애: acks=all 쓰기가 NOT_ENOUGH_REPLICAS로 실패합니다.',
          ),
        )
      : {
          id: 'user-topics',
          status: 'pass',
          reason: say(`replication.factor ≥ 3 (${rf(topics)}).`, `replication.factor ≥ 3 (${rf(topics)}).`),
        },
  );
  const names = new Set(replicated.map((t) => t.name));
  const weakAcks = producers.filter((p) => p.acks !== -1 && p.topics.some((t) => names.has(t)));
  const oneIsr = replicated.filter((t) => t.minInsyncReplicas < 2);
  const allIsr = replicated.filter((t) => t.minInsyncReplicas >= t.replicationFactor);
  const isr = (ts: readonly TopicReplication[]) =>
    join(ts.map((t) => `${t.name}: min.insync.replicas ${t.minInsyncReplicas}, replication.factor ${t.replicationFactor}`));
  if (weakAcks.length)
    parts.push(
      failPart(
        'min-insync',
        say(
          `${join(weakAcks.map((p) => `${p.client} (acks=${p.acks})`))} ${weakAcks.length > 1 ? 'do' : 'does'} not use acks=all: the leader acknowledges alone, min.insync.replicas does not apply, and a leader failover loses acknowledged records the new leader had not fetched.`,
          `${josa(join(weakAcks.map((p) => `${p.client} (acks=${p.acks})`)), '은/는')} acks=all을 쓰지 않습니다. 리더 혼자 확인 응답을 보내고 min.insync.replicas가 적용되지 않아, 리더가 바뀌면 새 리더가 아직 가져오지 못한 확인된 레코드를 잃습니다.`,
        ),
        REPLICATION_PRESETS.acksOne,
        say(
          'acks=1 and a leader failover: a record the producer saw acknowledged is gone from the new leader.',
          'acks=1과 리더 교체: 프로듀서가 확인 응답을 받은 레코드가 새 리더에는 없습니다.',
        ),
      ),
    );
  else if (oneIsr.length)
    parts.push(
      failPart(
        'min-insync',
        say(
          `min.insync.replicas below 2 (${isr(oneIsr)}): acks=all is acknowledged when the ISR has shrunk to the leader alone, so one more failure can lose acknowledged records.`,
          `min.insync.replicas가 2보다 작습니다(${isr(oneIsr)}). ISR이 리더 하나로 줄어도 acks=all 확인 응답이 나가므로, 장애가 하나 더 나면 확인된 레코드를 잃을 수 있습니다.`,
        ),
        REPLICATION_PRESETS.acksOne,
        say(
          'An acks=all write acknowledged by a leader alone in its ISR, then lost in a failover.',
          'ISR에 리더만 남았을 때 확인된 acks=all 쓰기가 리더 교체로 사라집니다.',
        ),
      ),
    );
  else if (allIsr.length)
    parts.push(
      failPart(
        'min-insync',
        say(
          `min.insync.replicas equals the replication factor (${isr(allIsr)}): any one broker down stops acks=all writes with NOT_ENOUGH_REPLICAS.`,
          `min.insync.replicas가 replication.factor와 같습니다(${isr(allIsr)}). 브로커 하나만 죽어도 acks=all 쓰기가 NOT_ENOUGH_REPLICAS로 멈춥니다.`,
        ),
        REPLICATION_PRESETS.minInsync,
        say(
          'A broker down with min.insync.replicas = replication.factor: acks=all writes fail with NOT_ENOUGH_REPLICAS.',
          'min.insync.replicas = replication.factor에서 브로커 하나가 죽으면 acks=all 쓰기가 NOT_ENOUGH_REPLICAS로 실패합니다.',
        ),
      ),
    );
  else
    parts.push({
      id: 'min-insync',
      status: 'pass',
      reason: say(
        `${isr(replicated)}; ${producers.length ? 'every producer of these topics uses acks=all' : 'no producer writes them'}: an acknowledged write is on at least two replicas.`,
        `${isr(replicated)}. ${producers.length ? '이 토픽의 프로듀서는 모두 acks=all을 씁니다' : '이 토픽에 쓰는 프로듀서가 없습니다'}. 확인된 쓰기는 복제본 두 개 이상에 있습니다.`,
      ),
    });
  const unclean = replicated.filter((t) => t.uncleanLeaderElection);
  parts.push(
    unclean.length
      ? failPart(
          'unclean',
          say(
            `unclean.leader.election.enable=true on ${join(unclean.map((t) => t.name))}: with no in-sync replica alive, an out-of-sync one becomes leader and the committed records it lacks are lost.`,
            `${join(unclean.map((t) => t.name))}에 unclean.leader.election.enable=true: 살아 있는 ISR 복제본이 없으면 뒤처진 복제본이 리더가 되어, 그 복제본에 없는 커밋된 레코드를 잃습니다.`,
          ),
          REPLICATION_PRESETS.unclean,
          say(
            'An unclean leader election: records below the old high watermark are truncated away.',
            '언클린 리더 선출: 이전 하이 워터마크 아래의 레코드가 잘려 나갑니다.',
          ),
        )
      : {
          id: 'unclean',
          status: 'pass',
          reason: say(
            'unclean.leader.election.enable=false (the default): only an in-sync replica becomes leader; with none alive the partition waits offline (LEADER_NOT_AVAILABLE) rather than lose committed records.',
            'unclean.leader.election.enable=false(기본값): ISR 복제본만 리더가 됩니다. 살아 있는 ISR 복제본이 없으면 커밋된 레코드를 잃는 대신 파티션이 오프라인(LEADER_NOT_AVAILABLE)으로 기다립니다.',
          ),
        },
  );
  const all: PartResult[] = [...parts, ...internalParts(say, txnState, offsets)];
  const failed = all.filter((p) => p.status === 'fail');
  const first = failed[0];
  const item: Item = first
    ? first.preset !== undefined
      ? fail(failed.map((p) => p.reason).join(' '), first.preset)
      : failUnshown(failed.map((p) => p.reason).join(' '), first.wouldShow ?? '')
    : pass(
        all
          .filter((p) => p.status === 'pass')
          .map((p) => p.reason)
          .join(' '),
      );
  return { ...item, parts: all.map(({ id, status, reason }) => ({ id, status, reason })) };
}

function replication(trace: Trace, say: Say): Item & { readonly parts: readonly ChecklistPart[] } {
  return replicationItem(topicReplication(trace), writers(trace), say, txnStateReplication(trace), offsetsReplication(trace));
}

function sideEffects(trace: Trace, say: Say): Item {
  const used = consumers(trace)
    .map((c) => ({ c, sink: sinkOf(trace, c.processing?.sink) }))
    .filter((x): x is { c: ConsumerSpec; sink: NonNullable<(typeof x)['sink']> } => x.sink !== undefined);
  if (used.length === 0)
    return na(say('No side effect outside Kafka in this scenario.', '이 시나리오에는 Kafka 밖의 부수 효과가 없습니다.'));
  const insert = used.find((x) => x.sink.type === 'database' && sinkMode(x.sink) === 'insert');
  if (insert)
    return fail(
      say(
        `${insert.sink.id} takes a plain INSERT: a record processed twice becomes two rows.`,
        `${josa(insert.sink.id, '은/는')} 일반 INSERT를 받습니다. 두 번 처리된 레코드는 두 행이 됩니다.`,
      ),
      CHECKLIST_PRESETS.dbInsert,
    );
  const incr = used.find((x) => x.sink.type === 'database' && sinkMode(x.sink) === 'increment');
  if (incr)
    return fail(
      say(
        `${incr.sink.id} takes INCR: a record processed twice is counted twice (SET of the absolute value would not be).`,
        `${josa(incr.sink.id, '은/는')} INCR을 받습니다. 두 번 처리된 레코드는 두 번 세어집니다(절댓값을 SET하면 그렇지 않습니다).`,
      ),
      CHECKLIST_PRESETS.increment,
    );
  const plain = used.find((x) => x.sink.type === 'http-api' && sinkMode(x.sink) === 'plain');
  if (plain)
    return fail(
      say(
        `${plain.sink.id} is called without an idempotency key: a retry after a lost response charges again.`,
        `${josa(plain.sink.id, '을/를')} 멱등성 키 없이 호출합니다. 응답을 잃고 재시도하면 다시 결제됩니다.`,
      ),
      CHECKLIST_PRESETS.apiPlain,
    );
  return pass(`${[...new Set(used.map((x) => `${x.sink.id}: ${sinkMode(x.sink)}`))].join('; ')}.`);
}

// ---------------------------------------------------------------- what the run did

/**
 * Did the run do what an operator must see: an aborted transaction (a transaction.timeout.ms expiry
 * among them), a fenced producer, a producer made fatal otherwise (its commitTransaction() or abort
 * threw, and it can only be closed: INVALID_PRODUCER_ID_MAPPING when its transactional.id expired,
 * KAFKA-18019), a failed commit? Each fails the item: without a metric and an alert the output it
 * held back goes missing unnoticed.
 */
function observed(trace: Trace, run: RunSoFar, say: Say): Item {
  const transactional = writers(trace).some((w) => w.transactionalId !== null);
  const fatal = run.producersFatal.size;
  if (!transactional && run.commitFailures === 0 && fatal === 0)
    return na(say('No transactions, and no commit failed.', '트랜잭션이 없고 실패한 커밋도 없습니다.'));
  if (run.transactionsAborted === 0 && run.producersFenced === 0 && run.commitFailures === 0 && fatal === 0)
    return pass(
      say(
        'No transaction aborted, no producer was fenced and no commit failed — the counters to alert on stayed at zero.',
        '취소된 트랜잭션, 펜싱된 프로듀서, 실패한 커밋이 없습니다. 경보 대상 지표가 0입니다.',
      ),
    );
  const preset = run.timedOut
    ? CHECKLIST_PRESETS.timeout
    : run.producersFenced > 0
      ? CHECKLIST_PRESETS.fenced
      : fatal > 0
        ? CHECKLIST_PRESETS.fatal
        : run.commitFailures > 0
          ? CHECKLIST_PRESETS.commitFailed
          : CHECKLIST_PRESETS.aborted;
  const errors = [...new Set(run.producersFatal.values())].join(', ');
  const fatalEn =
    fatal > 0
      ? `, ${fatal} producer(s) in a fatal error state though not fenced (${errors}: every call after it fails, commitTransaction() too, and the producer can only be closed)`
      : '';
  const fatalKo =
    fatal > 0
      ? `, 펜싱되지 않았지만 치명적 오류 상태가 된 프로듀서 ${fatal}건(${errors}: 이후 commitTransaction()을 포함한 모든 호출이 실패하고, 프로듀서는 닫는 수밖에 없음)`
      : '';
  return fail(
    say(
      `${run.transactionsAborted} aborted transaction(s)${run.timedOut ? ' (a transaction.timeout.ms expiry among them)' : ''}, ${run.producersFenced} fenced producer(s)${fatalEn} and ${run.commitFailures} commit failure(s): each needs a metric and an alert, or the output they hold back goes missing unnoticed.`,
      `취소된 트랜잭션 ${run.transactionsAborted}건${run.timedOut ? '(transaction.timeout.ms 만료 포함)' : ''}, 펜싱된 프로듀서 ${run.producersFenced}건${fatalKo}, 커밋 실패 ${run.commitFailures}건이 있었습니다. 모두 지표와 경보가 필요합니다. 그렇지 않으면 이들이 막은 출력이 빠진 것을 아무도 모릅니다.`,
    ),
    preset,
  );
}

function isObjectPayload(value: string | null): boolean {
  if (value === null || !value.trim().startsWith('{')) return false;
  try {
    const v: unknown = JSON.parse(value);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

function eventIds(trace: Trace, view: SimView, run: RunSoFar, say: Say): Item {
  const outputs = new Set(outputTopicsOf(trace.scenario));
  // compacted topics hold states (the latest value per key), not events: no event_id is asked of them
  const compacted = Object.entries(trace.resolved.topics)
    .filter(([, c]) => c['cleanup.policy'] !== 'delete')
    .map(([name]) => name);
  // the scenario's own source topics: not outputs, not Streams' changelog and repartition topics
  const declared = new Set(trace.scenario.topics.map((t) => t.name));
  const sources = partitionRows(view.actors).filter(
    (p) => !p.internal && declared.has(p.topic) && !outputs.has(p.topic) && !compacted.includes(p.topic),
  );
  // a compacted topic whose key was sent several distinct event_ids holds events, and compaction erases
  // them (the keys read from the scripts: the cleaner may already have removed the older records)
  const byKey = new Map<string, Set<string>>();
  for (const c of trace.scenario.clients)
    if (c.type === 'producer')
      for (const op of c.script) {
        if (op.op !== 'send' || !compacted.includes(op.topic) || op.key === null || !op.headers?.event_id) continue;
        for (let i = 0; i < (op.count ?? 1); i++) {
          const id = op.headers.event_id.replaceAll('{i}', String(i));
          if (!run.appended.get(op.topic)?.has(id)) continue;
          const name = `${op.topic} ${op.key.replaceAll('{i}', String(i))}`;
          byKey.set(name, (byKey.get(name) ?? new Set<string>()).add(id));
        }
      }
  const erased = [...byKey].find(([, set]) => set.size > 1);
  if (erased) {
    const [topic, key] = erased[0].split(' ') as [string, string];
    return fail(
      say(
        `${topic} is compacted, yet key ${key} is sent distinct events (${join([...erased[1]].slice(0, 3))}): compaction keeps only the latest record per key, so it erases real events, not older states.`,
        `${josa(topic, '은/는')} 컴팩션 토픽인데 키 ${josa(String(key), '으로/로')} 서로 다른 이벤트(${join([...erased[1]].slice(0, 3))})를 보냅니다. 컴팩션은 키마다 최신 레코드만 남기므로 옛 상태가 아니라 실제 이벤트를 지웁니다.`,
      ),
      CHECKLIST_PRESETS.compactedEvents,
    );
  }
  const records = sources.flatMap((p) => p.records.filter((r) => r.control === null).map((r) => ({ p, r })));
  if (records.length === 0)
    return na(
      compacted.length && sources.length === 0
        ? say(
            `${join(compacted)} is compacted: it holds the latest state per key, not events, so no event_id is asked of it.`,
            `${josa(join(compacted), '은/는')} 컴팩션 토픽이라 이벤트가 아니라 키별 최신 상태를 담습니다. 그래서 event_id를 요구하지 않습니다.`,
          )
        : say('No record reached a source topic.', '소스 토픽에 도달한 레코드가 없습니다.'),
    );
  const missing = records.filter(({ r }) => !r.headers.event_id);
  if (missing.length) {
    const first = missing[0] as (typeof missing)[number];
    return failUnshown(
      say(
        `${missing.length === 1 ? '1 record carries' : `${missing.length} records carry`} no event_id header (first: ${recordAddress(first.p.topic, first.p.partition, first.r.offset)}): a consumer cannot recognise a business duplicate.`,
        `레코드 ${missing.length}개에 event_id 헤더가 없습니다(첫 번째: ${recordAddress(first.p.topic, first.p.partition, first.r.offset)}). 컨슈머가 비즈니스 중복을 알아볼 수 없습니다.`,
      ),
      say(
        'No shipped scenario shows it yet: events without an event_id, one of them sent twice, would show a consumer unable to tell the resend from a new event.',
        '아직 이를 보여 주는 시나리오가 없습니다. event_id 없는 이벤트 중 하나를 두 번 보내는 시나리오라면, 컨슈머가 재전송과 새 이벤트를 구별하지 못하는 것을 보여 줄 것입니다.',
      ),
    );
  }
  // the same business payload (a JSON object) from the same producer under two event_ids: a retry
  // that minted a new id. Plain values ("view", counters) may legitimately repeat, so only payloads count.
  const byContent = new Map<string, Set<string>>();
  for (const { p, r } of records) {
    if (!isObjectPayload(r.value)) continue;
    const key = `${p.topic}|${r.origin?.client ?? ''}|${r.key}|${r.value}`;
    byContent.set(key, new Set([...(byContent.get(key) ?? []), r.headers.event_id as string]));
  }
  const renamed = [...byContent.values()].find((set) => set.size > 1);
  if (renamed)
    return fail(
      say(
        `The same payload was sent under different event_ids (${join([...renamed])}): if that was a retry, the new id hides the duplicate from every consumer.`,
        `같은 페이로드가 서로 다른 event_id(${join([...renamed])})로 전송됐습니다. 재시도였다면 새 ID 때문에 어떤 컨슈머도 중복을 알아볼 수 없습니다.`,
      ),
      CHECKLIST_PRESETS.newEventId,
    );
  // the same event_id twice in one topic: a repeated send that kept its id (one event in two topics is no repeat)
  const counts = new Map<string, number>();
  for (const { p, r } of records) {
    const key = `${p.topic}|${r.headers.event_id as string}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const kept = [...new Set([...counts].filter(([, n]) => n > 1).map(([key]) => key.slice(key.indexOf('|') + 1)))];
  return pass(
    kept.length
      ? say(
          `Every record carries an event_id, and repeated sends kept it (${join(kept.slice(0, 3))}), so the duplicate is recognisable.`,
          `모든 레코드에 event_id가 있고 반복 전송에서도 유지되어(${join(kept.slice(0, 3))}) 중복을 알아볼 수 있습니다.`,
        )
      : say('Every record carries an event_id header.', '모든 레코드에 event_id 헤더가 있습니다.'),
  );
}

/** How an application remembers what it processed: by event_id, only by offset, or not at all. */
interface Memory {
  readonly kind: 'event-id' | 'offsets' | 'idempotent-write';
  /** A sentence, without the application's name unless it is part of what is remembered. */
  readonly text: string;
}

type App = ConsumerSpec | Extract<Scenario['clients'][number], { type: 'streams' }>;

function memoryOf(trace: Trace, app: App, say: Say): Memory | null {
  if (app.type === 'streams')
    return streamsGuarantee(trace, app.id).startsWith('exactly_once')
      ? {
          kind: 'offsets',
          text: say(
            'exactly_once_v2 commits input offsets, state and output together: a redelivered record counts once, but it keeps no event_id',
            'exactly_once_v2가 입력 offset, 상태, 출력을 함께 커밋합니다. 다시 전달된 레코드는 한 번만 반영되지만 event_id는 기억하지 않습니다',
          ),
        }
      : null;
  const sink = sinkOf(trace, app.processing?.sink);
  if (sink) {
    const m = sinkMode(sink);
    if (m === 'inbox')
      return {
        kind: 'event-id',
        text:
          sink.retentionMs === undefined
            ? say(
                `${sink.id}'s inbox keeps (event_id, ${app.id}) as long as its rows are kept`,
                `${sink.id}의 inbox가 (event_id, ${app.id})를 행이 남아 있는 동안 기억합니다`,
              )
            : say(
                `${sink.id}'s inbox keeps (event_id, ${app.id}) for ${sink.retentionMs} ms (retentionMs)`,
                `${sink.id}의 inbox가 (event_id, ${app.id})를 ${sink.retentionMs} ms(retentionMs) 동안 기억합니다`,
              ),
      };
    if (m === 'set')
      return {
        kind: 'idempotent-write',
        text: say(
          `${sink.id} takes SET of an absolute value: a redelivered record writes the same value again, so nothing needs remembering`,
          `${josa(sink.id, '은/는')} 절댓값 SET을 받습니다. 다시 전달된 레코드는 같은 값을 다시 쓰므로 기억할 것이 없습니다`,
        ),
      };
    if (m === 'upsert')
      return {
        kind: 'event-id',
        text: say(`${sink.id} keys rows by event_id (upsert)`, `${josa(sink.id, '은/는')} event_id를 기본 키로 upsert합니다`),
      };
    if (m === 'idempotency-key')
      return {
        kind: 'event-id',
        text:
          sink.retentionMs === undefined
            ? say(
                `${sink.id} remembers each Idempotency-Key (for its retention window)`,
                `${josa(sink.id, '이/가')} 멱등성 키를 보존 기간 동안 기억합니다`,
              )
            : say(
                `${sink.id} remembers each Idempotency-Key for ${sink.retentionMs} ms (retentionMs)`,
                `${josa(sink.id, '이/가')} 멱등성 키를 ${sink.retentionMs} ms(retentionMs) 동안 기억합니다`,
              ),
      };
    if (m === 'lookup-before-retry')
      return { kind: 'event-id', text: say(`${sink.id} is asked before each retry`, `재시도 전에 ${sink.id}에 조회합니다`) };
    if (m === 'offsets-in-db')
      return {
        kind: 'offsets',
        text: say(
          `${sink.id} stores the consumed offset with each result: a redelivered record is not applied twice, but no event_id is kept`,
          `${josa(sink.id, '이/가')} 결과와 함께 소비한 offset을 저장합니다. 다시 전달된 레코드는 두 번 반영되지 않지만 event_id는 기억하지 않습니다`,
        ),
      };
    if (m === 'outbox')
      return {
        kind: 'offsets',
        text: say(
          `${sink.id} writes the result and its outbox row in one database transaction`,
          `${josa(sink.id, '이/가')} 결과와 outbox 행을 한 데이터베이스 트랜잭션으로 씁니다`,
        ),
      };
  }
  if (modeOf(trace, app) === 'exactly-once')
    return {
      kind: 'offsets',
      text: say(
        "Kafka's transaction keeps the offsets with the output (committed output once; processing may repeat), but no event_id",
        'Kafka 트랜잭션이 offset과 출력을 함께 보관합니다(커밋된 출력은 한 번, 처리는 반복될 수 있음). 다만 event_id는 기억하지 않습니다',
      ),
    };
  return null;
}

function dedupMemory(trace: Trace, run: RunSoFar, say: Say): Item {
  const apps = trace.scenario.clients.filter((c): c is App => c.type === 'consumer' || c.type === 'streams');
  if (apps.length === 0) return na(say('No application processes records.', '레코드를 처리하는 애플리케이션이 없습니다.'));
  for (const app of apps) {
    const memory = memoryOf(trace, app, say);
    const sink = app.type === 'consumer' ? sinkOf(trace, app.processing?.sink) : undefined;
    if (memory === null) {
      const twice = run.processedTwice.get(app.id) ?? [];
      if (twice.length === 0 && sink === undefined) continue;
      const preset =
        app.type === 'streams'
          ? CHECKLIST_PRESETS.streamsAtLeastOnce
          : sink?.type === 'http-api'
            ? CHECKLIST_PRESETS.apiPlain
            : sink && sinkMode(sink) === 'increment'
              ? CHECKLIST_PRESETS.increment
              : CHECKLIST_PRESETS.dbInsert;
      return fail(
        say(
          `${app.id} remembers no processed event_id${twice.length ? `: ${join(twice.slice(0, 3))} ${twice.length > 1 ? 'were' : 'was'} processed more than once` : ': a redelivered event is processed again'}.`,
          `${josa(app.id, '은/는')} 처리한 event_id를 기억하지 않습니다${twice.length ? `. ${josa(join(twice.slice(0, 3)), '이/가')} 두 번 이상 처리됐습니다` : '. 다시 전달된 이벤트를 또 처리합니다'}.`,
        ),
        preset,
      );
    }
    const forgotten = memory.kind === 'event-id' && sink ? (run.appliedTwice.get(sink.id) ?? []) : [];
    if (forgotten.length && sink?.retentionMs !== undefined)
      return fail(
        say(
          `${app.id} remembers processed ids for only ${sink.retentionMs} ms: ${join(forgotten.slice(0, 3))} took effect twice in ${sink.id} — the duplicate came after the id was forgotten.`,
          `${josa(app.id, '은/는')} 처리한 ID를 ${sink.retentionMs} ms 동안만 기억합니다. ${josa(join(forgotten.slice(0, 3)), '이/가')} ${sink.id}에서 두 번 반영됐습니다. ID를 잊은 뒤에 중복이 왔습니다.`,
        ),
        CHECKLIST_PRESETS.forgotten,
      );
    const sent = memory.kind === 'offsets' ? (run.processedFromTwoRecords.get(app.id) ?? []) : [];
    if (sent.length)
      return fail(
        say(
          `${app.id} remembers offsets, not event_ids: ${join(sent.slice(0, 3))} came in two records and both were processed — a business duplicate that only the event_id shows.`,
          `${josa(app.id, '은/는')} event_id가 아니라 offset을 기억합니다. ${josa(join(sent.slice(0, 3)), '이/가')} 레코드 두 개로 와서 둘 다 처리됐습니다. event_id만 알려 주는 비즈니스 중복입니다.`,
        ),
        CHECKLIST_PRESETS.businessDuplicate,
      );
  }
  // one sentence per way of remembering, with the applications that use it
  const byMemory = new Map<string, string[]>();
  for (const app of apps) {
    const m = memoryOf(trace, app, say);
    if (m !== null) byMemory.set(m.text, [...(byMemory.get(m.text) ?? []), app.id]);
  }
  if (byMemory.size)
    return pass(`${[...byMemory].map(([m, who]) => (m.includes(who[0] as string) ? m : `${join(who)}: ${m}`)).join('; ')}.`);
  return na(
    say(
      `${ids(apps)} ${apps.length > 1 ? 'have' : 'has'} no side effect to protect, and processed no event twice.`,
      `${ids(apps)}에는 보호할 부수 효과가 없고, 같은 이벤트를 두 번 처리하지 않았습니다.`,
    ),
  );
}

// ---------------------------------------------------------------- the checklist

/**
 * Evaluates the checklist for a run as of step `atStep` (default: its end). `view` is the state at
 * that step, if the caller has it (otherwise it is computed).
 */
export function evaluateChecklist(
  trace: Trace,
  language: Language = 'en',
  atStep: number = trace.steps.length,
  view?: SimView,
): ChecklistItem[] {
  const say: Say = (en, ko) => (language === 'ko' ? ko : en);
  const run = runSoFar(trace, atStep);
  const state = view && view.step === run.step ? view : stateAt(trace, run.step);
  const items: [ChecklistId, Item, ChecklistItem['basis']][] = [
    ['guarantee', guarantee(trace, say), 'configuration'],
    ['transactional-id', transactionalIds(trace, say), 'configuration'],
    ['offsets-in-transaction', offsetsInTransaction(trace, say), 'configuration'],
    ['next-offset', nextOffset(trace, say), 'configuration'],
    ['read-committed', readCommitted(trace, say), 'configuration'],
    ['observed', observed(trace, run, say), 'run'],
    ['replication', replication(trace, say), 'configuration'],
    ['event-id', eventIds(trace, state, run, say), 'run'],
    ['dedup-memory', dedupMemory(trace, run, say), 'run'],
    ['side-effects', sideEffects(trace, say), 'configuration'],
  ];
  const own = trace.scenario.id;
  return items.map(([id, item, basis]) => {
    // before the end, what the run has not done yet may still happen: only a failure already seen is final
    const early = basis === 'run' && !run.final && item.status !== 'fail';
    const status: ChecklistStatus = early ? 'pending' : item.status;
    const reason =
      basis === 'run' && !run.final ? say(`As of step ${run.step}: ${item.reason}`, `${run.step}단계까지: ${item.reason}`) : item.reason;
    const failed = status === 'fail';
    const preset = failed && item.preset !== undefined ? item.preset : null;
    return {
      id,
      question: say(...(CHECKLIST_QUESTIONS[id] as [string, string])),
      status,
      reason,
      basis,
      preset: preset === own ? null : preset,
      showsHere: preset !== null && preset === own,
      wouldShow: failed ? (item.wouldShow ?? null) : null,
      ...(item.parts ? { parts: item.parts } : {}),
    };
  });
}
