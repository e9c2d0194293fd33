/**
 * The KRaft traffic between the brokers and the controller, said as what its receiver does with it
 * (src/sim/controller/controller.machine.ts, src/sim/broker/replication.ts):
 * - BrokerHeartbeat: the broker renews its session, which keeps it unfenced for
 *   broker.session.timeout.ms; a new incarnation registers (and is unfenced) or, while the old
 *   one's session is valid, is refused DUPLICATE_BROKER_REGISTRATION. Its answer changes nothing at
 *   the broker (its heartbeat timer runs on).
 * - AlterPartition: the leader asks the controller to change a partition's ISR; the controller
 *   writes it with the next partition epoch, answers, and sends the partition record to every
 *   broker — or refuses it with an error. The leader commits the ISR it is told, drops its proposal
 *   on INELIGIBLE_REPLICA, and otherwise keeps it pending until a newer record replaces its state.
 * - PartitionChange: the controller's metadata record of a partition's leader and ISR
 *   (PartitionChangeRecord), which each broker applies — it leads, follows, or only notes it —
 *   unless it already has that record or a newer one; its answer tells the controller it need not
 *   send that record again.
 */
import type { EnvelopeRecord } from '../kernel/envelope';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { NarrationContext } from './context';
import { shutdownHeartbeatAnswerClause, shutdownHeartbeatClause } from './controlledShutdown';
import { josa, list, say } from './language';
import { poss } from './names';
import { highWatermarkRelease, isrBefore } from './replication';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
const brokers = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
const none = (lang: NarrationContext['lang']) => say(lang, 'none', '없음');
const isrText = (ctx: NarrationContext, isr: readonly string[]) => (isr.length ? isr.join(', ') : none(ctx.lang));
/** The Korean particle `word` takes, for a particle placed after a parenthesis that follows the word. */
const particle = (word: string, which: Parameters<typeof josa>[1]) => josa(word, which).slice(word.length);

function payload(ctx: NarrationContext): P {
  return (ctx.envelope?.payload as P) ?? {};
}

/** The envelopes this step sent. */
function sent(ctx: NarrationContext): EnvelopeRecord[] {
  return ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)).filter((e): e is EnvelopeRecord => e !== undefined);
}

/** The request a response answers. */
function request(ctx: NarrationContext): P {
  const id = ctx.envelope?.inReplyTo;
  return id !== null && id !== undefined ? ((ctx.trace.envelopes.at(id)?.payload as P) ?? {}) : {};
}

function where(p: P): string {
  return topicPartitionKey(str(p.topic), num(p.partition));
}

// ---- BrokerHeartbeat ----

/** The broker epoch of the broker's previous BrokerHeartbeat (before this step), or null. */
function previousBrokerEpoch(ctx: NarrationContext, broker: string): number | null {
  const envelopes = ctx.trace.envelopes;
  const own = ctx.envelope?.id ?? envelopes.length;
  const epoch = num(ctx.envelope?.payload.brokerEpoch);
  for (let i = own - 1; i >= 0; i--) {
    const e = envelopes.at(i);
    if (e?.rpc !== 'BrokerHeartbeat' || e.from !== broker) continue;
    // this incarnation's earlier attempts the controller refused (DUPLICATE_BROKER_REGISTRATION)
    // are not a registration: look past them for the incarnation before
    if (num(e.payload.brokerEpoch) === epoch && refusedRegistration(ctx, e.deliveredStep)) continue;
    return num(e.payload.brokerEpoch);
  }
  return null;
}

/** The controller's step `step` answered a heartbeat DUPLICATE_BROKER_REGISTRATION. */
function refusedRegistration(ctx: NarrationContext, step: number | null): boolean {
  if (step === null) return false;
  for (const id of ctx.trace.steps.at(step)?.sent ?? []) {
    const e = ctx.trace.envelopes.at(id);
    if (e?.rpc === 'BrokerHeartbeatResponse') return (e.payload as P).error === 'DUPLICATE_BROKER_REGISTRATION';
  }
  return false;
}

