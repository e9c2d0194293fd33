/**
 * Replication between brokers, said as replication: a follower's Fetch is a replica fetch (no
 * isolation level, no LSO: the leader reads for it up to its log end offset), its answer is what the
 * follower copied and the leader's high watermark it learnt. (Kafka: ReplicaFetcherThread,
 * Partition.fetchRecords; docs/reference/kafka-behaviour.md §12.)
 */
import type { EnvelopeRecord } from '../kernel/envelope';
import { topicPartitionKey } from '../protocol/topicPartition';
import { groupDigits } from '../text/groupDigits';
import { type NarrationContext, processKind } from './context';
import { explainError } from './errors';
import { count, josa, list, range, say } from './language';
import { poss } from './names';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));

/** A Fetch payload sent by a follower (FetchRequest with a replicaId), not by a consumer. */
export function isReplicaFetch(payload: P | null | undefined): boolean {
  return payload?.replicaId !== undefined && payload?.replicaId !== null;
}

/** The request a response envelope answers. */
function requestOf(ctx: NarrationContext, env: EnvelopeRecord | null): EnvelopeRecord | null {
  return env?.inReplyTo !== null && env?.inReplyTo !== undefined ? (ctx.trace.envelopes.at(env.inReplyTo) ?? null) : null;
}

/** A FetchResponse answering a follower's Fetch. */
export function isReplicaFetchResponse(ctx: NarrationContext): boolean {
  return isReplicaFetchAnswer(ctx, ctx.envelope);
}

function isReplicaFetchAnswer(ctx: NarrationContext, env: EnvelopeRecord | null): boolean {
  return isReplicaFetch(requestOf(ctx, env)?.payload as P | undefined);
}

function errorText(ctx: NarrationContext, error: string): { en: string; ko: string } {
  const why = explainError(error, ctx.lang);
  return { en: ` with ${error}${why ? `: ${why}` : ''}`, ko: ` ${error}${why ? `(${why})` : ''}` };
}

/** The batches of a replica FetchResponse: how many records, and their offsets. */
function copied(batches: readonly P[]): { records: number; first: number; last: number } | null {
  if (batches.length === 0) return null;
  const records = batches.reduce((n, b) => n + (Array.isArray(b.records) ? b.records.length : 0), 0);
  return { records, first: num(batches[0]?.baseOffset), last: num(batches[batches.length - 1]?.lastOffset) };
}

/**
 * The follower receives the leader's answer (ReplicaFetcherThread.processPartitionData): it appends
 * the batches as they are, its log end offset moves past them, and its high watermark becomes
 * min(the leader's HW in the answer, its own LEO). It then fetches again.
 */
