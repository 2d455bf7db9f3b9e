import { describe, expect, it } from 'vitest';
import { footerLinks, isExternalLink } from './footer-links';
import { dropdownItems, notificationIcon } from './notification-icon';
import { extractKeys } from './i18n-keys';
import { isLoginPath } from './app-navigation';

describe('footer links', () => {
  it('open externally only when the value starts with http', () => {
    expect(isExternalLink('https://example.com/terms')).toBe(true);
    expect(isExternalLink('http://example.com')).toBe(true);
    expect(isExternalLink('Our terms are simple.')).toBe(false);
    expect(isExternalLink('')).toBe(false);
    expect(footerLinks({ terms_and_conditions: 'https://x.test/t', privacy_policy: 'text' })).toEqual([
      { label: 'Terms and Conditions', href: 'https://x.test/t' },
      { label: 'Privacy Policy', href: null },
    ]);
  });

  it('adds the configured footer links that have a label', () => {
    const links = footerLinks({ footer_link_1: 'Blog', footer_value_1: 'https://blog.test', footer_link_2: '' });
    expect(links.map((l) => l.label)).toEqual(['Terms and Conditions', 'Privacy Policy', 'Blog']);
  });
});

describe('notifications helpers', () => {
  it('picks an icon by type, with a default for other types', () => {
    expect(notificationIcon('error').icon).toBe('bi-exclamation-triangle-fill');
    expect(notificationIcon('success').icon).toBe('bi-check-circle-fill');
    expect(notificationIcon('info').icon).toBe('bi-info-circle-fill');
    expect(notificationIcon('warning').icon).toBe('bi-bell-fill');
  });

  it('shows at most 5 unread items, newest first', () => {
    const items = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, is_read: i === 7, created_at: `2026-01-0${i + 1}T00:00:00Z` }));
    expect(dropdownItems(items, 5).map((n) => n.id)).toEqual([7, 6, 5, 4, 3]);
  });
});

describe('extractKeys', () => {
  it('finds the literal keys of t() and tk() calls', () => {
    const src = `t('Ready to Leave?'); tk("Two \\"quoted\\""); x.t('Not a call of t'); t(variable); t('It\\'s')`;
    expect(extractKeys(src)).toEqual(['Ready to Leave?', 'Two "quoted"', 'Not a call of t', "It's"]);
  });
});

describe('login paths', () => {
  it('are the public sign-in screens', () => {
    expect(isLoginPath('/login')).toBe(true);
    expect(isLoginPath('/reset-password')).toBe(true);
    expect(isLoginPath('/dashboard')).toBe(false);
    expect(isLoginPath('/loginx')).toBe(false);
  });
});