/**
 * The controller receives a BrokerHeartbeat (onHeartbeat): the same incarnation renews its session
 * (and gets again the records it lost to a broken connection); a fenced broker or a new
 * incarnation registers and is unfenced (the partitions without a leader elect one, every broker
 * gets every partition record); a new incarnation while the old one's session is valid is refused.
 */
export function brokerHeartbeatClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const p = payload(ctx);
  const broker = str(p.brokerId) || ctx.names.actor(step.from ?? ctx.envelope?.from ?? '');
  const epoch = num(p.brokerEpoch);
  const out = sent(ctx);
  const answer = out.find((e) => e.rpc === 'BrokerHeartbeatResponse')?.payload as P | undefined;
  const session = ctx.trace.resolved.cluster['broker.session.timeout.ms'];
  if (answer?.error === 'DUPLICATE_BROKER_REGISTRATION')
    return say(
      lang,
      `the controller refuses the registration of ${poss(broker, 'new incarnation')} (BrokerHeartbeat, broker epoch ${epoch}) with DUPLICATE_BROKER_REGISTRATION: the session of the incarnation before it is still valid, and the new one may register only once the controller has fenced the old; ${broker} tries again at its next heartbeat, and until it is unfenced it accepts no connection (BrokerServer opens its listeners only then)`,
      `컨트롤러가 ${broker}의 새 인스턴스 등록(BrokerHeartbeat, 브로커 epoch ${epoch})을 DUPLICATE_BROKER_REGISTRATION으로 거절합니다. 이전 인스턴스의 세션이 아직 유효하고, 컨트롤러가 이전 인스턴스를 펜싱한 뒤에야 새 인스턴스가 등록할 수 있습니다. ${josa(broker, '은/는')} 다음 하트비트에서 다시 시도하며, 펜스가 풀릴 때까지 연결을 받지 않습니다(BrokerServer는 그때에야 리스너를 엽니다).`,
    );
  const records = out.filter((e) => e.rpc === 'PartitionChange');
  if (p.wantShutDown === true) {
    const moved = ctx.step.facts.filter((f) => (f as { kind: string }).kind === 'leaderChange').map((f) => where(f as unknown as P));
    return shutdownHeartbeatClause(ctx, broker, answer, [...new Set(moved)]);
  }
  if (records.some((e) => e.to !== broker)) {
    const before = previousBrokerEpoch(ctx, broker);
    const restarted = before !== null && before !== epoch;
    // the Korean object particle follows the noun, not the parenthesis after it
    const who = restarted
      ? say(
          lang,
          `${poss(broker, 'new incarnation')} (broker epoch ${epoch}, after its restart)`,
          `${broker}의 새 인스턴스(브로커 epoch ${epoch}, 재시작 후)를`,
        )
      : say(lang, `${broker} (broker epoch ${epoch})`, `${broker}(브로커 epoch ${epoch})${particle(broker, '을/를')}`);
    const listeners = restarted
      ? say(
          lang,
          `; with its answer ${broker} opens its listeners (BrokerServer accepts connections only once unfenced)`,
          ` 응답을 받은 ${josa(broker, '은/는')} 리스너를 엽니다(BrokerServer는 펜스가 풀린 뒤에야 연결을 받습니다).`,
        )
      : '';
    return say(
      lang,
      `the controller registers ${who} and unfences it (BrokerHeartbeat): partitions left without a leader elect one again, every broker gets the partition records (PartitionChange), and ${poss(broker, 'session')} runs for broker.session.timeout.ms (${session} ms) from now${listeners}`,
      `컨트롤러가 ${who} 등록하고 펜싱을 풉니다(BrokerHeartbeat). 리더가 없던 파티션은 다시 리더를 뽑고, 모든 브로커가 파티션 레코드(PartitionChange)를 받으며, ${broker}의 세션은 지금부터 broker.session.timeout.ms(${session} ms) 동안 유지됩니다.${listeners}`,
    );
  }
  const renew = say(
    lang,
    `${broker} renews its session with the controller (BrokerHeartbeat, broker epoch ${epoch}): the controller keeps it unfenced for another broker.session.timeout.ms (${session} ms)`,
    `${josa(broker, '이/가')} 컨트롤러와의 세션을 갱신합니다(BrokerHeartbeat, 브로커 epoch ${epoch}). 컨트롤러는 앞으로 broker.session.timeout.ms(${session} ms) 동안 이 브로커를 펜싱하지 않습니다.`,
  );
  if (!records.length) return renew;
  const missed = list(lang, [...new Set(records.map((e) => where(e.payload as P)))]);
  return say(
    lang,
    `${renew}; the controller sends it again the partition records it lost to a broken connection (${missed})`,
    `${renew} 연결이 끊겨 받지 못한 파티션 레코드(${missed})도 다시 보냅니다.`,
  );
}