export function replicaFetchResponseClause(ctx: NarrationContext): string {
  const { lang, names, step } = ctx;
  const env = ctx.envelope;
  const p: P = (env?.payload as P) ?? {};
  const req: P = (requestOf(ctx, env)?.payload as P) ?? {};
  const follower = names.actor(step.actor);
  const leader = names.actor(step.from ?? env?.from ?? '');
  const where = topicPartitionKey(str(p.topic), num(p.partition));
  const error = str(p.error);
  if (error && error !== 'NONE') {
    const e = errorText(ctx, error);
    return say(
      lang,
      `${leader} answered the replica Fetch of ${where} from ${follower}${e.en}; ${follower} copies nothing and fetches again after replica.fetch.backoff.ms`,
      `${josa(leader, '이/가')} ${follower}의 ${where} 복제 Fetch에${e.ko} 응답했습니다. ${josa(follower, '은/는')} 아무것도 복제하지 않고 replica.fetch.backoff.ms 뒤에 다시 Fetch합니다.`,
    );
  }
  const next = step.sent.map((id) => ctx.trace.envelopes.at(id)).find((e) => e?.rpc === 'Fetch');
  if (!next)
    return say(
      lang,
      `${follower} sets aside this answer from ${leader} for ${where}: it is no longer waiting for it (its leader or its fetch changed since)`,
      `${josa(follower, '은/는')} ${leader}에게서 온 ${where} 응답을 버립니다. 그사이 리더나 Fetch가 바뀌어 더는 이 응답을 기다리지 않습니다.`,
    );
  const fetchOffset = num(req.fetchOffset);
  const diverging = p.divergingEpoch as P | null | undefined;
  if (diverging)
    return say(
      lang,
      `${follower} learns from the leader ${leader} where its copy of ${where} diverges (leader epoch ${num(diverging.epoch)} ends at offset ${num(diverging.endOffset)}); it has nothing to cut and fetches again`,
      `${josa(follower, '이/가')} 리더 ${leader}에게서 ${where} 사본이 어디서 갈라지는지 알게 됩니다(리더 epoch ${josa(String(num(diverging.epoch)), '은/는')} offset ${num(diverging.endOffset)}에서 끝남). 잘라낼 것이 없어 다시 Fetch합니다.`,
    );
  const got = copied(Array.isArray(p.batches) ? (p.batches as P[]) : []);
  // its next Fetch starts at its log end offset
  const leo = next.payload.fetchOffset !== undefined ? num(next.payload.fetchOffset) : got ? got.last + 1 : fetchOffset;
  const leaderHw = num(p.highWatermark);
  const hw = Math.min(leaderHw, leo);
  const hwEn =
    hw === leaderHw
      ? `it learns the leader's high watermark, ${leaderHw}, and takes it as its own`
      : `it learns the leader's high watermark, ${leaderHw}, and takes it up to its own log end offset: ${hw}`;
  const hwKo =
    hw === leaderHw
      ? `리더의 HW(하이 워터마크) ${josa(String(leaderHw), '을/를')} 받아 자기 HW로 삼습니다`
      : `리더의 HW(하이 워터마크) ${josa(String(leaderHw), '을/를')} 받지만 자기 LEO까지만 따라가 HW는 ${josa(String(hw), '이/가')} 됩니다`;
  if (got)
    return say(
      lang,
      `${follower} copied ${count(got.records, 'record')} of ${where} from the leader ${leader} (offset ${range(got.first, got.last)}): its log end offset is now ${leo}; ${hwEn}; it fetches again from offset ${leo}`,
      `${josa(follower, '이/가')} 리더 ${leader}에게서 ${where}의 레코드 ${groupDigits(got.records)}개(offset ${range(got.first, got.last)})를 복제했습니다. 이제 LEO(로그 끝 offset)는 ${leo}입니다. ${hwKo}. offset ${leo}부터 다시 Fetch합니다.`,
    );
  return say(
    lang,
    `${follower} got nothing new of ${where} from the leader ${leader}: its log end offset stays ${leo}; ${hwEn}; it fetches again`,
    `${josa(follower, '은/는')} 리더 ${leader}에게서 ${where}의 새 레코드를 받지 못했습니다. LEO(로그 끝 offset)는 ${leo} 그대로입니다. ${hwKo}. 다시 Fetch합니다.`,
  );
}

/** What else the leader's handling of a replica Fetch sent: an ISR expansion, answers a higher HW released. */
function fetchSideEffects(ctx: NarrationContext, follower: string): string[] {
  const { lang } = ctx;
  const sent = ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)).filter((e) => e !== undefined);
  const out: string[] = [];
  const alter = sent.find((e) => e.rpc === 'AlterPartition');
  if (alter)
    out.push(
      say(
        lang,
        `${follower} has caught up, so the leader asks the controller to add it to the ISR (AlterPartition, ISR ${list(lang, (alter.payload.newIsr as string[]) ?? [])})`,
        `${josa(follower, '이/가')} 따라잡았으므로 리더가 컨트롤러에 ISR에 다시 넣어 달라고 요청합니다(AlterPartition, ISR ${list(lang, (alter.payload.newIsr as string[]) ?? [])}).`,
      ),
    );
  const released = highWatermarkRelease(ctx, ctx.envelope?.id ?? null);
  if (released) out.push(released);
  return out;
}

