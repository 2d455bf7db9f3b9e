// The script index.html runs first (see viewer-preload.ts); it does nothing outside /viewer/….
// In the dev server the early viewer comes through Vite's own import.
import { startViewerPreload } from './viewer-preload';

startViewerPreload(window, () => import('../../components/panorama/panorama-boot'));
