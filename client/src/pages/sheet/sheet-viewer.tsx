import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { SheetDetail } from '@sitewalk/proto';
import { sheetGeometry } from './sheet-geometry';
import { createSheetMap, type Sheet } from './sheet-map';
import { drawSnagPins, type SnagPin } from '../../components/snags/sheet-snag-pins';

/**
 * The zoomable plan: Leaflet with CRS.Simple over the sheet's tile pyramid
 * (SPEC §1, sheets.ts). Loaded only on the sheet screen, so Leaflet stays out
 * of every other screen's JavaScript. Later features add rooms and snags as
 * layers on this map.
 */
export default function SheetViewer({ sheet, snagPins, onSnagSelect }: { sheet: SheetDetail; snagPins?: SnagPin[]; onSnagSelect?(id: number): void }) {
  const { t, i18n } = useTranslation();
  const el = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const boundsRef = useRef<L.LatLngBounds | null>(null);
  const sheetMap = useRef<Sheet | null>(null);
  const snagLayer = useRef<L.LayerGroup | null>(null);
  const onSnag = useRef(onSnagSelect);
  onSnag.current = onSnagSelect;
  const rtl = i18n.dir() === 'rtl';
  const [ready, setReady] = useState(0);

  useEffect(() => {
    const g = sheetGeometry(sheet);
    if (!el.current || !g) return;
    const sm = createSheetMap(el.current, g, { rtl, zoomInTitle: t('Zoom in'), zoomOutTitle: t('Zoom out') });
    const { map, bounds } = sm;
    mapRef.current = map;
    boundsRef.current = bounds;
    sheetMap.current = sm;
    snagLayer.current = L.layerGroup().addTo(map);
    setReady((n) => n + 1);
    return () => {
      map.remove();
      mapRef.current = null;
      sheetMap.current = null;
      snagLayer.current = null;
    };
  }, [sheet, rtl, t]);

  // The snags pinned on the sheet.
  useEffect(() => {
    if (!sheetMap.current || !snagLayer.current) return;
    drawSnagPins(snagLayer.current, snagPins ?? [], sheetMap.current.toLatLng, (id) => onSnag.current?.(id));
  }, [snagPins, ready]);

  return (
    <div>
      <div className="d-flex justify-content-end mb-2">
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => boundsRef.current && mapRef.current?.fitBounds(boundsRef.current)}>
          <i className="bi bi-arrows-fullscreen me-1" aria-hidden="true" />
          {t('Fit to screen')}
        </button>
      </div>
      {/* Leaflet lays out its panes left to right whatever the page direction. */}
      <div className="sw-sheet-viewer shadow-sm" dir="ltr">
        <div
          ref={el}
          className="h-100"
          role="application"
          aria-roledescription={t('zoomable plan')}
          aria-label={t('Plan of {name}. Use the arrow keys to move and the plus and minus keys to zoom.', { name: sheet.name })}
          data-testid="sheet-map"
        />
      </div>
    </div>
  );
}
