/**
 * EOS Lab's page: the header, then — once a scenario has run — playback, narration, the actors, the
 * timeline, the verdict, the details of the selection and the readiness checklist. A scenario that
 * fails validation shows its errors instead; a long run shows its progress (with Cancel); a run the
 * page refused or stopped at a budget says so (layout/BudgetNotice).
 */
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useShare } from '../share/shareState';
import { useSim } from '../store/useSim';
import { useCompare } from './compare/compareStore';
import { useDump } from './dump/dumpStore';
import { BudgetNotice } from './layout/BudgetNotice';
import { Header } from './layout/Header';
import { RunProgress } from './layout/RunProgress';
import { ScenarioErrors } from './layout/ScenarioErrors';
import { useDocumentSettings } from './layout/useDocumentSettings';
import { Workspace } from './layout/Workspace';
import { jumpTargetsOf } from './playback/jumps';
import { usePlayLoop } from './playback/usePlayLoop';
import { useShortcuts } from './playback/useShortcuts';

// [your-data] an imported kafka-dump-log.sh dump replaces the run while it is shown; loaded on demand
// [your-data] an A/B comparison replaces the run while it is shown; loaded on demand
const ComparePage = lazy(() => import('./compare/ComparePage').then((m) => ({ default: m.ComparePage })));
const DumpPage = lazy(() => import('./dump/DumpPage').then((m) => ({ default: m.DumpPage })));
// the keyboard shortcuts' dialog is a chunk of its own, fetched once the page is first idle after a
// run (or its message) is on screen, so the first "?" opens it at once. Not React.lazy: a Suspense
// boundary that showed its fallback reveals its content no sooner than ~300 ms later (React's
// throttle), so the dialog is rendered only once its module is here
type HelpModule = typeof import('./playback/HelpDialog');
// opening or closing the dialog changes App's state only: the header, the budget's message and the
// workspace (their props are stable) are not rendered again for it — a click on "?" rendered the
// whole page again, a long task on a large run
const StableHeader = memo(Header);
const StableBudgetNotice = memo(BudgetNotice);
const StableWorkspace = memo(Workspace);
let helpModule: HelpModule | null = null;
const loadHelp = () =>
  import('./playback/HelpDialog').then((m) => {
    helpModule = m;
    return m;
  });
let helpFetched = false;

export function App() {
  useDocumentSettings();
  usePlayLoop();
  const trace = useSim((s) => s.trace);
  const status = useSim((s) => s.status);
  const dumpShown = useDump((s) => s.importing || s.analysis !== null);
  const compareShown = useCompare((s) => s.open);
  // a link that could not be opened replaces the run on screen (LinkErrorPanel offers the way back)
  const linkError = useShare((s) => s.linkError !== null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [HelpDialog, setHelpDialog] = useState<HelpModule['HelpDialog'] | null>(null);
  const openHelp = useCallback(() => {
    const open = (m: HelpModule) => {
      setHelpDialog(() => m.HelpDialog);
      setHelpOpen(true);
    };
    // at once when fetched already (the usual case), else as soon as it is
    if (helpModule) open(helpModule);
    else void loadHelp().then(open);
  }, []);
  const targets = useMemo(() => (trace ? jumpTargetsOf(trace) : null), [trace]);
  useShortcuts(targets, openHelp, status === 'ready' && !helpOpen && !dumpShown && !compareShown && !linkError);
  useEffect(() => {
    if (helpFetched || status === 'idle' || status === 'running') return;
    helpFetched = true;
    if (window.requestIdleCallback) window.requestIdleCallback(() => void loadHelp(), { timeout: 1000 });
    else setTimeout(() => void loadHelp(), 200);
  }, [status]);
  return (
    <div className="app" data-status={status}>
      <StableHeader onHelp={openHelp} />
      <StableBudgetNotice />
      {compareShown ? (
        <Suspense fallback={<main className="app-main" />}>
          <ComparePage />
        </Suspense>
      ) : dumpShown ? (
        <Suspense fallback={<main className="app-main" />}>
          <DumpPage />
        </Suspense>
      ) : status === 'ready' && targets && !linkError ? (
        <StableWorkspace targets={targets} />
      ) : (
        // nothing to show yet (or the scenario cannot run): the page still has its main landmark
        <main className="app-main">
          {!linkError && <ScenarioErrors />}
          {!linkError && <RunProgress />}
        </main>
      )}
      {HelpDialog && <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />}
    </div>
  );
}
