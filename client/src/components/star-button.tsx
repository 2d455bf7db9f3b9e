import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StarResponse } from '@sitewalk/proto';
import { api } from '../lib/api-client';
import { showToast } from '../lib/toast';
import { tk } from '../lib/i18n-keys';

interface Props {
  projectId: number;
  projectName: string;
  starred: boolean;
  onChange(starred: boolean): void;
  className?: string;
}

/** Stars or unstars a project; the star shows the new state at once and goes back if the server refuses. */
export function StarButton({ projectId, projectName, starred, onChange, className }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    const next = !starred;
    setBusy(true);
    onChange(next);
    try {
      const res = await api.post<StarResponse>('/projects/star', { id_project: projectId, starred: next }, tk('Failed to update the star.'));
      onChange(res.starred);
    } catch (err) {
      onChange(!next);
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };
  const label = starred ? t('Unstar {name}', { name: projectName }) : t('Star {name}', { name: projectName });
  return (
    <button
      type="button"
      className={`btn btn-link p-1 sw-star${starred ? ' is-starred' : ''} ${className ?? ''}`}
      onClick={() => void toggle()}
      disabled={busy}
      aria-pressed={starred}
      aria-label={label}
      title={label}
    >
      <i className={`bi ${starred ? 'bi-star-fill' : 'bi-star'}`} aria-hidden="true" />
    </button>
  );
}
