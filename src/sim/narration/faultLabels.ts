/**
 * A fault's label in the reader's language. The engine labels each fault in English (describeFault
 * in scenario/build.ts: the scenario's note, or a description made from the fault), and that label
 * is what narration, the list of faults and the message diagram show. In Korean: a shipped
 * scenario's note from its table (presets/koNotes.ts), a fault injected from the page ("… (injected
 * at step 12)") and any fault without a note described from the fault itself; a note someone wrote
 * is shown as written.
 */

import { NOTES_KO } from '../presets/koNotes';
import type { Trace } from '../run';
import { describeFault } from '../scenario/build';
import type { CrashPoint } from '../scenario/crashPoints';
import type { FaultSpec } from '../scenario/schema';
import { breakItNoteKo } from './breakItNotes';
import { josa, type Language, ordinal } from './language';

const ORDINAL_KO = ['첫', '두', '세', '네', '다섯', '여섯', '일곱', '여덟', '아홉', '열'];
const ordinalKo = (n: number) => (ORDINAL_KO[n - 1] !== undefined ? `${ORDINAL_KO[n - 1]} 번째` : `${n}번째`);

const ACTION_KO: Readonly<Record<string, string>> = { crash: '중단', pause: '일시 정지', restart: '재시작', resume: '재개' };

/**
 * A named crash point (scenario/crashPoints.ts) in words a person reads; Kafka's own names (poll(),
 * sendOffsetsToTransaction()) stay as they are.
 */
const POINT_WORDS: Readonly<Record<CrashPoint, readonly [en: string, ko: string]>> = {
  afterPoll: ['right after poll() returned records', 'poll()이 레코드를 돌려준 직후'],
  afterProcess: ['right after processing a record', '레코드를 처리한 직후'],
  afterSideEffect: ['right after its database write or API call took effect', '데이터베이스 쓰기나 API 호출이 반영된 직후'],
  afterProduce: ['right after handing the output record to the producer', '출력 레코드를 프로듀서에 넘긴 직후'],
  afterSendOffsets: ['right after sendOffsetsToTransaction()', 'sendOffsetsToTransaction() 직후'],
  beforeCommit: ['just before committing', '커밋하기 직전'],
  afterCommit: ['right after the commit completed', '커밋이 끝난 직후'],
};

/** A crash point in the reader's language; a name that is not a known point as it is. */
export function pointWords(point: string, language: Language): string {
  const words = POINT_WORDS[point as CrashPoint];
  return words ? words[language === 'ko' ? 1 : 0] : point;
}

/** describeFault of a crash or pause at a named point, its point in words; null for any other fault. */
function pointFaultEn(f: FaultSpec): string | null {
  if ((f.type !== 'crash' && f.type !== 'pause') || f.point === undefined) return null;
  const where = f.where
    ? ` (${Object.entries(f.where)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')})`
    : '';
  const nth = f.nth && f.nth > 1 ? `, the ${ordinal('en', f.nth)} time` : '';
  const then = f.durationMs === undefined ? '' : f.type === 'pause' ? ` for ${f.durationMs} ms` : `, restart ${f.durationMs} ms later`;
  return `${f.type} ${f.target} ${pointWords(f.point, 'en')}${where}${nth}${then}`;
}

/**
 * A fault's English label with its crash point in words: the engine's own label (describeFault,
 * "crash billing at afterProcess") is replaced wherever it stands — alone, or inside the note the
 * page or Break it wrote around it; a note someone wrote is left as written.
 */
function plainEnglish(f: FaultSpec, label: string): string {
  const words = pointFaultEn(f);
  if (words === null) return label;
  const bare = describeFault({ ...f, note: undefined });
  return label.includes(bare) ? label.replace(bare, words) : label;
}

function whereKo(where: Readonly<Record<string, unknown>> | undefined): string {
  return where
    ? `(${Object.entries(where)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')})`
    : '';
}