/** The broker reads the controller's answer to its BrokerHeartbeat: the model's broker does nothing with it. */
export function brokerHeartbeatResponseClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const p = payload(ctx);
  const broker = ctx.names.actor(step.actor);
  const every = ctx.trace.resolved.cluster['broker.heartbeat.interval.ms'];
  if (request(ctx).wantShutDown === true && str(p.error) === '') return shutdownHeartbeatAnswerClause(ctx, broker, p);
  if (str(p.error) === 'DUPLICATE_BROKER_REGISTRATION')
    return say(
      lang,
      `the controller refused ${poss(broker, 'registration')} with DUPLICATE_BROKER_REGISTRATION: its previous incarnation is not fenced yet; ${broker} sends its next BrokerHeartbeat after broker.heartbeat.interval.ms (${every} ms)`,
      `컨트롤러가 ${broker}의 등록을 DUPLICATE_BROKER_REGISTRATION으로 거절했습니다. 이전 인스턴스가 아직 펜싱되지 않았습니다. ${josa(broker, '은/는')} broker.heartbeat.interval.ms(${every} ms) 뒤에 다음 BrokerHeartbeat를 보냅니다.`,
    );
  return say(
    lang,
    `the controller answered ${poss(broker, 'BrokerHeartbeat')}: not fenced; nothing changes for ${broker}, which heartbeats every broker.heartbeat.interval.ms (${every} ms)`,
    `컨트롤러가 ${broker}의 BrokerHeartbeat에 응답했습니다: 펜싱되지 않음. ${broker}에게 달라지는 것은 없고, 하트비트는 broker.heartbeat.interval.ms(${every} ms)마다 계속 보냅니다.`,
  );
}

// ---- AlterPartition ----

/** Why the controller refuses an AlterPartition (ReplicationControlManager.validateAlterPartitionData, as the model checks it). */
const ALTER_REFUSED: Readonly<Record<string, readonly [en: string, ko: string]>> = {
  UNKNOWN_TOPIC_OR_PARTITION: ['the controller knows no such partition', '컨트롤러가 모르는 파티션입니다'],
  FENCED_LEADER_EPOCH: [
    'the request carries another leader epoch than the partition has now (leadership moved)',
    '요청의 리더 epoch가 파티션의 현재 리더 epoch와 다릅니다(리더가 바뀜)',
  ],
  INVALID_REQUEST: [
    "the sender is not the partition's leader, or the ISR it asks for names a broker that holds no replica or leaves out the leader",
    '보낸 브로커가 파티션의 리더가 아니거나, 요청한 ISR에 복제본이 없는 브로커가 있거나 리더가 빠져 있습니다',
  ],
  INVALID_UPDATE_VERSION: [
    'the ISR changed since the leader asked: its partition epoch is stale',
    '리더가 요청한 뒤 ISR이 바뀌어 요청의 파티션 epoch가 낡았습니다',
  ],
  INELIGIBLE_REPLICA: [
    'a broker of the requested ISR is fenced or not registered',
    '요청한 ISR에 펜싱됐거나 등록되지 않은 브로커가 있습니다',
  ],
};

function refusedWhy(ctx: NarrationContext, error: string): string {
  const why = ALTER_REFUSED[error];
  if (!why) return '';
  return say(ctx.lang, `: ${why[0]}`, `(${why[1]})`);
}

