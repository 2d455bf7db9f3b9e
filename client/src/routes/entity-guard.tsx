import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
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
  const [state, setState] = useState<{ status: 'loading' | 'ready' | 'missing' | 'error'; entity: unknown; message?: string }>({
    status: creating ? 'ready' : 'loading',
    entity: null,
  });

  useEffect(() => {
    if (creating || !valid || !id) return;
    let live = true;
    setState({ status: 'loading', entity: null });
    const loadFailed = formMessages(source.label).loadFailed;
    api.get<unknown>(source.path(id), loadFailed).then(
      (entity) => live && setState({ status: 'ready', entity }),
      (err: unknown) => {
        if (!live) return;
        const status = err instanceof ApiError ? err.status : null;
        if (status === 404 || status === 403) setState({ status: 'missing', entity: null });
        else setState({ status: 'error', entity: null, message: loadFailed });
      },
    );
    return () => {
      live = false;
    };
  }, [creating, valid, id, source]);

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
