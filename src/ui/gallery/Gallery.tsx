/**
 * The presets gallery: the seed's "problem → the defense that fits" table, each row opening the
 * scenarios that show it, each scenario with its title, the question it answers and its expected
 * verdict. Reads PRESETS at run time, so scenarios added later appear without touching this file.
 */
import { useMemo, useRef } from 'react';
import { presetFragmentOf } from '../../share/presetFragment';
import { shareStore } from '../../share/shareState';
import { openScenario } from '../../share/source';
import { shareText } from '../../share/strings';
import { PRESETS, type Preset } from '../../sim';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { compareStore } from '../compare/compareStore';
import { compareStrings } from '../compare/compareStrings';
import { Modal } from '../Modal';
import { BreakItButton } from '../search/BreakItButton';
import { closeViewsExcept } from '../urlViews';
import { useScenarioTexts } from '../usePresetTexts';
import { wrapAtUnderscores } from '../WrapAtUnderscores';
import { DEFENSE_ROWS, type DefenseScenario, GALLERY_TEXT, OTHER_PAIRS } from './defenses';

export interface GalleryRowView {
  readonly key: string;
  readonly problem: string;
  readonly defense: string;
  readonly boundary: string;
  readonly scenarios: readonly { readonly id: string; readonly role: DefenseScenario['role']; readonly preset: Preset | null }[];
  /** Pairs whose two presets both ship, opened as an A/B comparison. */
  readonly pairs: readonly (readonly [Preset, Preset])[];
}

const shippedPairs = (pairs: readonly (readonly [string, string])[], byId: ReadonlyMap<string, Preset>) =>
  pairs.flatMap(([a, b]) => {
    const x = byId.get(a);
    const y = byId.get(b);
    return x && y ? [[x, y] as const] : [];
  });

/** The table joined with what this build ships; presets no row names end up in `others`. */
export function galleryRows(presets: readonly Preset[], language: 'en' | 'ko'): { rows: GalleryRowView[]; others: Preset[] } {
  const byId = new Map(presets.map((p) => [p.id, p]));
  const named = new Set<string>();
  const rows = DEFENSE_ROWS.map((r) => ({
    key: r.key,
    problem: r.problem[language],
    defense: r.defense[language],
    boundary: r.boundary[language],
    scenarios: r.scenarios.map((s) => {
      named.add(s.id);
      return { id: s.id, role: s.role, preset: byId.get(s.id) ?? null };
    }),
    pairs: shippedPairs(r.pairs ?? [], byId),
  }));
  return { rows, others: presets.filter((p) => !named.has(p.id)) };
}

function PresetCard({
  preset,
  kind,
  current,
  onOpen,
}: {
  preset: Preset;
  kind: DefenseScenario['role'] | null;
  current: boolean;
  onOpen: (p: Preset) => void;
}) {
  const language = useSim((s) => s.language);
  const t = GALLERY_TEXT[language];
  const texts = useScenarioTexts(preset, language);
  return (
    <li className={`eos-card${current ? ' current' : ''}`} data-preset={preset.id}>
      <div className="eos-card-head">
        {kind && <span className={`eos-role ${kind}`}>{t.role[kind]}</span>}
        {current && <span className="eos-role current">{t.current}</span>}
      </div>
      <h4>
        <button type="button" className="eos-link-button" onClick={() => onOpen(preset)} data-testid={`open-${preset.id}`}>
          {/* a title naming an error code (OUT_OF_ORDER_SEQUENCE_NUMBER) breaks between its words */}
          {wrapAtUnderscores(texts.title || preset.id)}
        </button>
      </h4>
      {/* the preset's short address: a link a docs writer can copy (right click), opening it here */}
      <p className="eos-card-id">
        <a
          href={presetFragmentOf(preset.id)}
          title={t.shortLink(presetFragmentOf(preset.id))}
          data-testid={`preset-link-${preset.id}`}
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return; // a new tab opens it by its address
            e.preventDefault();
            onOpen(preset);
          }}
        >
          <code>{preset.id}</code>
        </a>
      </p>
      {texts.question && (
        <p>
          <span className="eos-label">{t.question}: </span>
          {texts.question}
        </p>
      )}
      {texts.expected && (
        <p>
          <span className="eos-label">{t.expected}: </span>
          {texts.expected}
        </p>
      )}
      <p>
        <BreakItButton preset={preset} onOpen={() => shareStore.getState().open(null)} />
      </p>
    </li>
  );
}

