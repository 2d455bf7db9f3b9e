import type Router from '@koa/router';

/** A feature's routes: it adds its paths (relative to /api) to the router. */
export type RouteModule = (router: Router) => void;
