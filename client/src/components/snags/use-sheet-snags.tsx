import { useMemo, useState, type ReactNode } from 'react';
import type { SnagPin } from './sheet-snag-pins';
import { SnagPanel } from './snag-panel';
import { applySnagEvent } from './snag-logic';
import { useSnagEvents } from './use-snag-events';
import { useSheetSnagsQuery } from './use-pinned-snags-query';
import './snags.css';

/**
 * The snags pinned on one sheet (the sheet screen): their pins in status
 * colours, the snag panel of the one chosen, and live changes from the
 * project's room.
 */
export function useSheetSnags(sheet: { id: number; id_project: number } | null) {
  const sheetId = sheet?.id ?? null;
  const { snags, setSnags, reload } = useSheetSnagsQuery(sheetId);
  const [openId, setOpenId] = useState<number | null>(null);

  useSnagEvents(
    sheet ? [sheet.id_project] : [],
    (e) => setSnags((list) => applySnagEvent(list, e, (a) => a.id_map === sheetId)),
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
        onClose={() => setOpenId(null)}
        onSaved={reload}
        onDeleted={(id) => setSnags((list) => list.filter((a) => a.id !== id))}
      />
    ) : null;

  return { pins, open: setOpenId, panel, count: snags.length };
}
