/**
 * The timeline's own words in English and Korean: panel titles, hints, toolbar buttons, legends
 * and the names of process kinds. Kafka's terms (LSO, LEO, COMMIT, ABORT, event_id) stay in Latin
 * script in both, as the rest of the page writes them.
 */
import { groupDigits } from '../../sim/views';
import { processKindNames } from '../processKinds';

export type TimelineLanguage = 'en' | 'ko';

const EN = {
  language: 'en' as TimelineLanguage,
  logsTitle: 'Partition logs',
  logsZoom: 'Partition log zoom',
  logsZoomOut: 'Zoom out of the partition logs',
  logsZoomIn: 'Zoom into the partition logs',
  logsFit: 'Fit the partition logs to the width',
  fit: 'Fit',
  logsHint:
    'Drag to pan, Ctrl + wheel to zoom. Focus the lanes: ← → move between records, ↑ ↓ between partitions, Enter selects, + − 0 zoom.',
  /** On a touch screen (no mouse, no keyboard): what a finger does. */
  logsTouchHint: 'Drag sideways to pan, pinch to zoom, tap a record to select it.',
  lanes: 'Partition lanes',
  onLeader: (leader: string) => `on ${leader}`,
  onLeaderEpoch: (leader: string, epoch: number) => `leader ${leader} · epoch ${epoch}`,
  offlineLane: 'offline: no leader',
  internalTopics: (n: number) => `Internal topics (${n})`,
  internalCollapsed: (list: string) => `Internal topics collapsed: ${list}.`,
  partitions: (topic: string, n: number) => `${topic} (${n} partition${n === 1 ? '' : 's'})`,
  canvasLabel: (user: number, internal: number, expanded: boolean) =>
    `Partition logs: ${user} partition${user === 1 ? '' : 's'} of user topics${
      internal ? `, ${internal} of internal topics ${expanded ? 'shown' : 'collapsed'}` : ''
    }. Cells are records by offset; lines mark the log end offset, high watermark and last stable offset.`,
  lanesLegend: 'Partition log legend',
  legendPlain: 'not in a transaction (outlined)',
  legendCommitted: 'in a committed transaction (solid)',
  legendOpen: 'in an open transaction (hatched)',
  legendAborted: 'in an aborted transaction (crossed)',
  legendAboveHw: 'above the high watermark: not committed (faded, dashed)',
  legendCommitMarker: 'COMMIT marker',
  legendAbortMarker: 'ABORT marker',
  legendDuplicate: 'same event_id more than once (bar on top, ×n)',
  legendLeo: 'LEO',
  legendHw: 'high watermark',
  legendLso: 'LSO (dashed)',
  legendPosition: 'consumer position',
  legendGroup: 'group committed offset (◇ pending)',
  legendReplicaIsr: 'replica in the ISR (solid bar to its LEO)',
  legendReplicaOut: 'replica out of the ISR (dashed, hollow)',
  legendReplicaDown: 'replica on a down broker (grey, ✕)',
  legendReplicaHw: "replica's own high watermark (▼)",
  legendLeader: '★ leader, with its leader epoch',
  legendTruncated: 'truncated record (dashed, struck through)',
  messagesTitle: 'Messages between processes',
  messageOptions: 'Message view options',
  axis: 'Horizontal axis',
  byStep: 'By step',
  virtualTime: 'Virtual time',
  background: (hidden: number) =>
    // short enough that the toolbar stays one line at 1280 px ("Background traffic (154 messages hidden)" broke it),
    // and still naming its unit beside the playback bar's count of steps (tests/ui/backgroundCounts.dom.test.ts)
    `Background messages${hidden > 0 ? ` (${groupDigits(hidden)} hidden)` : ''}`,
  messagesZoomOut: 'Zoom out of the messages',
  messagesZoomIn: 'Zoom into the messages',
  messagesFit: 'Fit the messages to the width',
  byStepHint: 'One column per step: long idle gaps in virtual time (timeouts, rebalance delays) take no room.',
  timeHint: 'Virtual milliseconds: idle gaps are drawn to scale.',
  messagesKeys: 'Focus the view: ← → move between envelopes, Enter selects.',
  /** On a touch screen, in place of messagesKeys. */
  messagesTouch: 'Drag sideways to pan, pinch to zoom, tap an arrow to select it.',
  messageSequence: 'Message sequence',
  messagesCanvas: (processes: number, step: number, byStep: boolean) =>
    `Envelopes between ${processes} processes up to step ${step}, ${byStep ? 'by step' : 'over virtual time'}`,
  messagesLegend: 'Message legend',
  legendDelivered: 'delivered',
  legendInFlight: 'in flight (dashed)',
  legendLost: 'lost (ends in a dot)',
  legendDropped: 'dropped (crossed out)',
  legendNow: 'now',
  pointerPosition: (owner: string, offset: number) => `${owner} position ${offset}`,
  pointerGroup: (group: string, kind: 'committed' | 'pending', offset: number) => `group ${group} ${kind} ${offset}`,
  faultDropped: (why: string | null) => `dropped: ${why ?? 'by the network'}`,
  faultLost: (why: string | null) => `lost${why ? `: ${why}` : ''}`,
  duplicateOf: (id: number) => `duplicate of #${id}`,
  figureMeta: (step: number, total: number, ms: string) => `step ${step} of ${total} · ${ms} ms of virtual time`,
  figureVerdict: (step: number) => `Verdict at step ${step}:`,
  figureAxis: (byStep: boolean, hidden: number) =>
    `${byStep ? 'by step' : 'over virtual time'}${hidden > 0 ? `; ${hidden} background message${hidden === 1 ? '' : 's'} (heartbeats, idle fetches) left out` : ''}`,
  figureFooter: (seed: number, hash: string) => `EOS Lab · seed ${seed} · traceHash ${hash}`,
  kinds: processKindNames('en'),
};

