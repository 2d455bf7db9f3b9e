import { create } from 'zustand';
import { MESSAGES, type Category, type ProjectType } from '@sitewalk/proto';
import { api } from '../lib/api-client';
import { useAuthStore } from './auth.store';

/**
 * What the project screens look up again and again: the signed-in user's
 * categories and the project types. Loaded once, shared by the list filters,
 * the edit form and the detail page, and reloaded after the management pages
 * change them.
 */

interface Lookup<T> {
  items: T[] | null;
  loading: Promise<T[]> | null;
}

interface ProjectLookupsState {
  categories: Lookup<Category>;
  types: Lookup<ProjectType>;
  loadCategories(force?: boolean): Promise<Category[]>;
  loadTypes(force?: boolean): Promise<ProjectType[]>;
  setCategories(items: Category[]): void;
  setTypes(items: ProjectType[]): void;
  clear(): void;
}

const empty = <T,>(): Lookup<T> => ({ items: null, loading: null });

export const useProjectLookups = create<ProjectLookupsState>((set, get) => {
  /** One request at a time per lookup; a forced load replaces what is held. */
  const load = <K extends 'categories' | 'types', T>(key: K, url: string, fallback: string, force: boolean): Promise<T[]> => {
    const current = get()[key] as Lookup<T>;
    if (!force && current.items) return Promise.resolve(current.items);
    if (current.loading) return current.loading;
    const loading = api
      .get<T[]>(url, fallback)
      .then((items) => {
        set({ [key]: { items, loading: null } } as Partial<ProjectLookupsState>);
        return items;
      })
      .catch((err: unknown) => {
        set({ [key]: { items: current.items, loading: null } } as Partial<ProjectLookupsState>);
        throw err;
      });
    set({ [key]: { items: current.items, loading } } as Partial<ProjectLookupsState>);
    return loading;
  };
  return {
    categories: empty<Category>(),
    types: empty<ProjectType>(),
    loadCategories: (force = false) => load<'categories', Category>('categories', '/categories', MESSAGES.fetchProjectsFailed, force),
    loadTypes: (force = false) => load<'types', ProjectType>('types', '/project-types', MESSAGES.fetchProjectsFailed, force),
    setCategories: (items) => set({ categories: { items, loading: null } }),
    setTypes: (items) => set({ types: { items, loading: null } }),
    clear: () => set({ categories: empty<Category>(), types: empty<ProjectType>() }),
  };
});

// Categories belong to a user: another sign-in must not see the previous user's.
useAuthStore.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) useProjectLookups.getState().clear();
});
