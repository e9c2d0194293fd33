/**
 * A broker's controlled shutdown, said step by step (broker/controlledShutdown.ts and the
 * controller's `onShutdownHeartbeat`): the operator's stop, the heartbeats asking for it, the
 * leaderships the controller moves, the grant, and the clean stop.
 */
import type { Fact } from '../trace/facts';
import type { NarrationContext } from './context';
import { translateFaultLabel } from './faultLabels';
import { josa, list, say } from './language';
import { poss } from './names';

type P = Record<string, unknown>;
type F<K extends Fact['kind']> = Extract<Fact, { kind: K }>;

/** The operator's stop reaches the broker (the scenario's controlledShutdown fault). */
export function controlledShutdownStepClause(ctx: NarrationContext): string {
  const { lang, step } = ctx;
  const broker = ctx.names.process(step.actor);
  const label = translateFaultLabel(ctx.trace, step.faults[0] ?? step.label, lang);
  const stop = step.facts.find((f) => (f as Fact).kind === 'brokerStopped') as F<'brokerStopped'> | undefined;
  if (stop?.reason === 'notRegistered')
    return say(
      lang,
      `fault: ${broker} is asked to stop (${label}) — but it restarted and has not registered its new incarnation with the controller yet (the controller refuses it DUPLICATE_BROKER_REGISTRATION while the old one's session lasts): it is still starting, not RUNNING, so it skips the controlled shutdown ("Skipping controlled shutdown because we are in state STARTING") and asks the controller nothing`,
      `장애: ${josa(broker, '이/가')} 종료 요청을 받습니다(${label}). 하지만 다시 시작한 뒤 새 인스턴스를 아직 컨트롤러에 등록하지 못했습니다(이전 인스턴스의 세션이 남아 있는 동안 컨트롤러는 DUPLICATE_BROKER_REGISTRATION으로 거절합니다). 아직 시작 중이고 RUNNING 상태가 아니므로 제어된 종료를 건너뛰고 컨트롤러에 아무것도 요청하지 않습니다.`,
    );
  if (stop)
    return say(
      lang,
      `fault: ${broker} is stopped (${label}) — the cluster has no controller to move its leaderships (nothing is replicated), so it closes its logs and stops at once`,
      `장애: ${josa(broker, '을/를')} 멈춥니다(${label}). 복제되는 토픽이 없어 리더 자리를 옮겨 줄 컨트롤러가 없으므로, 로그를 닫고 바로 멈춥니다.`,
    );
  return say(
    lang,
    `fault: ${broker} is asked to stop (${label}) and begins a controlled shutdown (controlled.shutdown.enable=true): before it stops, it asks the controller in a BrokerHeartbeat (wantShutDown) to move the partitions it leads to other in-sync replicas`,
    `장애: ${josa(broker, '이/가')} 종료 요청을 받고 제어된 종료(controlled.shutdown.enable=true)를 시작합니다. 멈추기 전에 BrokerHeartbeat(wantShutDown)로 컨트롤러에게 자신이 리더인 파티션을 다른 동기화된 복제본으로 옮겨 달라고 요청합니다.`,
  );
}

/** The controller receives a heartbeat with wantShutDown: it moves the broker's leaderships, keeps waiting, or grants the stop. */
export function shutdownHeartbeatClause(ctx: NarrationContext, broker: string, answer: P | undefined, moved: readonly string[]): string {
  const { lang } = ctx;
  if (answer?.shouldShutDown === true)
    return say(
      lang,
      `the controller reads ${poss(broker, 'BrokerHeartbeat')} (wantShutDown): it leads no partition now, so the controller fences it and answers shouldShutDown — it may stop`,
      `컨트롤러가 ${broker}의 BrokerHeartbeat(wantShutDown)를 받습니다. 이제 리더인 파티션이 없으므로 펜싱하고 shouldShutDown으로 답합니다. 멈춰도 됩니다.`,
    );
  if (moved.length > 0)
    return say(
      lang,
      `the controller puts ${broker} in CONTROLLED_SHUTDOWN (BrokerHeartbeat with wantShutDown): it takes ${broker} out of every ISR and gives the partitions it led (${list(lang, moved)}) to other in-sync replicas, or takes them offline where none is left; ${broker} is not told to stop yet`,
      `컨트롤러가 ${josa(broker, '을/를')} CONTROLLED_SHUTDOWN 상태로 둡니다(wantShutDown이 담긴 BrokerHeartbeat). ${josa(broker, '을/를')} 모든 ISR에서 빼고, 리더였던 파티션(${list(lang, moved)})을 다른 동기화된 복제본에 넘기며, 남은 복제본이 없으면 오프라인으로 둡니다. 아직 멈추라는 답은 주지 않습니다.`,
    );
  return say(
    lang,
    `the controller reads ${poss(broker, 'BrokerHeartbeat')} (wantShutDown): ${broker} is still in controlled shutdown and still leads a partition, so it is not told to stop yet`,
    `컨트롤러가 ${broker}의 BrokerHeartbeat(wantShutDown)를 받습니다. ${josa(broker, '은/는')} 아직 제어된 종료 중이고 리더인 파티션이 남아 있어 멈추라는 답을 받지 못합니다.`,
  );
}

