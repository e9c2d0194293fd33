export { describeFaultKo, explainPause, explainPauseKo, faultSpecLabel, translateEditNote, translateFaultLabel } from './faultLabels';
export { envelopeFaultText, lostWhy, stepFaultText } from './faults';
export type { Language } from './language';
export { narrate, narrateEnd, narrateStart } from './narrate';
export { translateDuring, translateNote, translateRefusal } from './notes';
