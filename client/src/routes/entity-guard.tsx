import { createContext, useContext, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formMessages } from '@sitewalk/proto';
import { api, ApiError } from '../lib/api-client';
import { Spinner } from '../components/spinner';
import NotFoundPage from '../pages/not-found/not-found-page';
import type { EntityKind } from './route-types';
import { tk } from '../lib/i18n-keys';

/** Where each entity kind is read, and its label in the SPEC §8 form messages. */
export const ENTITY_SOURCES: Record<EntityKind, { label: string; path: (id: string) => string }> = {
  project: { label: tk('Project'), path: (id) => `/projects/${id}` },
  sheet: { label: tk('Sheet'), path: (id) => `/maps/${id}` },
  visit: { label: tk('Visit'), path: (id) => `/visits/${id}` },
  plan: { label: tk('Plan'), path: (id) => `/plans/${id}` },
  user: { label: tk('User'), path: (id) => `/users/${id}` },
  company: { label: tk('Company'), path: (id) => `/companies/${id}` },
};

const EntityContext = createContext<unknown>(null);

/** The entity the guard loaded for this edit screen (null when creating). */
export const useGuardedEntity = <T,>() => useContext(EntityContext) as T | null;

/**
 * Entity guard of the edit routes (SPEC §2): ':id' must be a positive number
 * or 'new'; the entity is loaded once and handed to the screen. A missing or
 * foreign entity shows the 404 page, never the form.
 */
export function EntityGuard({ kind, children }: { kind: EntityKind; children: ReactNode }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const source = ENTITY_SOURCES[kind];
  const creating = !id || id === 'new';
  const valid = creating || /^[1-9]\d{0,9}$/.test(id);
  const loadFailed = formMessages(source.label).loadFailed;
  const query = useQuery({
    // Its own key, read afresh on each visit and never again while the form is open:
    // the form starts from this answer, and a newer one under the user's edits would undo them.
    queryKey: ['entity-guard', kind, id],
    enabled: !creating && valid,
    queryFn: ({ signal }) => api.get<unknown>(source.path(id!), loadFailed, { signal }),
    staleTime: Infinity,
    gcTime: 0,
  });
  const errorStatus = query.error instanceof ApiError ? query.error.status : null;
  const state: { status: 'loading' | 'ready' | 'missing' | 'error'; entity: unknown } = creating
    ? { status: 'ready', entity: null }
    : errorStatus === 404 || errorStatus === 403
      ? { status: 'missing', entity: null }
      : query.isError
        ? { status: 'error', entity: null }
        : query.isSuccess
          ? { status: 'ready', entity: query.data }
          : { status: 'loading', entity: null };

  if (!valid || state.status === 'missing') return <NotFoundPage />;
  if (state.status === 'loading') return <Spinner size="lg" />;
  if (state.status === 'error') {
    return (
      <div className="alert alert-danger" role="alert">
        {t('Error loading {entity} data', { entity: t(source.label) })}
      </div>
    );
  }
  return <EntityContext.Provider value={state.entity}>{children}</EntityContext.Provider>;
}