/**
 * The answers a rise of a leader's high watermark released in this step — acks=all writes waiting
 * in its purgatory, consumers' held fetches (`exclude`: the answer to the step's own request) — as
 * "with that the high watermark moves up: …", or null when it released none.
 */
export function highWatermarkRelease(ctx: NarrationContext, exclude: number | null): string | null {
  const sent = ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)).filter((e) => e !== undefined);
  const writes = [
    ...new Set(sent.filter((e) => e.rpc === 'ProduceResponse' || e.rpc === 'WriteTxnMarkersResponse').map((e) => ctx.names.actor(e.to))),
  ];
  const readers = [
    ...new Set(
      sent
        .filter((e) => e.rpc === 'FetchResponse' && e.inReplyTo !== exclude && !isReplicaFetchAnswer(ctx, e))
        .map((e) => ctx.names.actor(e.to)),
    ),
  ];
  if (!writes.length && !readers.length) return null;
  const en: string[] = [];
  const ko: string[] = [];
  if (writes.length) {
    en.push(`the acks=all write of ${list('en', writes)} waiting for it is answered`);
    ko.push(`이를 기다리던 ${list('ko', writes)}의 acks=all 쓰기가 응답을 받습니다`);
  }
  if (readers.length) {
    en.push(`the held Fetch of ${list('en', readers)} gets the records now below it`);
    ko.push(`${list('ko', readers)}의 붙잡혀 있던 Fetch가 이제 HW 아래에 든 레코드를 받습니다`);
  }
  return say(ctx.lang, `with that the high watermark moves up: ${en.join(', and ')}`, `이로써 HW가 올라가 ${ko.join('. ')}.`);
}

/**
 * The leader receives a follower's Fetch (Partition.fetchRecords): it reads for it up to its log end
 * offset (no isolation level), learns from the fetch offset how far the follower's log reaches, and
 * answers at once, or holds an empty read up to replica.fetch.wait.max.ms.
 */
export function replicaFetchClause(ctx: NarrationContext): string {
  const { lang, names, step } = ctx;
  const env = ctx.envelope;
  const p: P = (env?.payload as P) ?? {};
  const leader = names.actor(step.actor);
  const follower = names.actor(step.from ?? env?.from ?? '');
  const where = topicPartitionKey(str(p.topic), num(p.partition));
  const offset = num(p.fetchOffset);
  // its own answer (the same step may answer other held fetches)
  const answer = step.sent
    .map((id) => ctx.trace.envelopes.at(id))
    .find((e) => e?.rpc === 'FetchResponse' && env !== null && e.inReplyTo === env.id);
  const r: P = (answer?.payload as P) ?? {};
  const error = str(r.error);
  if (answer && error && error !== 'NONE') {
    const e = errorText(ctx, error);
    return say(
      lang,
      `${leader} answers the replica Fetch from ${follower} for ${where} from offset ${offset}${e.en}`,
      `${josa(leader, '이/가')} ${follower}의 ${where} 복제 Fetch(offset ${offset}부터)에${e.ko} 응답합니다.`,
    );
  }
  const diverging = r.divergingEpoch as P | null | undefined;
  if (answer && diverging)
    return say(
      lang,
      `${leader} answers the replica Fetch from ${follower} for ${where} from offset ${offset} with a diverging epoch: ${poss(follower, 'log')} does not match the leader's past offset ${num(diverging.endOffset)} (leader epoch ${num(diverging.epoch)}), so it must truncate`,
      `${josa(leader, '이/가')} ${follower}의 ${where} 복제 Fetch(offset ${offset}부터)에 로그가 갈라지는 지점으로 응답합니다. ${follower}의 로그는 offset ${num(diverging.endOffset)}(리더 epoch ${num(diverging.epoch)}) 이후로 리더와 맞지 않아 잘라내야 합니다.`,
    );
  const learns = say(
    lang,
    `the fetch offset tells the leader that ${poss(follower, 'log')} ends at offset ${offset}`,
    `fetch offset으로 리더는 ${follower}의 로그가 offset ${offset}에서 끝남을 알게 됩니다.`,
  );
  const extra = fetchSideEffects(ctx, follower);
  const got = answer ? copied(Array.isArray(r.batches) ? (r.batches as P[]) : []) : null;
  if (answer) {
    const what = got
      ? say(
          lang,
          `${count(got.records, 'record')} at offset ${range(got.first, got.last)}`,
          `레코드 ${groupDigits(got.records)}개(offset ${range(got.first, got.last)})`,
        )
      : say(lang, 'nothing new', '새 레코드 없음');
    const main = say(
      lang,
      `${leader} answers the replica Fetch from ${follower} for ${where} from offset ${offset} with ${what}, read up to its log end offset`,
      `${josa(leader, '이/가')} ${follower}의 ${where} 복제 Fetch(offset ${offset}부터)에 자기 LEO까지 읽어 응답합니다: ${what}.`,
    );
    return lang === 'ko' ? [main, learns, ...extra].join(' ') : [main, learns, ...extra].join('; ');
  }
  const main = say(
    lang,
    `${leader} has nothing at or past offset ${offset} of ${where} for the replica Fetch from ${follower}, so it holds the Fetch up to ${num(p.maxWaitMs)} ms (replica.fetch.wait.max.ms)`,
    `${leader}에는 ${follower}의 복제 Fetch에 줄 ${where}의 offset ${offset} 이후 데이터가 없어 Fetch를 최대 ${num(p.maxWaitMs)} ms(replica.fetch.wait.max.ms) 동안 붙잡아 둡니다.`,
  );
  return lang === 'ko' ? [main, learns, ...extra].join(' ') : [main, learns, ...extra].join('; ');
}

