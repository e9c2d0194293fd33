export type { Language } from './language';
export { narrate, narrateEnd, narrateStart } from './narrate';
