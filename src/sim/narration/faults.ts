/**
 * Faults in narration: a process crashing, restarting, pausing or resuming; an envelope dropped,
 * delayed or duplicated on its way; a message that reached a process that was down.
 */

import { type NarrationContext, processKind } from './context';
import { controlledShutdownStepClause } from './controlledShutdown';
import { translateFaultLabel } from './faultLabels';
import { josa, type Language, list, say } from './language';
import { poss } from './names';

const ENVELOPE_FAULT = /^(\w+) #(\d+) (dropped|duplicated|delayed by (\d+) ms) \((.*)\)$/;
/** An envelope the network lost as it was sent: its connection stalled, was closed, or is broken. */
const LOST_AT_SEND = /^(\w+) #(\d+) lost: (.*)$/;
const RESET = /^connection (\S+) reset \((.*)\): (\w+) #(\d+) is lost with it$/;

/** Why the network lost an envelope, in the reader's language (the kernel's words, network.ts). */
/** "like a long GC pause", unless the fault's own label already says it is one. */
function likeGc(label: string, lang: Language): string {
  if (/\bGC\b/.test(label)) return '';
  return lang === 'en' ? ', like a long GC pause' : '긴 GC 정지처럼 ';
}

/** The kernel's words for a request refused by a process that has not opened its listeners (kernel/dispatch.ts). */
const NOT_ACCEPTING = 'is not accepting connections: ';