/** describeFault in Korean, for a fault without a note of its own. */
export function describeFaultKo(f: FaultSpec): string {
  switch (f.type) {
    case 'drop':
    case 'delay':
    case 'duplicate':
    case 'reset': {
      const route = `${f.from ? `${f.from}에서 ` : ''}${f.to ? `${josa(f.to, '으로/로')} 가는 ` : ''}`;
      const nth = f.nth ?? 1;
      const which = f.count && f.count > 1 ? `${f.rpc} ${ordinalKo(nth)}부터 ${f.count}개` : `${ordinalKo(nth)} ${f.rpc}`;
      const where = f.where ? ` ${whereKo(f.where)}` : '';
      const action =
        f.type === 'drop' ? '버림' : f.type === 'delay' ? `${f.delayMs} ms 지연` : f.type === 'duplicate' ? '복제' : '연결 리셋';
      return `${route}${which}${where} ${action}`;
    }
    case 'runCleaner':
      return `${f.at} ms에 ${f.topic ? `${f.topic}의 ` : ''}로그 클리너 실행`;
    case 'resetOffsets': {
      const target =
        f.to === 'earliest'
          ? '맨 앞(earliest)으로'
          : f.to === 'latest'
            ? '맨 끝(latest)으로'
            : f.to !== undefined
              ? josa(`offset ${f.to}`, '으로/로')
              : `${f.shiftBy ?? 0}만큼 옮겨`;
      return `${f.at} ms에 그룹 ${f.group}의 ${f.topic}${f.partition !== undefined ? `:${f.partition}` : ''} offset을 ${target} 리셋`;
    }
    case 'abortTransaction':
      return `${f.at} ms에 ${f.topic}-${f.partition}의 offset ${f.startOffset}에서 시작하는 트랜잭션 중단`;
    case 'slowReplication':
      return `${f.at ?? 0} ms부터${f.durationMs !== undefined ? ` ${f.durationMs} ms 동안` : ''} ${f.target}의 복제 링크 ${f.delayMs} ms 지연`;
    case 'controlledShutdown':
      return `${f.at} ms에 ${f.target} 제어된 종료${f.durationMs !== undefined ? `, 멈추고 ${f.durationMs} ms 뒤 재시작` : ''}`;
    default: {
      const when =
        f.point !== undefined
          ? `${pointWords(f.point, 'ko')}${f.where ? whereKo(f.where) : ''}${f.nth && f.nth > 1 ? `(${ordinalKo(f.nth)})` : ''}`
          : `${f.at} ms에`;
      const then =
        f.durationMs !== undefined
          ? f.type === 'pause'
            ? ` ${f.durationMs} ms 동안`
            : f.type === 'crash'
              ? `, ${f.durationMs} ms 뒤 재시작`
              : ''
          : '';
      return f.type === 'pause'
        ? `${when} ${f.target}${then} ${ACTION_KO.pause}`
        : `${when} ${f.target} ${ACTION_KO[f.type] ?? f.type}${then}`;
    }
  }
}

const INJECTED = /^(.*) \(injected at step (\d+)\)$/;
const ADVANCE = /^advance past (\S+) for (\S+): pause it for (.+)$/;

/** A timeout pause's explanation (edits.ts, timeoutPause) in the reader's language. */
export function explainPause(explanation: string, language: Language): string {
  return language === 'ko' ? explainPauseKo(explanation) : explanation;
}