/** The controller's broker session timer: KRaft broker liveness, not a consumer group's session. */
export function isBrokerFencing(ctx: NarrationContext): boolean {
  const d = (ctx.step.detail ?? {}) as P;
  return ctx.step.kind === 'timer' && ctx.step.label === 'sessionExpired' && typeof d.broker === 'string';
}

/** The partition records a step sent (one per partition: the controller sends each to every broker). */
function partitionRecords(ctx: NarrationContext): P[] {
  const byKey = new Map<string, P>();
  for (const id of ctx.step.sent) {
    const e = ctx.trace.envelopes.at(id);
    if (e?.rpc !== 'PartitionChange') continue;
    const key = topicPartitionKey(str(e.payload.topic), num(e.payload.partition));
    if (!byKey.has(key)) byKey.set(key, e.payload as P);
  }
  return [...byKey.values()];
}

/**
 * The controller expires a broker's session (BrokerHeartbeatManager: no BrokerHeartbeat for
 * broker.session.timeout.ms) and fences it (ReplicationControlManager.handleBrokerFenced): it leaves
 * the ISR of every partition it replicates (never emptying one), and the partitions it led elect
 * a new leader (said by the step's leaderChange facts, which follow this clause).
 */
export function brokerFencedClause(ctx: NarrationContext): string {
  const { lang } = ctx;
  const broker = str(((ctx.step.detail ?? {}) as P).broker);
  const ms = ctx.trace.resolved.cluster['broker.session.timeout.ms'];
  const led = new Set(
    (ctx.step.facts as unknown as readonly P[])
      .filter((f) => f.kind === 'leaderChange')
      .map((f) => topicPartitionKey(str(f.topic), num(f.partition))),
  );
  const records = partitionRecords(ctx);
  const shrunk = records
    .filter((r) => !led.has(topicPartitionKey(str(r.topic), num(r.partition))))
    .map((r) => ({ where: topicPartitionKey(str(r.topic), num(r.partition)), isr: Array.isArray(r.isr) ? (r.isr as string[]) : [] }));
  const head = say(
    lang,
    `broker.session.timeout.ms (${ms} ms) passed without a BrokerHeartbeat from ${broker}: the controller fences it`,
    `broker.session.timeout.ms(${ms} ms) 동안 ${broker}의 BrokerHeartbeat가 없어 컨트롤러가 이 브로커를 펜싱합니다`,
  );
  const removed = shrunk.filter((s) => !s.isr.includes(broker));
  if (lang === 'ko') {
    const out = [`${head}.`];
    if (removed.length === 1 && removed[0])
      out.push(`${josa(broker, '은/는')} ${removed[0].where}의 ISR에서 빠집니다. 이제 ISR은 ${removed[0].isr.join(', ')}입니다.`);
    else if (removed.length)
      out.push(
        `${josa(broker, '은/는')} ${list(
          'ko',
          removed.map((r) => r.where),
        )}의 ISR에서 빠집니다. 이제 ISR: ${removed.map((r) => `${r.where} = ${r.isr.join(', ')}`).join('; ')}.`,
      );
    if (led.size) out.push(`${josa(broker, '이/가')} 이끌던 ${list('ko', [...led])}에는 새 리더가 필요합니다.`);
    if (!removed.length && !led.size) out.push(`${josa(broker, '이/가')} 든 ISR이 없어 바뀌는 파티션은 없습니다.`);
    return out.join(' ');
  }
  if (!removed.length && !led.size) return `${head}; it was in no ISR, so no partition changes`;
  const removes = removed.length
    ? ` and removes it from the ISR of ${list(
        'en',
        removed.map((r) => `${r.where} (ISR now ${r.isr.join(', ')})`),
      )}`
    : '';
  const leads = led.size ? `; ${list('en', [...led])}, which it led, ${led.size === 1 ? 'needs' : 'need'} a new leader` : '';
  return `${head}${removes}${leads}`;
}

