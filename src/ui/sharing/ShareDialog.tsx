/** The Share panel: the link to this run, copied to the clipboard when allowed, always shown as text. */
import { useEffect, useMemo, useRef, useState } from 'react';
import { linkOf, urlOf } from '../../share/hashSync';
import { presetFragmentOf, presetIdOf } from '../../share/presetFragment';
import { shareText } from '../../share/strings';
import { LINK_LIMITS } from '../../sim';
import { useSim } from '../../store/useSim';
import { Modal } from '../Modal';

export function ShareDialog({ onClose }: { onClose: () => void }) {
  const scenario = useSim((s) => s.scenario);
  const step = useSim((s) => s.step);
  const selection = useSim((s) => s.selection);
  const language = useSim((s) => s.language);
  const skipIdle = useSim((s) => s.skipIdle);
  const t = shareText(language);
  const link = useMemo(() => linkOf({ scenario, step, selection, language, skipIdle }), [scenario, step, selection, language, skipIdle]);
  const url = link ? urlOf(link, window.location.href) : '';
  // an unchanged shipped scenario also has a short, readable address (presetFragment.ts)
  const presetId = useMemo(() => presetIdOf(scenario), [scenario]);
  // in the page's language, as the full link is (a reader who follows it reads what the writer read)
  const presetUrl = presetId ? urlOf(presetFragmentOf(presetId, step, language), window.location.href) : '';
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  const field = useRef<HTMLTextAreaElement>(null);

  const copy = async () => {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(url);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
  };
  // try once on open: the click that opened the panel is the user gesture the clipboard asks for
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on open
  useEffect(() => {
    if (url) void copy();
  }, []);

  return (
    <Modal title={t.shareTitle} onClose={onClose} closeLabel={t.close} testId="share-dialog">
      <p className="eos-hint">{t.shareHint}</p>
      {link ? (
        <>
          <label className="eos-field">
            <span>{t.linkLabel}</span>
            <textarea ref={field} readOnly value={url} rows={4} data-testid="share-link" onFocus={(e) => e.currentTarget.select()} />
          </label>
          {/* the whole link the person copies (address, path and fragment), not the fragment alone */}
          <p className="eos-muted" data-testid="share-link-length">
            {t.chars(url.length)}
            {url.length > LINK_LIMITS.targetChars ? ` ${t.tooLong}` : ''}
          </p>
          <div className="eos-actions">
            <button type="button" className="eos-primary" onClick={() => void copy()}>
              {t.copy}
            </button>
            <output data-testid="share-status">{status === 'copied' ? t.copied : status === 'failed' ? t.copyFailed : ''}</output>
          </div>
          {presetUrl && (
            <label className="eos-field">
              <span>{t.presetLinkLabel}</span>
              <input readOnly value={presetUrl} data-testid="share-preset-link" onFocus={(e) => e.currentTarget.select()} />
              <span className="eos-muted">{t.presetLinkHint}</span>
            </label>
          )}
        </>
      ) : (
        <p>{t.noRun}</p>
      )}
    </Modal>
  );
}
