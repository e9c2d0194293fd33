/** The cost panel's and the A/B view's words, in English and Korean (Kafka's names stay in Latin script). */
import { groupDigits } from '../../sim/views';
import type { Language } from '../../store/simStore';

const EN = {
  title: 'What the whole run costs',
  /** Under the title: the figures are the whole run's, whatever step is on screen (unlike the panels beside it). */
  wholeRun: (steps: number, endMs: number) =>
    `Totals for the whole run — all ${groupDigits(steps)} ${steps === 1 ? 'step' : 'steps'}, ${groupDigits(endMs)} ms of virtual time — whatever step is on screen.`,
  chartLabel: 'Cost figures of the run, in virtual time',
  latency: 'send() → visible',
  lsoWait: 'behind the LSO',
  p50: 'p50',
  p99: 'p99',
  ms: 'ms',
  perRecord: 'Requests per committed record',
  writePath: 'write path',
  transactional: 'transaction requests',
  /** The rate with its window in the same line: the whole run's virtual time, as the line under the title says. */
  committed: (records: number, perSecond: string, windowMs: number) =>
    `${records} committed ${records === 1 ? 'record' : 'records'} in the whole run's ${groupDigits(windowMs)} ms of virtual time: ${perSecond} per virtual second`,
  noConsumer: 'No consumer received a record.',
  assumptionsTitle: 'Assumptions',
  assumptions: (latencyMs: number, links: number, jitterMs: number) =>
    `Virtual time of the model, not a benchmark of a real cluster: ${latencyMs} ms network latency per link${links ? ` (${links} ${links === 1 ? 'link' : 'links'} set apart)` : ''}${jitterMs ? `, jitter up to ${jitterMs} ms` : ''}, each application's processingMs, and the timers (linger.ms, commit intervals, backoffs). No disk, CPU or compression model; one Produce request per broker carries a batch for each of its partitions, as in Kafka.`,
  latencyFrom:
    'Latency counts from send(), or from the consumer’s first poll when it started later: time before a consumer had joined its group is not a cost of the guarantee; time lost to a crash or a rebalance after that is.',
  requestsWhich:
    'Transaction requests: AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn, WriteTxnMarkers. The write path is every Kafka request but fetching and group membership.',
};

export type CostStrings = typeof EN;

const KO: CostStrings = {
  title: '실행 전체의 비용',
  wholeRun: (steps: number, endMs: number) =>
    `실행 전체(${groupDigits(steps)}단계, 가상 시간 ${groupDigits(endMs)} ms)의 합계입니다. 화면의 단계와 상관없이 같습니다.`,
  chartLabel: '실행의 비용 수치(가상 시간)',
  latency: 'send() → 보임',
  lsoWait: 'LSO 뒤 대기',
  p50: 'p50',
  p99: 'p99',
  ms: 'ms',
  perRecord: '커밋된 레코드당 요청 수',
  writePath: '쓰기 경로',
  transactional: '트랜잭션 요청',
  committed: (records: number, perSecond: string, windowMs: number) =>
    `실행 전체의 가상 시간 ${groupDigits(windowMs)} ms 동안 커밋된 레코드 ${records}개: 가상 시간 1초당 ${perSecond}개`,
  noConsumer: '레코드를 받은 컨슈머가 없습니다.',
  assumptionsTitle: '가정',
  assumptions: (latencyMs: number, links: number, jitterMs: number) =>
    `실제 클러스터의 벤치마크가 아니라 모델의 가상 시간입니다. 링크마다 네트워크 지연 ${latencyMs} ms${links ? `(따로 정한 링크 ${links}개)` : ''}${jitterMs ? `, 최대 ${jitterMs} ms의 지터` : ''}, 애플리케이션마다 processingMs, 그리고 타이머(linger.ms, 커밋 간격, 백오프)만 시간을 씁니다. 디스크, CPU, 압축은 모델에 없고, Kafka처럼 브로커마다 Produce 요청 하나가 그 브로커의 파티션마다 배치 하나씩을 싣습니다.`,
  latencyFrom:
    '지연은 send()부터 세고, 컨슈머가 더 늦게 시작했다면 그 컨슈머의 첫 poll부터 셉니다. 컨슈머가 그룹에 참여하기 전의 시간은 보장의 비용이 아니지만, 그 뒤 중단이나 리밸런스로 잃은 시간은 비용입니다.',
  requestsWhich:
    '트랜잭션 요청: AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn, WriteTxnMarkers. 쓰기 경로는 읽기와 그룹 멤버십을 뺀 모든 Kafka 요청입니다.',
};

export const COST_STRINGS: Readonly<Record<Language, CostStrings>> = { en: EN, ko: KO };
export const costStrings = (language: Language): CostStrings => COST_STRINGS[language];