/** The ISR of a partition as the controller last recorded it before this step (the initial one when none). */
export function isrBefore(ctx: NarrationContext, topic: string, partition: number): readonly string[] | null {
  const envelopes = ctx.trace.envelopes;
  for (let i = envelopes.length - 1; i >= 0; i--) {
    const e = envelopes.at(i);
    if (!e || e.sentStep >= ctx.step.i || e.rpc !== 'PartitionChange') continue;
    if (e.payload.topic === topic && e.payload.partition === partition && Array.isArray(e.payload.isr)) return e.payload.isr as string[];
  }
  const input = ctx.trace.built.specs.find((x) => x.id === 'controller')?.input as { partitions?: readonly P[] } | undefined;
  const initial = input?.partitions?.find((x) => x.topic === topic && x.partition === partition);
  return Array.isArray(initial?.isr) ? (initial.isr as string[]) : null;
}

/** The leader's isr-expiration task (Partition.maybeShrinkIsr), every replica.lag.time.max.ms / 2. */
function isrExpirationClause(ctx: NarrationContext, who: string): string {
  const { lang } = ctx;
  const lag = ctx.trace.resolved.cluster['replica.lag.time.max.ms'];
  const every = lag / 2;
  const alters = ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)).filter((e) => e?.rpc === 'AlterPartition');
  if (!alters.length)
    return say(
      lang,
      `${who} runs its ISR check (every replica.lag.time.max.ms / 2 = ${every} ms): no follower of a partition it leads has been out of sync for longer than replica.lag.time.max.ms (${lag} ms), so it asks for no ISR change`,
      `${josa(who, '이/가')} ISR 점검(replica.lag.time.max.ms / 2 = ${every} ms마다)을 합니다. 이 브로커가 리더인 파티션에 replica.lag.time.max.ms(${lag} ms)보다 오래 뒤처진 팔로워가 없어 ISR 변경을 요청하지 않습니다.`,
    );
  const shrinks = alters.map((e) => {
    const p = (e?.payload ?? {}) as P;
    const topic = str(p.topic);
    const partition = num(p.partition);
    const newIsr = Array.isArray(p.newIsr) ? (p.newIsr as string[]) : [];
    const before = isrBefore(ctx, topic, partition) ?? [];
    return { where: topicPartitionKey(topic, partition), newIsr, out: before.filter((b) => !newIsr.includes(b)) };
  });
  const en = shrinks.map(
    (x) =>
      `${x.out.length ? `${list('en', x.out)}, ${x.out.length === 1 ? 'a follower' : 'followers'} of ${x.where},` : `a follower of ${x.where}`} out of sync — not caught up to the leader's log end offset for longer than replica.lag.time.max.ms (${lag} ms) — so it asks the controller to shrink the ISR to ${x.newIsr.join(', ')} (AlterPartition)`,
  );
  const ko = shrinks.map(
    (x) =>
      `${x.where}의 ${josa(x.out.length ? list('ko', x.out) : '팔로워', '이/가')} replica.lag.time.max.ms(${lag} ms)보다 오래 리더의 LEO(로그 끝 offset)를 따라잡지 못했습니다. 그래서 컨트롤러에 ISR을 ${josa(x.newIsr.join(', '), '으로/로')} 줄여 달라고 요청합니다(AlterPartition).`,
  );
  return say(
    lang,
    `${poss(who, 'ISR check')} (every replica.lag.time.max.ms / 2 = ${every} ms) finds ${en.join('; it finds ')}`,
    `${who}의 ISR 점검(replica.lag.time.max.ms / 2 = ${every} ms마다): ${ko.join(' ')}`,
  );
}