/** How an ISR changes: who leaves, who joins. */
function isrChange(ctx: NarrationContext, before: readonly string[] | null, after: readonly string[]): string {
  const { lang } = ctx;
  if (!before) return '';
  const out = before.filter((b) => !after.includes(b));
  const joined = after.filter((b) => !before.includes(b));
  const parts: string[] = [];
  if (out.length)
    parts.push(
      say(lang, `${list(lang, out)} ${out.length === 1 ? 'leaves' : 'leave'} the ISR`, `${josa(list(lang, out), '이/가')} ISR에서 빠지고`),
    );
  if (joined.length)
    parts.push(
      say(
        lang,
        `${list(lang, joined)} ${joined.length === 1 ? 'joins' : 'join'} the ISR`,
        `${josa(list(lang, joined), '이/가')} ISR에 들어오고`,
      ),
    );
  return lang === 'ko' ? parts.join(' ') : parts.join(' and ');
}

/**
 * The controller receives a leader's AlterPartition (onAlterPartition): it writes the new ISR with
 * partition epoch + 1 (the leader epoch stays), answers, and sends the partition record to every
 * broker; or refuses it with an error and the registration unchanged.
 */
export function alterPartitionClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const p = payload(ctx);
  const leader = str(p.leaderId) || ctx.names.actor(step.from ?? ctx.envelope?.from ?? '');
  const tp = where(p);
  const asked = brokers(p.newIsr);
  const answer = sent(ctx).find((e) => e.rpc === 'AlterPartitionResponse')?.payload as P | undefined;
  const error = str(answer?.error);
  if (answer && error && error !== 'NONE') {
    const kept = brokers(answer.isr);
    return say(
      lang,
      `the controller refuses ${poss(leader, 'AlterPartition')} for ${tp} (ISR ${isrText(ctx, asked)}, leader epoch ${num(p.leaderEpoch)}, partition epoch ${num(p.partitionEpoch)}) with ${error}${refusedWhy(ctx, error)}; the ISR stays ${isrText(ctx, kept)}`,
      `컨트롤러가 ${leader}의 ${tp} AlterPartition(ISR ${isrText(ctx, asked)}, 리더 epoch ${num(p.leaderEpoch)}, 파티션 epoch ${num(p.partitionEpoch)})을 ${josa(error, '으로/로')} 거절합니다${refusedWhy(ctx, error)}. ISR은 ${isrText(ctx, kept)} 그대로입니다.`,
    );
  }
  const isr = answer ? brokers(answer.isr) : asked;
  const epoch = answer ? num(answer.partitionEpoch) : num(p.partitionEpoch) + 1;
  const change = isrChange(ctx, isrBefore(ctx, str(p.topic), num(p.partition)), isr);
  return say(
    lang,
    `the controller accepts ${poss(leader, 'AlterPartition')} for ${tp}${change ? `: ${change}` : ''} — the ISR is now ${isrText(ctx, isr)} at partition epoch ${epoch} (leader epoch ${num(p.leaderEpoch)} unchanged); it answers ${leader} and sends the new partition record (PartitionChange) to every broker`,
    `컨트롤러가 ${leader}의 ${tp} AlterPartition을 받아들입니다. ${change ? `${change} ` : ''}ISR은 이제 파티션 epoch ${epoch}의 ${isrText(ctx, isr)}입니다(리더 epoch ${josa(String(num(p.leaderEpoch)), '은/는')} 그대로). ${leader}에게 응답하고 새 파티션 레코드(PartitionChange)를 모든 브로커에 보냅니다.`,
  );
}

/**
 * The leader receives the controller's AlterPartitionResponse (onAlterPartitionAnswer →
 * onAlterPartitionResponse): NONE commits the ISR and partition epoch it carries — and the high
 * watermark may move up with the new ISR; INELIGIBLE_REPLICA drops the proposal; another error
 * leaves it pending until a newer partition record replaces the leader's state.
 */
