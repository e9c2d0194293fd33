/**
 * Export (timeline as SVG or PNG, scenario JSON, trace JSON) and import (a JSON file, or pasted JSON
 * or share link; a Break it search's link also opens the panel as it was). Imported text is
 * validated before anything runs; problems are listed with their JSON paths. Each export button says
 * in a status line what it downloaded (the file's name), or why the file could not be made.
 */
import { useMemo, useState } from 'react';
import { ErrorMessage } from '../../share/ErrorMessage';
import { pastedLink } from '../../share/pastedLink';
import { shareStore } from '../../share/shareState';
import { openScenario, resolveSource } from '../../share/source';
import { shareText } from '../../share/strings';
import { errorText, parseScenarioJson, type ScenarioError, stripByteOrderMark } from '../../sim';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { FilePicker } from '../FilePicker';
import { Modal } from '../Modal';
import { useFaultText } from '../useNarrator';
import { usePresetTextsKo } from '../usePresetTexts';
import { downloadBlob, fileStem } from './download';
import { scenarioFile, timelineFigure, traceFile } from './exportFiles';
import { DEFAULT_FIGURE_WIDTH, FIGURE_WIDTHS } from './figure/figure';
import type { FigureTheme } from './figure/figurePalette';
import { svgToPng } from './timelinePng';