/** A leader's held replica Fetch answered when replica.fetch.wait.max.ms passes (DelayedFetch.onExpiration). */
function replicaFetchExpiredClause(ctx: NarrationContext, who: string): string {
  const { lang } = ctx;
  const answer = ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)).find((e) => e?.rpc === 'FetchResponse');
  if (!answer)
    return say(
      lang,
      `${who}: the wait of a held replica Fetch ended (replica.fetch.wait.max.ms), but it had been answered already`,
      `${who}: 붙잡아 둔 복제 Fetch의 대기(replica.fetch.wait.max.ms)가 끝났지만 이미 응답한 Fetch입니다.`,
    );
  const r = answer.payload as P;
  const req = (requestOf(ctx, answer)?.payload as P) ?? {};
  const ms = req.maxWaitMs !== undefined ? num(req.maxWaitMs) : ctx.trace.resolved.cluster['replica.fetch.wait.max.ms'];
  const follower = ctx.names.actor(answer.to);
  const where = topicPartitionKey(str(r.topic), num(r.partition));
  const error = str(r.error);
  if (error && error !== 'NONE') {
    const e = errorText(ctx, error);
    return say(
      lang,
      `replica.fetch.wait.max.ms (${ms} ms) passed: ${who} answers the held replica Fetch of ${where} from ${follower}${e.en}`,
      `replica.fetch.wait.max.ms(${ms} ms)가 지나 ${josa(who, '이/가')} 붙잡아 둔 ${follower}의 ${where} 복제 Fetch에${e.ko} 응답합니다.`,
    );
  }
  const got = copied(Array.isArray(r.batches) ? (r.batches as P[]) : []);
  if (got)
    return say(
      lang,
      `replica.fetch.wait.max.ms (${ms} ms) passed: ${who} answers the held replica Fetch of ${where} from ${follower} with ${count(got.records, 'record')} at offset ${range(got.first, got.last)} and the high watermark ${num(r.highWatermark)}`,
      `replica.fetch.wait.max.ms(${ms} ms)가 지나 ${josa(who, '이/가')} 붙잡아 둔 ${follower}의 ${where} 복제 Fetch에 레코드 ${groupDigits(got.records)}개(offset ${range(got.first, got.last)})와 ${josa(`HW ${num(r.highWatermark)}`, '으로/로')} 응답합니다.`,
    );
  return say(
    lang,
    `replica.fetch.wait.max.ms (${ms} ms) passed with nothing new for ${follower}: ${who} answers its held replica Fetch of ${where} empty, with the high watermark ${num(r.highWatermark)}`,
    `replica.fetch.wait.max.ms(${ms} ms) 동안 ${follower}에게 줄 새 데이터가 없어 ${josa(who, '이/가')} 붙잡아 둔 ${where} 복제 Fetch에 빈 응답을 보냅니다(HW ${num(r.highWatermark)}).`,
  );
}

