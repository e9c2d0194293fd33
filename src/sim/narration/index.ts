export type { Language } from './language';
export { narrate, narrateStart } from './narrate';
