/**
 * The words of a replicated partition in the lanes, in English and Korean: each replica's sub-lane
 * label, the offline banner, the "truncated by leader epoch N" label, the hover details of a
 * replica and of a truncated record, and the sentence the text alternative adds. Kafka's terms
 * (leader epoch, ISR, LEO, HW, min.insync.replicas, LEADER_NOT_AVAILABLE) stay in Latin script.
 * The ISR and a down broker are said in words, never by colour alone.
 */
import { josa, type RecordRow, type ReplicaRow, type ReplicationRow, type TruncationRow } from '../../sim/views';
import { type Details, type DetailsLanguage, recordDetails } from './details';

/** The offsets a truncation cut: "offset 1" for one, "offsets 1–2" for several (Korean: "offset 1", "offset 1–2"). */
export function offsetsCut(language: 'en' | 'ko', t: Pick<TruncationRow, 'fromOffset' | 'toOffset'>): string {
  const last = t.toOffset - 1;
  if (last <= t.fromOffset) return `offset ${t.fromOffset}`;
  return `${language === 'en' ? 'offsets' : 'offset'} ${t.fromOffset}–${last}`;
}

export interface ReplicaWords {
  readonly leader: string;
  readonly follower: string;
  readonly inIsr: string;
  readonly outOfIsr: string;
  readonly down: string;
  readonly leaderEpoch: (n: number) => string;
  readonly offline: string;
  /** `unclean`: the leader it followed was elected from outside the ISR. */
  readonly truncatedBy: (epoch: number, unclean?: boolean) => string;
  /** The same, in one word, for a label short of room. */
  readonly truncated: string;
}

const EN: ReplicaWords = {
  leader: 'leader',
  follower: 'follower',
  inIsr: 'in ISR',
  outOfIsr: 'out of ISR',
  down: 'broker down',
  leaderEpoch: (n) => `leader epoch ${n}`,
  offline: 'OFFLINE: no leader (LEADER_NOT_AVAILABLE)',
  truncatedBy: (e, unclean) => `truncated by leader epoch ${e}${unclean ? ' (unclean election)' : ''}`,
  truncated: 'truncated',
};

const KO: ReplicaWords = {
  leader: '리더',
  follower: '팔로워',
  inIsr: 'ISR 안',
  outOfIsr: 'ISR 밖',
  down: '브로커 다운',
  leaderEpoch: (n) => `leaderEpoch ${n}`,
  offline: '오프라인: 리더 없음 (LEADER_NOT_AVAILABLE)',
  truncatedBy: (e, unclean) => `leaderEpoch ${e}에 맞춰 잘림(truncated)${unclean ? ' (언클린 선출)' : ''}`,
  truncated: '잘림',
};

export function replicaWords(language: DetailsLanguage = 'en'): ReplicaWords {
  return language === 'ko' ? KO : EN;
}

/** The replica's state in words: "leader · leader epoch 3 · in ISR", "follower · out of ISR · broker down". */
export function replicaState(r: ReplicaRow, repl: ReplicationRow, w: ReplicaWords): string {
  const parts = [r.role === 'leader' && repl.leader === r.broker ? `${w.leader} · ${w.leaderEpoch(repl.leaderEpoch)}` : w.follower];
  parts.push(r.inIsr ? w.inIsr : w.outOfIsr);
  if (!r.online) parts.push(w.down);
  return parts.join(' · ');
}

const isLeader = (r: ReplicaRow, repl: ReplicationRow) => repl.leader !== null && repl.leader === r.broker;

/** A replica sub-lane's label: ★ marks the leader, ✕ a down broker (shapes as well as words). */
export function replicaLabel(r: ReplicaRow, repl: ReplicationRow, w: ReplicaWords): string {
  return replicaLabelForms(r, repl, w)[0] as string;
}

/**
 * A replica sub-lane's label, whole and then shorter and shorter, each form whole words: the whole
 * label ("★ broker-1 leader · leader epoch 4 · in ISR · LEO 7 · HW 6 · truncated by leader epoch 4"),
 * then without the LEO and HW (the row's tick and ▼ show them), without the leader epoch (the lane's
 * name says it), with "truncated" in one word, without the ISR (the bar, solid or dashed, shows it),
 * and at last the replica alone with its role and whether its broker is down; the shortest is its
 * mark and name. The lane draws the longest that fits; a tap on the row says all of it.
 */