/** An acks=all write's DelayedProduce expires in the purgatory (DelayedProduce.onExpiration). */
function produceTimeoutClause(ctx: NarrationContext, who: string): string {
  const { lang } = ctx;
  const answer = ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)).find((e) => e?.rpc === 'ProduceResponse');
  if (!answer)
    return say(
      lang,
      `${who}: an acks=all write of a coordinator it hosts waited in the purgatory for the ISR until its timeout: it ends REQUEST_TIMED_OUT, and its records stay in the log`,
      `${who}: 이 브로커의 코디네이터가 한 acks=all 쓰기가 대기열에서 ISR을 기다리다 타임아웃됐습니다. REQUEST_TIMED_OUT으로 끝나고 레코드는 로그에 남습니다.`,
    );
  const producer = ctx.names.actor(answer.to);
  const req = (requestOf(ctx, answer)?.payload as P) ?? {};
  const timeout = num(req.timeoutMs);
  const responses = Array.isArray(answer.payload.responses) ? (answer.payload.responses as P[]) : [];
  const failed = responses.filter((x) => str(x.error) !== 'NONE');
  const errors = [...new Set(failed.map((x) => str(x.error)))];
  const parts = list(
    lang,
    failed.map((x) => topicPartitionKey(str(x.topic), num(x.partition))),
  );
  return say(
    lang,
    `the acks=all Produce from ${producer} waited ${timeout} ms in ${poss(who, 'purgatory')} (the request's timeout: the producer's request.timeout.ms) without the high watermark reaching its records: ${who} answers ${errors.join(', ') || 'it'} for ${parts}; the batch stays in the log`,
    `${producer}의 acks=all Produce가 ${who}의 대기열에서 ${timeout} ms(요청의 타임아웃, 프로듀서의 request.timeout.ms) 동안 HW가 레코드에 닿기를 기다렸지만 닿지 않았습니다. ${josa(who, '이/가')} ${parts}에 대해 응답합니다: ${errors.join(', ')}. 배치는 로그에 남습니다.`,
  );
}

/** WriteTxnMarkers waiting for the ISR (acks=-1, the broker's request.timeout.ms) expire. */
function markersTimeoutClause(ctx: NarrationContext, who: string): string {
  const { lang } = ctx;
  const answer = ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)).find((e) => e?.rpc === 'WriteTxnMarkersResponse');
  const to = answer ? ctx.names.actor(answer.to) : say(lang, 'the transaction coordinator', '트랜잭션 코디네이터');
  return say(
    lang,
    `the transaction markers ${who} wrote for ${to} waited request.timeout.ms in its purgatory without the high watermark reaching them: it answers the WriteTxnMarkers with REQUEST_TIMED_OUT for those partitions; the markers stay in the log and the coordinator sends them again`,
    `${josa(who, '이/가')} ${to}의 요청으로 쓴 트랜잭션 마커가 대기열에서 request.timeout.ms 동안 HW가 닿기를 기다렸지만 닿지 않았습니다. 해당 파티션에 대해 WriteTxnMarkers에 REQUEST_TIMED_OUT으로 응답합니다. 마커는 로그에 남고 코디네이터가 다시 보냅니다.`,
  );
}

/** A follower retries its replica Fetch after a failed one (replica.fetch.backoff.ms). */
function replicaFetchBackoffClause(ctx: NarrationContext, who: string): string {
  const { lang } = ctx;
  const where = str(((ctx.step.detail ?? {}) as P).key);
  const fetch = ctx.step.sent.map((id) => ctx.trace.envelopes.at(id)).find((e) => e?.rpc === 'Fetch');
  if (!fetch)
    return say(
      lang,
      `replica.fetch.backoff.ms passed after ${poss(who, 'failed replica Fetch')} of ${where}, but it no longer needs to fetch it again (it leads it now, follows another leader, or a fetch is already on its way)`,
      `${who}의 ${where} 복제 Fetch가 실패한 뒤 replica.fetch.backoff.ms가 지났지만 다시 Fetch할 필요가 없습니다(이제 리더이거나, 다른 리더를 따르거나, 이미 Fetch를 보냈습니다).`,
    );
  const leader = ctx.names.actor(fetch.to);
  const offset = num(fetch.payload.fetchOffset);
  return say(
    lang,
    `replica.fetch.backoff.ms passed after ${poss(who, 'failed replica Fetch')}: it fetches ${where} from ${leader} again, from offset ${offset}`,
    `복제 Fetch가 실패한 뒤 replica.fetch.backoff.ms가 지나 ${josa(who, '이/가')} ${leader}에게 ${josa(where, '을/를')} offset ${offset}부터 다시 Fetch합니다.`,
  );
}

