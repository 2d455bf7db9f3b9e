import { describe, expect, it } from 'vitest';
import { deviceFromUserAgent } from './user-agent-device.js';

describe('deviceFromUserAgent', () => {
  it('names the browser, its major version and the system', () => {
    expect(deviceFromUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome 131 on Windows');
    expect(deviceFromUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox 133 on Linux');
  });

  it('says when it is a phone', () => {
    expect(deviceFromUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toBe('Safari 17 on iOS (mobile)');
  });

  it('says "Unknown device" for an empty agent and keeps an unknown one short', () => {
    expect(deviceFromUserAgent(null)).toBe('Unknown device');
    expect(deviceFromUserAgent('   ')).toBe('Unknown device');
    expect(deviceFromUserAgent('x'.repeat(300)).length).toBeLessThanOrEqual(60);
  });
});