export function alterPartitionResponseClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const p = payload(ctx);
  const leader = ctx.names.actor(step.actor);
  const tp = where(p);
  const error = str(p.error);
  if (error && error !== 'NONE') {
    const asked = brokers(request(ctx).newIsr);
    const head = say(
      lang,
      `the controller refused ${poss(leader, 'AlterPartition')} for ${tp}${asked.length ? ` (ISR ${asked.join(', ')})` : ''} with ${error}${refusedWhy(ctx, error)}`,
      `컨트롤러가 ${leader}의 ${tp} AlterPartition${asked.length ? `(ISR ${asked.join(', ')})` : ''}을 ${josa(error, '으로/로')} 거절했습니다${refusedWhy(ctx, error)}.`,
    );
    return error === 'INELIGIBLE_REPLICA'
      ? say(
          lang,
          `${head}; ${leader} drops its proposal and keeps the ISR it had`,
          `${head} ${josa(leader, '은/는')} 제안을 버리고 원래 ISR을 유지합니다.`,
        )
      : say(
          lang,
          `${head}; ${leader} keeps its proposal pending until a newer partition record (PartitionChange) replaces its state`,
          `${head} ${josa(leader, '은/는')} 더 새로운 파티션 레코드(PartitionChange)가 상태를 바꿀 때까지 제안을 보류해 둡니다.`,
        );
  }
  const main = say(
    lang,
    `${leader} learns that the controller accepted its ISR change for ${tp}: the ISR is ${isrText(ctx, brokers(p.isr))} at partition epoch ${num(p.partitionEpoch)}`,
    `${josa(leader, '은/는')} 컨트롤러가 ${tp}의 ISR 변경을 받아들였음을 알게 됩니다. ISR은 파티션 epoch ${num(p.partitionEpoch)}의 ${isrText(ctx, brokers(p.isr))}입니다.`,
  );
  const released = highWatermarkRelease(ctx, null);
  return released ? (lang === 'ko' ? `${main} ${released}` : `${main}; ${released}`) : main;
}

// ---- PartitionChange ----

/**
 * The record of `topic`/`partition` this broker had before this step: the newest of the records
 * delivered to its current incarnation (a crash forgets them), or the controller's first record
 * it was built with, for its first incarnation.
 */
function knownRecord(ctx: NarrationContext, broker: string, topic: string, partition: number): P | null {
  const env = ctx.envelope;
  if (!env) return null;
  let best: P | null = null;
  const newer = (a: P, b: P | null) =>
    !b ||
    num(a.leaderEpoch) > num(b.leaderEpoch) ||
    (num(a.leaderEpoch) === num(b.leaderEpoch) && num(a.partitionEpoch) > num(b.partitionEpoch));
  for (let i = env.id - 1; i >= 0; i--) {
    const e = ctx.trace.envelopes.at(i);
    if (!e || e.rpc !== 'PartitionChange' || e.to !== broker || e.toIncarnation !== env.toIncarnation) continue;
    if (e.fate !== 'delivered' || e.deliveredStep === null || e.deliveredStep >= ctx.step.i) continue;
    if (e.payload.topic !== topic || e.payload.partition !== partition) continue;
    if (newer(e.payload as P, best)) best = e.payload as P;
  }
  if (env.toIncarnation === 0) {
    const input = ctx.trace.built.specs.find((s) => s.id === broker)?.input as { replication?: { initial?: readonly P[] } } | undefined;
    const initial = input?.replication?.initial?.find((r) => r.topic === topic && r.partition === partition);
    if (initial && newer(initial, best)) best = initial;
  }
  return best;
}

/**
 * A broker receives the controller's partition record (onPartitionChange): an older record than
 * the one it has is ignored; the same one only updates which brokers are fenced; otherwise it
 * applies it — it leads the partition (a new leader epoch, or a new ISR of the one it leads),
 * follows the new leader and fetches from it, stops following an offline partition, or, holding
 * no replica, only notes it.
 */
