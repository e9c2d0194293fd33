/**
 * Faults in narration: a process crashing, restarting, pausing or resuming; an envelope dropped,
 * delayed or duplicated on its way; a message that reached a process that was down.
 */
import { type NarrationContext, processKind } from './context';
import { josa, say } from './language';
import { poss } from './names';

const ENVELOPE_FAULT = /^(\w+) #(\d+) (dropped|duplicated|delayed by (\d+) ms) \((.*)\)$/;

/** Clauses for faults applied during a step to what it sent, and for a crash point reached. */
export function appliedFaultClauses(ctx: NarrationContext): string[] {
  const { lang, step } = ctx;
  if (step.kind === 'fault' || step.kind === 'lost') return [];
  return step.faults.map((f) => {
    const m = f.match(ENVELOPE_FAULT);
    if (m) {
      const [, rpc, id, what, delay, label] = m as unknown as [string, string, string, string, string | undefined, string];
      if (what === 'dropped')
        return say(
          lang,
          `— but the network drops ${rpc} #${id} on its way (fault: ${label}), so its sender never learns what happened`,
          `하지만 네트워크가 ${rpc} #${josa(id, '을/를')} 도중에 버립니다(장애: ${label}). 보낸 쪽은 무슨 일이 있었는지 알 수 없습니다.`,
        );
      if (what === 'duplicated')
        return say(
          lang,
          `— and the network delivers ${rpc} #${id} twice (fault: ${label})`,
          `그리고 네트워크가 ${rpc} #${josa(id, '을/를')} 두 번 전달합니다(장애: ${label}).`,
        );
      return say(
        lang,
        `— ${rpc} #${id} is held back ${delay} ms (fault: ${label})`,
        `${rpc} #${josa(id, '은/는')} ${delay} ms 늦게 도착합니다(장애: ${label}).`,
      );
    }
    // a crash or a pause injected at a named point of the application loop
    const proc = ctx.names.client(step.actor);
    const point = ctx.trace.built.options.faults.find((k) => k.kind === 'point' && k.label === f);
    if (point?.kind === 'point' && point.action === 'pause')
      return say(
        lang,
        `— and right here ${proc} freezes (fault: ${f}), like a long GC pause: it handles nothing, not even heartbeats, until it resumes`,
        `그리고 바로 이 지점에서 ${josa(proc, '이/가')} 멈춥니다(장애: ${f}). 긴 GC 정지처럼 재개될 때까지 하트비트조차 처리하지 않습니다.`,
      );
    return say(
      lang,
      `— and right here ${proc} crashes (fault: ${f}): everything it held in memory is lost`,
      `그리고 바로 이 지점에서 ${josa(proc, '이/가')} 중단됩니다(장애: ${f}). 메모리에 있던 것은 모두 사라집니다.`,
    );
  });
}

export function faultStepClause(ctx: NarrationContext): string | null {
  const { lang, step } = ctx;
  const proc = ctx.names.process(step.actor);
  const label = step.faults[0] ?? step.label;
  const kind = processKind(ctx, step.actor);
  switch (step.label) {
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
    case 'restart':
      return say(
        lang,
        `${proc} restarts as a new incarnation (${label}); answers meant for the old one will not reach it`,
        `${josa(proc, '이/가')} 새 인스턴스로 재시작합니다(${label}). 이전 인스턴스에게 가던 응답은 도착하지 않습니다.`,
      );
    case 'pause':
      return say(
        lang,
        `fault: ${proc} is paused (${label}), like a long GC pause — it handles nothing, not even heartbeats, until it resumes`,
        `장애: ${josa(proc, '이/가')} 일시 정지됩니다(${label}). 긴 GC 정지처럼 재개될 때까지 하트비트조차 처리하지 않습니다.`,
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
  const down = /is down$/.test(step.faults[0] ?? '');
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

export function disconnectedClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const who = ctx.names.actor(step.actor);
  const peer = ctx.names.actor(step.from ?? '');
  const rpc = ctx.envelope?.rpc ?? 'request';
  return say(
    lang,
    `${poss(who, 'connection')} to ${peer} failed: its ${rpc} will never be answered, so it cannot tell whether it took effect`,
    `${josa(who, '과/와')} ${peer}의 연결이 끊겼습니다. ${rpc}의 응답은 오지 않으므로 반영됐는지 알 수 없습니다.`,
  );
}