export function Gallery({ onClose }: { onClose: () => void }) {
  const language = useSim((s) => s.language);
  const currentId = useSim((s) => s.scenario?.id ?? null);
  const t = GALLERY_TEXT[language];
  const { rows, others } = useMemo(() => galleryRows(PRESETS, language), [language]);
  const open = (preset: Preset) => {
    // the scenario picked is what the page shows: a comparison or a dump open over the run closes
    closeViewsExcept(null);
    openScenario(simStore, preset.scenario, { language });
    onClose();
  };
  const otherPairs = useMemo(() => shippedPairs(OTHER_PAIRS, new Map(PRESETS.map((p) => [p.id, p]))), []);
  // [your-data] a problem/defense pair opens as an A/B comparison
  const ct = compareStrings(language);
  const comparePairs = (pairs: readonly (readonly [Preset, Preset])[]) =>
    pairs.length > 0 && (
      <p className="eos-pairs">
        {pairs.map(([a, b]) => (
          <button
            key={`${a.id}:${b.id}`}
            type="button"
            className="eos-link-button"
            data-testid={`compare-${a.id}-${b.id}`}
            onClick={() => {
              closeViewsExcept('compare');
              compareStore.getState().openPair(a.scenario, { scenario: b.scenario });
              onClose();
            }}
          >
            {ct.comparePair(a.id, b.id)}
          </button>
        ))}
      </p>
    );
  // the list of problems on the first screen: each brings its row into view and moves focus to its
  // heading, so Tab goes on to that row's scenarios (no #fragment: the page's address is the run's)
  const nav = useRef<HTMLElement>(null);
  const goTo = (key: string) => {
    const heading = nav.current?.parentElement?.querySelector<HTMLElement>(`[data-row="${key}"] h3`);
    if (!heading) return;
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  };
  const index = [
    ...rows.map((row) => ({ key: row.key, label: row.problem, count: row.scenarios.length })),
    ...(others.length > 0 ? [{ key: 'others', label: t.others, count: others.length }] : []),
  ];
  return (
    <Modal title={t.title} onClose={onClose} closeLabel={shareText(language).close} testId="gallery" wide>
      <p className="eos-hint">{t.intro}</p>
      <nav ref={nav} aria-label={t.index} className="eos-problem-index" data-testid="gallery-index">
        <ol>
          {index.map((entry) => (
            <li key={entry.key}>
              <button type="button" className="eos-link-button" onClick={() => goTo(entry.key)}>
                {entry.label}
              </button>{' '}
              <span className="eos-muted">({t.scenarioCount(entry.count)})</span>
            </li>
          ))}
        </ol>
      </nav>
      <ol className="eos-defenses">
        {rows.map((row) => (
          <li key={row.key} className="eos-defense" data-row={row.key}>
            <div className="eos-defense-head">
              <h3 tabIndex={-1}>
                <span className="eos-label">{t.problem}: </span>
                {row.problem}
              </h3>
              <p className="eos-defense-fit">
                <span aria-hidden="true">→ </span>
                <span className="eos-label">{t.defense}: </span>
                <strong>{row.defense}</strong>
              </p>
              <p className="eos-muted">
                {t.boundary}: {row.boundary}
              </p>
            </div>
            <ul className="eos-cards">
              {row.scenarios.map((s) =>
                s.preset ? (
                  <PresetCard key={s.id} preset={s.preset} kind={s.role} current={s.id === currentId} onOpen={open} />
                ) : (
                  <li key={s.id} className="eos-card coming" data-preset={s.id} data-coming="true">
                    <div className="eos-card-head">
                      <span className={`eos-role ${s.role}`}>{t.role[s.role]}</span>
                      <span className="eos-role coming">{t.coming}</span>
                    </div>
                    <h4>
                      <code>{s.id}</code>
                    </h4>
                    <p className="eos-muted">{t.comingHint}</p>
                  </li>
                ),
              )}
            </ul>
            {comparePairs(row.pairs)}
          </li>
        ))}
      </ol>
      {others.length > 0 && (
        <section className="eos-defense" data-row="others">
          <h3 tabIndex={-1}>{t.others}</h3>
          <ul className="eos-cards">
            {others.map((p) => (
              <PresetCard key={p.id} preset={p} kind={null} current={p.id === currentId} onOpen={open} />
            ))}
          </ul>
          {comparePairs(otherPairs)}
        </section>
      )}
    </Modal>
  );
}
