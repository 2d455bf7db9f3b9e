import L from 'leaflet';
import type { AnnotationStatus } from '@sitewalk/proto';
import './snags.css';

/** A snag as a pin on a sheet (sheet pixels, origin top-left). */
export interface SnagPin {
  id: number;
  x: number;
  y: number;
  status: AnnotationStatus;
  title: string;
  /** The snag whose panel is open. */
  open?: boolean;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Draws the snags on a Leaflet sheet map into `group` (cleared first), each a
 * drop in its status colour that is a keyboard-reachable button. `toLatLng`
 * turns sheet pixels into the map's coordinates (Sheet.toLatLng).
 */
export function drawSnagPins(group: L.LayerGroup, pins: SnagPin[], toLatLng: (x: number, y: number) => L.LatLng, onSelect: (id: number) => void): void {
  group.clearLayers();
  for (const p of pins) {
    const icon = L.divIcon({
      className: `sw-snag-pin sw-snag-${p.status}${p.open ? ' is-open' : ''}`,
      html: `<span data-testid="sheet-snag" data-snag="${p.id}" data-status="${p.status}"><i class="bi bi-exclamation-lg" aria-hidden="true"></i></span>`,
      iconSize: [22, 22],
      // The drop's tip is its bottom-left corner (rotated): it stands on the spot.
      iconAnchor: [11, 26],
    });
    const marker = L.marker(toLatLng(p.x, p.y), { icon, title: p.title, alt: p.title, keyboard: true, zIndexOffset: p.open ? 2000 : 500 });
    marker.on('click', () => onSelect(p.id));
    marker.on('add', () => {
      const dom = marker.getElement();
      if (!dom) return;
      dom.setAttribute('role', 'button');
      dom.setAttribute('aria-label', escapeHtml(p.title));
    });
    marker.addTo(group);
  }
}