function pageTheme(): FigureTheme {
  const forced = document.documentElement.dataset.theme;
  if (forced === 'light' || forced === 'dark') return forced;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * Imports text: a share link or preset id, else scenario JSON (anything that starts like JSON — an
 * object, an array, a byte order mark — is read as JSON, so its problem is said as a JSON problem).
 * Returns the problems, or null when it opened.
 */
export function importText(text: string): { message: string; ko?: string; errors: readonly ScenarioError[] } | null {
  const t = stripByteOrderMark(text).trim();
  // a link as a chat or mail client pastes it: wrapped onto lines, in <…> or a Markdown link, followed by a full stop
  const link = pastedLink(t);
  if (link !== t || (!t.startsWith('{') && !t.startsWith('['))) {
    const r = resolveSource(link);
    if (!r.ok)
      return r.error.ko === undefined
        ? { message: r.error.message, errors: r.error.details ?? [] }
        : { message: r.error.message, ko: r.error.ko, errors: r.error.details ?? [] };
    openScenario(simStore, r.scenario, r.view);
    shareStore.getState().setLinkedSearch(r.view.search ? { scenario: r.scenario, search: r.view.search } : null);
    return null;
  }
  const v = parseScenarioJson(t);
  if (!v.ok) return { message: '', errors: v.errors };
  openScenario(simStore, v.resolved.scenario, { step: 0 });
  return null;
}

export function ExportDialog({ onClose }: { onClose: () => void }) {
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const scenario = useSim((s) => s.scenario);
  const language = useSim((s) => s.language);
  const t = shareText(language);
  const [pasted, setPasted] = useState('');
  const [problem, setProblem] = useState<{ message: string; ko?: string; errors: readonly ScenarioError[] } | null>(null);
  // what the last export button made, or why it could not: the browser's own download notice is
  // outside the dialog (and some browsers show none). `times`: how many times in a row the same
  // button had the same result — the line then says "again (2 times in a row)", so it changes and a
  // screen reader reads it out again (an unchanged live region is not announced); a line in another
  // language is new words already
  const [exported, setExported] = useState<{ file: string; error?: string; times: number; language: string } | null>(null);
  const report = (file: string, error?: string) =>
    setExported((last) => {
      const same = last && last.file === file && last.error === error && last.language === language;
      const times = same ? last.times + 1 : 1;
      return error === undefined ? { file, times, language } : { file, error, times, language };
    });
  const save = async (file: string, make: () => Blob | Promise<Blob>) => {
    try {
      downloadBlob(await make(), file);
      report(file);
    } catch (e) {
      report(file, e instanceof Error ? e.message : String(e));
    }
  };
  const words = exported
    ? exported.error === undefined
      ? exported.times > 1
        ? t.exportedAgain(exported.times)
        : t.exported
      : exported.times > 1
        ? t.exportFailedAgain(exported.times)
        : t.exportFailed
    : null;
  const stem = fileStem(scenario?.id ?? scenario?.title, view?.step);

  // an import that opens closes the dialog: what was imported is on the page behind it
  const run = (text: string) => {
    const p = importText(text);
    setProblem(p);
    if (!p) onClose();
  };
  const korean = usePresetTextsKo(language);
  const [width, setWidth] = useState<number>(DEFAULT_FIGURE_WIDTH);
  const [theme, setTheme] = useState<FigureTheme>(pageTheme);
  // a fault's label in the figure as the page's message diagram writes it (loads the Korean words if
  // the page has not yet); the figure waits for them rather than quote the kernel's English
  const translateFault = useFaultText(trace, language, true);
  const figure = useMemo(
    () => (trace && view && translateFault ? timelineFigure(trace, view, { width, theme, language, korean, translateFault }) : null),
    [trace, view, width, theme, language, korean, translateFault],
  );
  const preview = useMemo(() => (figure ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(figure.svg)}` : ''), [figure]);

  return (
    <Modal title={t.exportTitle} onClose={onClose} closeLabel={t.close} testId="export-dialog" wide>
      <section>
        <h3>{t.exportSection}</h3>
        <p className="eos-hint">{t.figureHint}</p>
        <div className="eos-actions eos-figure-options">
          <label className="eos-inline">
            {t.figureWidth}{' '}
            <select value={width} onChange={(e) => setWidth(Number(e.currentTarget.value))} data-testid="figure-width">
              {FIGURE_WIDTHS.map((w) => (
                <option key={w} value={w}>
                  {w} px
                </option>
              ))}
            </select>
          </label>
          <label className="eos-inline">
            {t.figureTheme}{' '}
            <select value={theme} onChange={(e) => setTheme(e.currentTarget.value as FigureTheme)} data-testid="figure-theme">
              <option value="light">{t.themeLight}</option>
              <option value="dark">{t.themeDark}</option>
            </select>
          </label>
        </div>
        {figure && (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a tall figure scrolls in its box, which must be focusable to scroll by keyboard (axe: scrollable-region-focusable)
          <section className="eos-figure-preview" tabIndex={0} aria-label={t.figurePreview}>
            <img src={preview} alt={t.figurePreview} width={figure.width} height={figure.height} data-testid="figure-preview" />
          </section>
        )}
        <p className="eos-hint">{t.exportHint}</p>
        <div className="eos-actions">
          <button
            type="button"
            disabled={!figure}
            onClick={() => figure && save(`${stem}.svg`, () => new Blob([figure.svg], { type: 'image/svg+xml' }))}
          >
            {t.timelineSvg}
          </button>
          <button type="button" disabled={!figure} onClick={() => figure && save(`${stem}.png`, () => svgToPng(figure.svg, 2))}>
            {t.timelinePng}
          </button>
          <button
            type="button"
            disabled={!scenario}
            onClick={() =>
              scenario &&
              save(
                `${fileStem(scenario.id ?? scenario.title)}.json`,
                () => new Blob([scenarioFile(scenario)], { type: 'application/json' }),
              )
            }
          >
            {t.scenarioJson}
          </button>
          <button
            type="button"
            disabled={!trace}
            onClick={() =>
              trace &&
              save(
                `${fileStem(scenario?.id ?? scenario?.title)}-trace.json`,
                () => new Blob([traceFile(trace)], { type: 'application/json' }),
              )
            }
          >
            {t.traceJson}
          </button>
        </div>
        {/* <output>: role="status", read out when it changes */}
        <output className={exported?.error ? 'eos-export-status eos-export-failed' : 'eos-export-status'} data-testid="export-status">
          {exported && words && (
            <>
              {words[0]}
              <code translate="no">{exported.file}</code>
              {words[1]}
              {/* the browser's own words, in English */}
              {exported.error !== undefined && <span lang="en">{exported.error}</span>}
            </>
          )}
        </output>
      </section>
      <section>
        <h3>{t.importSection}</h3>
        <FilePicker
          label={t.importFile}
          accept="application/json,.json"
          testId="import-file"
          onFiles={async (files) => {
            const file = files[0];
            if (!file) return;
            if (file.size > 1_000_000) {
              setProblem({ message: `${file.name} is ${file.size} bytes; at most 1,000,000 are accepted.`, errors: [] });
              return;
            }
            run(await file.text());
          }}
        />
        <label className="eos-field">
          <span>{t.importPaste}</span>
          <textarea
            value={pasted}
            onChange={(e) => setPasted(e.currentTarget.value)}
            rows={6}
            data-testid="import-text"
            spellCheck={false}
          />
        </label>
        <div className="eos-actions">
          <button type="button" className="eos-primary" disabled={!pasted.trim()} onClick={() => run(pasted)}>
            {t.importRun}
          </button>
        </div>
        {problem && (
          <div role="alert" className="eos-link-error" data-testid="import-errors">
            {problem.errors.length > 0 && <p>{t.importErrors(problem.errors.length)}</p>}
            {problem.message && <p>{errorText(problem, language)}</p>}
            <ul className="eos-path-errors">
              {problem.errors.map((e) => (
                <li key={`${e.path}:${e.message}`}>
                  <code>{e.path}</code>: <ErrorMessage error={e} language={language} />
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>
    </Modal>
  );
}
