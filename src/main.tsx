import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startHashSync } from './share/hashSync';
import { simStore } from './store/simStore';
import { App } from './ui/App';
import { browserLanguages, preferredLanguage } from './ui/preferredLanguage';
import './ui/styles.css';

declare global {
  interface Window {
    /** Test and debugging hook: browser tests drive the store directly (e2e/inject.test.ts). */
    __eosLab?: { store: typeof simStore };
  }
}

window.__eosLab = { store: simStore };
// a browser set to Korean opens in Korean; a share link's own language wins (hashSync opens it next)
simStore.getState().setLanguage(preferredLanguage(browserLanguages()));
// [share-embed] opens the URL's share link, #gallery or the default scenario, then keeps the URL in step
startHashSync(simStore);
const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
