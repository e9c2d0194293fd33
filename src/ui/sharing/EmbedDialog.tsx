/** The Embed panel of the full app: options, then the custom-element and iframe snippets to paste. */
import { useId, useMemo, useState } from 'react';
import type { EmbedTheme } from '../../share/embedOptions';
import { elementSnippet, embedUrl, iframeSnippet, resizeListenerSnippet } from '../../share/embedSnippets';
import { linkOf } from '../../share/hashSync';
import { shareText } from '../../share/strings';
import { useSim } from '../../store/useSim';
import { Modal } from '../Modal';
import { useScenarioTexts } from '../usePresetTexts';

interface SnippetProps {
  readonly label: string;
  readonly code: string;
  readonly copyLabel: string;
  /** Said when the clipboard refused: the code is selected for the reader to copy. */
  readonly failedLabel: string;
  readonly testId: string;
}

function Snippet({ label, code, copyLabel, failedLabel, testId }: SnippetProps) {
  const id = useId();
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <div className="eos-field">
      <label htmlFor={id}>{label}</label>
      {/* code to paste, not words to translate */}
      <textarea
        id={id}
        readOnly
        value={code}
        rows={4}
        data-testid={testId}
        spellCheck={false}
        translate="no"
        lang="en"
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="eos-actions">
        <button
          type="button"
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(code);
              setStatus('copied');
            } catch {
              // focusing the field selects the code (its onFocus)
              document.getElementById(id)?.focus();
              setStatus('failed');
            }
          }}
        >
          {copyLabel}
        </button>
        <output>{status === 'copied' ? '✓' : status === 'failed' ? failedLabel : ''}</output>
      </div>
    </div>
  );
}

export function EmbedDialog({ onClose }: { onClose: () => void }) {
  const scenario = useSim((s) => s.scenario);
  const step = useSim((s) => s.step);
  const language = useSim((s) => s.language);
  const t = shareText(language);
  const texts = useScenarioTexts(scenario, language);
  const [startStep, setStartStep] = useState(step);
  const [autoplay, setAutoplay] = useState(false);
  const [theme, setTheme] = useState<EmbedTheme>('system');
  const [height, setHeight] = useState('');
  // the link carries step 0: the start step is the embed's own option, so it can be edited here
  const link = useMemo(() => linkOf({ scenario, step: 0, selection: null, language }), [scenario, language]);
  if (!link || !scenario) return null;
  const input = {
    pageHref: window.location.href,
    link,
    // the link opens in this language, so the frame's accessible title matches its heading
    title: texts?.title ?? scenario.id ?? 'scenario',
    step: startStep,
    autoplay,
    theme,
    height: /^\d+$/.test(height) ? Math.max(120, Number(height)) : null,
  };
  return (
    <Modal title={t.embedTitle} onClose={onClose} closeLabel={t.close} testId="embed-dialog" wide>
      <p className="eos-hint">{t.embedHint}</p>
      <div className="eos-options">
        <label>
          {t.startStep}{' '}
          <input type="number" min={0} value={startStep} onChange={(e) => setStartStep(Math.max(0, Number(e.currentTarget.value) || 0))} />
        </label>
        <label>
          <input type="checkbox" checked={autoplay} onChange={(e) => setAutoplay(e.currentTarget.checked)} /> {t.autoplay}
        </label>
        <label>
          {t.theme}{' '}
          <select value={theme} onChange={(e) => setTheme(e.currentTarget.value as EmbedTheme)}>
            <option value="system">{t.themeSystem}</option>
            <option value="light">{t.themeLight}</option>
            <option value="dark">{t.themeDark}</option>
          </select>
        </label>
        <label>
          {t.height}{' '}
          <input
            type="text"
            inputMode="numeric"
            size={6}
            value={height}
            onChange={(e) => setHeight(e.currentTarget.value.replace(/\D/g, ''))}
          />
        </label>
      </div>
      <Snippet
        label={t.embedElement}
        code={elementSnippet(input)}
        copyLabel={t.copySnippet}
        failedLabel={t.copySnippetFailed}
        testId="embed-element"
      />
      <Snippet
        label={t.embedIframe}
        code={iframeSnippet(input)}
        copyLabel={t.copySnippet}
        failedLabel={t.copySnippetFailed}
        testId="embed-iframe"
      />
      {input.height === null && (
        <Snippet
          label={t.embedResize}
          code={resizeListenerSnippet()}
          copyLabel={t.copySnippet}
          failedLabel={t.copySnippetFailed}
          testId="embed-iframe-resize"
        />
      )}
      <p>
        <a href={embedUrl(input)} target="_blank" rel="noopener noreferrer">
          {t.preview}
        </a>
      </p>
    </Modal>
  );
}