export function partitionChangeClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const p = payload(ctx);
  const broker = ctx.names.actor(step.actor);
  const topic = str(p.topic);
  const partition = num(p.partition);
  const tp = where(p);
  const leader = p.leader === null || p.leader === undefined ? null : str(p.leader);
  const leaderEpoch = num(p.leaderEpoch);
  const partitionEpoch = num(p.partitionEpoch);
  const isr = isrText(ctx, brokers(p.isr));
  const old = knownRecord(ctx, step.actor, topic, partition);
  if (old && (num(old.partitionEpoch) > partitionEpoch || num(old.leaderEpoch) > leaderEpoch))
    return say(
      lang,
      `${broker} ignores this partition record of ${tp} (partition epoch ${partitionEpoch}): it already applied a newer one (partition epoch ${num(old.partitionEpoch)})`,
      `${josa(broker, '은/는')} ${tp}의 이 파티션 레코드(파티션 epoch ${partitionEpoch})를 무시합니다. 이미 더 새로운 레코드(파티션 epoch ${num(old.partitionEpoch)})를 반영했습니다.`,
    );
  if (old && num(old.partitionEpoch) === partitionEpoch && num(old.leaderEpoch) === leaderEpoch) {
    const fenced = Array.isArray(p.fencedBrokers) ? brokers(p.fencedBrokers) : null;
    return fenced
      ? say(
          lang,
          `${broker} already has this partition record of ${tp} (partition epoch ${partitionEpoch}), so the partition is unchanged; the record only tells it which brokers are fenced now: ${fenced.length ? fenced.join(', ') : 'none'}`,
          `${josa(broker, '은/는')} ${tp}의 이 파티션 레코드(파티션 epoch ${partitionEpoch})를 이미 갖고 있어 파티션은 그대로입니다. 이 레코드로는 지금 펜싱된 브로커만 알게 됩니다: ${fenced.length ? fenced.join(', ') : '없음'}.`,
        )
      : say(
          lang,
          `${broker} already has this partition record of ${tp} (partition epoch ${partitionEpoch}): nothing changes`,
          `${josa(broker, '은/는')} ${tp}의 이 파티션 레코드(파티션 epoch ${partitionEpoch})를 이미 갖고 있어 바뀌는 것이 없습니다.`,
        );
  }
  // in Korean with its object particle, which follows 레코드 (not the parenthesis)
  const record = say(
    lang,
    `the controller's partition record of ${tp} (PartitionChange: leader ${leader ?? 'none'}, leader epoch ${leaderEpoch}, ISR ${isr}, partition epoch ${partitionEpoch})`,
    `컨트롤러의 ${tp} 파티션 레코드(PartitionChange: 리더 ${leader ?? '없음'}, 리더 epoch ${leaderEpoch}, ISR ${isr}, 파티션 epoch ${partitionEpoch})를`,
  );
  const replicas = brokers(p.replicas);
  if (!replicas.includes(step.actor))
    return say(
      lang,
      `${broker} applies ${record} to its metadata: it holds no replica of ${tp}, so only what it tells clients about ${tp} changes`,
      `${josa(broker, '이/가')} ${record} 메타데이터에 반영합니다. ${tp}의 복제본이 없으므로 클라이언트에게 알려 주는 ${tp} 정보만 바뀝니다.`,
    );
  const released = highWatermarkRelease(ctx, null);
  const withRelease = (text: string) => (released ? (lang === 'ko' ? `${text} ${released}` : `${text}; ${released}`) : text);
  if (leader === step.actor) {
    if (old && old.leader === step.actor && num(old.leaderEpoch) === leaderEpoch)
      return withRelease(
        say(
          lang,
          `${broker}, the leader of ${tp}, applies ${record}: it takes ISR ${isr} as committed`,
          `${tp}의 리더 ${josa(broker, '이/가')} ${record} 반영해 ISR ${josa(isr, '을/를')} 확정된 ISR로 삼습니다.`,
        ),
      );
    return withRelease(
      say(
        lang,
        `${broker} applies ${record}: it becomes the leader of ${tp} at leader epoch ${leaderEpoch}, and leader epoch ${leaderEpoch} starts at its log end offset`,
        `${josa(broker, '이/가')} ${record} 반영해 리더 epoch ${leaderEpoch}의 ${tp} 리더가 됩니다. 리더 epoch ${josa(String(leaderEpoch), '은/는')} 자기 LEO(로그 끝 offset)에서 시작합니다.`,
      ),
    );
  }
  // no longer the leader: the writes waiting in its purgatory end NOT_LEADER_OR_FOLLOWER
  const wasLeader = old?.leader === step.actor;
  const answered = sent(ctx).some((e) => e.rpc === 'ProduceResponse' || e.rpc === 'WriteTxnMarkersResponse');
  const resigned = !wasLeader
    ? ''
    : answered
      ? say(
          lang,
          `; it no longer leads ${tp}, so the writes waiting in its purgatory end NOT_LEADER_OR_FOLLOWER`,
          ` 이제 ${tp}의 리더가 아니므로 대기열에서 기다리던 쓰기는 NOT_LEADER_OR_FOLLOWER로 끝납니다.`,
        )
      : say(lang, `; it no longer leads ${tp}`, ` 이제 ${tp}의 리더가 아닙니다.`);
  if (leader === null)
    return say(
      lang,
      `${broker} applies ${record}: ${tp} has no leader (offline), so it fetches it from no one${resigned}`,
      `${josa(broker, '이/가')} ${record} 반영합니다. ${josa(tp, '은/는')} 리더가 없어(오프라인) 아무에게서도 Fetch하지 않습니다.${resigned}`,
    );
  // ReplicaManager.applyLocalFollowersDelta: a replica in controlled shutdown and out of the ISR stops fetching
  if (brokers(p.shuttingDownBrokers).includes(step.actor) && !brokers(p.isr).includes(step.actor))
    return say(
      lang,
      `${broker} applies ${record}: in its controlled shutdown and out of the ISR, it stops fetching ${tp}, so its copy keeps whatever ${leader} lacks until it follows ${leader} again after its restart${resigned}`,
      `${josa(broker, '이/가')} ${record} 반영합니다. 제어된 종료 중이고 ISR에서 빠졌으므로 ${tp} Fetch를 멈춥니다. 재시작한 뒤 다시 ${josa(leader, '을/를')} 따라갈 때까지 자기 사본에는 ${leader}에게 없는 것이 그대로 남습니다.${resigned}`,
    );
  const fetch = sent(ctx).find((e) => e.rpc === 'Fetch');
  if (fetch)
    return say(
      lang,
      `${broker} applies ${record}: it follows ${leader} at leader epoch ${leaderEpoch} and fetches ${tp} from it, from offset ${num(fetch.payload.fetchOffset)}${resigned}`,
      `${josa(broker, '이/가')} ${record} 반영합니다. 리더 epoch ${leaderEpoch}의 ${josa(leader, '을/를')} 따르며 ${josa(tp, '을/를')} offset ${num(fetch.payload.fetchOffset)}부터 Fetch합니다.${resigned}`,
    );
  return say(
    lang,
    `${broker}, a follower of ${leader}, applies ${record}: it keeps fetching from ${leader}${resigned}`,
    `${leader}의 팔로워 ${josa(broker, '이/가')} ${record} 반영합니다. 계속 ${leader}에게서 Fetch합니다.${resigned}`,
  );
}

/** The controller receives a broker's acknowledgement of a partition record. */
export function partitionChangeResponseClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const p = payload(ctx);
  const broker = ctx.names.actor(step.from ?? ctx.envelope?.from ?? '');
  return say(
    lang,
    `${broker} acknowledged the partition record of ${where(p)} (partition epoch ${num(p.partitionEpoch)}): the controller need not send it to ${broker} again`,
    `${josa(broker, '이/가')} ${where(p)}의 파티션 레코드(파티션 epoch ${num(p.partitionEpoch)})를 받았다고 알렸습니다. 컨트롤러는 이 레코드를 ${broker}에게 다시 보낼 필요가 없습니다.`,
  );
}
