/** The A/B view's words, in English and Korean (Kafka's names and settings stay in Latin script). */

import { groupDigits, josa } from '../../sim/views';
import type { Language } from '../../store/simStore';

const EN = {
  compareButton: 'Compare A/B',
  /** The header's button while a link that could not be opened hides the run (A would be that hidden run). */
  overLinkError:
    'The link above could not be opened, and Compare A/B would start from the run it hides: go back to that run or open another scenario first.',
  /** The heading: each side in the words the person chose (a setting's value, or a scenario's title). */
  sides: (a: string, b: string) => `A: ${a} · B: ${b}`,
  /** The heading before B changes anything: the scenario's title. */
  unchanged: (title: string) => `A/B: ${title} — no setting changed yet`,
  /** After the first few changed settings in the heading (all of them are in the table below). */
  moreChanges: (n: number) => `, and ${n} more`,
  close: 'Back to the simulator',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  settingsTitle: 'B changes these settings of A',
  settingsHelp: 'Both runs share the seed, the topics, the scripts and the faults; only the settings you change differ.',
  pairNote: 'A and B are two scenarios of the defense table; they differ in:',
  /** A value the scenario does not set: the default in force. */
  byDefault: (v: string) => `${v} (default)`,
  /** The cluster as the place a setting belongs to: a plain word, not a config key. */
  cluster: 'cluster',
  topicWord: 'topic',
  recordsSent: 'records sent',
  onlyIn: (what: 'topic' | 'client' | 'sink', id: string, side: 'A' | 'B') =>
    `${what === 'topic' ? 'topic' : what === 'client' ? 'client' : 'sink'} ${id}: only in ${side}`,
  faultsOnlyIn: (side: 'A' | 'B') => `Faults only in ${side}:`,
  noFaults: 'none',
  sameSettings: 'No setting changed yet: A and B are the same run.',
  target: 'Where',
  setting: 'Setting',
  valueA: 'A',
  valueB: 'B',
  seedsDiffer: (a: number, b: number) => `The two scenarios have different seeds (${a} and ${b}).`,
  verdictTitle: 'The two verdicts, layer by layer',
  layer: 'Layer',
  differences: (n: number) => `${n} ${n === 1 ? 'difference' : 'differences'}, highlighted`,
  noDifference: 'No difference.',
  timelineTitle: 'The partitions, side by side at the same virtual time',
  scrubber: 'Virtual time of both runs',
  at: (ms: number) => `${groupDigits(ms)} ms`,
  lanesDiffer: (names: string) => `Different at this time: ${names}`,
  lanesSame: 'The partitions are the same at this time.',
  costTitle: 'What each costs',
  missing: 'none',
  cannotRun: 'B cannot run',
  comparePair: (problem: string, defense: string) => `Compare ${problem} with ${defense}`,
  compareShort: 'A/B',
  /** Why transactional.id has no B select: it is the application's choice, not a setting alone. */
  txnIdTitle: 'Why B has no transactional.id switch',
  /** A producer whose script begins and commits transactions (it must have a transactional.id). */
  txnIdUsed: (id: string, txnId: string) =>
    `${id} has transactional.id=${txnId}, and its script begins and commits transactions: without the transactional.id it could not run.`,
  /** A producer whose script begins no transaction. */
  txnIdUnused: (id: string) =>
    `${id}'s script begins no transaction. A transactional.id would make it a transactional producer (idempotent, acks=all) whose every send() outside a transaction is refused (IllegalStateException): B would compare a broken application, not a transactional one.`,
  /** A producer with a transactional.id whose script begins no transaction (its sends are refused in A already). */
  txnIdIdle: (id: string, txnId: string) =>
    `${id} has transactional.id=${txnId}, yet its script begins no transaction: its send() calls are refused (IllegalStateException) in A and B alike.`,
  txnIdHow:
    'Transactions are a change of the application and its configuration: make it in Configuration (transactional.id, and a script with beginTransaction and commitTransaction), then compare. A consumer application gets a transactional producer from processing.mode exactly-once above.',
  /** The button: closes A/B and opens the configuration of this client. */
  txnIdOpen: (id: string) => `Open ${id} in Configuration`,
};

export type CompareStrings = typeof EN;

