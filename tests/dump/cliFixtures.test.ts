/**
 * Dumps written by EOS Lab's own CLI, one per shipped preset (`npm run sim -- <preset>`, kept under
 * tests/fixtures/dumps/cli/ and refreshed with `-u` like the golden files), read back by the dump
 * parser: what the analysis concludes from the text alone — each record's transaction outcome, the
 * high watermark and the LSO — must be what the simulated broker's log held.
 */
import { describe, expect, it } from 'vitest';
import { analyzeDump } from '../../src/sim/dump/analyze';
import { parseDump } from '../../src/sim/dump/parse';
import { PRESETS } from '../../src/sim/presets';
import { keyOf } from '../../src/sim/protocol/topicPartition';
import { runScenario } from '../../src/sim/run';
import { renderText } from '../../src/sim/trace/dumpLog';
import { summarize } from '../../src/sim/trace/summary';

describe('CLI-written dumps of every preset', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))('%s: the dump reads back as the broker held it', async (id, preset) => {
    const summary = summarize(runScenario(preset.scenario));
    const text = `${renderText(summary)}\n`;
    const file = `../fixtures/dumps/cli/${id}.txt`;
    await expect(text).toMatchFileSnapshot(file);
    // the file holds exactly this text (the snapshot above), so the parser reads the fixture
    const parsed = parseDump(text, `${id}.txt`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const a = analyzeDump(parsed.dump);
    const expected = summary.partitions.filter((p) => !p.internal);
    expect(a.lanes.map((l) => l.key)).toEqual(expected.map((p) => keyOf(p)));
    for (const [i, lane] of a.lanes.entries()) {
      const p = expected[i]!;
      expect(lane.row.highWatermark).toBe(p.highWatermark);
      expect(lane.row.lastStableOffset).toBe(p.lastStableOffset);
      expect(
        lane.row.records.map((r) => [r.offset, r.control, r.txnOutcome, r.producerId, r.producerEpoch, r.key, r.value, r.headers]),
      ).toEqual(p.records.map((r) => [r.offset, r.control, r.txnOutcome, r.producerId, r.producerEpoch, r.key, r.value, r.headers]));
      // the LSO is pinned exactly when the broker's LSO is below its high watermark
      expect(lane.lsoPin !== null).toBe(p.lastStableOffset < p.highWatermark);
    }
  });
});
