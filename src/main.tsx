import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadDefault } from './store/simStore';
import { App } from './ui/App';
import './ui/styles.css';

loadDefault();
const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
