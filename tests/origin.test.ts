/**
 * "Edited from <preset>": a scenario keeps its preset's id through every edit; it is edited when
 * what runs differs from the preset as shipped, and stops being edited when the change is undone.
 * Share links carry it (they carry the scenario), old ones included.
 */
import { describe, expect, it } from 'vitest';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../src/sim/run';
import {
  type EditOutcome,
  injectEnvelopeFault,
  injectProcessFault,
  removeFault,
  resendRecord,
  setConfigValues,
  startSecondInstance,
} from '../src/sim/scenario/edits';
import { decodeLink, encodeLink } from '../src/sim/scenario/link';
import { presetOrigin, runFingerprint } from '../src/sim/scenario/origin';
import type { Scenario } from '../src/sim/scenario/schema';
import { validateScenario } from '../src/sim/scenario/validate';
import { partitionRows } from '../src/sim/trace/logView';

const preset = (id: string): Scenario => {
  const p = findPreset(id);
  if (!p) throw new Error(`no preset ${id}`);
  return p.scenario;
};
const applied = (o: EditOutcome): Scenario => {
  if (!o.ok) throw new Error(o.reason);
  return o.scenario;
};
const edited = (s: Scenario) => presetOrigin(s)?.edited;
const VIEW = { step: 0, selection: null, language: 'en' } as const;

/** The first ProduceResponse and the step at which it is in flight. */
function firstAck(trace: Trace): { id: number; step: number } {
  const e = trace.envelopes.find((x) => x.rpc === 'ProduceResponse');
  if (!e) throw new Error('no ProduceResponse');
  return { id: e.id, step: e.sentStep + 1 };
}

