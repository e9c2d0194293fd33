/** A transactional record's outcome as the logs that held it settled it (see `LoggedRecord.resettled`). */
import type { LoggedRecord, Outcome } from './invariants';

/**
 * Whether some leader's log had settled `r` with `outcome` after `step` steps: its own marker, or a
 * later leader's after an unclean election (`resettled`). A reader read one replica's log, which the
 * fact does not name; either settlement may be the one it saw.
 */
export function settledAs(r: LoggedRecord, outcome: Outcome, step: number): boolean {
  if (!r.transactional || r.control) return false;
  if (r.settledAt !== null && r.settledAt <= step && r.outcome === outcome) return true;
  return r.resettled.some((x) => x.step <= step && x.outcome === outcome);
}
