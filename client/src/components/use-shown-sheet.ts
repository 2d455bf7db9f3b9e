import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SheetDetail } from '@sitewalk/proto';
import { showToast } from '../lib/toast';
import { sheetQuery } from './use-sheet-query';

/**
 * The sheet a visit screen draws (the placement editor, the walk's
 * projection): one of the visit's own sheets as they came with the visit,
 * else read from the server. The sheet shown before stays until the next one
 * is there, so the drawing does not blink; a failed read says why in a toast.
 */
export function useShownSheet(sheetId: number | null, visitSheets: readonly SheetDetail[]): SheetDetail | null {
  const { t } = useTranslation();
  const own = sheetId === null ? null : (visitSheets.find((m) => m.id === sheetId) ?? null);
  const wanted = own || sheetId === null ? null : sheetId;
  const read = useQuery({ ...sheetQuery(wanted), enabled: wanted !== null });
  useEffect(() => {
    if (read.error) showToast('error', t(read.error.message));
  }, [read.error, t]);
  // Derived from the reads alone, so rendering twice gives the same sheet.
  const shown = useRef<SheetDetail | null>(null);
  shown.current = sheetId === null ? null : (own ?? read.data ?? shown.current);
  return shown.current;
}