export type TimelineStrings = typeof EN;

const KO: TimelineStrings = {
  language: 'ko',
  logsTitle: '파티션 로그',
  logsZoom: '파티션 로그 확대/축소',
  logsZoomOut: '파티션 로그 축소',
  logsZoomIn: '파티션 로그 확대',
  logsFit: '파티션 로그를 폭에 맞추기',
  fit: '맞춤',
  logsHint:
    '끌어서 이동, Ctrl + 휠로 확대/축소. 레인에 포커스한 뒤: ← → 레코드 사이 이동, ↑ ↓ 파티션 사이 이동, Enter 선택, + − 0 확대/축소.',
  logsTouchHint: '옆으로 끌어 이동, 두 손가락으로 확대/축소, 레코드를 누르면 선택.',
  lanes: '파티션 레인',
  onLeader: (leader: string) => `리더 ${leader}`,
  onLeaderEpoch: (leader: string, epoch: number) => `리더 ${leader} · epoch ${epoch}`,
  offlineLane: '오프라인: 리더 없음',
  internalTopics: (n: number) => `내부 토픽 (${n})`,
  internalCollapsed: (list: string) => `내부 토픽 접힘: ${list}.`,
  partitions: (topic: string, n: number) => `${topic} (파티션 ${n}개)`,
  canvasLabel: (user: number, internal: number, expanded: boolean) =>
    `파티션 로그: 사용자 토픽 파티션 ${user}개${internal ? `, 내부 토픽 파티션 ${internal}개 ${expanded ? '펼침' : '접힘'}` : ''}. 칸은 offset 순서의 레코드이고, 선은 LEO(로그 끝 offset), HW(하이 워터마크), LSO(마지막 안정 offset)를 표시합니다.`,
  lanesLegend: '파티션 로그 범례',
  legendPlain: '트랜잭션 밖 (테두리)',
  legendCommitted: '커밋된 트랜잭션 안 (채움)',
  legendOpen: '열린 트랜잭션 안 (빗금)',
  legendAborted: '취소된 트랜잭션 안 (엇갈린 빗금)',
  legendAboveHw: '하이 워터마크 위: 커밋되지 않음 (흐리게, 점선)',
  legendCommitMarker: 'COMMIT 마커',
  legendAbortMarker: 'ABORT 마커',
  legendDuplicate: '같은 event_id가 두 번 이상 (위쪽 막대, ×n)',
  legendLeo: 'LEO',
  legendHw: '하이 워터마크(HW)',
  legendLso: 'LSO (점선)',
  legendPosition: '컨슈머 위치',
  legendGroup: '그룹 커밋 offset (◇ 대기 중)',
  legendReplicaIsr: 'ISR 안의 복제본 (LEO까지 채운 막대)',
  legendReplicaOut: 'ISR 밖의 복제본 (점선, 빈 막대)',
  legendReplicaDown: '다운된 브로커의 복제본 (회색, ✕)',
  legendReplicaHw: '복제본 자신의 하이 워터마크 (▼)',
  legendLeader: '★ 리더와 그 leaderEpoch',
  legendTruncated: '잘린(truncated) 레코드 (점선, 사선)',
  messagesTitle: '프로세스 사이의 메시지',
  messageOptions: '메시지 보기 옵션',
  axis: '가로축',
  byStep: '단계별',
  virtualTime: '가상 시간',
  background: (hidden: number) => `백그라운드 메시지${hidden > 0 ? ` (${groupDigits(hidden)}개 숨김)` : ''}`,
  messagesZoomOut: '메시지 축소',
  messagesZoomIn: '메시지 확대',
  messagesFit: '메시지를 폭에 맞추기',
  byStepHint: '단계마다 한 칸: 가상 시간의 긴 대기(타임아웃, 리밸런스 지연)는 자리를 차지하지 않습니다.',
  timeHint: '가상 밀리초: 대기 시간도 비율대로 그립니다.',
  messagesKeys: '보기에 포커스한 뒤: ← → 메시지 사이 이동, Enter 선택.',
  messagesTouch: '옆으로 끌어 이동, 두 손가락으로 확대/축소, 화살표를 누르면 선택.',
  messageSequence: '메시지 순서',
  messagesCanvas: (processes: number, step: number, byStep: boolean) =>
    `프로세스 ${processes}개 사이의 메시지, 단계 ${step}까지, ${byStep ? '단계별' : '가상 시간 기준'}`,
  messagesLegend: '메시지 범례',
  legendDelivered: '도착',
  legendInFlight: '전송 중 (점선)',
  legendLost: '유실 (점으로 끝남)',
  legendDropped: '버려짐 (X 표시)',
  legendNow: '현재',
  pointerPosition: (owner: string, offset: number) => `${owner} 위치 ${offset}`,
  pointerGroup: (group: string, kind: 'committed' | 'pending', offset: number) =>
    `그룹 ${group} ${kind === 'committed' ? '커밋' : '보류'} ${offset}`,
  faultDropped: (why: string | null) => `버려짐: ${why ?? '네트워크가 버림'}`,
  faultLost: (why: string | null) => `유실${why ? `: ${why}` : ''}`,
  duplicateOf: (id: number) => `#${id}의 복사본`,
  figureMeta: (step: number, total: number, ms: string) => `단계 ${step} / ${total} · 가상 시간 ${ms} ms`,
  figureVerdict: (step: number) => `단계 ${step} 기준 판정:`,
  figureAxis: (byStep: boolean, hidden: number) =>
    `${byStep ? '단계별' : '가상 시간 기준'}${hidden > 0 ? `, 백그라운드 메시지(하트비트, 빈 fetch) ${hidden}개 생략` : ''}`,
  figureFooter: (seed: number, hash: string) => `EOS Lab · seed ${seed} · traceHash ${hash}`,
  kinds: processKindNames('ko'),
};

export function timelineStrings(language: TimelineLanguage = 'en'): TimelineStrings {
  return language === 'ko' ? KO : EN;
}
