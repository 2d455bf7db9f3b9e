import { ProgressBar } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { VIDEO_STEP_FAILURE, type VideoRun, type VideoStepState } from '@sitewalk/proto';
import { STEP_LABELS, formatElapsed, overallPercent, remainingSeconds, stepElapsed } from '../../lib/video-run';
import { formatNumber } from '../../lib/format';
import { tk } from '../../lib/i18n-keys';

const STATUS_TEXT: Record<VideoStepState['status'], string> = {
  pending: tk('Not started'),
  queued: tk('Waiting for its turn…'),
  active: tk('Running'),
  done: tk('Done'),
  failed: tk('Failed'),
};

const STATUS_ICON: Record<VideoStepState['status'], string> = {
  pending: 'bi-circle',
  queued: 'bi-hourglass-split',
  active: 'bi-arrow-repeat',
  done: 'bi-check-circle-fill',
  failed: 'bi-x-circle-fill',
};

/** What the run waits for, in words, when no step runs. */
export const RUN_STATUS_TEXT: Record<VideoRun['status'], string> = {
  uploaded: tk('Uploaded. Processing has not started.'),
  queued: tk('Waiting for a worker…'),
  running: tk('Working…'),
  needs_projection: tk('The point cloud is ready: choose a sheet and lay the walk on it.'),
  needs_confirmation: tk('Adjust the walk on the sheet, then confirm.'),
  completed: tk('The rooms are placed on the sheet.'),
  failed: tk('Processing stopped.'),
};

/**
 * The live stepper of a video's processing: the four steps of SPEC §1 in
 * order, each with its state, a bar with its percent, what it does now in
 * words, its elapsed time, and a failure's SPEC §8 title with the reason.
 * The step names are headings of an ordered list, so a screen reader reads
 * "step 2 of 4" and the current step is marked with aria-current.
 */
export function VideoStepper({ run, now, compact = false }: { run: VideoRun; now: Date; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  const currentIndex = run.steps.findIndex((s) => s.step === run.step);

  if (compact) {
    const current = run.steps[currentIndex] ?? null;
    const percent = overallPercent(run);
    return (
      <div data-testid="video-stepper-compact" data-status={run.status}>
        <div className="d-flex flex-wrap gap-2 small mb-1">
          <span className="fw-semibold me-auto">{current && (run.status === 'queued' || run.status === 'running') ? t(STEP_LABELS[current.step]) : t(RUN_STATUS_TEXT[run.status])}</span>
          <span className="text-body-secondary">{t('{n} of {total} steps done', { n: n(run.steps.filter((s) => s.status === 'done').length), total: n(run.steps.length) })}</span>
        </div>
        <ProgressBar now={percent} label={`${n(percent)}%`} variant={run.status === 'failed' ? 'danger' : 'success'} aria-label={t('Video processing')} />
        {run.error && (
          <div className="small text-danger mt-1" role="alert">
            {t(run.error.title)}: {t(run.error.reason)}
          </div>
        )}
      </div>
    );
  }

  return (
    <ol className="list-unstyled mb-0 sw-video-stepper" aria-label={t('Video processing')} data-testid="video-stepper" data-status={run.status}>
      {run.steps.map((s, i) => {
        const elapsed = stepElapsed(s, now);
        const left = remainingSeconds(s, now);
        const isCurrent = i === currentIndex && (s.status === 'active' || s.status === 'queued' || s.status === 'failed');
        const reason = s.status === 'failed' ? (s.error ?? (run.error?.step === s.step ? run.error.reason : '')) : '';
        return (
          <li
            key={s.step}
            className={`sw-video-step is-${s.status}`}
            aria-current={isCurrent ? 'step' : undefined}
            data-testid="video-step"
            data-step={s.step}
            data-state={s.status}
          >
            <span className={`sw-video-step-icon bi ${STATUS_ICON[s.status]}${s.status === 'active' ? ' sw-spin' : ''}`} aria-hidden="true" />
            <div className="min-w-0 flex-grow-1">
              <div className="d-flex flex-wrap align-items-baseline gap-2">
                <h3 className="h6 mb-0 me-auto">
                  <span className="visually-hidden">{t('Step {n} of {total}:', { n: n(i + 1), total: n(run.steps.length) })} </span>
                  {t(STEP_LABELS[s.step])}
                </h3>
                <span className="small text-body-secondary" data-testid="video-step-status">
                  {t(STATUS_TEXT[s.status])}
                  {elapsed !== null && <span className="ms-2" title={t('Elapsed time')}>{formatElapsed(elapsed)}</span>}
                </span>
              </div>
              {(s.status === 'active' || s.status === 'queued' || s.status === 'done') && (
                <ProgressBar
                  className="mt-1"
                  now={s.percent}
                  label={`${n(s.percent)}%`}
                  variant={s.status === 'done' ? 'success' : undefined}
                  striped={s.status === 'active'}
                  animated={s.status === 'active'}
                  aria-label={t(STEP_LABELS[s.step])}
                  data-testid="video-step-bar"
                />
              )}
              {left !== null && (
                <div className="small mt-1" data-testid="video-step-eta">
                  {t('About {time} left', { time: formatElapsed(Math.ceil(left)) })}
                </div>
              )}
              {s.status === 'active' && s.message && (
                <div className="small text-body-secondary mt-1" aria-live="polite" data-testid="video-step-message">
                  {t(s.message)}
                </div>
              )}
              {s.status === 'failed' && (
                <div className="small text-danger mt-1" role="alert" data-testid="video-step-error">
                  <span className="fw-semibold">{t(VIDEO_STEP_FAILURE[s.step])}</span>
                  {reason && <>: {t(reason)}</>}
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
