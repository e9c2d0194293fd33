/**
 * Golden files, one per shipped preset: what `npm run sim -- <preset>` prints — the traceHash, the
 * partition logs as kafka-dump-log.sh prints them, the groups, what each consumer received, the
 * error codes each client saw, and the verdict. A change to the engine that moves any of it shows
 * up here as a readable diff. When the change is intended, review the diff and refresh the files:
 *
 *   npx vitest run --project unit tests/golden -u
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { renderText } from '../../src/sim/trace/dumpLog';
import { summarize } from '../../src/sim/trace/summary';

describe('preset golden files', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))('%s prints what its golden file holds', async (id, preset) => {
    const trace = runScenario(preset.scenario);
    const text = `${renderText(summarize(trace), { internal: true })}\n`;
    await expect(text).toMatchFileSnapshot(`./presets/${id}.txt`);
  });
});
