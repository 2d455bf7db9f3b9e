import { useCallback, useEffect, useRef, useState } from 'react';
import type { VideoDetail } from '@sitewalk/proto';
import { useProjectJobs } from '../../realtime/use-project-jobs';
import { applyVideoEvent, isRunBusy, isVideoEventOfVisit, videoEventStep } from '../../lib/video-run';
import { VIDEO_LOAD_FAILED, videoApi } from './video-api';

export type VideoLoad = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready' };

/**
 * A visit's video and its processing run, kept current: read from the API on
 * mount, after every finished or failed step and after a reconnection (the
 * run in the database is the truth), and moved between reads by the live
 * 'job:progress' events of the project's room. Every open tab runs this, so
 * every tab shows the same stepper. `now` ticks each second while a step runs,
 * for the elapsed times.
 */
export function useVideoRun(visitId: number, projectId: number | null) {
  const [video, setVideo] = useState<VideoDetail | null>(null);
  const [load, setLoad] = useState<VideoLoad>({ state: 'loading' });
  const [now, setNow] = useState(() => new Date());
  const videoRef = useRef<VideoDetail | null>(null);
  videoRef.current = video;
  const seq = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++seq.current;
    try {
      const v = await videoApi.get(visitId);
      if (mine !== seq.current) return;
      setVideo(v);
      setLoad({ state: 'ready' });
    } catch (err) {
      if (mine !== seq.current) return;
      setLoad({ state: 'error', message: (err as Error).message || VIDEO_LOAD_FAILED });
    }
  }, [visitId]);

  useEffect(() => void reload(), [reload]);

  const live = useProjectJobs(
    projectId,
    (e) => isVideoEventOfVisit(e, visitId),
    (e) => {
      const current = videoRef.current;
      // A video this tab has not seen yet (uploaded in another tab, or replaced): read it.
      if (!current || videoEventStep(e, current.id) === null) return void reload();
      const { run, reload: again } = applyVideoEvent(current.run, e);
      if (run !== current.run) setVideo({ ...current, run });
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

  /** Takes an answer of a call (upload, process, project, confirm) as the newest state. */
  const accept = useCallback((v: VideoDetail | null) => {
    seq.current++;
    setVideo(v);
    setLoad({ state: 'ready' });
  }, []);

  return { video, load, live, now, reload, accept };
}
