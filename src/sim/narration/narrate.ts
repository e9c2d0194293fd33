/**
 * Narration: one sentence per trace step saying what happened and why, in Kafka's words, in
 * English or Korean. Built only from the trace (the step, its facts, its envelope), so the CLI and
 * the page say the same thing.
 */
import type { Trace } from '../run';
import { groupDigits } from '../text/groupDigits';
import type { Fact } from '../trace/facts';
import type { NarrationContext } from './context';
import { factClauses } from './facts';
import { translateFaultLabel } from './faultLabels';
import { appliedFaultClauses, disconnectError, disconnectedClause, faultStepClause, lostClause } from './faults';
import { brokerHeartbeatClause } from './kraft';
import { type Language, say, sentence } from './language';
import { isLeaderBalanceCheck, leaderBalanceClause } from './leaderBalance';
import { bootClause, callClause, timerClause } from './local';
import { namer } from './names';
import { brokerFencedClause, isBrokerFencing } from './replication';
import { rpcClause } from './rpcs';
import { traceIndex } from './traceIndex';
import { nextVerificationClauses } from './verification';

function mainClauses(ctx: NarrationContext): string[] {
  const { step } = ctx;
  const facts = step.facts as readonly Fact[];
  switch (step.kind) {
    case 'fault': {
      const f = faultStepClause(ctx);
      const rest = factClauses(ctx, facts);
      if (f) return [f, ...rest];
      // a fault delivered to an actor as an event (e.g. running the log cleaner)
      const label = translateFaultLabel(ctx.trace, step.faults[0] ?? step.label, ctx.lang);
      return rest.length
        ? [...rest, say(ctx.lang, `(fault: ${label})`, `(장애: ${label})`)]
        : [say(ctx.lang, `fault: ${label}`, `장애: ${label}`)];
    }
    case 'lost':
      return [lostClause(ctx)];
    case 'disconnected': {
      // the clause already says the request in flight fails with its error: the client's own
      // report of that error (a clientError fact) would tell the same event twice
      const told = disconnectError(ctx);
      const rest = facts.filter((f) => !(f.kind === 'clientError' && !f.fatal && f.error === told));
      return [disconnectedClause(ctx), ...factClauses(ctx, rest)];
    }
    default:
      break;
  }
  // the controller fencing a broker: the cause first, then its leader elections (facts)
  if (isBrokerFencing(ctx)) return [brokerFencedClause(ctx), ...factClauses(ctx, facts)];
  // the controller's leader-imbalance check: what it looked at first, then the leaderships it moved back (facts)
  if (isLeaderBalanceCheck(ctx)) return [leaderBalanceClause(ctx), ...factClauses(ctx, facts)];
  // a broker registering (unfenced): the heartbeat first, then the elections it let happen (facts)
  if (step.kind === 'deliver' && step.label === 'BrokerHeartbeat' && facts.length)
    return [brokerHeartbeatClause(ctx), ...factClauses(ctx, facts)];
  if (facts.length) return factClauses(ctx, facts);
  switch (step.kind) {
    case 'deliver':
      return [rpcClause(ctx)];
    case 'timer':
      return [timerClause(ctx)];
    case 'call':
      return [callClause(ctx)];
    case 'boot':
      return [bootClause(ctx)];
  }
  return [say(ctx.lang, `${ctx.names.actor(step.actor)}: ${step.label}`, `${ctx.names.actor(step.actor)}: ${step.label}`)];
}

/** What happened at trace step `stepIndex` (0-based), and why, in one sentence. */
export function narrate(trace: Trace, stepIndex: number, language: Language): string {
  const step = trace.steps.at(stepIndex);
  if (!step) return '';
  const ctx: NarrationContext = {
    trace,
    step,
    lang: language,
    names: namer(trace, language),
    index: traceIndex(trace),
    envelope: step.envelope !== null ? (trace.envelopes.at(step.envelope) ?? null) : null,
    explained: new Set(),
  };
  const clauses = [...mainClauses(ctx), ...nextVerificationClauses(ctx), ...appliedFaultClauses(ctx)]
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
  // Korean clauses are sentences of their own: one that ends without a full stop (a translated note)
  // gets one before the next, unless the next is its parenthesis or dash
  if (language === 'ko')
    return sentence(
      'ko',
      clauses
        .map((c, i) => (i + 1 < clauses.length && !/[.!?:;,]$/.test(c) && !/^[(—]/.test(clauses[i + 1] ?? '') ? `${c}.` : c))
        .join(' '),
    );
  return sentence('en', clauses.map((c, i) => (i > 0 && !c.startsWith('—') ? `; ${c}` : i > 0 ? ` ${c}` : c)).join(''));
}

/**
 * The sentence for the start of a run (before any step). `title` is the scenario's title as the page
 * shows it — a shipped scenario's Korean title in Korean (presets/localized.ts); by default the
 * scenario's own.
 */
export function narrateStart(trace: Trace, language: Language, title: string = trace.scenario.title ?? trace.scenario.id ?? ''): string {
  return say(
    language,
    `Start of the run${title ? `: ${title}` : ''}. Press play or step forward to watch it happen.`,
    `실행 시작${title ? `: ${title}` : ''}. 재생하거나 한 단계씩 넘기며 지켜보세요.`,
  );
}

/** The sentence for the end of a run (after its last step). */
export function narrateEnd(trace: Trace, language: Language): string {
  const ms = groupDigits(trace.endTime);
  const detail = trace.stopDetail ? `: ${trace.stopDetail}` : '';
  const why =
    trace.stopReason === 'quiescent'
      ? say(language, 'nothing is left to happen', '더 일어날 일이 없습니다')
      : trace.stopReason === 'livelock'
        ? say(
            language,
            `the run stopped (livelock${detail}) — the model kept taking steps without time advancing, a defect of the simulator`,
            `실행이 멈췄습니다(livelock${detail}). 시간이 흐르지 않은 채 단계만 계속되었습니다 — 시뮬레이터의 결함입니다`,
          )
        : trace.stopReason === 'invalid-time'
          ? say(
              language,
              `the run stopped (invalid-time${detail}) — an event was scheduled at an impossible time, a defect of the simulator`,
              `실행이 멈췄습니다(invalid-time${detail}). 있을 수 없는 시각에 이벤트가 예약되었습니다 — 시뮬레이터의 결함입니다`,
            )
          : say(language, `the run stopped (${trace.stopReason})`, `실행이 멈췄습니다(${trace.stopReason})`);
  return say(
    language,
    `End of the run after ${ms} ms of virtual time: ${why}. The verdict says, layer by layer, what happened once, what happened more than once and what was lost.`,
    `가상 시간 ${ms} ms에서 실행이 끝났습니다. ${why}. 판정 표가 계층별로 무엇이 한 번, 무엇이 두 번 이상 일어났고 무엇이 유실됐는지 보여 줍니다.`,
  );
}
