import { useEffect } from 'react';
import { create } from 'zustand';
import type { Crumb } from '../lib/breadcrumbs';

/**
 * What a screen knows of itself beyond its route: its own title (a record's
 * name, "New project", "Page not found") and the records above it in the
 * breadcrumb trail (a sheet's project). The document title, the top bar and
 * the trail prefer it to the route table's words.
 */
interface PageMeta {
  /** Already translated (or a record's own name). */
  title: string | null;
  parents: Crumb[];
  /** Which screen set it, so a screen leaving never clears the next one's. */
  owner: symbol | null;
}

export const usePageMetaStore = create<PageMeta>(() => ({ title: null, parents: [], owner: null }));

/** Names the current screen (title and parent crumbs) while it is shown. Pass null title to keep the route's. */
export function usePageMeta(title: string | null | undefined, parents: Crumb[] = []): void {
  const key = JSON.stringify([title ?? null, parents]);
  useEffect(() => {
    const [t, p] = JSON.parse(key) as [string | null, Crumb[]];
    const owner = Symbol('page');
    usePageMetaStore.setState({ title: t, parents: p, owner });
    return () => {
      if (usePageMetaStore.getState().owner === owner) usePageMetaStore.setState({ title: null, parents: [], owner: null });
    };
  }, [key]);
}
