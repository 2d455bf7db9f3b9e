import { useCallback, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { VideoDetail } from '@sitewalk/proto';
import { useProjectJobs } from '../../realtime/use-project-jobs';
import { applyVideoEvent, isRunBusy, isVideoEventOfVisit, videoEventStep } from '../../lib/video-run';
import { VIDEO_LOAD_FAILED, videoApi } from './video-api';

export type VideoLoad = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready' };

const videoKey = (visitId: number) => ['visits', visitId, 'video'] as const;

/**
 * A visit's video and its processing run, kept current: read from the API on
 * mount, after every finished or failed step and after a reconnection (the
 * run in the database is the truth), and moved between reads by the live
 * 'job:progress' events of the project's room. Every open tab runs this, so
 * every tab shows the same stepper; on one screen, every part showing the
 * video shares the one read. `now` ticks each second while a step runs, for
 * the elapsed times.
 */
export function useVideoRun(visitId: number, projectId: number | null) {
  const queryClient = useQueryClient();
  // Nothing is read without a visit (an address with no id).
  const query = useQuery({ queryKey: videoKey(visitId), enabled: visitId > 0, queryFn: () => videoApi.get(visitId) });
  const video = query.data ?? null;
  const load: VideoLoad =
    query.status === 'pending' ? { state: 'loading' } : query.status === 'error' ? { state: 'error', message: query.error.message || VIDEO_LOAD_FAILED } : { state: 'ready' };
  const [now, setNow] = useState(() => new Date());

  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: videoKey(visitId) }), [queryClient, visitId]);

  const live = useProjectJobs(
    projectId,
    (e) => isVideoEventOfVisit(e, visitId),
    (e) => {
      const current = queryClient.getQueryData<VideoDetail | null>(videoKey(visitId));
      // A video this tab has not seen yet (uploaded in another tab, or replaced): read it.
      if (!current || videoEventStep(e, current.id) === null) return void reload();
      const { run, reload: again } = applyVideoEvent(current.run, e);
      if (run !== current.run) queryClient.setQueryData<VideoDetail | null>(videoKey(visitId), (v) => v && { ...v, run });
      if (again) void reload();
    },
    () => void reload(),
  );

  const busy = video ? isRunBusy(video.run) : false;
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, [busy]);

  /** Takes an answer of a call (upload, process, project, confirm) as the newest state: a read still on its way is dropped. */
  const accept = useCallback(
    (v: VideoDetail | null) => {
      void queryClient.cancelQueries({ queryKey: videoKey(visitId) });
      queryClient.setQueryData<VideoDetail | null>(videoKey(visitId), v);
    },
    [queryClient, visitId],
  );

  return { video, load, live, now, reload, accept };
}
