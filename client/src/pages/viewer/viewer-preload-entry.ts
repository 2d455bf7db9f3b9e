// The script index.html runs first (see viewer-preload.ts); it does nothing outside /viewer/….
import { startViewerPreload } from './viewer-preload';

startViewerPreload();
