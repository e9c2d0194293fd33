/**
 * The seed article's pre-production checklist ("운영 전에 확인할 체크리스트"), evaluated against a
 * scenario and its run: each question answered pass / fail / not applicable with a one-line reason,
 * and each failure linked to the preset that shows what goes wrong. Computed from the resolved
 * configuration, the scenario's processing modes and sinks, the records in the log and the
 * verdict's counters — nothing else.
 */
import { josa, type Language } from '../narration/language';
import type { Trace } from '../run';
import type { Scenario } from '../scenario/schema';
import type { Fact } from '../trace/facts';
import { outputTopicsOf, summarize, type TraceSummary } from '../trace/summary';

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

export type ChecklistStatus = 'pass' | 'fail' | 'not-applicable';

export interface ChecklistItem {
  readonly id: ChecklistId;
  readonly question: string;
  readonly status: ChecklistStatus;
  readonly reason: string;
  /** The preset that shows what goes wrong, for a failure. */
  readonly preset: string | null;
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

/** Presets that show each failure (ids of src/sim/presets). */
export const CHECKLIST_PRESETS = {
  idempotenceOff: 'lost-ack-no-idempotence',
  resendNewEventId: 'app-resend',
  commitLast: 'commit-last-instead-of-next',
  readUncommitted: 'abort-hidden-from-read-committed',
  autoCommit: 'auto-commit-pitfall',
  dbInsert: 'db-sink-duplicate',
  apiPlain: 'api-lost-response',
  zombie: 'zombie-fencing',
  timeout: 'transaction-timeout',
  ctpNoTxn: 'ctp-without-transactions-crash',
} as const;

type Say = (en: string, ko: string) => string;

interface Item {
  readonly status: ChecklistStatus;
  readonly reason: string;
  readonly preset?: string | null;
}

const na = (reason: string): Item => ({ status: 'not-applicable', reason });
const pass = (reason: string): Item => ({ status: 'pass', reason });
const fail = (reason: string, preset: string): Item => ({ status: 'fail', reason, preset });

interface Writer {
  readonly client: string;
  readonly transactionalId: string | null;
  readonly idempotent: boolean;
  readonly topics: readonly string[];
}

/** The configuration a client's producer actor was built with (producers, consume-produce applications, Streams). */
function producerConfigOf(trace: Trace, clientId: string): { 'transactional.id': string | null; 'enable.idempotence': boolean } | null {
  const spec = trace.built.specs.find((sp) => sp.id === `${clientId}.producer`);
  const config = (spec?.input as { config?: { 'transactional.id': string | null; 'enable.idempotence': boolean } } | undefined)?.config;
  return config ?? null;
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
    out.push({ client: c.id, transactionalId: cfg['transactional.id'], idempotent: cfg['enable.idempotence'], topics });
  }
  return out;
}

function streamsGuarantee(c: Scenario['clients'][number]): string {
  if (c.type !== 'streams') return '';
  const g = c.config?.['processing.guarantee'];
  return typeof g === 'string' ? g : 'at_least_once';
}

function modeOf(trace: Trace, c: Extract<Scenario['clients'][number], { type: 'consumer' }>): string {
  return c.processing?.mode ?? (trace.resolved.consumers[c.id]?.['enable.auto.commit'] ? 'auto-commit' : 'at-least-once');
}

function consumers(trace: Trace) {
  return trace.scenario.clients.filter((c): c is Extract<Scenario['clients'][number], { type: 'consumer' }> => c.type === 'consumer');
}

function sinkOf(trace: Trace, id: string | undefined) {
  return id ? (trace.scenario.sinks ?? []).find((k) => k.id === id) : undefined;
}

function sinkMode(k: NonNullable<Scenario['sinks']>[number]): string {
  return k.mode ?? (k.type === 'database' ? 'insert' : k.type === 'http-api' ? 'plain' : 'outbox');
}

const join = (items: readonly string[]) => items.join(', ');

