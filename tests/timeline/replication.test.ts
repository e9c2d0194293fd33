/**
 * Replicated partitions in the lanes, from ReplicationRow fixtures (the engine side lands at merge):
 * the model carries the row, the layout gives each replica a sub-lane (and one-replica lanes keep
 * their height), hover finds replicas and truncated records, the drawing says leader / ISR / down /
 * truncated in words and draws the cut records at their offsets, and the text alternative names it all.
 */
import { scaleLinear } from 'd3-scale';
import { describe, expect, it } from 'vitest';
import { SvgContext } from '../../src/ui/export/figure/svgContext';
import { drawOfflineBanner, drawReplicas, placeReplicaLabel, replicaRowForms, replicaRowText } from '../../src/ui/timeline/drawReplicas';
import { LANE_GEOMETRY, layoutLanes } from '../../src/ui/timeline/laneLayout';
import { buildLane } from '../../src/ui/timeline/laneModel';
import { laneSummary } from '../../src/ui/timeline/laneSummary';
import type { Palette } from '../../src/ui/timeline/palette';
import { replicaRowAt, truncatedAt } from '../../src/ui/timeline/replicaHit';
import { replicaDetails, replicaWords, truncatedDetails } from '../../src/ui/timeline/replicaText';
import { failedOver, offline, partitionRow, record } from './replicationFixtures';

const palette: Palette = {
  bg: '#fff',
  fg: '#111',
  muted: '#555',
  grid: '#ddd',
  plain: '#8ab',
  committed: '#5a6',
  open: '#ec5',
  aborted: '#d65',
  leo: '#566',
  hw: '#112',
  lso: '#74d',
  position: '#16d',
  groupOffset: '#b52',
  arrow: '#345',
  background: '#abb',
  fault: '#c22',
  focus: '#16d',
  selection: '#e28',
  hover: '#111',
  now: '#74d',
  font: 'Arial',
};

function draw(replication = failedOver, language: 'en' | 'ko' = 'en', width = 900) {
  const lane = buildLane(partitionRow(replication));
  const layout = layoutLanes([lane], false);
  const box = layout.boxes[0];
  if (!box) throw new Error('no box');
  const svg = new SvgContext();
  const dc = {
    ctx: svg as unknown as CanvasRenderingContext2D,
    width,
    palette,
    animated: (_k: string, t: number) => t,
    replicaWords: replicaWords(language),
  };
  const scale = scaleLinear().domain([0, 10]).range([0, width]);
  drawOfflineBanner(dc, lane, box);
  drawReplicas(dc, lane, box, scale);
  const texts = svg.items.filter((i) => i.type === 'text').map((i) => (i.type === 'text' ? i.text : ''));
  return { lane, box, svg, texts };
}

describe('replicated lane model and layout', () => {
  it('carries the replication row, and null for a partition with one replica', () => {
    expect(buildLane(partitionRow(failedOver)).replication).toBe(failedOver);
    expect(buildLane(partitionRow(null)).replication).toBeNull();
    const { replication: _r, ...noField } = partitionRow(null);
    expect(buildLane(noField).replication).toBeNull();
  });

  it('gives each replica a sub-lane under the axis; a one-replica lane keeps its height', () => {
    const one = buildLane(partitionRow(null, 'orders', 1));
    const three = buildLane(partitionRow(failedOver));
    const layout = layoutLanes([three, one], false);
    const [a, b] = layout.boxes;
    expect(a?.replicaRows).toBe(3);
    expect(a?.replicaTop).toBe((a?.axisY ?? 0) + LANE_GEOMETRY.axis);
    expect(a?.pointerTop).toBe((a?.replicaTop ?? 0) + 3 * LANE_GEOMETRY.replicaRow);
    expect(b?.replicaRows).toBe(0);
    expect(b?.pointerTop).toBe((b?.axisY ?? 0) + LANE_GEOMETRY.axis);
    const g = LANE_GEOMETRY;
    expect(b?.height).toBe(g.labelBand + g.cell + g.axis + g.gap);
    expect(a?.height).toBe((b?.height ?? 0) + 3 * g.replicaRow);
    expect(b?.y).toBe(a?.height);
  });

  it('finds the replica row at a height and the truncated record at an offset', () => {
    const { box } = draw();
    expect(replicaRowAt(box, box.replicaTop)).toBe(0);
    expect(replicaRowAt(box, box.replicaTop + 2.5 * LANE_GEOMETRY.replicaRow)).toBe(2);
    expect(replicaRowAt(box, box.replicaTop - 1)).toBe(-1);
    expect(replicaRowAt(box, box.replicaTop + 3 * LANE_GEOMETRY.replicaRow)).toBe(-1);
    expect(truncatedAt(failedOver.truncations, 'broker-0', 6)?.row.value).toBe('lost-b');
    expect(truncatedAt(failedOver.truncations, 'broker-0', 4)).toBeNull();
    expect(truncatedAt(failedOver.truncations, 'broker-2', 5)).toBeNull();
  });
});

