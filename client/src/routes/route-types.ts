import type { ComponentType } from 'react';
import type { Settings } from '@sitewalk/proto';

export type EntityKind = 'project' | 'plan' | 'sheet' | 'visit' | 'user' | 'company';

/** One screen of the app with the metadata of SPEC §2. */
export interface AppRoute {
  /** Pattern with ':param' segments ('/project/:id', '/visits/:id?'). */
  path: string;
  /** Translation key of the page title (top bar, document title). */
  title: string;
  description?: string;
  /** false: public screen; true: signed-in users only, inside the layout. */
  requiresAuth: boolean;
  /** Roles that may open it; none means every signed-in user. */
  allowedRoles?: readonly string[];
  showInMenu?: boolean;
  /** bootstrap-icons class, e.g. 'bi-speedometer2'. */
  menuIcon?: string;
  /** Translation key of the menu entry (defaults to the title). */
  menuLabel?: string;
  /** Translation key of the breadcrumb (defaults to the title); '{id}' is substituted. */
  breadcrumb?: string;
  parentPath?: string;
  transition?: 'fade' | 'slide';
  /**
   * Parameters the screen follows by itself (the room shown in a 360 editor):
   * when only these change, the screen stays mounted instead of being rebuilt.
   */
  sameScreenParams?: readonly string[];
  /** false lets the route open while the profile lacks mandatory fields (default true). */
  preventWhenProfileIncomplete?: boolean;
  /** Edit routes: the entity the guard loads by ':id' before the screen opens. */
  entity?: EntityKind;
  /** Routes that settings can switch off (/register, /recover): hidden unless this holds. */
  enabledWhen?: (s: Settings) => boolean;
  /** The screen, loaded on first visit so each route's code (and heavy libraries) stay out of the others. */
  load: () => Promise<{ default: ComponentType }>;
}

/** A plain redirect (SPEC §2 "Some routes are plain redirects"). */
export interface RedirectRoute {
  path: string;
  redirectTo: string;
}
