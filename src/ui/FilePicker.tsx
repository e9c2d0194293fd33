/**
 * A file field in the page's language. The browser's own file input says "Choose file" / "No file
 * chosen" in the browser's language whatever the page's, so it stays in the page visually hidden
 * (out of the tab order: the button stands for it) and a button of ours opens its picker, with a
 * line that names what was chosen. The button is a real <button>: Tab reaches it, Enter and Space
 * press it.
 */
import { type ReactNode, useId, useRef, useState } from 'react';
import type { Language } from '../store/simStore';
import { useSim } from '../store/useSim';

const WORDS = {
  en: {
    chooseFile: 'Choose a file…',
    chooseFiles: 'Choose files…',
    noFile: 'No file chosen',
    files: (n: number) => `${n} files`,
  },
  ko: {
    chooseFile: '파일 선택…',
    chooseFiles: '파일 선택…',
    noFile: '선택한 파일 없음',
    files: (n: number) => `파일 ${n}개`,
  },
} as const;

export function filePickerWords(language: Language) {
  return WORDS[language === 'ko' ? 'ko' : 'en'];
}

export interface FilePickerProps {
  /** The field's name, shown before the button (part of the button's accessible name). */
  readonly label: ReactNode;
  /** The button's words instead of "Choose a file…". */
  readonly button?: string;
  readonly accept?: string;
  readonly multiple?: boolean;
  readonly testId?: string;
  readonly className?: string;
  readonly onFiles: (files: FileList) => void;
}

export function FilePicker({ label, button, accept, multiple = false, testId, className, onFiles }: FilePickerProps) {
  const language = useSim((s) => s.language);
  const w = filePickerWords(language);
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const id = useId();
  const labelId = `${id}-label`;
  const buttonId = `${id}-button`;
  const statusId = `${id}-status`;
  const status = chosen.length === 0 ? w.noFile : chosen.length === 1 ? chosen[0] : w.files(chosen.length);
  return (
    <div className={className ?? 'eos-field'} data-testid={testId ? `${testId}-field` : undefined}>
      <span id={labelId}>{label}</span>
      <span className="file-picker">
        <button
          type="button"
          id={buttonId}
          aria-labelledby={`${labelId} ${buttonId}`}
          aria-describedby={statusId}
          onClick={() => input.current?.click()}
          data-testid={testId ? `${testId}-button` : undefined}
        >
          {button ?? (multiple ? w.chooseFiles : w.chooseFile)}
        </button>
        <span id={statusId} className="file-picker-status muted" translate={chosen.length > 0 ? 'no' : undefined}>
          {status}
        </span>
        <input
          ref={input}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          accept={accept}
          multiple={multiple}
          data-testid={testId}
          onChange={(e) => {
            const files = e.currentTarget.files;
            setChosen([...(files ?? [])].map((f) => f.name));
            if (files && files.length > 0) onFiles(files);
          }}
        />
      </span>
    </div>
  );
}
