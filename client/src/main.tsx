import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'bootstrap-icons/font/bootstrap-icons.min.css';
import './styles/app.css';
import './i18n/i18n';
import { applyStoredDarkMode } from './stores/ui.store';
import { App } from './app';
import { afterEarlySphere } from './pages/viewer/viewer-preload';

// Read by the viewer benchmark (bench/viewer-perf.ts): when the app's JavaScript began to run.
performance.mark('sw-app-start');
applyStoredDarkMode();

// On /viewer/… the 360 view's first sphere goes first (see pages/viewer/viewer-preload.ts); elsewhere this is at once.
void afterEarlySphere().then(() =>
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