describe('presetOrigin', () => {
  it('every preset as shipped, and as the validator returns it, is its own and not edited', () => {
    for (const p of PRESETS) {
      expect(presetOrigin(p.scenario)?.preset.id, p.id).toBe(p.id);
      expect(edited(p.scenario), p.id).toBe(false);
      const v = validateScenario(structuredClone(p.scenario));
      if (!v.ok) throw new Error(p.id);
      expect(edited(v.resolved.scenario), p.id).toBe(false);
    }
  });

  it('a scenario without a preset id has no origin', () => {
    const { id: _, ...anonymous } = preset('opening-story');
    expect(presetOrigin(anonymous as Scenario)).toBeNull();
    expect(presetOrigin({ ...preset('opening-story'), id: 'not-a-preset' })).toBeNull();
  });

  it('words do not make a run edited: title, question, expected outcome, notes', () => {
    const s = structuredClone(preset('zombie-fencing'));
    s.title = 'my title';
    s.expected = 'my words';
    if (s.faults?.[0]) s.faults[0].note = 'another note';
    expect(edited(s)).toBe(false);
  });

  it('a config edit, an injected fault, a second instance and a resend each make it edited', () => {
    const opening = preset('opening-story');
    const trace = runScenario(opening);
    // a config edit
    expect(edited(setConfigValues(opening, { scope: 'client', client: 'orders-service' }, { 'linger.ms': 50 }))).toBe(true);
    // an injected envelope fault and a crash
    const ack = firstAck(trace);
    expect(edited(applied(injectEnvelopeFault(opening, { trace, step: ack.step, envelopeId: ack.id, action: { type: 'drop' } })))).toBe(
      true,
    );
    expect(edited(applied(injectProcessFault(opening, { trace, step: 5, process: 'billing', action: { type: 'crash' } })))).toBe(true);
    // a resend of a record the application wrote
    const end = trace.steps.length;
    const row = partitionRows(stateAt(trace, end).actors).find((p) => p.topic === 'orders');
    const rec = row?.records.find((r) => r.control === null);
    if (!rec) throw new Error('no record');
    expect(edited(applied(resendRecord(opening, { trace, step: end, topic: 'orders', partition: 0, offset: rec.offset })))).toBe(true);
    // a second instance of a transactional application
    const zombie = preset('zombie-fencing');
    const zt = runScenario(zombie);
    expect(edited(applied(startSecondInstance(zombie, { trace: zt, step: 3, client: 'instance-b' })))).toBe(true);
  });

  it('undoing the change makes it the preset again: removing the injected fault, resetting a key to its default', () => {
    const opening = preset('opening-story');
    const trace = runScenario(opening);
    const crashed = applied(injectProcessFault(opening, { trace, step: 5, process: 'billing', action: { type: 'crash' } }));
    expect(edited(crashed)).toBe(true);
    const index = (crashed.faults ?? []).length - 1;
    expect(edited(applied(removeFault(crashed, index)))).toBe(false);
    const target = { scope: 'client', client: 'orders-service' } as const;
    const changed = setConfigValues(opening, target, { 'linger.ms': 50 });
    expect(edited(changed)).toBe(true);
    // the config object stays, empty or with the preset's keys: it runs as the preset does
    expect(edited(setConfigValues(changed, target, { 'linger.ms': undefined }))).toBe(false);
    expect(runFingerprint(setConfigValues(changed, target, { 'linger.ms': undefined }))).toBe(runFingerprint(opening));
  });

  it('a share link carries it: an edited run opens edited, the preset opens unedited', () => {
    const opening = preset('opening-story');
    const changed = setConfigValues(opening, { scope: 'client', client: 'orders-service' }, { 'linger.ms': 50 });
    const back = decodeLink(encodeLink(changed, VIEW));
    if (!back.ok) throw new Error(back.error.message);
    expect(presetOrigin(back.scenario)).toMatchObject({ preset: { id: 'opening-story' }, edited: true });
    const same = decodeLink(encodeLink(opening, VIEW));
    if (!same.ok) throw new Error(same.error.message);
    expect(edited(same.scenario)).toBe(false);
  });

  it('an old link (link format 1, made before this change) still opens, and says it is edited', () => {
    // zombie-fencing with a 1 s pause of committed-reader at 40 ms, encoded by the code before "edited
    // from" existed (git stash, then encodeLink): the link carries the scenario and nothing else
    const old = [
      '#s=1.tVjfa4JQFP5XztsKKtK2l_YwzNwmDA2rDQYjbCuSlUYWQdD_vu9cTa-lKWN7C--59_z-zvkqsekQrKberDlHDOP8xha-iwPwCXHQRXMF6',
      'AQAL4IdNtBCGcIUxTrjlBkLk0bzzWx2AJVZeV_y7nOfPEg9EpAe0t7bLlKoO9fQorcFmnghUAiQGJB2kyFgDXJ9AAG-ExDfJ6zMe_cbqnfrh2y',
      'Ue7jIdEwaS6HwFsIa3IUJnwHKxPPdbbCh6W61jjA4wkVWI_AL0nhJQJiMeTXdtvSx4xjWaDJyNGuo6SPTtoYENPaW4iFxnWFszQQPMcVHH5FAM',
      'YWxFrXeIjY0ImnkhSl6ciggDj_ZvwY8ZeIIq8R103rVXsz-ZODY_bFuOBNjYOvPwmrIIKFCXjZYXEvEHw1LN_pdPB-iecIWfhShMUoT_vtA3NT',
      'SVlKy6h2aKl3Tchg6alEGiZIWPWJfvcCOUxk13RLcyEGHCG5jKAx4DsOaqPuEgpLdptIgkMYAT37SruK6gq49PX-2jlXRpl5oQ1MwheRKiXq8W',
      'LfK3ifrjdIuMiRnpfvgw2w6pn-VjhOPUdptxrz_zU6vcnauRiFpFRBmfqz67My5Wbrxg4Zd2_jzx3CVDeDIHXc5_M7X9mwPMiVUVFSSRDs7Inf',
      'xipsAfzoc8N8CdSikmkvLAAD1pGMjg5K6SGeR2pxYsfJbqJKVc-Fwbn4xQH8A',
    ].join('');
    expect(old.startsWith('#s=1.')).toBe(true);
    const d = decodeLink(old);
    if (!d.ok) throw new Error(d.error.message);
    expect(presetOrigin(d.scenario)).toMatchObject({ preset: { id: 'zombie-fencing' }, edited: true });
  });
});
