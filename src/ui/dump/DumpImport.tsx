/** Paste or drop kafka-dump-log.sh output; errors name the file, the line and what was expected (rendered as text). */
import { useId, useState } from 'react';
import { describeIssue } from '../../sim';
import { useSim } from '../../store/useSim';
import { FilePicker } from '../FilePicker';
import { type DumpInput, fileInput } from './dumpInput';
import { dumpStore, useDump } from './dumpStore';
import { dumpStrings } from './dumpStrings';

/** The source name of the text pasted into the form (as the dump parser calls it). */
const PASTED = 'pasted';

function readFiles(list: FileList | null): Promise<DumpInput[]> {
  return Promise.all([...(list ?? [])].map(fileInput));
}

export function DumpImport() {
  const language = useSim((s) => s.language);
  const t = dumpStrings(language);
  const errors = useDump((s) => s.errors);
  const busy = useDump((s) => s.busy);
  const [text, setText] = useState('');
  const [over, setOver] = useState(false);
  const titleId = useId();
  const open = (sources: DumpInput[]) => {
    if (sources.length) void dumpStore.getState().open(sources);
  };
  return (
    <section
      className={over ? 'dump-import dump-drop-over' : 'dump-import'}
      aria-labelledby={titleId}
      data-testid="dump-import"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void readFiles(e.dataTransfer.files).then(open);
      }}
    >
      <h2 id={titleId}>{t.importTitle}</h2>
      <p>{t.importHelp}</p>
      <label className="dump-field">
        {t.pasteLabel}
        <textarea value={text} onChange={(e) => setText(e.target.value)} rows={10} spellCheck={false} data-testid="dump-text" />
      </label>
      <FilePicker
        className="dump-field"
        label={
          <>
            {t.filesLabel} <span className="muted">({t.dropHere})</span>
          </>
        }
        multiple
        accept=".txt,.log,.dump,text/plain"
        testId="dump-files"
        onFiles={(files) => void readFiles(files).then(open)}
      />
      <div className="dump-actions">
        <button type="button" disabled={busy || text.trim() === ''} onClick={() => open([{ name: PASTED, text }])} data-testid="dump-open">
          {busy ? t.reading : t.open}
        </button>
        <button type="button" onClick={() => dumpStore.getState().cancel()}>
          {t.cancel}
        </button>
      </div>
      {errors.length > 0 && (
        <div role="alert" className="dump-errors" data-testid="dump-errors">
          <h3>{t.cannotRead}</h3>
          <ul>
            {errors.map((e) => (
              <li key={`${e.source}:${e.line}:${e.code}`}>
                {/* the pasted text's source is named "pasted": said in the page's language ("붙여 넣은 텍스트 2번째 줄") */}
                {describeIssue(e.source === PASTED ? { ...e, source: t.pasted } : e, language)}
                {e.text && (
                  <>
                    <br />
                    <span className="muted">{t.foundLine}: </span>
                    <code>{e.text}</code>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
