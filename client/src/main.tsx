import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'bootstrap-icons/font/bootstrap-icons.min.css';
import './styles/app.css';
import './i18n/i18n';
import { applyStoredDarkMode } from './stores/ui.store';
import { App } from './app';

// Read by the viewer benchmark (bench/viewer-perf.ts): when the app's JavaScript began to run.
performance.mark('sw-app-start');
applyStoredDarkMode();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
