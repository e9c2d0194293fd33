/** The Break it panel's words, in English and Korean. */
import type { Language } from '../../sim/views';

export interface BreakItText {
  readonly title: string;
  readonly open: string;
  readonly intro: string;
  /** Said instead when the scenario's scripted faults are its workload and stay (a preset's goal, keepFaults). */
  readonly keepsFaults: string;
  /** Before the title of the scenario the search is about (a preset's, from the gallery, may not be the one on screen). */
  readonly searches: string;
  /** Said when that scenario is not the run open behind the panel. */
  readonly notOnScreen: string;
  /** The header's button while a link that could not be opened hides the run (it would search that hidden run). */
  readonly overLinkError: string;
  /** The header's button while the dump view hides the run. */
  readonly overDump: string;
  readonly property: string;
  readonly at: string;
  readonly everywhere: string;
  readonly bound: string;
  readonly faults: string;
  readonly start: string;
  readonly stop: string;
  readonly tried: string;
  /** The running count under the progress bar: schedules tried, per second, faults per schedule, workers. */
  readonly progressLine: (tried: number, perSecond: number, k: number, workers: number) => string;
  readonly found: string;
  readonly openCounterexample: string;
  readonly none: string;
  readonly stopped: string;
  readonly noFault: string;
  readonly linkHeading: string;
  readonly linkHint: string;
  readonly copy: string;
  readonly copied: string;
  readonly copyFailed: string;
  /** What a search link recorded, before the search is run again here. */
  readonly recorded: (answer: string) => string;
  readonly recordedCounterexample: (faults: number) => string;
  readonly properties: Readonly<Record<string, string>>;
  readonly kinds: Readonly<Record<string, string>>;
}

export const BREAK_IT_TEXT: Readonly<Record<Language, BreakItText>> = {
  en: {
    title: 'Break it',
    open: 'Break it',
    intro:
      'Search the faults of this run — crashes, pauses, dropped, delayed and duplicated messages — for the shortest schedule that breaks a property, starting from the configuration without its scripted failures.',
    keepsFaults:
      'This scenario’s scripted faults are its workload (an operator stops the application and resets its group’s offsets): the search keeps them and adds its own.',
    searches: 'Searches',
    notOnScreen: 'Not the run open behind this panel.',
    overLinkError:
      'The link above could not be opened, and Break it would search the run it hides: go back to that run or open another scenario first.',
    overDump: "Break it searches the simulator's run, which the dump view hides: close the dump view first.",
    property: 'Property',
    at: 'At',
    everywhere: 'everywhere',
    bound: 'At most faults',
    faults: 'Faults',
    start: 'Start',
    stop: 'Stop',
    tried: 'schedules tried',
    progressLine: (tried, perSecond, k, workers) =>
      `${tried} ${tried === 1 ? 'schedule' : 'schedules'} tried · ${perSecond} schedules/s · faults per schedule ${k} · ${workers} ${workers === 1 ? 'worker' : 'workers'}`,
    found: 'Counterexamples',
    openCounterexample: 'Open',
    none: 'No counterexample yet.',
    stopped: 'Stopped.',
    noFault: 'the configuration breaks it with no fault at all',
    linkHeading: 'Link to this search',
    linkHint: 'Opens this run with Break it set up the same way, and what the search answered once it finished.',
    copy: 'Copy link',
    copied: 'Copied.',
    copyFailed: 'Could not copy: select the link and copy it.',
    recorded: (answer) => `The link records: ${answer}. Start runs the same search again here.`,
    recordedCounterexample: (faults) =>
      faults === 0 ? 'the configuration breaks it with no fault at all' : `a counterexample with ${faults} fault${faults === 1 ? '' : 's'}`,
    properties: {
      'no-duplicates': 'no business duplicate',
      'nothing-lost': 'nothing acknowledged is lost',
      'no-loss': 'nothing lost at all',
      'processed-once': 'every input processed once',
      'no-stall': 'no read_committed reader stalled',
      any: 'any of them',
    },
    kinds: { crash: 'crash', pause: 'pause', drop: 'drop', delay: 'delay', duplicate: 'duplicate' },
  },
  ko: {
    title: '깨뜨려 보기',
    open: '깨뜨려 보기',
    intro:
      '이 실행의 결함(크래시, 일시 정지, 메시지 유실·지연·중복)을 탐색해 속성을 깨뜨리는 가장 짧은 스케줄을 찾습니다. 시나리오에 적힌 결함은 빼고 설정에서 시작합니다.',
    keepsFaults:
      '이 시나리오에 적힌 결함은 워크로드입니다(운영자가 애플리케이션을 멈추고 그룹의 offset을 리셋합니다). 탐색은 이를 그대로 두고 자신의 결함을 더합니다.',
    searches: '탐색 대상',
    notOnScreen: '뒤에 열려 있는 실행과 다른 시나리오입니다.',
    overLinkError:
      '위의 링크를 열 수 없습니다. 깨뜨려 보기는 그 뒤에 가려진 실행을 탐색하므로, 먼저 그 실행으로 돌아가거나 다른 시나리오를 여세요.',
    overDump: '깨뜨려 보기는 덤프 화면이 가리고 있는 시뮬레이터 실행을 탐색합니다. 먼저 덤프 화면을 닫으세요.',
    property: '속성',
    at: '대상',
    everywhere: '전체',
    bound: '최대 결함 수',
    faults: '결함',
    start: '시작',
    stop: '중지',
    tried: '시도한 스케줄',
    progressLine: (tried, perSecond, k, workers) =>
      `시도한 스케줄 ${tried}개 · 초당 ${perSecond}개 · 스케줄당 결함 수 ${k} · 워커 ${workers}개`,
    found: '반례',
    openCounterexample: '열기',
    none: '아직 반례가 없습니다.',
    stopped: '중지했습니다.',
    noFault: '결함 없이도 설정만으로 깨집니다',
    linkHeading: '이 탐색의 링크',
    linkHint: '이 실행을 같은 설정의 깨뜨려 보기와 함께 열고, 탐색이 끝났다면 그 답도 보여 줍니다.',
    copy: '링크 복사',
    copied: '복사했습니다.',
    copyFailed: '복사하지 못했습니다. 링크를 선택해 복사하세요.',
    recorded: (answer) => `링크에 기록된 답: ${answer}. 시작을 누르면 여기서 같은 탐색을 다시 실행합니다.`,
    recordedCounterexample: (faults) => (faults === 0 ? '결함 없이도 설정만으로 깨짐' : `결함 ${faults}개짜리 반례`),
    properties: {
      'no-duplicates': '비즈니스 중복 없음',
      'nothing-lost': '확인(ack)된 것은 유실되지 않음',
      'no-loss': '아무것도 유실되지 않음',
      'processed-once': '모든 입력을 한 번씩 처리',
      'no-stall': 'read_committed 컨슈머가 멈추지 않음',
      any: '모든 속성',
    },
    kinds: { crash: '크래시', pause: '일시 정지', drop: '유실', delay: '지연', duplicate: '중복' },
  },
};