/** The broker reads the controller's answer while it waits to shut down. */
export function shutdownHeartbeatAnswerClause(ctx: NarrationContext, broker: string, answer: P): string {
  const { lang } = ctx;
  if (answer.shouldShutDown === true)
    return say(
      lang,
      `the controller granted ${poss(broker, 'controlled shutdown')} (shouldShutDown)`,
      `컨트롤러가 ${broker}의 제어된 종료를 허락했습니다(shouldShutDown).`,
    );
  return say(
    lang,
    `the controller has not granted ${poss(broker, 'shutdown')} yet (its leaderships are moving): ${broker} asks again with its next BrokerHeartbeat`,
    `컨트롤러가 아직 ${broker}의 종료를 허락하지 않았습니다(리더 자리를 옮기는 중). ${josa(broker, '은/는')} 다음 BrokerHeartbeat로 다시 요청합니다.`,
  );
}

/** A broker stops at the end of its controlled shutdown. */
export function brokerStopped(ctx: NarrationContext, f: F<'brokerStopped'>): string {
  const { lang } = ctx;
  const restart =
    f.restartAfterMs === null
      ? say(lang, 'it stays down', '다시 시작하지 않습니다')
      : say(lang, `it starts again ${f.restartAfterMs} ms later`, `${f.restartAfterMs} ms 뒤 다시 시작합니다`);
  if (f.reason === 'notRegistered')
    return say(
      lang,
      `${f.broker} stops at once, with nothing moved: still starting, it runs no shutdown of its components, so its logs are not closed and no clean shutdown file is written (the one a clean stop before may have left was deleted when the logs were loaded) — its next start recovers them as after a crash; its connections close, and ${restart}`,
      `${josa(f.broker, '은/는')} 아무것도 옮기지 않고 바로 멈춥니다. 아직 시작 중이라 구성 요소를 하나도 종료하지 않으므로 로그를 닫지 않고 깨끗한 종료 표시 파일도 쓰지 않습니다(이전 종료가 남긴 파일은 로그를 불러올 때 지워졌습니다). 다음 시작은 충돌 뒤처럼 로그를 복구합니다. 연결은 닫히고, ${restart}.`,
    );
  const why =
    f.reason === 'timedOut'
      ? say(
          lang,
          `the controller's grant never came within the shutdown's 5 minutes ("Timed out waiting for the controller to approve controlled shutdown"), so ${f.broker} stops anyway`,
          `종료 대기 5분 안에 컨트롤러의 허락이 오지 않아 ${josa(f.broker, '은/는')} 그냥 멈춥니다(브로커 로그에는 컨트롤러 승인 대기 시간 초과로 남습니다)`,
        )
      : f.reason === 'granted'
        ? say(lang, `${f.broker} leads nothing and stops`, `${josa(f.broker, '은/는')} 리더인 파티션 없이 멈춥니다`)
        : say(lang, `${f.broker} stops`, `${josa(f.broker, '이/가')} 멈춥니다`);
  return say(
    lang,
    `${why} — cleanly: its logs are closed with a producer-state snapshot at their end, so its next start recovers nothing; its connections close, and ${restart}`,
    `${why}. 깨끗한 종료라 로그 끝에 프로듀서 상태 스냅샷을 쓰고 로그를 닫으므로 다음 시작 때 복구할 것이 없습니다. 연결은 닫히고, ${restart}.`,
  );
}
