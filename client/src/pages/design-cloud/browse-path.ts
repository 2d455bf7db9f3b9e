/**
 * Where the design-cloud browser stands: a path of hub → project → folders
 * → item, each with its Autodesk id and name. Pure, so the breadcrumbs and
 * the call of each level are unit-tested without React.
 */

export type NodeKind = 'hub' | 'project' | 'folder' | 'item';
export interface PathNode {
  kind: NodeKind;
  id: string;
  name: string;
}
export type BrowsePath = PathNode[];

/** What the screen lists at this path. */
export type Level = 'hubs' | 'projects' | 'folders' | 'contents' | 'versions';

export function levelOf(path: BrowsePath): Level {
  const last = path.at(-1);
  if (!last) return 'hubs';
  return ({ hub: 'projects', project: 'folders', folder: 'contents', item: 'versions' } as const)[last.kind];
}

const ORDER: Record<NodeKind, number> = { hub: 0, project: 1, folder: 2, item: 3 };

/** One step down; a node that cannot follow the last one (a hub under a folder) is refused. */
export function enter(path: BrowsePath, node: PathNode): BrowsePath {
  const last = path.at(-1);
  const ok = last ? ORDER[node.kind] === ORDER[last.kind] + 1 || (node.kind === 'folder' && last.kind === 'folder') || (node.kind === 'item' && last.kind === 'folder') : node.kind === 'hub';
  if (!ok || last?.kind === 'item') throw new Error(`Cannot open a ${node.kind} here.`);
  return [...path, node];
}

/** Back to the crumb at `index` (-1: the list of hubs). */
export const upTo = (path: BrowsePath, index: number): BrowsePath => path.slice(0, index + 1);

const enc = encodeURIComponent;
const find = (path: BrowsePath, kind: NodeKind) => path.find((n) => n.kind === kind);

/** The API call (SPEC §7) that lists this level. */
export function listUrl(path: BrowsePath, excludeExisting = true): string {
  const hub = find(path, 'hub');
  const project = find(path, 'project');
  const last = path.at(-1);
  switch (levelOf(path)) {
    case 'hubs':
      return '/autodesk/hubs';
    case 'projects':
      return `/autodesk/hubs/${enc(hub!.id)}/projects?exclude_existing=${excludeExisting}`;
    case 'folders':
      return `/autodesk/hubs/${enc(hub!.id)}/projects/${enc(project!.id)}/folders`;
    case 'contents':
      return `/autodesk/hubs/${enc(hub!.id)}/projects/${enc(project!.id)}/folders/${enc(last!.id)}/contents`;
    case 'versions':
      return `/autodesk/projects/${enc(project!.id)}/items/${enc(last!.id)}/versions`;
  }
}

/** The breadcrumb labels: the root, then every node's name. */
export const crumbs = (path: BrowsePath, root: string): string[] => [root, ...path.map((n) => n.name)];