/**
 * The timers of brokers (their replication and purgatory) in plain words, null for a timer that is
 * not theirs. (The controller's one, a broker's session, is brokerFencedClause.)
 */
export function replicationTimerClause(ctx: NarrationContext): string | null {
  const { lang, names, step } = ctx;
  const who = names.actor(step.actor);
  const cluster = ctx.trace.resolved.cluster;
  const isBroker = processKind(ctx, step.actor) === 'broker';
  switch (step.label) {
    case 'heartbeatDue': {
      const sent = step.sent.some((id) => ctx.trace.envelopes.at(id)?.rpc === 'BrokerHeartbeat');
      if (!sent && !isBroker) return null;
      const every = cluster['broker.heartbeat.interval.ms'];
      const session = cluster['broker.session.timeout.ms'];
      return say(
        lang,
        `broker.heartbeat.interval.ms (${every} ms) passed: ${who} sends a BrokerHeartbeat to the controller, which fences a broker it has not heard from for broker.session.timeout.ms (${session} ms)`,
        `broker.heartbeat.interval.ms(${every} ms)가 지나 ${josa(who, '이/가')} 컨트롤러에 BrokerHeartbeat를 보냅니다. 컨트롤러는 broker.session.timeout.ms(${session} ms) 동안 BrokerHeartbeat가 없는 브로커를 펜싱합니다.`,
      );
    }
    case 'isrExpiration':
      return isrExpirationClause(ctx, who);
    case 'replicaFetchExpired':
      return replicaFetchExpiredClause(ctx, who);
    case 'produceTimeout':
      return produceTimeoutClause(ctx, who);
    case 'markersTimeout':
      return markersTimeoutClause(ctx, who);
    case 'replicaFetchBackoff':
      return replicaFetchBackoffClause(ctx, who);
    case 'producerExpirationCheck': {
      // a run that dropped producers is told by its producerStateExpired fact; this is one that found none
      if (step.facts.some((f) => f.kind === 'producerStateExpired')) return null;
      const where = str(((step.detail ?? {}) as P).key);
      const every = groupDigits(cluster['producer.id.expiration.check.interval.ms']);
      const idle = groupDigits(cluster['producer.id.expiration.ms']);
      return say(
        lang,
        `${poss(who, 'producer expiration check')} (every producer.id.expiration.check.interval.ms, ${every} ms) finds no producer of ${where} idle for producer.id.expiration.ms (${idle} ms): each wrote again since, or has a transaction open there`,
        `${who}의 프로듀서 만료 검사(producer.id.expiration.check.interval.ms ${every} ms마다)에서 ${where}에는 producer.id.expiration.ms(${idle} ms) 동안 쉰 프로듀서가 없습니다. 그 사이에 다시 썼거나 그 파티션에 열린 트랜잭션이 있습니다.`,
      );
    }
    case 'verificationRetry':
      return say(
        ctx.lang,
        `add.partitions.to.txn.retry.backoff.ms (20 ms) passed: ${who} asks the transaction coordinator again to add the held Produce's partitions to the transaction`,
        `add.partitions.to.txn.retry.backoff.ms(20 ms)가 지나 ${josa(who, '이/가')} 붙잡아 둔 Produce의 파티션을 트랜잭션에 추가해 달라고 트랜잭션 코디네이터에 다시 요청합니다.`,
      );
    default:
      return null;
  }
}