function guarantee(trace: Trace, say: Say): Item {
  const ws = writers(trace);
  if (ws.length === 0) return na(say('No producer writes in this scenario.', '이 시나리오에는 기록하는 프로듀서가 없습니다.'));
  const off = ws.filter((w) => !w.idempotent);
  if (off.length)
    return fail(
      say(
        `${join(off.map((w) => w.client))} runs with enable.idempotence=false: a batch retried after a lost ack is written twice.`,
        `${josa(join(off.map((w) => w.client)), '은/는')} enable.idempotence=false로 실행됩니다. ack를 잃고 재시도한 배치가 두 번 기록됩니다.`,
      ),
      CHECKLIST_PRESETS.idempotenceOff,
    );
  const streams = trace.scenario.clients
    .filter((c) => c.type === 'streams' && streamsGuarantee(c).startsWith('exactly_once'))
    .map((c) => c.id);
  const txn = ws.filter((w) => w.transactionalId !== null && !streams.includes(w.client)).map((w) => w.client);
  const idem = ws.filter((w) => w.transactionalId === null).map((w) => w.client);
  const parts: string[] = [];
  if (idem.length) parts.push(say(`idempotent producer (${join(idem)})`, `멱등 프로듀서(${join(idem)})`));
  if (txn.length) parts.push(say(`Kafka transactions (${join(txn)})`, `Kafka 트랜잭션(${join(txn)})`));
  if (streams.length) parts.push(say(`Streams exactly_once_v2 (${join(streams)})`, `Streams exactly_once_v2(${join(streams)})`));
  return pass(say(`In use: ${parts.join('; ')}.`, `사용 중: ${parts.join('; ')}.`));
}

function transactionalIds(trace: Trace, say: Say): Item {
  const ws = writers(trace).filter((w) => w.transactionalId !== null);
  if (ws.length === 0) return na(say('No producer uses a transactional.id.', 'transactional.id를 쓰는 프로듀서가 없습니다.'));
  const byId = new Map<string, string[]>();
  for (const w of ws) byId.set(w.transactionalId as string, [...(byId.get(w.transactionalId as string) ?? []), w.client]);
  const shared = [...byId].filter(([, clients]) => clients.length > 1);
  if (shared.length) {
    const [id, clients] = shared[0] as [string, string[]];
    return fail(
      say(
        `${join(clients)} share transactional.id ${id}: only the newest instance may write; the other is fenced as a zombie.`,
        `${josa(join(clients), '이/가')} transactional.id ${id}를 함께 씁니다. 가장 새로운 인스턴스만 쓸 수 있고 나머지는 좀비로 펜싱됩니다.`,
      ),
      CHECKLIST_PRESETS.zombie,
    );
  }
  return pass(
    say(
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
        `${join(auto.map((c) => c.id))} relies on enable.auto.commit: poll() commits positions on a timer, whether or not the records were processed.`,
        `${josa(join(auto.map((c) => c.id)), '은/는')} enable.auto.commit에 의존합니다. poll()이 처리 여부와 상관없이 주기적으로 위치를 커밋합니다.`,
      ),
      CHECKLIST_PRESETS.autoCommit,
    );
  const noTxn = cs.filter((c) => modeOf(trace, c) === 'consume-produce-no-transactions');
  if (noTxn.length)
    return fail(
      say(
        `${join(noTxn.map((c) => c.id))} produces its results and commits offsets separately: a crash between the two writes the output again.`,
        `${josa(join(noTxn.map((c) => c.id)), '은/는')} 결과를 쓰고 offset을 따로 커밋합니다. 그 사이에 중단되면 출력을 다시 씁니다.`,
      ),
      CHECKLIST_PRESETS.ctpNoTxn,
    );
  const eos = cs.filter((c) => modeOf(trace, c) === 'exactly-once');
  const autoOn = eos.filter((c) => trace.resolved.consumers[c.id]?.['enable.auto.commit']);
  if (autoOn.length)
    return fail(
      say(
        `${join(autoOn.map((c) => c.id))} sends offsets with sendOffsetsToTransaction but leaves enable.auto.commit=true: positions are also committed outside the transaction.`,
        `${josa(join(autoOn.map((c) => c.id)), '은/는')} sendOffsetsToTransaction을 쓰지만 enable.auto.commit=true입니다. 위치가 트랜잭션 밖에서도 커밋됩니다.`,
      ),
      CHECKLIST_PRESETS.autoCommit,
    );
  const streams = trace.scenario.clients.filter((c) => c.type === 'streams' && streamsGuarantee(c).startsWith('exactly_once'));
  if (eos.length || streams.length)
    return pass(
      say(
        `${join([...eos, ...streams].map((c) => c.id))}: enable.auto.commit=false, and the next offsets go into the transaction with sendOffsetsToTransaction.`,
        `${join([...eos, ...streams].map((c) => c.id))}: enable.auto.commit=false이고 다음 offset을 sendOffsetsToTransaction으로 트랜잭션에 넣습니다.`,
      ),
    );
  return na(
    say(
      'No application writes its results to Kafka (no consume-transform-produce).',
      'Kafka에 결과를 쓰는 애플리케이션이 없습니다(소비-변환-발행 아님).',
    ),
  );
}

