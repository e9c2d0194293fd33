/** The header's "Import dump" button (its words here, so the dump view's code loads only when used). */
import { useSim } from '../../store/useSim';
import { closeViewsExcept } from '../urlViews';
import { dumpStore } from './dumpStore';

export function ImportDumpButton() {
  const language = useSim((s) => s.language);
  return (
    <button
      type="button"
      className="eos-button"
      data-testid="import-dump"
      onClick={() => {
        // the dump's form is the view on screen: a comparison open over the run closes
        closeViewsExcept('dump');
        dumpStore.getState().startImport();
      }}
    >
      {language === 'ko' ? '덤프 가져오기' : 'Import dump'}
    </button>
  );
}
