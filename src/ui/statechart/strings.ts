/** The statechart view's words, in English and Korean (Kafka's state and event names stay as they are). */
import type { Language } from '../../store/simStore';

export interface ChartStrings {
  readonly title: (actor: string) => string;
  readonly chartOf: (what: string) => string;
  readonly current: (state: string) => string;
  readonly noState: string;
  readonly last: (before: string, after: string, event: string | null, step: number) => string;
  readonly noLast: string;
  /** A transition taken without an event (XState's `always`). */
  readonly eventless: string;
  readonly instance: (kind: 'transactionalId' | 'group') => string;
  readonly instanceTitle: (kind: 'transactionalId' | 'group', id: string) => string;
  readonly states: string;
  readonly transitions: string;
  readonly handles: (events: string) => string;
  readonly edge: (from: string, to: string, event: string | null, guard: string | null) => string;
  readonly copy: string;
  readonly copied: string;
  readonly copyFailed: string;
  readonly mermaid: string;
  readonly textAlternative: string;
}

const EN: ChartStrings = {
  title: (a) => `Statechart: ${a}`,
  chartOf: (w) => `Statechart of ${w}`,
  current: (s) => `Current state: ${s}.`,
  noState: 'Not started yet.',
  last: (b, a, e, s) => `Last transition: ${b} → ${a}${e ? ` on ${e}` : ''} (step ${s}).`,
  noLast: 'No transition yet.',
  eventless: 'always',
  instance: (k) => (k === 'group' ? 'Group' : 'transactional.id'),
  instanceTitle: (k, id) => (k === 'group' ? `Group ${id} (ClassicGroupState)` : `transactional.id ${id} (TransactionState)`),
  states: 'States',
  transitions: 'Transitions',
  handles: (e) => `handles ${e} without leaving it`,
  edge: (f, t, e, g) => `${f} → ${t}${e ? ` on ${e}` : ' at once'}${g ? ` if ${g}` : ''}`,
  copy: 'Copy as Mermaid',
  copied: 'Copied the Mermaid stateDiagram-v2 block.',
  copyFailed: 'The clipboard is not available: select the text below.',
  mermaid: 'Mermaid stateDiagram-v2',
  textAlternative: 'The chart in words',
};

const KO: ChartStrings = {
  title: (a) => `상태 차트: ${a}`,
  chartOf: (w) => `${w}의 상태 차트`,
  current: (s) => `현재 상태: ${s}.`,
  noState: '아직 시작하지 않았습니다.',
  last: (b, a, e, s) => `마지막 전이: ${b} → ${a}${e ? ` (${e})` : ''} (${s}단계).`,
  noLast: '아직 전이가 없습니다.',
  eventless: '즉시',
  instance: (k) => (k === 'group' ? '그룹' : 'transactional.id'),
  instanceTitle: (k, id) => (k === 'group' ? `그룹 ${id} (ClassicGroupState)` : `transactional.id ${id} (TransactionState)`),
  states: '상태',
  transitions: '전이',
  handles: (e) => `상태를 바꾸지 않고 처리: ${e}`,
  edge: (f, t, e, g) => `${f} → ${t}${e ? ` (${e})` : ' (즉시)'}${g ? `, 조건 ${g}` : ''}`,
  copy: 'Mermaid로 복사',
  copied: 'Mermaid stateDiagram-v2 블록을 복사했습니다.',
  copyFailed: '클립보드를 쓸 수 없습니다. 아래 텍스트를 선택하세요.',
  mermaid: 'Mermaid stateDiagram-v2',
  textAlternative: '차트를 글로',
};

export const chartStrings = (language: Language): ChartStrings => (language === 'ko' ? KO : EN);