export function replicaLabelForms(r: ReplicaRow, repl: ReplicationRow, w: ReplicaWords, cut?: TruncationRow): string[] {
  const leader = isLeader(r, repl);
  const mark = leader ? '★ ' : !r.online ? '✕ ' : '';
  const name = `${mark}${r.broker}`;
  const head = `${name} ${leader && r.role === 'leader' ? w.leader : w.follower}`;
  const epoch = leader && r.role === 'leader' ? [w.leaderEpoch(repl.leaderEpoch)] : [];
  const isr = [r.inIsr ? w.inIsr : w.outOfIsr];
  const down = r.online ? [] : [w.down];
  const offsets = [`LEO ${r.logEndOffset}`, `HW ${r.highWatermark}`];
  const truncated = cut ? [w.truncatedBy(cut.leaderEpoch, cut.cause === 'unclean-election')] : [];
  const truncatedShort = cut ? [w.truncated] : [];
  const forms = [
    [head, ...epoch, ...isr, ...down, ...offsets, ...truncated],
    [head, ...epoch, ...isr, ...down, ...truncated],
    [head, ...isr, ...down, ...truncated],
    [head, ...isr, ...down, ...truncatedShort],
    [head, ...down, ...truncatedShort],
    [head, ...down],
    [name],
  ].map((parts) => parts.join(' · '));
  return forms.filter((f, i) => f !== forms[i - 1]);
}

/** Why the leader a replica followed did not have the records it cut. */
const CAUSE = {
  en: (t: TruncationRow) =>
    t.cause === 'unclean-election'
      ? 'an unclean leader election made a replica from outside the ISR leader, and it never had them'
      : 'the new leader, elected from the ISR, never had them (they were above the high watermark)',
  ko: (t: TruncationRow) =>
    t.cause === 'unclean-election'
      ? '언클린 리더 선출로 ISR 밖 복제본이 리더가 됐고, 그 리더에게는 이 레코드가 없었습니다'
      : 'ISR에서 선출된 새 리더에게 이 레코드가 없었습니다 (HW(하이 워터마크) 위였습니다)',
} as const;

const DETAIL_WORDS = {
  en: {
    title: (lane: string, broker: string) => `${lane} · replica on ${broker}`,
    role: 'role',
    broker: 'broker',
    up: 'up',
    downCrashed: 'down (crashed; its log stays on disk)',
    isr: 'ISR',
    isrMember: (inIsr: boolean) => (inIsr ? 'in the ISR (in sync)' : 'not in the ISR (out of sync)'),
    isrList: 'ISR of the partition',
    leo: 'log end offset (LEO)',
    hw: 'high watermark (HW)',
    minIsr: 'min.insync.replicas (effective)',
    unclean: 'unclean.leader.election.enable',
    truncated: 'truncated',
    truncation: (t: TruncationRow) =>
      `${offsetsCut('en', t)} by leader epoch ${t.leaderEpoch} at ${t.at} ms (step ${t.step}): ${CAUSE.en(t)}`,
    none: 'none',
    noLeader: 'no leader: the partition is offline (LEADER_NOT_AVAILABLE)',
    sentence: (lane: string, broker: string, state: string, leo: number, hw: number) =>
      `${lane} replica on ${broker}: ${state}, log end offset ${leo}, high watermark ${hw}`,
    cut: 'truncated',
    committedLabel: 'committed?',
    cutBy: (t: TruncationRow) =>
      `from ${t.broker} by leader epoch ${t.leaderEpoch} at ${t.at} ms, step ${t.step} (no longer in its log): ${CAUSE.en(t)}`,
    committed: (row: RecordRow, t: TruncationRow) =>
      row.offset < t.highWatermark
        ? `committed: below ${t.broker}'s high watermark ${t.highWatermark} before the cut`
        : `not committed: at or above ${t.broker}'s high watermark ${t.highWatermark}`,
    cutTitle: (t: TruncationRow) => `truncated on ${t.broker}`,
  },
  ko: {
    title: (lane: string, broker: string) => `${lane} · ${broker}의 복제본`,
    role: '역할',
    broker: '브로커',
    up: '실행 중',
    downCrashed: '다운 (크래시, 로그는 디스크에 남음)',
    isr: 'ISR',
    isrMember: (inIsr: boolean) => (inIsr ? 'ISR 안 (동기화됨)' : 'ISR 밖 (뒤처짐)'),
    isrList: '파티션의 ISR',
    leo: 'LEO (로그 끝 offset)',
    hw: 'HW (하이 워터마크)',
    minIsr: 'min.insync.replicas (실제 적용값)',
    unclean: 'unclean.leader.election.enable',
    truncated: '잘린 레코드',
    truncation: (t: TruncationRow) => `${offsetsCut('ko', t)}, leaderEpoch ${t.leaderEpoch}, ${t.at} ms (${t.step}단계): ${CAUSE.ko(t)}`,
    none: '없음',
    noLeader: '리더 없음: 파티션이 오프라인 (LEADER_NOT_AVAILABLE)',
    sentence: (lane: string, broker: string, state: string, leo: number, hw: number) =>
      `${lane}의 ${broker} 복제본: ${state}, LEO ${leo}, HW ${hw}`,
    cut: '잘림(truncated)',
    committedLabel: '커밋 여부',
    cutBy: (t: TruncationRow) =>
      `${t.broker}에서 leaderEpoch ${t.leaderEpoch}에 맞춰 ${t.at} ms(${t.step}단계)에 잘림 (이제 로그에 없음): ${CAUSE.ko(t)}`,
    committed: (row: RecordRow, t: TruncationRow) =>
      row.offset < t.highWatermark
        ? `커밋됨: 잘리기 전 ${t.broker}의 HW(하이 워터마크) ${t.highWatermark} 아래`
        : `커밋 안 됨: ${t.broker}의 HW(하이 워터마크) ${t.highWatermark} 이상`,
    cutTitle: (t: TruncationRow) => `${t.broker}에서 잘림`,
  },
} as const;

