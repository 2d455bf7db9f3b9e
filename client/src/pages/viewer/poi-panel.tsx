import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Poi } from '@sitewalk/proto';

/** The content of a point of interest: title, text, link and its image or document. */
export function PoiPanel({ poi, onClose }: { poi: Poi | null; onClose(): void }) {
  const { t } = useTranslation();
  const panel = useRef<HTMLElement>(null);
  // Where the focus was (a marker in the 360 view, a button of the list): it goes back there when the panel closes.
  const cameFrom = useRef<HTMLElement | null>(null);
  const open = poi !== null;
  useEffect(() => {
    if (!open) return;
    const before = document.activeElement;
    if (before instanceof HTMLElement && before !== document.body && !panel.current?.contains(before)) cameFrom.current = before;
    return () => {
      const back = cameFrom.current;
      cameFrom.current = null;
      if (back?.isConnected) back.focus();
    };
  }, [open]);
  useEffect(() => {
    if (poi) panel.current?.focus();
  }, [poi]);
  if (!poi) return null;
  return (
    <aside
      ref={panel}
      className="sw-poi-panel card shadow"
      tabIndex={-1}
      aria-labelledby="sw-poi-title"
      data-testid="poi-panel"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <div className="card-header d-flex align-items-start gap-2">
        <h2 id="sw-poi-title" className="h6 mb-0 me-auto text-break">
          <i className="bi bi-info-circle-fill me-1 text-danger" aria-hidden="true" />
          {poi.title}
        </h2>
        <button type="button" className="btn-close" aria-label={t('Close')} onClick={onClose} />
      </div>
      <div className="card-body overflow-auto">
        {poi.text && (
          <p className="mb-2 text-break" style={{ whiteSpace: 'pre-wrap' }} data-testid="poi-text">
            {poi.text}
          </p>
        )}
        {poi.file?.kind === 'image' && <img src={poi.file.url} alt={poi.file.name} className="img-fluid rounded mb-2" data-testid="poi-image" />}
        {poi.file?.kind === 'document' && (
          <p className="mb-2">
            <a href={poi.file.url} target="_blank" rel="noopener noreferrer" data-testid="poi-file">
              <i className="bi bi-file-earmark-pdf me-1" aria-hidden="true" />
              {poi.file.name}
            </a>
          </p>
        )}
        {poi.link && (
          <p className="mb-0">
            <a href={poi.link} target="_blank" rel="noopener noreferrer" className="text-break" data-testid="poi-link">
              <i className="bi bi-box-arrow-up-right me-1" aria-hidden="true" />
              {t('Open the link')}
            </a>
          </p>
        )}
      </div>
    </aside>
  );
}
