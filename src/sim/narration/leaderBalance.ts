/**
 * The controller's leader-imbalance check (controller.machine.ts `balancePartitionLeaders`;
 * auto.leader.rebalance.enable), said as what it does: the partitions whose leader is not their
 * preferred replica get it back when that replica is in the ISR and active; the others keep their
 * leader, and why. The moves themselves are said by the step's leaderChange facts, after this clause.
 */
import { topicPartitionKey } from '../protocol/topicPartition';
import { groupDigits } from '../text/groupDigits';
import type { NarrationContext } from './context';
import { josa, list, say } from './language';

type P = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));
const brokers = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);

export const LEADER_BALANCE_TIMER = 'maybeBalancePartitionLeaders';

/** The controller's leader-imbalance check fired at this step. */
export function isLeaderBalanceCheck(ctx: NarrationContext): boolean {
  return ctx.step.kind === 'timer' && ctx.step.label === LEADER_BALANCE_TIMER && ctx.step.actor === 'controller';
}

interface Held {
  readonly where: string;
  readonly preferred: string;
  readonly why: 'outOfIsr' | 'fenced' | 'shuttingDown';
}

/**
 * The partitions the controller had left off their preferred replica before this step, each with why
 * its preferred replica could not lead: out of the ISR, fenced or shutting down — as the last partition
 * records sent before this step say (each record carries the fenced and shutting-down brokers).
 */
function heldOff(ctx: NarrationContext): Held[] {
  const latest = new Map<string, P>();
  let cluster: P | null = null;
  const envelopes = ctx.trace.envelopes;
  for (let i = envelopes.length - 1; i >= 0; i--) {
    const e = envelopes.at(i);
    if (!e || e.sentStep >= ctx.step.i || e.rpc !== 'PartitionChange') continue;
    cluster ??= e.payload as P;
    const key = topicPartitionKey(str(e.payload.topic), Number(e.payload.partition));
    if (!latest.has(key)) latest.set(key, e.payload as P);
  }
  const fenced = brokers(cluster?.fencedBrokers);
  const shuttingDown = brokers(cluster?.shuttingDownBrokers);
  const out: Held[] = [];
  for (const [where, r] of latest) {
    const replicas = brokers(r.replicas);
    const preferred = replicas[0];
    if (preferred === undefined || r.leader === preferred) continue;
    const why = fenced.includes(preferred) ? 'fenced' : shuttingDown.includes(preferred) ? 'shuttingDown' : 'outOfIsr';
    out.push({ where, preferred, why });
  }
  return out;
}

function heldClause(ctx: NarrationContext, h: Held): string {
  const { lang } = ctx;
  switch (h.why) {
    case 'fenced':
      return say(lang, `${h.where} (${h.preferred} is fenced)`, `${h.where}(${josa(h.preferred, '이/가')} 펜싱됨)`);
    case 'shuttingDown':
      return say(lang, `${h.where} (${h.preferred} is in controlled shutdown)`, `${h.where}(${josa(h.preferred, '이/가')} 제어된 종료 중)`);
    default:
      return say(lang, `${h.where} (${h.preferred} is not in its ISR)`, `${h.where}(${josa(h.preferred, '이/가')} ISR에 없음)`);
  }
}

/**
 * The check: leader.imbalance.check.interval.seconds after a write left some leader off its preferred
 * replica (QuorumController.maybeScheduleNextBalancePartitionLeaders), a preferred election for each
 * such partition (ReplicationControlManager.maybeBalancePartitionLeaders).
 */
export function leaderBalanceClause(ctx: NarrationContext): string {
  const { lang } = ctx;
  const seconds = ctx.trace.resolved.cluster['leader.imbalance.check.interval.seconds'];
  const every = say(
    lang,
    `leader.imbalance.check.interval.seconds (${groupDigits(seconds)} s)`,
    `leader.imbalance.check.interval.seconds(${groupDigits(seconds)} s)`,
  );
  const moved = (ctx.step.facts as unknown as readonly P[])
    .filter((f) => f.kind === 'leaderChange')
    .map((f) => topicPartitionKey(str(f.topic), Number(f.partition)));
  const held = heldOff(ctx).filter((h) => !moved.includes(h.where));
  const head = say(
    lang,
    `the controller runs its leader-imbalance check (auto.leader.rebalance.enable: every ${every} while some partition's leader is not its preferred replica, the first of its replicas)`,
    `컨트롤러가 리더 불균형 점검을 실행합니다(auto.leader.rebalance.enable: 어떤 파티션의 리더가 선호 복제본(복제본 목록의 첫 번째)이 아닌 동안 ${every}마다)`,
  );
  const stays = held.length
    ? say(
        lang,
        `${list(
          lang,
          held.map((h) => heldClause(ctx, h)),
        )} ${held.length === 1 ? 'keeps its' : 'keep their'} leader, and the controller checks again ${groupDigits(seconds)} s later`,
        `${list(
          lang,
          held.map((h) => heldClause(ctx, h)),
        )}의 리더는 그대로이고, 컨트롤러는 ${groupDigits(seconds)} s 뒤에 다시 점검합니다.`,
      )
    : '';
  if (moved.length === 0) {
    if (!held.length)
      return say(
        lang,
        `${head}: every leader is its preferred replica again, so nothing moves and no check is queued until a leader leaves its preferred replica again`,
        `${head}. 모든 파티션의 리더가 이미 선호 복제본으로 돌아와 있어 옮길 것이 없고, 리더가 다시 선호 복제본을 떠날 때까지 점검을 예약하지 않습니다.`,
      );
    return say(
      lang,
      `${head}: no preferred replica can lead yet — it must be in the ISR, unfenced and not shutting down; ${stays}`,
      `${head}. 선호 복제본이 ISR에 있고 펜싱되지 않았으며 종료 중이 아니어야 리더가 될 수 있는데, 아직 그런 복제본이 없습니다. ${stays}`,
    );
  }
  const tail = held.length ? say(lang, `; ${stays}`, ` ${stays}`) : '';
  return say(
    lang,
    `${head}: it moves ${list(lang, moved)} back to ${moved.length === 1 ? 'its preferred replica' : 'their preferred replicas'} (the ISR stays; a producer's request still on the old leader is answered NOT_LEADER_OR_FOLLOWER and retried on the new one)${tail}`,
    `${head}. ${josa(list(lang, moved), '을/를')} 선호 복제본으로 되돌립니다(ISR은 그대로입니다. 이전 리더에 남은 프로듀서 요청은 NOT_LEADER_OR_FOLLOWER 응답을 받고 새 리더로 재시도합니다).${tail}`,
  );
}
