import type { JobProgressEvent } from '@sitewalk/proto';
import { useProjectJobs } from '../../realtime/use-project-jobs';
import { isPdfEventFor } from '../../lib/pdf-progress';

/**
 * Follows the PDF-sheet jobs of a project live (see useProjectJobs): each
 * 'job:progress' event of a PDF upload of this project goes to `onEvent`.
 * The uploader also gets the events in their own room; the page merges both
 * (events carry the absolute state). Returns whether the page is in the
 * project's room now.
 */
export function useProjectProgress(projectId: number | null, onEvent: (e: JobProgressEvent) => void, onReconnect: () => void): boolean {
  return useProjectJobs(projectId, (e) => projectId !== null && isPdfEventFor(e, projectId), onEvent, onReconnect);
}
