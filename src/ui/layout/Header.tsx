/**
 * The page header: EOS Lab, the scenario's title and question, what to expect, and the settings. A run
 * edited from a preset says so — an "edited" badge after its title, which is the preset's, or "edited
 * from <preset>" when the run is titled otherwise — with a way back to the preset as shipped, and the
 * preset's expected outcome is marked as not describing it (origin.ts decides what is edited). A
 * counterexample Break it found for the preset says that instead of "edited": "counterexample found
 * by Break it" after the preset's title (or "… for <preset>").
 */
import { useMemo } from 'react';
import { LinkErrorPanel } from '../../share/LinkErrorPanel';
import { useShare } from '../../share/shareState';
import { presetOrigin } from '../../sim';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';
import { CompareButton } from '../compare/CompareButton';
import { dumpHeading } from '../dump/dumpHeading';
import { useDump } from '../dump/dumpStore';
import { ImportDumpButton } from '../dump/ImportDumpButton';
import { useStrings } from '../i18n';
import { panelStore } from '../panels';
import { ShareBar } from '../sharing/ShareBar';
import { useScenarioTexts } from '../usePresetTexts';
import { LanguageToggle, ThemeSelect } from './SettingsControls';

export function Header({ onHelp }: { readonly onHelp: () => void }) {
  const t = useStrings();
  const scenario = useSim((s) => s.scenario);
  const language = useSim((s) => s.language);
  const texts = useScenarioTexts(scenario, language);
  const origin = useMemo(() => (scenario ? presetOrigin(scenario) : null), [scenario]);
  const edited = origin?.edited ? origin.preset : null;
  // a counterexample Break it found for the preset is said to be one, not "edited" (origin.ts)
  const counterexample = origin?.counterexample === true;
  const presetTexts = useScenarioTexts(edited, language);
  const title = scenario ? (texts?.title ?? scenario.id ?? '') : '';
  const presetTitle = edited ? presetTexts?.title || edited.title : '';
  // the title is the preset's (as after any edit on the page): said once, with a badge after it, rather
  // than again in "edited from <the same title>" — two lines more on a phone
  const titleIsPresets = edited !== null && presetTitle === title;
  // the expected outcome shown is the preset's own words (a file's own words are its own business)
  const expectedIsPresets = edited !== null && texts?.language !== null;
  // a dump shown instead of the run is what the header names, not the scenario behind it
  const dumpImporting = useDump((s) => s.importing);
  const dumpOpen = useDump((s) => s.analysis !== null);
  const dumpSources = useDump((s) => s.sources);
  const dumpShown = useDump((s) => s.importing || s.busy || s.analysis !== null);
  const dumpTitle = dumpImporting || dumpOpen ? dumpHeading(language, dumpImporting, dumpSources) : null;
  // a link that could not be opened hides the run behind it: its title would pass for the link's
  const linkError = useShare((s) => s.linkError !== null);
  const runShown = dumpTitle === null && !linkError;
  return (
    <header className="app-header">
      <div className="brand">
        <h1>EOS Lab</h1>
        <p className="tagline">{t.tagline}</p>
      </div>
      {dumpTitle !== null && (
        <div className="scenario-title" data-testid="dump-heading">
          <h2 title={dumpTitle}>{dumpTitle}</h2>
        </div>
      )}
      {runShown && scenario && texts && (
        // a preset's words carry their language; a scenario's own words inherit the page's
        <div className={edited ? 'scenario-title edited' : 'scenario-title'} lang={texts.language ?? undefined}>
          <h2 title={title}>{title}</h2>
          {edited && (
            <p
              className="edited-from"
              data-testid="edited-from"
              data-origin={counterexample ? 'counterexample' : 'edited'}
              title={counterexample ? t.counterexampleHint : t.editedHint}
            >
              {titleIsPresets ? (
                <span className="edited-badge">{counterexample ? t.counterexample : t.edited}</span>
              ) : (
                <>
                  <span className="edited-badge">{counterexample ? t.counterexampleFor : t.editedFrom}</span>{' '}
                  <span lang={presetTexts?.language ?? undefined}>{presetTitle}</span>
                </>
              )}{' '}
              <button
                type="button"
                className="eos-link-button"
                data-testid="reset-to-preset"
                onClick={() => simStore.getState().fork(() => edited.scenario)}
              >
                {t.resetToPreset}
              </button>
            </p>
          )}
        </div>
      )}
      {runShown && scenario && texts && (texts.question || texts.expected) && (
        <div className="scenario-more" lang={texts.language ?? undefined}>
          {texts.question && <p className="question">{texts.question}</p>}
          {texts.expected && (
            <details
              // struck out for an edited run; a counterexample's only noted (it may be the preset's story, as found)
              className={expectedIsPresets && !counterexample ? 'expected not-applicable' : 'expected'}
              data-testid="expected"
              data-applies={expectedIsPresets ? 'false' : 'true'}
            >
              <summary>
                {t.expected}
                {expectedIsPresets && (
                  <span className="expected-note"> — {counterexample ? t.expectedNotCounterexample : t.expectedNotApplicable}</span>
                )}
              </summary>
              <p>{texts.expected}</p>
            </details>
          )}
        </div>
      )}
      {/* the header's controls: the run's actions, then the page's own preferences (language, theme,
          help). A wide screen lays them out as one row that wraps; a phone wraps the actions under the
          title, every one on the screen, and puts the preferences beside "EOS Lab" (styles.css) */}
      <div className="settings">
        <div className="settings-actions">
          {/* [share-embed] Scenarios (the gallery), Share, Embed, Export/Import, Break it */}
          <ShareBar />
          {/* [your-data] open a kafka-dump-log.sh dump */}
          <ImportDumpButton />
          {/* [your-data] A/B: the scenario on screen against a copy with settings changed */}
          <CompareButton />
          <button
            type="button"
            className="config-button"
            data-testid="open-config"
            // the configuration is the run's, and the dump view hides the run: it would open unseen
            // behind the dump, and pop up unasked once the dump closed
            disabled={!scenario || dumpShown || linkError}
            title={dumpShown ? t.configurationOverDump : linkError ? t.configurationOverLinkError : undefined}
            onClick={() => panelStore.getState().openConfig()}
            aria-haspopup="dialog"
          >
            {t.configuration}
          </button>
        </div>
        <div className="settings-page">
          <LanguageToggle />
          <ThemeSelect />
          <button type="button" className="help-button" onClick={onHelp} aria-label={t.help} aria-keyshortcuts="?">
            ?
          </button>
        </div>
      </div>
      {/* a link that could not be opened: a row of its own under the header, never squeezed among the buttons */}
      <div className="header-alert">
        {/* the run it hides, by its title (none when the page opened on the bad link) */}
        <LinkErrorPanel previous={scenario && texts ? { title: texts.title ?? scenario.id ?? '', language: texts.language } : null} />
      </div>
    </header>
  );
}
