/**
 * Which shipped preset a scenario comes from, and whether it was changed. A scenario keeps its
 * preset's `id` through every edit (a config change, an injected fault, a second instance, a resend),
 * so the id says where it came from; whether it was edited is read from what defines the run — seed,
 * cluster, network, topics, clients, sinks, faults, run limits — compared with the preset's. Titles,
 * questions, expected outcomes and notes describe a run without changing it, so they are left out.
 *
 * Derived, never stored: a share link carries the scenario, so an edited run opens as edited (and old
 * links, which carry no extra field, keep working); undoing every change — removing the injected
 * fault, resetting a key to its default — makes the scenario the preset's again, and it stops being
 * edited. A preset changed by a later version of EOS Lab makes an old link of it "edited from" the new
 * preset, which is true: the preset's expected outcome describes the new run, not the old one.
 * A counterexample Break it opens (`foundBy: "break-it"`) is told apart: it is the search's run of
 * the preset, not the person's edit of it.
 */
import { findPreset, type Preset } from '../presets';
import type { Scenario } from './schema';

/** The fields of a scenario that change what runs. */
export const RUN_FIELDS = ['seed', 'cluster', 'network', 'topics', 'clients', 'sinks', 'faults', 'run'] as const;

/**
 * A value with object keys sorted, notes dropped, and empty objects and lists under a key dropped
 * (an optional `faults: []` or `config: {}` runs as its absence does).
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (key === 'note') continue;
    const v = canonical((value as Record<string, unknown>)[key]);
    if (v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[key] = v;
  }
  return out;
}

/** The part of a scenario that decides its run, as comparable text. */
export function runFingerprint(s: Pick<Scenario, (typeof RUN_FIELDS)[number]>): string {
  const picked: Record<string, unknown> = {};
  for (const f of RUN_FIELDS) picked[f] = s[f];
  return JSON.stringify(canonical(picked));
}

export interface PresetOrigin {
  readonly preset: Preset;
  /** True when what runs differs from the preset as shipped. */
  readonly edited: boolean;
  /**
   * True when it differs as a counterexample Break it found for the preset (`foundBy: "break-it"`):
   * the preset's configuration with the faults the search chose, not a change the person made. A
   * counterexample whose run is the preset's own (the configuration alone breaks, its scripted faults
   * kept) is not edited at all; an edit made to a counterexample drops `foundBy` (simStore.fork).
   */
  readonly counterexample: boolean;
}

const shipped = new Map<string, string>();

/** The preset a scenario comes from (by its id) and whether it was edited; null for any other scenario. */
export function presetOrigin(s: Scenario): PresetOrigin | null {
  if (s.id === undefined) return null;
  const preset = findPreset(s.id);
  if (!preset) return null;
  let fingerprint = shipped.get(preset.id);
  if (fingerprint === undefined) {
    fingerprint = runFingerprint(preset.scenario);
    shipped.set(preset.id, fingerprint);
  }
  const edited = runFingerprint(s) !== fingerprint;
  return { preset, edited, counterexample: edited && s.foundBy === 'break-it' };
}