/** A timeout pause's explanation (edits.ts, timeoutPause) in Korean. */
export function explainPauseKo(explanation: string): string {
  let m = explanation.match(/^session\.timeout\.ms \((\d+) ms\) \+ 1 s$/);
  if (m) return `session.timeout.ms(${m[1]} ms) + 1초`;
  m = explanation.match(/^transaction\.timeout\.ms \((\d+) ms\) \+ the coordinator's check interval \((\d+) ms\) \+ 1 s$/);
  if (m) return `transaction.timeout.ms(${m[1]} ms) + 코디네이터의 점검 간격(${m[2]} ms) + 1초`;
  return explanation;
}

/** What an edit from the page did (edits.ts writes it in English), in Korean; null when it is not one. */
function editKo(what: string, spec: FaultSpec | null): string | null {
  let m = what.match(ADVANCE);
  if (m) return `${josa(`${m[2]}의 ${m[1]}`, '을/를')} 넘기도록 시계 앞당기기: ${explainPauseKo(m[3] as string)} 동안 일시 정지`;
  m = what.match(/^the application sends event (\S+) again$/);
  if (m) return `애플리케이션이 이벤트 ${josa(m[1] as string, '을/를')} 다시 보냅니다`;
  m = what.match(/^the application sends a new record to (\S+)$/);
  if (m) return `애플리케이션이 ${m[1]}에 새 레코드를 보냅니다`;
  m = what.match(/^start (\S+), a second instance of (\S+) with transactional\.id=(\S+)$/);
  if (m) return `${m[2]}의 두 번째 인스턴스 ${josa(m[1] as string, '을/를')} ${josa(`transactional.id=${m[3]}`, '으로/로')} 시작`;
  if (spec && describeFault({ ...spec, note: undefined }) === what) return describeFaultKo(spec);
  const parsed = parseFaultDescription(what);
  if (parsed && describeFault(parsed) === what) return describeFaultKo(parsed);
  return NOTES_KO[what] ?? null;
}

/** A note written by EOS Lab (a preset's, an injection's) in Korean, or null when it is someone's own words. */
function noteKo(note: string, spec: FaultSpec | null): string | null {
  const table = NOTES_KO[note];
  if (table) return table;
  const injected = note.match(INJECTED);
  if (injected) {
    const [, what, step] = injected as unknown as [string, string, string];
    const inner = editKo(what, spec);
    return inner === null ? null : `${inner} (단계 ${step}에서 주입)`;
  }
  const removed = note.match(/^removed: (.+)$/);
  if (removed) return `제거함: ${translateAny(removed[1] as string)}`;
  return breakItNoteKo(note, (what) => editKo(what, spec));
}

const ORD = '(\\d+)(?:st|nd|rd|th)';
const WHICH = `(?:the ${ORD} (\\w+)|(\\d+) (\\w+)s from the ${ORD})`;
const ROUTE = '(?: from (\\S+))?(?: to (\\S+))?(?: where (.+?))?';
const ENVELOPE_EN = new RegExp(`^(drop|delay|duplicate) ${WHICH}${ROUTE}(?: by (\\d+) ms)?$`);
const RESET_EN = new RegExp(`^reset the connection of ${WHICH}${ROUTE}$`);
const CLEANER_EN = /^run the log cleaner(?: on (\S+))? at (\d+) ms$/;
const ABORT_TXN_EN = /^abort the transaction starting at offset (\d+) of (\S+)-(\d+) at (\d+) ms$/;
const CONTROLLED_SHUTDOWN_EN = /^controlled shutdown of (\S+) at (\d+) ms(?:, restart (\d+) ms after it stopped)?$/;
const RESET_OFFSETS_EN =
  /^reset the offsets of group (\S+) on ([^\s:]+)(?::(\d+))? (?:to (earliest|latest)|to offset (\d+)|by (-?\d+)) at (\d+) ms$/;
const PROCESS_EN =
  /^(crash|pause|restart|resume) (\S+) at (?:(\d+) ms|(\w+)(?: \((.+)\))?(?:, (\d+)(?:st|nd|rd|th) time)?)(?: for (\d+) ms|, restart (\d+) ms later)?$/;

function whereOf(text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  return Object.fromEntries(text.split(', ').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
}

/**
 * describeFault's English for a fault without a note, read back into the fault it describes — for a
 * label whose fault the scenario no longer holds (the confirmation of a removal). Null when the text
 * is not such a description.
 */
export function parseFaultDescription(text: string): FaultSpec | null {
  const env = text.match(ENVELOPE_EN) ?? text.match(RESET_EN);
  if (env) {
    const reset = text.startsWith('reset');
    const g = reset ? [undefined, 'reset', ...env.slice(1)] : [...env];
    const [, type, nth1, rpc1, count, rpcs, nth2, from, to, where, delay] = g as (string | undefined)[];
    const spec: Record<string, unknown> = {
      type,
      rpc: rpc1 ?? rpcs,
      nth: Number(nth1 ?? nth2),
      ...(count ? { count: Number(count) } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(where ? { where: whereOf(where) } : {}),
      ...(delay ? { delayMs: Number(delay) } : {}),
    };
    return spec as unknown as FaultSpec;
  }
  const reset = text.match(RESET_OFFSETS_EN);
  if (reset) {
    const [, group, topic, partition, named, offset, shift, at] = reset as unknown as (string | undefined)[];
    const f = {
      type: 'resetOffsets',
      at: Number(at),
      group,
      topic,
      ...(partition !== undefined ? { partition: Number(partition) } : {}),
      ...(named !== undefined ? { to: named } : offset !== undefined ? { to: Number(offset) } : { shiftBy: Number(shift) }),
    } as FaultSpec;
    return describeFault(f) === text ? f : null;
  }
  const shutdown = text.match(CONTROLLED_SHUTDOWN_EN);
  if (shutdown)
    return {
      type: 'controlledShutdown',
      target: shutdown[1] as string,
      at: Number(shutdown[2]),
      ...(shutdown[3] !== undefined ? { durationMs: Number(shutdown[3]) } : {}),
    };
  const abort = text.match(ABORT_TXN_EN);
  if (abort)
    return {
      type: 'abortTransaction',
      at: Number(abort[4]),
      topic: abort[2] as string,
      partition: Number(abort[3]),
      startOffset: Number(abort[1]),
    };
  const cleaner = text.match(CLEANER_EN);
  if (cleaner) return { type: 'runCleaner', at: Number(cleaner[2]), ...(cleaner[1] ? { topic: cleaner[1] } : {}) } as FaultSpec;
  const p = text.match(PROCESS_EN);
  if (p) {
    const [, type, target, at, point, where, nth, pauseFor, restartAfter] = p as unknown as (string | undefined)[];
    const spec: Record<string, unknown> = {
      type,
      target,
      ...(at !== undefined ? { at: Number(at) } : { point }),
      ...(where ? { where: whereOf(where) } : {}),
      ...(nth ? { nth: Number(nth) } : {}),
      ...(pauseFor ? { durationMs: Number(pauseFor) } : restartAfter ? { durationMs: Number(restartAfter) } : {}),
    };
    const f = spec as unknown as FaultSpec;
    // only a faithful reading counts: describing it again gives the same words
    return describeFault(f) === text ? f : null;
  }
  return null;
}

/** A fault's English label, translated without knowing the scenario: a known note, or a description read back. */
function translateAny(text: string): string {
  const note = noteKo(text, null);
  if (note) return note;
  const f = parseFaultDescription(text);
  return f && describeFault(f) === text ? describeFaultKo(f) : text;
}

/**
 * The confirmation an edit from the page gives (edits.ts's `note`: a fault injected, an event resent,
 * a second instance started, a fault removed) in the reader's language.
 */
export function translateEditNote(trace: Pick<Trace, 'scenario'>, note: string, language: Language): string {
  if (language === 'en') return note;
  const removed = note.match(/^removed: (.+)$/);
  if (removed) return `제거함: ${translateAny(removed[1] as string)}`;
  return noteKo(note, null) ?? translateFaultLabel(trace, note, language);
}

/** One fault's label, as describeFault gives it, in the reader's language. */
export function faultSpecLabel(f: FaultSpec, language: Language): string {
  const en = describeFault(f);
  if (language === 'en') return plainEnglish(f, en);
  if (!f.note) return describeFaultKo(f);
  return noteKo(f.note, f) ?? en;
}

const cache = new WeakMap<readonly FaultSpec[], Map<string, string>>();

/** Korean labels of a scenario's faults, keyed by their English labels (the kernel's). */
function koreanLabels(faults: readonly FaultSpec[]): Map<string, string> {
  let map = cache.get(faults);
  if (map) return map;
  map = new Map();
  for (const f of faults) {
    const en = describeFault(f);
    const ko = faultSpecLabel(f, 'ko');
    map.set(en, ko);
    // a crash or pause for a while is followed by its restart or resume, labelled after it (build.ts)
    if ((f.type === 'crash' || f.type === 'pause') && f.durationMs !== undefined) {
      const follow = f.type === 'crash' ? 'restart' : 'resume';
      map.set(`${follow} ${f.target} (${en})`, `${f.target} ${ACTION_KO[follow]} (${ko})`);
    }
  }
  cache.set(faults, map);
  return map;
}

/** A fault label from the trace in English: a crash point in words (plainEnglish). */
function englishLabel(faults: readonly FaultSpec[], label: string): string {
  const after = label.match(/^(restart|resume) (\S+) (\d+) ms after: (.+)$/);
  if (after) return `${after[1]} ${after[2]} ${after[3]} ms after: ${englishLabel(faults, after[4] as string)}`;
  for (const f of faults) if ('point' in f && f.point !== undefined && describeFault(f) === label) return plainEnglish(f, label);
  const parsed = parseFaultDescription(label);
  return parsed && describeFault(parsed) === label ? plainEnglish(parsed, label) : label;
}

/**
 * A fault label from the trace (a step's faults, an envelope's fault, a fault step's label) in the
 * reader's language. Unknown labels are returned as they are.
 */
export function translateFaultLabel(trace: Pick<Trace, 'scenario'>, label: string, language: Language): string {
  if (language === 'en') return englishLabel(trace.scenario.faults ?? [], label);
  const known = koreanLabels(trace.scenario.faults ?? []).get(label);
  if (known) return known;
  // the restart or resume that follows a crash or pause at a point (the kernel's words, simulation.ts)
  const after = label.match(/^(restart|resume) (\S+) (\d+) ms after: (.+)$/);
  if (after) {
    const [, action, proc, ms, first] = after as unknown as [string, string, string, string, string];
    return `${ms} ms 뒤 ${proc} ${ACTION_KO[action] ?? action}: ${translateFaultLabel(trace, first, language)}`;
  }
  return translateAny(label);
}