function nextOffset(trace: Trace, say: Say): Item {
  const cs = consumers(trace);
  const last = cs.filter((c) => modeOf(trace, c) === 'commit-last-processed');
  if (last.length)
    return fail(
      say(
        `${join(last.map((c) => c.id))} commits the last processed offset instead of the next one: after a restart that record is processed again.`,
        `${josa(join(last.map((c) => c.id)), '은/는')} 다음 위치 대신 마지막으로 처리한 offset을 커밋합니다. 재시작하면 그 레코드를 다시 처리합니다.`,
      ),
      CHECKLIST_PRESETS.commitLast,
    );
  const committing = cs.filter((c) => trace.resolved.consumers[c.id]?.['group.id'] !== null || modeOf(trace, c) === 'offsets-in-sink');
  if (committing.length === 0) return na(say('No consumer commits offsets.', 'offset을 커밋하는 컨슈머가 없습니다.'));
  return pass(
    say(
      `Offsets committed by ${join(committing.map((c) => c.id))} are last processed + 1: the next record to read.`,
      `${josa(join(committing.map((c) => c.id)), '은/는')} 마지막으로 처리한 offset + 1, 즉 다음에 읽을 위치를 커밋합니다.`,
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
        `${join(uncommitted.map((c) => c.id))} reads ${join([...txnTopics])} with read_uncommitted: it receives aborted and still-open records.`,
        `${josa(join(uncommitted.map((c) => c.id)), '은/는')} ${join([...txnTopics])}를 read_uncommitted로 읽어 취소되거나 아직 열린 레코드도 받습니다.`,
      ),
      CHECKLIST_PRESETS.readUncommitted,
    );
  return pass(
    say(
      `${join(readers.map((c) => c.id))} reads ${join([...txnTopics])} with read_committed.`,
      `${josa(join(readers.map((c) => c.id)), '은/는')} ${join([...txnTopics])}를 read_committed로 읽습니다.`,
    ),
  );
}

function observed(trace: Trace, summary: TraceSummary, say: Say): Item {
  const c = summary.verdict.counters;
  const transactional = writers(trace).some((w) => w.transactionalId !== null);
  if (!transactional && c.commitFailures === 0)
    return na(say('No transactions, and no commit failed.', '트랜잭션이 없고 실패한 커밋도 없습니다.'));
  const timedOut = trace.steps.some((s) =>
    s.facts.some((f) => (f as Fact).kind === 'note' && /transaction\.timeout\.ms/.test((f as Extract<Fact, { kind: 'note' }>).text)),
  );
  if (c.transactionsAborted === 0 && c.producersFenced === 0 && c.commitFailures === 0)
    return pass(
      say(
        'In this run no transaction aborted, no producer was fenced and no commit failed — the counters to alert on stayed at zero.',
        '이번 실행에서는 취소된 트랜잭션, 펜싱된 프로듀서, 실패한 커밋이 없습니다. 경보 대상 지표가 0입니다.',
      ),
    );
  const preset = timedOut ? CHECKLIST_PRESETS.timeout : c.producersFenced > 0 ? CHECKLIST_PRESETS.zombie : CHECKLIST_PRESETS.timeout;
  return fail(
    say(
      `This run had ${c.transactionsAborted} aborted transaction(s)${timedOut ? ' (a transaction.timeout.ms expiry among them)' : ''}, ${c.producersFenced} fenced producer(s) and ${c.commitFailures} commit failure(s): each needs a metric and an alert.`,
      `이번 실행에서 취소된 트랜잭션 ${c.transactionsAborted}건${timedOut ? '(transaction.timeout.ms 만료 포함)' : ''}, 펜싱된 프로듀서 ${c.producersFenced}건, 커밋 실패 ${c.commitFailures}건이 있었습니다. 모두 지표와 경보가 필요합니다.`,
    ),
    preset,
  );
}

