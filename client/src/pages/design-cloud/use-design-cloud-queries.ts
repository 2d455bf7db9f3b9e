import { useCallback, useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MESSAGES, type AdskManifest, type AdskSheet, type AdskSyncRun } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { onServerEvent, onSocketConnect } from '../../realtime/socket';
import { tk } from '../../lib/i18n-keys';

/** Every read of the linked Autodesk account in the query cache. */
export const AUTODESK_READS = ['autodesk'] as const;
const SYNC_RUNS = [...AUTODESK_READS, 'sync-runs'] as const;

/** One level of the Autodesk browser (hubs, projects, folders, contents or versions) at its address. */
export function useAutodeskListQuery<Row>(url: string, failed: string) {
  return useQuery({
    queryKey: [...AUTODESK_READS, 'list', url],
    queryFn: ({ signal }) => api.get<Row[]>(url, failed, { signal }),
  });
}

/** The 2D sheets of a model version (GET /autodesk/models/manifest); nothing is asked without a version. */
export function useManifestQuery(urn: string | null) {
  return useQuery({
    queryKey: [...AUTODESK_READS, 'manifest', urn],
    enabled: urn !== null,
    queryFn: ({ signal }) => api.get<AdskManifest>(`/autodesk/models/manifest?urn=${encodeURIComponent(urn ?? '')}`, MESSAGES.adskManifestFailed, { signal }),
  });
}

/** A project's sheets as Autodesk Construction Cloud lists them, once asked for (`enabled`). */
export function useAccSheetsQuery(projectId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...AUTODESK_READS, 'acc-sheets', projectId],
    enabled,
    queryFn: ({ signal }) => api.get<AdskSheet[]>(`/autodesk/projects/${encodeURIComponent(projectId)}/sheets`, MESSAGES.adskSheetsFailed, { signal }),
  });
}

/** Merges a run into the list (newest first), keeping the latest state of each. */
export function mergeRun(runs: AdskSyncRun[], run: AdskSyncRun): AdskSyncRun[] {
  const rest = runs.filter((r) => r.id !== run.id);
  return [run, ...rest].sort((a, b) => b.id - a.id).slice(0, 10);
}

/**
 * The user's Autodesk syncs, live: read once (GET /autodesk/sync-runs), then
 * kept up to date by the 'job:progress' events of the user's room (subject
 * 'adsk-sync', which carry the run's whole state), and read again after a
 * reconnection (events missed meanwhile). `add` shows a run just started.
 */
export function useSyncRuns() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: SYNC_RUNS,
    queryFn: ({ signal }) => api.get<AdskSyncRun[]>('/autodesk/sync-runs', tk('Could not load the syncs'), { signal }),
  });
  const add = useCallback((run: AdskSyncRun) => queryClient.setQueryData<AdskSyncRun[]>(SYNC_RUNS, (rs) => mergeRun(rs ?? [], run)), [queryClient]);

  useEffect(() => {
    const offEvent = onServerEvent('job:progress', (e) => {
      if (e.subject.kind === 'adsk-sync' && e.detail) add(e.detail as unknown as AdskSyncRun);
    });
    const offConnect = onSocketConnect(() => void queryClient.invalidateQueries({ queryKey: SYNC_RUNS }));
    return () => {
      offEvent();
      offConnect();
    };
  }, [queryClient, add]);

  return { runs: query.data ?? [], add };
}