describe('replica sub-lanes drawn', () => {
  it('label each replica in words: ★ leader with its epoch, in / out of ISR, broker down, truncated', () => {
    const { texts } = draw(failedOver, 'en', 2000);
    expect(texts).toEqual([
      '✕ broker-0 follower · out of ISR · broker down · LEO 5 · HW 4 · truncated by leader epoch 4',
      '★ broker-1 leader · leader epoch 4 · in ISR · LEO 7 · HW 6',
      'broker-2 follower · in ISR · LEO 6 · HW 6',
    ]);
  });

  it('shortens a label wider than the lane to its longest form in whole words that fits, in either language, instead of running off its edge or cutting a word', () => {
    const svg = new SvgContext();
    svg.font = `10px ${palette.font}`; // the labels' font (drawReplicas' FONT_PX)
    const width = (t: string) => svg.measureText(t).width;
    for (const language of ['en', 'ko'] as const) {
      const w = replicaWords(language);
      const full = draw(failedOver, language, 2000).texts;
      for (const lanePx of [320, 200]) {
        const { texts } = draw(failedOver, language, lanePx);
        expect(texts.length).toBe(3);
        failedOver.replicas.forEach((r, i) => {
          const text = texts[i] ?? '';
          const forms = replicaRowForms(r, failedOver, w);
          expect(forms[0]).toBe(full[i]);
          expect(width(text), text).toBeLessThanOrEqual(lanePx - 4);
          // one of the label's forms: whole words, no ellipsis (placeReplicaLabel picks which, below)
          expect(forms, text).toContain(text);
          expect(text).not.toContain('…');
        });
        // broker-0's label (the longest: down, out of ISR, truncated) is shortened, its name and role kept
        expect(width(full[0] ?? '')).toBeGreaterThan(lanePx);
        expect(texts[0]).not.toBe(full[0]);
        expect(texts[0]?.startsWith(language === 'ko' ? '✕ broker-0 팔로워' : '✕ broker-0 follower')).toBe(true);
      }
    }
  });

  it('a label’s forms drop, in order, the LEO and HW, the leader epoch, the truncation’s words, the ISR; never the name', () => {
    const w = replicaWords('en');
    const [b0, b1, b2] = failedOver.replicas;
    if (!b0 || !b1 || !b2) throw new Error('fixture');
    expect(replicaRowForms(b0, failedOver, w)).toEqual([
      '✕ broker-0 follower · out of ISR · broker down · LEO 5 · HW 4 · truncated by leader epoch 4',
      '✕ broker-0 follower · out of ISR · broker down · truncated by leader epoch 4',
      '✕ broker-0 follower · out of ISR · broker down · truncated',
      '✕ broker-0 follower · broker down · truncated',
      '✕ broker-0 follower · broker down',
      '✕ broker-0',
    ]);
    expect(replicaRowForms(b1, failedOver, w)).toEqual([
      '★ broker-1 leader · leader epoch 4 · in ISR · LEO 7 · HW 6',
      '★ broker-1 leader · leader epoch 4 · in ISR',
      '★ broker-1 leader · in ISR',
      '★ broker-1 leader',
      '★ broker-1',
    ]);
    expect(replicaRowForms(b2, failedOver, replicaWords('ko'))).toEqual([
      'broker-2 팔로워 · ISR 안 · LEO 6 · HW 6',
      'broker-2 팔로워 · ISR 안',
      'broker-2 팔로워',
      'broker-2',
    ]);
  });

  it('places a label right of the marks while more than the name fits there, else over them on the lane', () => {
    const measure = (t: string) => t.length * 5;
    const forms = ['b-1 leader · in ISR · LEO 7', 'b-1 leader · in ISR', 'b-1 leader', 'b-1'];
    // room for the second form right of the marks
    expect(placeReplicaLabel(forms, 100, 200, measure)).toEqual({ text: 'b-1 leader · in ISR', x: 100 });
    // room right of the marks for the name alone: over the marks, the longest form that fits the lane
    expect(placeReplicaLabel(forms, 180, 200, measure)).toEqual({ text: 'b-1 leader · in ISR · LEO 7', x: 198 - 135 });
    // a lane narrower than the name: cut with an ellipsis, the last resort
    expect(placeReplicaLabel(forms, 0, 16, measure)).toEqual({ text: 'b…', x: 4 });
    expect(placeReplicaLabel(forms, 0, 6, measure)).toBeNull();
  });

  it('keeps a label off the truncated records: right of them, cut, while its name and role fit there (Korean too)', () => {
    for (const language of ['en', 'ko'] as const)
      for (const width of [900, 700]) {
        const { svg, box } = draw(failedOver, language, width);
        const row0 = [box.replicaTop, box.replicaTop + LANE_GEOMETRY.replicaRow];
        const inRow0 = (b: { y0: number; y1: number }) => b.y0 >= (row0[0] ?? 0) && b.y1 <= (row0[1] ?? 0);
        const ghosts = svg.items.filter((i) => i.type === 'shape' && i.stroke === palette.fault && inRow0(i.box));
        const label = svg.items.find((i) => i.type === 'text' && inRow0(i.box));
        if (!label || label.type !== 'text') throw new Error('no label on broker-0');
        expect(label.text.startsWith(language === 'ko' ? '✕ broker-0 팔로워' : '✕ broker-0 follower')).toBe(true);
        // the ghosts end at offset 7 (x = 0.7 × width): the label starts after them and overlaps none
        expect(label.box.x0).toBeGreaterThanOrEqual(0.7 * width);
        for (const g of ghosts) expect(label.box.x0 >= g.box.x1 || label.box.x1 <= g.box.x0).toBe(true);
      }
  });

  it('draws the truncated records struck through at their offsets on the replica that cut them', () => {
    const { svg, box } = draw();
    const row0 = [box.replicaTop, box.replicaTop + LANE_GEOMETRY.replicaRow];
    // dashed outlines in the fault colour at offsets 5 and 6 (x 450–540, 540–630), inside broker-0's row
    const ghosts = svg.items.filter(
      (i) => i.type === 'shape' && i.stroke === palette.fault && i.box.y0 >= (row0[0] ?? 0) && i.box.y1 <= (row0[1] ?? 0),
    );
    const xs = ghosts.map((g) => Math.round(g.box.x0));
    expect(xs).toContain(451);
    expect(xs).toContain(541);
    const rows = [1, 2].map((i) => box.replicaTop + i * LANE_GEOMETRY.replicaRow);
    expect(svg.items.some((i) => i.type === 'shape' && i.stroke === palette.fault && i.box.y0 >= (rows[0] ?? 0))).toBe(false);
  });

  it('marks the leader move when seeking: the ★ is on the row of the new leader', () => {
    const before = {
      ...failedOver,
      leader: 'broker-0',
      leaderEpoch: 3,
      replicas: failedOver.replicas.map((r) => ({
        ...r,
        role: r.broker === 'broker-0' ? ('leader' as const) : ('follower' as const),
        online: true,
      })),
      truncations: [],
    };
    expect(draw(before).texts.filter((t) => t.startsWith('★'))).toEqual(['★ broker-0 leader · leader epoch 3 · out of ISR · LEO 5 · HW 4']);
    expect(draw().texts.filter((t) => t.startsWith('★'))[0]).toMatch(/^★ broker-1 leader · leader epoch 4/);
  });

  it('an offline partition says LEADER_NOT_AVAILABLE and marks no leader', () => {
    const { texts } = draw(offline);
    expect(texts[0]).toBe('OFFLINE: no leader (LEADER_NOT_AVAILABLE)');
    expect(texts.some((t) => t.startsWith('★'))).toBe(false);
    expect(draw(failedOver).texts).not.toContain('OFFLINE: no leader (LEADER_NOT_AVAILABLE)');
  });

  it('speaks Korean with Kafka terms in Latin script', () => {
    const { texts } = draw(failedOver, 'ko', 2000);
    expect(texts[1]).toBe('★ broker-1 리더 · leaderEpoch 4 · ISR 안 · LEO 7 · HW 6');
    expect(texts[0]).toContain('leaderEpoch 4에 맞춰 잘림(truncated)');
    expect(draw(offline, 'ko').texts[0]).toBe('오프라인: 리더 없음 (LEADER_NOT_AVAILABLE)');
  });

  it('a row text names the latest truncation of that replica only', () => {
    const w = replicaWords('en');
    const b2 = failedOver.replicas[2];
    if (!b2) throw new Error('fixture');
    expect(replicaRowText(b2, failedOver, w)).not.toContain('truncated');
  });
});