export function lostWhy(lang: Language, why: string): string {
  let m = why.match(/^stalled behind (\w+ #\d+) on (\S+)$/);
  if (m)
    return say(
      lang,
      `its connection ${m[2]} stalled when ${m[1]} was lost: on TCP nothing sent after a lost message arrives until the connection is closed`,
      `${josa(m[1] as string, '이/가')} 사라지며 연결 ${josa(m[2] as string, '이/가')} 멈췄습니다. TCP에서는 연결이 닫힐 때까지 그 뒤에 보낸 것이 도착하지 않습니다`,
    );
  m = why.match(/^its connection (\S+) is broken \((.*)\)$/);
  if (m)
    return say(
      lang,
      `its connection ${m[1]} is broken (its peer went away) and the client has not noticed yet`,
      `연결 ${josa(m[1] as string, '이/가')} 끊어졌고(상대가 사라짐) 클라이언트는 아직 알아채지 못했습니다`,
    );
  m = why.match(/^its connection (\S+) was closed before it was sent$/);
  if (m)
    return say(
      lang,
      `the client had already closed connection ${m[1]} (it gave up on the request, or went away): the answer goes into the void`,
      `클라이언트가 이미 연결 ${josa(m[1] as string, '을/를')} 닫았습니다(요청을 포기했거나 사라짐). 응답은 허공으로 갑니다`,
    );
  m = why.match(/^its connection (\S+) was reset$/);
  if (m) return say(lang, `its connection ${m[1]} was reset`, `연결 ${josa(m[1] as string, '이/가')} 리셋되었습니다`);
  m = why.match(/^its connection (\S+) was closed \(the client gave up on it\)$/);
  if (m)
    return say(
      lang,
      `the client closed connection ${m[1]} after a request timed out: no answer travelling on it is delivered`,
      `요청 타임아웃 뒤 클라이언트가 연결 ${josa(m[1] as string, '을/를')} 닫았습니다. 그 연결로 오던 응답은 전달되지 않습니다`,
    );
  m = why.match(/^(\S+) restarted since it was sent$/);
  if (m)
    return say(
      lang,
      `${m[1]} restarted since it was sent: the connection it came on is gone`,
      `보낸 뒤 ${josa(m[1] as string, '이/가')} 재시작되어 그 연결이 사라졌습니다`,
    );
  // a request to a restarted broker that has not opened its listeners yet (broker/listeners.ts)
  m = why.match(/^(\S+) is not accepting connections: /);
  if (m)
    return say(
      lang,
      why,
      `${josa(m[1] as string, '은/는')} 아직 연결을 받지 않습니다. 재시작한 뒤 컨트롤러가 펜스를 풀지 않아 리스너를 열지 않았습니다`,
    );
  // a message to a process that is down (the kernel's dispatch; a replicated cluster's dead broker)
  m = why.match(/^(\S+) is down$/);
  if (m) return say(lang, why, `${josa(m[1] as string, '이/가')} 중단된 상태입니다`);
  return why;
}

/**
 * What an envelope's record says went wrong with it (its `fault`: a fault's label, or why the network
 * lost it), in the reader's language.
 */
export function envelopeFaultText(trace: NarrationContext['trace'], text: string, lang: Language): string {
  if (lang === 'en') return text;
  const label = translateFaultLabel(trace, text, lang);
  return label !== text ? label : lostWhy(lang, text);
}

/** A fault step's action (its label), in Korean. */
const ACTION_KO: Readonly<Record<string, string>> = {
  crash: '중단',
  restart: '재시작',
  pause: '일시 정지',
  resume: '재개',
  signal: '신호',
};

/**
 * One line of a step's faults (the kernel's words: "ProduceResponse #4 dropped (…)", "Produce #7 lost:
 * …", "connection … reset (…): …", or a fault's label) in the reader's language, for lists.
 */
export function stepFaultText(trace: NarrationContext['trace'], text: string, lang: Language): string {
  if (lang === 'en') return text;
  const env = text.match(ENVELOPE_FAULT);
  if (env) {
    const [, rpc, id, what, delay, label] = env as unknown as [string, string, string, string, string | undefined, string];
    const how = what === 'dropped' ? '버려짐' : what === 'duplicated' ? '복제됨' : `${delay} ms 지연됨`;
    return `${rpc} #${id} ${how} (${translateFaultLabel(trace, label, lang)})`;
  }
  const lost = text.match(LOST_AT_SEND);
  if (lost) return `${lost[1]} #${lost[2]} 유실: ${lostWhy(lang, lost[3] as string)}`;
  const reset = text.match(RESET);
  if (reset)
    return `연결 ${reset[1]} 리셋 (${translateFaultLabel(trace, reset[2] as string, lang)}): ${reset[3]} #${reset[4]}도 함께 사라짐`;
  const action = ACTION_KO[text];
  if (action) return action;
  return translateFaultLabel(trace, text, lang);
}

/** Clauses for faults applied during a step to what it sent, and for a crash point reached. */
export function appliedFaultClauses(ctx: NarrationContext): string[] {
  const { lang, step } = ctx;
  if (step.kind === 'fault' || step.kind === 'lost') return [];
  // requests of one RPC a fault drops in one step (a WriteTxnMarkers to each broker): one clause
  const dropped = new Map<string, string[]>();
  for (const f of step.faults) {
    const m = f.match(ENVELOPE_FAULT);
    if (m?.[3] === 'dropped') dropped.set(`${m[1]} ${m[5]}`, [...(dropped.get(`${m[1]} ${m[5]}`) ?? []), m[2] as string]);
  }
  const clauses: string[] = [];
  for (const f of step.faults) {
    const m = f.match(ENVELOPE_FAULT);
    const ids = m?.[3] === 'dropped' ? dropped.get(`${m[1]} ${m[5]}`) : undefined;
    if (m && ids && ids.length > 1) {
      if (ids[0] !== m[2]) continue; // told with the first
      const label = translateFaultLabel(ctx.trace, m[5] as string, lang);
      const which = list(
        lang,
        ids.map((id) => `#${id}`),
        ids.length,
      );
      clauses.push(
        say(
          lang,
          `— but the network loses ${m[1]} ${which} on their way (fault: ${label}) and the connections they went on stall: the sender never learns what happened, and finds out only when a request timeout closes them`,
          `하지만 네트워크가 ${m[1]} ${josa(which, '을/를')} 도중에 잃고 연결이 멈춥니다(장애: ${label}). 보낸 쪽은 무슨 일이 있었는지 모르다가 요청 타임아웃으로 연결을 닫을 때 알게 됩니다.`,
        ),
      );
      continue;
    }
    clauses.push(appliedFaultClause(ctx, f));
  }
  return clauses;
}

/** The clause for one fault applied during a step, or for a crash point reached. */
function appliedFaultClause(ctx: NarrationContext, f: string): string {
  const { lang, step } = ctx;
  const lostAtSend = f.match(LOST_AT_SEND);
  if (lostAtSend) {
    const [, rpc, id, why] = lostAtSend as unknown as [string, string, string, string];
    return say(
      lang,
      `— ${rpc} #${id} never arrives: ${lostWhy(lang, why)}`,
      `${rpc} #${josa(id, '은/는')} 도착하지 않습니다: ${lostWhy(lang, why)}.`,
    );
  }
  const reset = f.match(RESET);
  if (reset) {
    const [, conn, en, rpc, id] = reset as unknown as [string, string, string, string, string];
    const label = translateFaultLabel(ctx.trace, en, lang);
    return say(
      lang,
      `— and connection ${conn} is reset as ${rpc} #${id} goes out (fault: ${label}): both sides see it close, what was on its way is lost, and every request waiting on it fails with NETWORK_EXCEPTION`,
      `그리고 ${rpc} #${josa(id, '이/가')} 나가는 순간 연결 ${josa(conn, '이/가')} 리셋됩니다(장애: ${label}). 양쪽이 동시에 닫힘을 보고, 오가던 것은 사라지며, 응답을 기다리던 요청은 모두 NETWORK_EXCEPTION으로 실패합니다.`,
    );
  }
  const m = f.match(ENVELOPE_FAULT);
  if (m) {
    const [, rpc, id, what, delay, en] = m as unknown as [string, string, string, string, string | undefined, string];
    const label = translateFaultLabel(ctx.trace, en, lang);
    // a lost answer: the one left not knowing is the client that asked, not the server that answered
    const env = ctx.trace.envelopes.at(Number(id));
    const asked = env && env.id === Number(id) && env.inReplyTo !== null ? ctx.trace.envelopes.at(env.inReplyTo) : undefined;
    if (what === 'dropped' && asked) {
      const asker = ctx.names.actor(asked.from);
      return say(
        lang,
        `— but the network loses ${rpc} #${id}, the answer to ${asked.rpc} #${asked.id}, on its way (fault: ${label}) and its connection stalls: ${asker} never learns what happened, and finds out only when its request timeout closes the connection`,
        `하지만 네트워크가 ${asked.rpc} #${asked.id}에 대한 응답 ${rpc} #${josa(id, '을/를')} 도중에 잃고 연결이 멈춥니다(장애: ${label}). ${josa(asker, '은/는')} 무슨 일이 있었는지 모르다가 요청 타임아웃으로 연결을 닫을 때 알게 됩니다.`,
      );
    }
    if (what === 'dropped')
      return say(
        lang,
        `— but the network loses ${rpc} #${id} on its way (fault: ${label}) and its connection stalls: its sender never learns what happened, and finds out only when its request timeout closes the connection`,
        `하지만 네트워크가 ${rpc} #${josa(id, '을/를')} 도중에 잃고 연결이 멈춥니다(장애: ${label}). 보낸 쪽은 무슨 일이 있었는지 모르다가 요청 타임아웃으로 연결을 닫을 때 알게 됩니다.`,
      );
    if (what === 'duplicated')
      return say(
        lang,
        `— and ${rpc} #${id} is handled twice, the copy right after it (fault: ${label})`,
        `그리고 ${rpc} #${josa(id, '이/가')} 두 번 처리됩니다. 복사본이 바로 뒤에 도착합니다(장애: ${label}).`,
      );
    return say(
      lang,
      `— ${rpc} #${id} is held back ${delay} ms, and what is sent after it on the same connection waits behind it (fault: ${label})`,
      `${rpc} #${josa(id, '은/는')} ${delay} ms 늦게 도착하고, 같은 연결에서 뒤에 보낸 것은 그 뒤에서 기다립니다(장애: ${label}).`,
    );
  }
  // a crash or a pause injected at a named point of the application loop
  const proc = ctx.names.client(step.actor);
  const point = ctx.trace.built.options.faults.find((k) => k.kind === 'point' && k.label === f);
  const label = translateFaultLabel(ctx.trace, f, lang);
  if (point?.kind === 'point' && point.action === 'pause')
    return say(
      lang,
      `— and right here ${proc} freezes (fault: ${f})${likeGc(f, 'en')}: it handles nothing, not even heartbeats, until it resumes`,
      `그리고 바로 이 지점에서 ${josa(proc, '이/가')} 멈춥니다(장애: ${label}). ${likeGc(label, 'ko')}재개될 때까지 하트비트조차 처리하지 않습니다.`,
    );
  return say(
    lang,
    `— and right here ${proc} crashes (fault: ${f}): everything it held in memory is lost`,
    `그리고 바로 이 지점에서 ${josa(proc, '이/가')} 중단됩니다(장애: ${label}). 메모리에 있던 것은 모두 사라집니다.`,
  );
}

/** A restart's or resume's label (the kernel's: "restart X (<fault>)", "restart X 1000 ms after: <fault>") → the fault it ends. */
const FOLLOW_UP = /^(?:restart|resume) \S+ (?:\((.*)\)|\d+ ms after: (.*))$/s;
export function endedFault(label: string): string {
  const m = label.match(FOLLOW_UP);
  return m ? ((m[1] ?? m[2]) as string) : label;
}

export function faultStepClause(ctx: NarrationContext): string | null {
  const { lang, step } = ctx;
  const proc = ctx.names.process(step.actor);
  const label = translateFaultLabel(ctx.trace, step.faults[0] ?? step.label, lang);
  const kind = processKind(ctx, step.actor);
  switch (step.label) {
    case 'controlledShutdown':
      return controlledShutdownStepClause(ctx);
    case 'crash': {
      const survives =
        kind === 'broker'
          ? say(lang, 'its logs are on disk and survive; held fetches are gone', '로그는 디스크에 있어 남지만 붙잡아 둔 Fetch는 사라집니다')
          : kind === 'sink'
            ? say(lang, 'what it committed is durable', '커밋된 데이터는 남습니다')
            : kind === 'txn-coordinator' || kind === 'group-coordinator'
              ? say(lang, 'its state log survives; what it held in memory is gone', '상태 로그는 남지만 메모리에 있던 것은 사라집니다')
              : say(
                  lang,
                  'its buffers, positions, sequence numbers and open transaction are gone',
                  '버퍼, 위치, 시퀀스 번호, 열린 트랜잭션이 모두 사라집니다',
                );
      return say(
        lang,
        `fault: ${proc} crashes (${label}) — ${survives}`,
        `장애: ${josa(proc, '이/가')} 중단됩니다(${label}). ${survives}.`,
      );
    }
    case 'restart': {
      // the fault this restart ends, said once: its own label wraps that fault's in parentheses
      // ("restart billing (<the crash>)"), which in this clause's parentheses closed twice or more
      const ended = translateFaultLabel(ctx.trace, endedFault(step.faults[0] ?? step.label), lang);
      return say(
        lang,
        `${proc} restarts as a new incarnation, ending the fault “${ended}”; answers meant for the old one will not reach it`,
        `${josa(proc, '이/가')} 새 인스턴스로 재시작합니다(끝난 장애: ${ended}). 이전 인스턴스에게 가던 응답은 도착하지 않습니다.`,
      );
    }
    case 'pause':
      return say(
        lang,
        `fault: ${proc} is paused (${label})${likeGc(label, 'en')} — it handles nothing, not even heartbeats, until it resumes`,
        `장애: ${josa(proc, '이/가')} 일시 정지됩니다(${label}). ${likeGc(label, 'ko')}재개될 때까지 하트비트조차 처리하지 않습니다.`,
      );
    case 'resume':
      return say(
        lang,
        `${proc} resumes and handles what queued up while it was paused — it may not know it was replaced`,
        `${josa(proc, '이/가')} 재개되어 멈춰 있던 동안 쌓인 일을 처리합니다. 자신이 대체됐다는 사실을 모를 수 있습니다.`,
      );
    case 'signal':
      return say(lang, `fault: ${label}`, `장애: ${label}.`);
    default:
      return null;
  }
}

export function lostClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const env = ctx.envelope;
  const rpc = env?.rpc ?? step.label;
  const from = ctx.names.actor(step.from ?? env?.from ?? '');
  const to = ctx.names.actor(step.actor);
  const line = step.faults[0] ?? '';
  const down = /is down$/.test(line);
  const why = line.match(/ lost: (.*)$/)?.[1];
  if (!down && why && why !== 'the connection it belonged to is gone')
    return say(
      lang,
      `${poss(from, `${rpc}${env ? ` #${env.id}` : ''}`)} reaches ${to} but is not handed over: ${lostWhy(lang, why)}`,
      `${from}의 ${josa(`${rpc}${env ? ` #${env.id}` : ''}`, '이/가')} ${to}에 도착했지만 전달되지 않습니다: ${lostWhy(lang, why)}.`,
    );
  return down
    ? say(
        lang,
        `${poss(from, `${rpc}${env ? ` #${env.id}` : ''}`)} reached ${to} while it was down: it is lost`,
        `${from}의 ${josa(`${rpc}${env ? ` #${env.id}` : ''}`, '이/가')} ${to}에 도착했지만 중단된 상태라 사라졌습니다.`,
      )
    : say(
        lang,
        `${poss(from, `${rpc}${env ? ` #${env.id}` : ''}`)} was meant for an incarnation of ${to} that no longer exists: it is discarded`,
        `${from}의 ${josa(`${rpc}${env ? ` #${env.id}` : ''}`, '은/는')} 이미 없어진 이전 ${to} 인스턴스에게 가던 것이라 버려졌습니다.`,
      );
}

/** Does the actor keep NetworkClient's connection states (a producer, a consumer: ActorSpec.connectionNotices)? */
function keepsConnectionStates(ctx: NarrationContext, actor: string): boolean {
  return ctx.trace.built.specs.find((s) => s.id === actor)?.connectionNotices === true;
}

/** The reconnect backoff, as a clause's end: "… waits out its reconnect backoff (…)". */
function reconnectBackoffText(ctx: NarrationContext, who: string, peer: string): string {
  return say(
    ctx.lang,
    `${who} does not try ${peer} again before its reconnect backoff has passed (reconnect.backoff.ms, doubling for each failure in a row up to reconnect.backoff.max.ms)`,
    `${josa(who, '은/는')} 재연결 backoff(reconnect.backoff.ms에서 연속 실패마다 두 배, 최대 reconnect.backoff.max.ms)가 지나기 전에는 ${peer}에 다시 연결하지 않습니다.`,
  );
}

/**
 * The error the disconnect clause names for the request in flight (REQUEST_TIMED_OUT after a request
 * timeout, NETWORK_EXCEPTION after a reset or the client's own close), or null when it names none.
 */
export function disconnectError(ctx: NarrationContext): string | null {
  const reason = (ctx.step.detail as { reason?: string } | null)?.reason;
  if (ctx.step.label === 'connectionClosed') return null;
  return reason === 'timeout' ? 'REQUEST_TIMED_OUT' : reason === 'client-close' || reason === 'reset' ? 'NETWORK_EXCEPTION' : null;
}

/** The peer that refused a connection: down, or restarted and not listening until unfenced (broker/listeners.ts). */
function refusedPeer(ctx: NarrationContext, peer: string): string {
  return ctx.envelope?.fault?.includes(NOT_ACCEPTING) === true
    ? say(
        ctx.lang,
        `${peer}, which restarted and does not accept connections until the controller unfences it (connection refused)`,
        `컨트롤러가 펜스를 풀 때까지 연결을 받지 않는, 재시작한 ${peer}`,
      )
    : say(ctx.lang, `${peer}, which is down (connection refused)`, `내려간 ${peer}`);
}

export function disconnectedClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const who = ctx.names.actor(step.actor);
  const peer = ctx.names.actor(step.from ?? '');
  const rpc = ctx.envelope?.rpc ?? 'request';
  const name = `${rpc}${ctx.envelope ? ` #${ctx.envelope.id}` : ''}`;
  const reason = (step.detail as { reason?: string } | null)?.reason;
  // an idle connection closed (nothing in flight): told only to a client that keeps connection states
  if (step.label === 'connectionClosed')
    return say(
      lang,
      `${poss(who, 'idle connection')} to ${peer} closed: ${peer} went down. Nothing was in flight on it, but NetworkClient counts every disconnect: ${who} puts ${peer} into reconnect backoff (reconnect.backoff.ms) and asks for a metadata update where a leader may have moved (the disconnect may mean stale metadata)`,
      `${josa(who, '과/와')} ${peer} 사이의 유휴 연결이 닫혔습니다. ${josa(peer, '이/가')} 내려갔습니다. 진행 중인 요청은 없었지만 NetworkClient는 모든 연결 끊김을 셉니다: ${josa(who, '은/는')} ${josa(peer, '을/를')} 재연결 backoff(reconnect.backoff.ms)에 두고, 리더가 바뀌었을 수 있으면 메타데이터 갱신을 요청합니다(끊김은 메타데이터가 낡았다는 뜻일 수 있습니다).`,
    );
  if (reason === 'refused' && keepsConnectionStates(ctx, step.actor)) {
    const outcome =
      rpc === 'Produce'
        ? say(
            lang,
            '; its batches wait for a leader it can reach — no retry is counted and no error reported (Sender drains nothing for a node NetworkClient.ready refuses)',
            ' 배치는 연결할 수 있는 리더를 기다립니다. 재시도로 세지 않고 오류도 보고하지 않습니다(Sender는 NetworkClient.ready가 거절한 노드로 보낼 배치를 꺼내지 않습니다).',
          )
        : rpc === 'Fetch' || rpc === 'Metadata'
          ? ''
          : say(lang, `; the ${rpc} fails as a disconnect`, ` ${josa(rpc, '은/는')} 연결 끊김으로 실패합니다.`);
    // a broker that is up but not yet unfenced has not opened its listeners (broker/listeners.ts)
    const which = refusedPeer(ctx, peer);
    return say(
      lang,
      `${who} could not connect to ${which}: ${name}, sent as the connection attempt, never left — NetworkClient sends only on a ready connection — and ${reconnectBackoffText(ctx, who, peer)}${outcome}`,
      `${josa(who, '은/는')} ${which}에 연결하지 못했습니다(연결 거부). 연결 시도로 보낸 ${josa(name, '은/는')} 나가지 않았습니다. NetworkClient는 준비된 연결로만 보냅니다. ${reconnectBackoffText(ctx, who, peer)}${outcome}`,
    );
  }
  // the transaction coordinator's marker channel (coordinator/markerChannel.ts): its own NetworkClient, a fixed 50 ms backoff
  if (reason === 'refused' && rpc === 'WriteTxnMarkers') {
    const which = refusedPeer(ctx, peer);
    return say(
      lang,
      `${who} could not connect to ${which}: ${name} never left, and its markers go back in the queue; the marker channel does not try ${peer} again before its reconnect backoff has passed — 50 ms every time, the value TransactionMarkerChannelManager gives its NetworkClient`,
      `${josa(who, '은/는')} ${which}에 연결하지 못했습니다(연결 거부). ${josa(name, '은/는')} 나가지 않았고 마커는 다시 큐에 들어갑니다. 마커 채널은 재연결 backoff가 지나기 전에는 ${peer}에 다시 연결하지 않습니다. TransactionMarkerChannelManager가 NetworkClient에 준 값으로 매번 50 ms입니다.`,
    );
  }
  if (reason === 'timeout')
    return say(
      lang,
      `a request on ${poss(who, 'connection')} to ${peer} got no answer within its request timeout: NetworkClient closes the connection, and ${name}, in flight on it, fails with REQUEST_TIMED_OUT ("Disconnected from node ${peer} due to timeout") — ${who} cannot tell whether it took effect, and retries it if it still may (retries, delivery.timeout.ms: a batch that expired in flight is not retried)`,
      `${josa(who, '과/와')} ${peer} 사이 연결의 요청이 요청 타임아웃 안에 응답을 받지 못해 NetworkClient가 연결을 닫습니다. 그 위에 있던 ${josa(name, '은/는')} REQUEST_TIMED_OUT으로 실패합니다. 반영됐는지 알 수 없으며, 아직 허용되면(retries, delivery.timeout.ms) 다시 시도합니다. 전송 중에 만료된 배치는 다시 시도하지 않습니다.`,
    );
  if (reason === 'client-close')
    return say(
      lang,
      `${who} closed its connection to ${peer} itself (NetworkClient.disconnect): ${name}, in flight on it, fails with a disconnect (NETWORK_EXCEPTION) — ${who} cannot tell whether it took effect, and sends it again on a new connection if it still may`,
      `${josa(who, '이/가')} ${josa(peer, '과/와')}의 연결을 스스로 닫았습니다(NetworkClient.disconnect). 그 위에 있던 ${josa(name, '은/는')} 연결 끊김(NETWORK_EXCEPTION)으로 실패합니다. 반영됐는지 알 수 없으며, 아직 허용되면 새 연결로 다시 보냅니다.`,
    );
  if (reason === 'reset')
    return say(
      lang,
      `${poss(who, 'connection')} to ${peer} was reset: ${name} fails with NETWORK_EXCEPTION — ${who} cannot tell whether it took effect, and retries it if it still may (retries, delivery.timeout.ms: a batch that expired in flight is not retried)`,
      `${josa(who, '과/와')} ${peer}의 연결이 리셋되어 ${josa(name, '이/가')} NETWORK_EXCEPTION으로 실패합니다. 반영됐는지 알 수 없으며, 아직 허용되면(retries, delivery.timeout.ms) 다시 시도합니다. 전송 중에 만료된 배치는 다시 시도하지 않습니다.`,
    );
  return say(
    lang,
    `${poss(who, 'connection')} to ${peer} failed: its ${rpc} will never be answered, so it cannot tell whether it took effect`,
    `${josa(who, '과/와')} ${peer}의 연결이 끊겼습니다. ${rpc}의 응답은 오지 않으므로 반영됐는지 알 수 없습니다.`,
  );
}
