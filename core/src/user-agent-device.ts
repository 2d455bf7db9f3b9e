import Bowser from 'bowser';

/**
 * A device in words from a user agent, for the list of signed-in sessions:
 * "Firefox 133 on Linux", "Safari 17 on iOS (mobile)". Framework-free.
 */
export function deviceFromUserAgent(ua: string | null | undefined): string {
  if (!ua || !ua.trim()) return 'Unknown device';
  const r = Bowser.parse(ua);
  const major = r.browser.version?.split('.')[0];
  const browser = r.browser.name ? `${r.browser.name}${major ? ` ${major}` : ''}` : '';
  const os = r.os.name ?? '';
  const kind = r.platform.type === 'mobile' || r.platform.type === 'tablet' ? ` (${r.platform.type})` : '';
  if (browser && os) return `${browser} on ${os}${kind}`;
  return browser || os ? `${browser || os}${kind}` : ua.slice(0, 60);
}
