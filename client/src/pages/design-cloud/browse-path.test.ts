import { describe, expect, it } from 'vitest';
import { crumbs, enter, levelOf, listUrl, upTo, type BrowsePath } from './browse-path';

const hub = { kind: 'hub', id: 'b.hub', name: 'Acme' } as const;
const project = { kind: 'project', id: 'b.p1', name: 'Tower' } as const;
const folder = { kind: 'folder', id: 'urn:adsk.wipprod:fs.folder:co.1', name: 'Plans' } as const;
const sub = { kind: 'folder', id: 'urn:adsk.wipprod:fs.folder:co.2', name: 'Level 1' } as const;
const item = { kind: 'item', id: 'urn:adsk.wipprod:dm.lineage:x', name: 'A-101.pdf' } as const;

describe('design-cloud browse path', () => {
  it('walks hub → project → folders → item, each level with its call', () => {
    let p: BrowsePath = [];
    expect([levelOf(p), listUrl(p)]).toEqual(['hubs', '/autodesk/hubs']);
    p = enter(p, hub);
    expect([levelOf(p), listUrl(p, false)]).toEqual(['projects', '/autodesk/hubs/b.hub/projects?exclude_existing=false']);
    p = enter(p, project);
    expect([levelOf(p), listUrl(p)]).toEqual(['folders', '/autodesk/hubs/b.hub/projects/b.p1/folders']);
    p = enter(enter(p, folder), sub);
    expect(levelOf(p)).toBe('contents');
    expect(listUrl(p)).toBe(`/autodesk/hubs/b.hub/projects/b.p1/folders/${encodeURIComponent(sub.id)}/contents`);
    p = enter(p, item);
    expect([levelOf(p), listUrl(p)]).toEqual(['versions', `/autodesk/projects/b.p1/items/${encodeURIComponent(item.id)}/versions`]);
    expect(crumbs(p, 'Hubs')).toEqual(['Hubs', 'Acme', 'Tower', 'Plans', 'Level 1', 'A-101.pdf']);
  });

  it('goes back to a crumb', () => {
    const p = [hub, project, folder, sub];
    expect(upTo(p, 1)).toEqual([hub, project]);
    expect(upTo(p, -1)).toEqual([]);
  });

  it('refuses a step that cannot follow', () => {
    expect(() => enter([], project)).toThrow();
    expect(() => enter([hub, project, folder, item], sub)).toThrow();
    expect(() => enter([hub], folder)).toThrow();
  });
});
