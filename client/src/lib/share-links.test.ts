import { describe, expect, it } from 'vitest';
import { shareLinks, viewerPath } from './share-links';

const url = 'https://site.example/viewer/AB12CD';

describe('share links of the public viewer', () => {
  it('gives one plain link per enabled provider, in the settings’ order', () => {
    const links = shareLinks(['reddit', 'email', 'facebook'], url, 'Level 2 walk');
    expect(links.map((l) => l.provider)).toEqual(['reddit', 'email', 'facebook']);
    expect(links[0].href).toBe(`https://www.reddit.com/submit?url=${encodeURIComponent(url)}&title=Level%202%20walk`);
    expect(links[1].href).toBe(`mailto:?subject=Level%202%20walk&body=${encodeURIComponent(`Level 2 walk\n${url}`)}`);
    expect(links[2].href).toBe(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`);
  });

  it('covers every provider of the spec', () => {
    const all = ['email', 'whatsapp', 'facebook', 'twitter', 'linkedin', 'telegram', 'facebook_messenger', 'pinterest', 'reddit'];
    const links = shareLinks(all, url, 'x');
    expect(links).toHaveLength(9);
    for (const l of links) expect(l.href).toContain(encodeURIComponent(url));
    expect(links.find((l) => l.provider === 'whatsapp')!.href.startsWith('https://api.whatsapp.com/send?text=')).toBe(true);
    expect(links.find((l) => l.provider === 'telegram')!.href.startsWith('https://t.me/share/url?url=')).toBe(true);
  });

  it('skips unknown, repeated and empty entries', () => {
    expect(shareLinks(['myspace', 'Email', 'email', ''], url, 'x').map((l) => l.provider)).toEqual(['email']);
    expect(shareLinks(null, url, 'x')).toEqual([]);
  });

  it('builds the viewer address with the optional room and point of interest', () => {
    expect(viewerPath('AB12')).toBe('/viewer/AB12');
    expect(viewerPath('AB12', 5)).toBe('/viewer/AB12/5');
    expect(viewerPath('AB12', 5, 9)).toBe('/viewer/AB12/5/9');
    expect(viewerPath('AB12', null, 9)).toBe('/viewer/AB12');
  });
});