const KO: CompareStrings = {
  compareButton: 'A/B 비교',
  overLinkError:
    '위의 링크를 열 수 없습니다. A/B 비교는 그 뒤에 가려진 실행에서 시작하므로, 먼저 그 실행으로 돌아가거나 다른 시나리오를 여세요.',
  sides: (a: string, b: string) => `A: ${a} · B: ${b}`,
  unchanged: (title: string) => `A/B: ${title} — 아직 바꾼 설정 없음`,
  moreChanges: (n: number) => ` 외 ${n}개`,
  close: '시뮬레이터로 돌아가기',
  copyLink: '링크 복사',
  linkCopied: '링크를 복사했습니다',
  settingsTitle: 'B는 A의 다음 설정을 바꿉니다',
  settingsHelp: '두 실행은 시드, 토픽, 스크립트, 장애를 공유하고, 바꾼 설정만 다릅니다.',
  pairNote: 'A와 B는 방어선 표의 두 시나리오이며, 다음이 다릅니다:',
  byDefault: (v: string) => `${v}(기본값)`,
  cluster: '클러스터',
  topicWord: '토픽',
  recordsSent: '보내는 레코드 수',
  onlyIn: (what: 'topic' | 'client' | 'sink', id: string, side: 'A' | 'B') =>
    `${what === 'topic' ? '토픽' : what === 'client' ? '클라이언트' : '싱크'} ${id}: ${side}에만 있음`,
  faultsOnlyIn: (side: 'A' | 'B') => `${side}에만 있는 장애:`,
  noFaults: '없음',
  sameSettings: '아직 바꾼 설정이 없습니다. A와 B는 같은 실행입니다.',
  target: '대상',
  setting: '설정',
  valueA: 'A',
  valueB: 'B',
  seedsDiffer: (a: number, b: number) => `두 시나리오의 시드가 다릅니다(${a}, ${b}).`,
  verdictTitle: '두 판정, 계층별로',
  layer: '계층',
  differences: (n: number) => `차이 ${n}개, 강조 표시`,
  noDifference: '차이가 없습니다.',
  timelineTitle: '같은 가상 시간의 파티션, 나란히',
  scrubber: '두 실행의 가상 시간',
  at: (ms: number) => `${groupDigits(ms)} ms`,
  lanesDiffer: (names: string) => `이 시점에 다른 파티션: ${names}`,
  lanesSame: '이 시점에는 파티션이 같습니다.',
  costTitle: '각각의 비용',
  missing: '없음',
  cannotRun: 'B를 실행할 수 없습니다',
  comparePair: (problem: string, defense: string) => `${josa(problem, '과/와')} ${defense} 비교`,
  compareShort: 'A/B',
  txnIdTitle: 'B에 transactional.id 스위치가 없는 이유',
  txnIdUsed: (id: string, txnId: string) =>
    `${id}에는 transactional.id=${txnId} 설정이 있고, 스크립트가 트랜잭션을 시작하고 커밋합니다. transactional.id 없이는 실행할 수 없습니다.`,
  txnIdUnused: (id: string) =>
    `${id}의 스크립트는 트랜잭션을 시작하지 않습니다. transactional.id를 주면 트랜잭션 프로듀서(멱등, acks=all)가 되어, 트랜잭션 밖의 send()는 모두 거부됩니다(IllegalStateException). 그러면 B는 트랜잭션을 쓰는 애플리케이션이 아니라 망가진 애플리케이션을 비교하게 됩니다.`,
  txnIdIdle: (id: string, txnId: string) =>
    `${id}에는 transactional.id=${txnId} 설정이 있지만 스크립트가 트랜잭션을 시작하지 않습니다. send()는 A에서도 B에서도 거부됩니다(IllegalStateException).`,
  txnIdHow:
    '트랜잭션은 애플리케이션과 그 설정을 함께 바꾸는 일입니다. 설정에서 바꾼 뒤(transactional.id, 그리고 beginTransaction과 commitTransaction을 부르는 스크립트) 비교하세요. 컨슈머 애플리케이션은 위의 processing.mode를 exactly-once로 바꾸면 트랜잭션 프로듀서를 씁니다.',
  txnIdOpen: (id: string) => `설정에서 ${id} 열기`,
};

export const COMPARE_STRINGS: Readonly<Record<Language, CompareStrings>> = { en: EN, ko: KO };
export const compareStrings = (language: Language): CompareStrings => COMPARE_STRINGS[language];
