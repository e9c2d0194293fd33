/**
 * The config editor in a drawer over the page (a bottom sheet on phones), opened from the header's
 * Configuration button or from an actor's "Configure" button on its section.
 */
import { useStrings } from '../i18n';
import { Sheet } from '../layout/Sheet';
import { panelStore, usePanels } from '../panels';
import { ConfigEditor } from './ConfigEditor';
import { useConfigStrings } from './strings';

export function ConfigSheet() {
  const section = usePanels((s) => s.config);
  const t = useConfigStrings();
  const page = useStrings();
  if (section === false) return null;
  return (
    <Sheet title={t.heading} closeLabel={page.close} onClose={() => panelStore.getState().closeConfig()} testId="config-sheet">
      <ConfigEditor sectionId={section} />
    </Sheet>
  );
}
