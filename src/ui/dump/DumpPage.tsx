/** What the page shows while a dump is being imported or is open (loaded on demand). */
import { useEffect } from 'react';
import { shareStore } from '../../share/shareState';
import { DumpImport } from './DumpImport';
import { DumpView } from './DumpView';
import { useDump } from './dumpStore';

export function DumpPage() {
  const importing = useDump((s) => s.importing);
  // while a dump is shown the address bar is not rewritten with the run's link
  useEffect(() => {
    shareStore.getState().setHoldHash(true);
    return () => shareStore.getState().setHoldHash(false);
  }, []);
  return importing ? (
    <main className="app-main">
      <DumpImport />
    </main>
  ) : (
    <DumpView />
  );
}