describe('replication in words (details and text alternative)', () => {
  it('details of a replica name its role, broker, ISR membership, LEO, HW and truncations', () => {
    const b0 = failedOver.replicas[0];
    if (!b0) throw new Error('fixture');
    const d = replicaDetails('orders-0', b0, failedOver);
    expect(d.title).toBe('orders-0 · replica on broker-0');
    expect(Object.fromEntries(d.lines)).toEqual({
      role: 'follower · out of ISR · broker down',
      broker: 'down (crashed; its log stays on disk)',
      ISR: 'not in the ISR (out of sync)',
      'log end offset (LEO)': '5',
      'high watermark (HW)': '4',
      'ISR of the partition': 'broker-1, broker-2',
      'min.insync.replicas (effective)': '2',
      'unclean.leader.election.enable': 'false',
      truncated:
        'offsets 5–6 by leader epoch 4 at 4200 ms (step 310): the new leader, elected from the ISR, never had them (they were above the high watermark)',
    });
    const b1 = failedOver.replicas[1];
    if (!b1) throw new Error('fixture');
    expect(replicaDetails('orders-0', b1, failedOver).sentence).toBe(
      'orders-0 replica on broker-1: leader · leader epoch 4 · in ISR, log end offset 7, high watermark 6',
    );
    expect(Object.fromEntries(replicaDetails('orders-0', b0, offline).lines).role).toBe(
      'no leader: the partition is offline (LEADER_NOT_AVAILABLE)',
    );
  });

  it('details of a truncated record say who cut it, at which step, under which leader epoch, why, and whether it was committed', () => {
    const t = failedOver.truncations[0];
    if (!t) throw new Error('fixture');
    const d = truncatedDetails('orders-0', record(5, 'lost-a'), t);
    expect(d.title).toBe('orders-0 @ 5 · truncated on broker-0');
    expect(d.lines[0]).toEqual([
      'truncated',
      'from broker-0 by leader epoch 4 at 4200 ms, step 310 (no longer in its log): the new leader, elected from the ISR, never had them (they were above the high watermark)',
    ]);
    expect(d.lines[1]).toEqual(['committed?', "not committed: at or above broker-0's high watermark 5"]);
    expect(Object.fromEntries(d.lines).value).toBe('lost-a');
    // an unclean election cut a record below the old high watermark: committed, and said so
    const unclean = { ...t, cause: 'unclean-election' as const, highWatermark: 7 };
    const u = truncatedDetails('orders-0', record(5, 'lost-a'), unclean);
    expect(u.lines[0]?.[1]).toContain('an unclean leader election made a replica from outside the ISR leader, and it never had them');
    expect(u.lines[1]).toEqual(['committed?', "committed: below broker-0's high watermark 7 before the cut"]);
    expect(truncatedDetails('orders-0', record(5, 'lost-a'), unclean, 'ko').lines[0]?.[1]).toContain(
      '언클린 리더 선출로 ISR 밖 복제본이 리더가 됐고',
    );
  });

  it('the lane summary adds leader, epoch, ISR, each replica and each truncation; one replica adds nothing', () => {
    const s = laneSummary(buildLane(partitionRow(failedOver)));
    expect(s).toContain('leader broker-1, leader epoch 4; ISR broker-1, broker-2 (min.insync.replicas 2)');
    expect(s).toContain('broker-0 follower · out of ISR · broker down, LEO 5, HW 4');
    expect(s).toContain('broker-0 truncated offsets 5–6 by leader epoch 4');
    expect(s).not.toContain('unclean');
    const unclean = { ...failedOver, truncations: failedOver.truncations.map((t) => ({ ...t, cause: 'unclean-election' as const })) };
    expect(laneSummary(buildLane(partitionRow(unclean)))).toContain(
      'broker-0 truncated offsets 5–6 by leader epoch 4 after an unclean leader election',
    );
    expect(laneSummary(buildLane(partitionRow(offline)))).toContain('offline: no leader (LEADER_NOT_AVAILABLE), leader epoch 5; ISR empty');
    expect(laneSummary(buildLane(partitionRow(null)))).not.toMatch(/leader|ISR/);
    expect(laneSummary(buildLane(partitionRow(failedOver)), 'ko')).toContain('리더 broker-1, leaderEpoch 4');
  });
});