/** Hover details of one replica: its role, broker, ISR membership, LEO, own HW and what it truncated. */
export function replicaDetails(laneKey: string, r: ReplicaRow, repl: ReplicationRow, language: DetailsLanguage = 'en'): Details {
  const d = DETAIL_WORDS[language];
  const state = replicaState(r, repl, replicaWords(language));
  const cuts = repl.truncations.filter((t) => t.broker === r.broker);
  const lines: [string, string][] = [
    [d.role, repl.leader === null ? d.noLeader : state],
    [d.broker, r.online ? d.up : d.downCrashed],
    [d.isr, d.isrMember(r.inIsr)],
    [d.leo, String(r.logEndOffset)],
    [d.hw, String(r.highWatermark)],
    [d.isrList, repl.isr.length ? repl.isr.join(', ') : d.none],
    [d.minIsr, String(repl.effectiveMinIsr)],
    [d.unclean, String(repl.uncleanLeaderElection)],
  ];
  if (cuts.length) lines.push([d.truncated, cuts.map(d.truncation).join('; ')]);
  return { title: d.title(laneKey, r.broker), lines, sentence: d.sentence(laneKey, r.broker, state, r.logEndOffset, r.highWatermark) };
}

/** Hover details of a truncated record: what kafka-dump-log printed before, and who cut it. */
export function truncatedDetails(laneKey: string, row: RecordRow, t: TruncationRow, language: DetailsLanguage = 'en'): Details {
  const d = DETAIL_WORDS[language];
  const base = recordDetails(laneKey, row, language);
  return {
    title: `${base.title} · ${d.cutTitle(t)}`,
    lines: [[d.cut, d.cutBy(t)], [d.committedLabel, d.committed(row, t)], ...base.lines],
    sentence: `${base.sentence}, ${d.cut} ${d.cutBy(t)}`,
  };
}

const SUMMARY_WORDS = {
  en: {
    head: (repl: ReplicationRow) =>
      repl.leader === null
        ? `offline: no leader (LEADER_NOT_AVAILABLE), leader epoch ${repl.leaderEpoch}`
        : `leader ${repl.leader}, leader epoch ${repl.leaderEpoch}`,
    isr: (isr: readonly string[], min: number) => `ISR ${isr.length ? isr.join(', ') : 'empty'} (min.insync.replicas ${min})`,
    cut: (t: TruncationRow) =>
      `${t.broker} truncated ${offsetsCut('en', t)} by leader epoch ${t.leaderEpoch}${t.cause === 'unclean-election' ? ' after an unclean leader election' : ''}`,
  },
  ko: {
    head: (repl: ReplicationRow) =>
      repl.leader === null
        ? `오프라인: 리더 없음 (LEADER_NOT_AVAILABLE), leaderEpoch ${repl.leaderEpoch}`
        : `리더 ${repl.leader}, leaderEpoch ${repl.leaderEpoch}`,
    isr: (isr: readonly string[], min: number) => `ISR ${isr.length ? isr.join(', ') : '비어 있음'} (min.insync.replicas ${min})`,
    cut: (t: TruncationRow) =>
      `${josa(t.broker, '이/가')} ${josa(offsetsCut('ko', t), '을/를')} leaderEpoch ${t.leaderEpoch}에 맞춰 잘라냄${t.cause === 'unclean-election' ? ' (언클린 리더 선출 뒤)' : ''}`,
  },
} as const;

/** The text alternative's part for a replicated partition: leader, epoch, ISR, each replica, each truncation. */
export function replicationSummary(repl: ReplicationRow, language: DetailsLanguage = 'en'): string[] {
  const s = SUMMARY_WORDS[language];
  const w = replicaWords(language);
  return [
    s.head(repl),
    s.isr(repl.isr, repl.effectiveMinIsr),
    ...repl.replicas.map((r) => `${r.broker} ${replicaState(r, repl, w)}, LEO ${r.logEndOffset}, HW ${r.highWatermark}`),
    ...repl.truncations.map(s.cut),
  ];
}
