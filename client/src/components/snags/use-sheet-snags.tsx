import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { Annotation, AnnotationList } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import type { SnagPin } from './sheet-snag-pins';
import { SnagPanel } from './snag-panel';
import { applySnagEvent } from './snag-logic';
import { useSnagEvents } from './use-snag-events';
import './snags.css';

const LOAD_FAILED = tk('The snags could not be loaded.');

/**
 * The snags pinned on one sheet (the sheet screen): their pins in status
 * colours, the snag panel of the one chosen, and live changes from the
 * project's room.
 */
export function useSheetSnags(sheet: { id: number; id_project: number } | null) {
  const [snags, setSnags] = useState<Annotation[]>([]);
  const [openId, setOpenId] = useState<number | null>(null);
  const [version, setVersion] = useState(0);
  const sheetId = sheet?.id ?? null;

  const reload = useCallback(() => {
    if (sheetId === null) return;
    api.get<AnnotationList>('/annotations', LOAD_FAILED, { params: { id_map: sheetId, per_page: 100, sort: 'priority' } }).then(
      (list) => setSnags(list.items),
      (err: unknown) => console.warn(err),
    );
  }, [sheetId]);
  useEffect(() => reload(), [reload]);

  useSnagEvents(
    sheet ? [sheet.id_project] : [],
    (e) => {
      setSnags((list) => applySnagEvent(list, e, (a) => a.id_map === sheetId));
      if (e.annotation.id === openId) setVersion((n) => n + 1);
    },
    reload,
  );

  const pins = useMemo<SnagPin[]>(
    () => snags.filter((s) => s.x !== null && s.y !== null).map((s) => ({ id: s.id, x: s.x!, y: s.y!, status: s.status, title: s.title, open: s.id === openId })),
    [snags, openId],
  );

  const panel: ReactNode =
    openId !== null ? (
      <SnagPanel
        snagId={openId}
        version={version}
        onClose={() => setOpenId(null)}
        onSaved={reload}
        onDeleted={(id) => setSnags((list) => list.filter((a) => a.id !== id))}
      />
    ) : null;

  return { pins, open: setOpenId, panel, count: snags.length };
}
