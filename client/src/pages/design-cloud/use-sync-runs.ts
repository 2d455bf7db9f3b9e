import { useCallback, useEffect, useState } from 'react';
import type { AdskSyncRun } from '@sitewalk/proto';
import { api, errorMessage } from '../../lib/api-client';
import { onServerEvent, onSocketConnect } from '../../realtime/socket';
import { tk } from '../../lib/i18n-keys';

/** Merges a run into the list (newest first), keeping the latest state of each. */
export function mergeRun(runs: AdskSyncRun[], run: AdskSyncRun): AdskSyncRun[] {
  const rest = runs.filter((r) => r.id !== run.id);
  return [run, ...rest].sort((a, b) => b.id - a.id).slice(0, 10);
}

/**
 * The user's Autodesk syncs, live: read once, then kept up to date by the
 * 'job:progress' events of the user's room (subject 'adsk-sync'), and read
 * again after a reconnection (events missed meanwhile).
 */
export function useSyncRuns() {
  const [runs, setRuns] = useState<AdskSyncRun[]>([]);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setRuns(await api.get<AdskSyncRun[]>('/autodesk/sync-runs', tk('Could not load the syncs')));
      setError(null);
    } catch (err) {
      setError(errorMessage(err, tk('Could not load the syncs')));
    }
  }, []);

  useEffect(() => {
    void reload();
    const offEvent = onServerEvent('job:progress', (e) => {
      if (e.subject.kind !== 'adsk-sync' || !e.detail) return;
      setRuns((rs) => mergeRun(rs, e.detail as unknown as AdskSyncRun));
    });
    const offConnect = onSocketConnect(() => void reload());
    return () => {
      offEvent();
      offConnect();
    };
  }, [reload]);

  const add = useCallback((run: AdskSyncRun) => setRuns((rs) => mergeRun(rs, run)), []);
  return { runs, error, add, reload };
}