function replication(say: Say): Item {
  return na(
    say(
      'Not modelled: the simulator runs one replica per partition. In production give __transaction_state and your topics replication.factor ≥ 3 and min.insync.replicas ≥ 2.',
      '시뮬레이터는 파티션당 복제본 하나만 모델링합니다. 운영에서는 __transaction_state와 사용자 토픽에 replication.factor ≥ 3, min.insync.replicas ≥ 2를 두세요.',
    ),
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

function eventIds(trace: Trace, summary: TraceSummary, say: Say): Item {
  const outputs = new Set(outputTopicsOf(trace.scenario));
  // the scenario's own source topics: not outputs, not Streams' changelog and repartition topics
  const declared = new Set(trace.scenario.topics.map((t) => t.name));
  const records = summary.partitions
    .filter((p) => !p.internal && declared.has(p.topic) && !outputs.has(p.topic))
    .flatMap((p) => p.records.filter((r) => r.control === null).map((r) => ({ p, r })));
  if (records.length === 0) return na(say('No record reached a source topic.', '소스 토픽에 도달한 레코드가 없습니다.'));
  const missing = records.filter(({ r }) => !r.headers.event_id);
  if (missing.length) {
    const first = missing[0] as (typeof missing)[number];
    return fail(
      say(
        `${missing.length} record(s) carry no event_id header (first: ${first.p.topic}-${first.p.partition}@${first.r.offset}): a consumer cannot recognise a business duplicate.`,
        `레코드 ${missing.length}개에 event_id 헤더가 없습니다(첫 번째: ${first.p.topic}-${first.p.partition}@${first.r.offset}). 컨슈머가 비즈니스 중복을 알아볼 수 없습니다.`,
      ),
      CHECKLIST_PRESETS.resendNewEventId,
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
  const renamed = [...byContent.values()].find((ids) => ids.size > 1);
  if (renamed)
    return fail(
      say(
        `The same payload was sent under different event_ids (${join([...renamed])}): if that was a retry, the new id hides the duplicate from every consumer.`,
        `같은 페이로드가 서로 다른 event_id(${join([...renamed])})로 전송됐습니다. 재시도였다면 새 ID 때문에 어떤 컨슈머도 중복을 알아볼 수 없습니다.`,
      ),
      CHECKLIST_PRESETS.resendNewEventId,
    );
  const counts = new Map<string, number>();
  for (const { r } of records) counts.set(r.headers.event_id as string, (counts.get(r.headers.event_id as string) ?? 0) + 1);
  const kept = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  return pass(
    kept.length
      ? say(
          `Every record carries an event_id, and repeated sends kept it (${join(kept.slice(0, 3))}), so the duplicate is recognisable.`,
          `모든 레코드에 event_id가 있고 반복 전송에서도 유지되어(${join(kept.slice(0, 3))}) 중복을 알아볼 수 있습니다.`,
        )
      : say('Every record carries an event_id header.', '모든 레코드에 event_id 헤더가 있습니다.'),
  );
}

/** How a consumer remembers what it processed, or null when it does not. */
function memoryOf(trace: Trace, c: Extract<Scenario['clients'][number], { type: 'consumer' }>, say: Say): string | null {
  const mode = modeOf(trace, c);
  const sink = sinkOf(trace, c.processing?.sink);
  if (sink) {
    const m = sinkMode(sink);
    if (m === 'inbox')
      return say(
        `${sink.id}'s inbox keeps (event_id, ${c.id}) as long as its rows are kept`,
        `${sink.id}의 Inbox가 (event_id, ${c.id})를 행이 남아 있는 동안 기억합니다`,
      );
    if (m === 'upsert')
      return say(`${sink.id} keys rows by event_id (upsert)`, `${josa(sink.id, '은/는')} event_id를 기본 키로 upsert합니다`);
    if (m === 'offsets-in-db')
      return say(
        `${sink.id} stores the consumed offset with each result`,
        `${josa(sink.id, '이/가')} 결과와 함께 소비한 offset을 저장합니다`,
      );
    if (m === 'idempotency-key')
      return say(
        `${sink.id} remembers each Idempotency-Key (for its retention window)`,
        `${josa(sink.id, '이/가')} 멱등성 키를 보존 기간 동안 기억합니다`,
      );
    if (m === 'outbox')
      return say(
        `${sink.id} writes the result and its outbox row in one database transaction`,
        `${josa(sink.id, '이/가')} 결과와 outbox 행을 한 데이터베이스 트랜잭션으로 씁니다`,
      );
    if (m === 'lookup-before-retry') return say(`${sink.id} is asked before each retry`, `재시도 전에 ${sink.id}에 조회합니다`);
  }
  if (mode === 'exactly-once')
    return say(
      `Kafka's transaction keeps the offsets with the output (committed output once; processing may repeat)`,
      `Kafka 트랜잭션이 offset과 출력을 함께 보관합니다(커밋된 출력은 한 번, 처리는 반복될 수 있음)`,
    );
  return null;
}

function dedupMemory(trace: Trace, summary: TraceSummary, say: Say): Item {
  const cs = consumers(trace);
  if (cs.length === 0) return na(say('No consumer processes records.', '레코드를 처리하는 컨슈머가 없습니다.'));
  const twice = new Map<string, string[]>();
  for (const e of summary.verdict.events)
    for (const [app, n] of Object.entries(e.processed)) if (n > 1) twice.set(app, [...(twice.get(app) ?? []), e.eventId]);
  const forgetful = cs.filter((c) => memoryOf(trace, c, say) === null);
  const exposed = forgetful.filter(
    (c) => twice.has(c.id) || (c.processing?.sink !== undefined && sinkOf(trace, c.processing.sink) !== undefined),
  );
  if (exposed.length) {
    const c = exposed[0] as (typeof exposed)[number];
    const ids = twice.get(c.id) ?? [];
    return fail(
      say(
        `${c.id} remembers no processed event_id${ids.length ? `: ${join(ids.slice(0, 3))} ${ids.length > 1 ? 'were' : 'was'} processed more than once` : ': a redelivered event is processed again'}.`,
        `${josa(c.id, '은/는')} 처리한 event_id를 기억하지 않습니다${ids.length ? `. ${join(ids.slice(0, 3))}가 두 번 이상 처리됐습니다` : '. 다시 전달된 이벤트를 또 처리합니다'}.`,
      ),
      CHECKLIST_PRESETS.dbInsert,
    );
  }
  const remembered = cs.map((c) => memoryOf(trace, c, say)).filter((m): m is string => m !== null);
  if (remembered.length) return pass(`${remembered.join('; ')}.`);
  return na(
    say(
      `${join(cs.map((c) => c.id))} has no side effect to protect, and processed no event twice in this run.`,
      `${join(cs.map((c) => c.id))}에는 보호할 부수 효과가 없고, 이번 실행에서 같은 이벤트를 두 번 처리하지 않았습니다.`,
    ),
  );
}

function sideEffects(trace: Trace, say: Say): Item {
  const used = consumers(trace)
    .map((c) => ({ c, sink: sinkOf(trace, c.processing?.sink) }))
    .filter((x): x is { c: (typeof x)['c']; sink: NonNullable<(typeof x)['sink']> } => x.sink !== undefined);
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

/**
 * Evaluates the checklist for a run (the scenario, its resolved configuration and what happened).
 * `summary` defaults to the end of the run.
 */
export function evaluateChecklist(trace: Trace, language: Language = 'en', summary: TraceSummary = summarize(trace)): ChecklistItem[] {
  const say: Say = (en, ko) => (language === 'ko' ? ko : en);
  const items: [ChecklistId, Item][] = [
    ['guarantee', guarantee(trace, say)],
    ['transactional-id', transactionalIds(trace, say)],
    ['offsets-in-transaction', offsetsInTransaction(trace, say)],
    ['next-offset', nextOffset(trace, say)],
    ['read-committed', readCommitted(trace, say)],
    ['observed', observed(trace, summary, say)],
    ['replication', replication(say)],
    ['event-id', eventIds(trace, summary, say)],
    ['dedup-memory', dedupMemory(trace, summary, say)],
    ['side-effects', sideEffects(trace, say)],
  ];
  return items.map(([id, item]) => ({
    id,
    question: say(...(CHECKLIST_QUESTIONS[id] as [string, string])),
    status: item.status,
    reason: item.reason,
    preset: item.status === 'fail' ? (item.preset ?? null) : null,
  }));
}
