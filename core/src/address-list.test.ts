import { describe, expect, it } from 'vitest';
import { addressInList } from './address-list.js';

describe('addressInList', () => {
  it('matches exact addresses and CIDR ranges, IPv4 and IPv6', () => {
    const list = '203.0.113.7, 10.0.0.0/8 ,2001:db8::/32';
    expect(addressInList('203.0.113.7', list)).toBe(true);
    expect(addressInList('203.0.113.8', list)).toBe(false);
    expect(addressInList('10.200.3.4', list)).toBe(true);
    expect(addressInList('11.0.0.1', list)).toBe(false);
    expect(addressInList('2001:db8:1::5', list)).toBe(true);
    expect(addressInList('2001:db9::1', list)).toBe(false);
  });

  it('reads an IPv4 client seen through IPv6 as IPv4', () => {
    expect(addressInList('::ffff:203.0.113.7', '203.0.113.7')).toBe(true);
    expect(addressInList('::ffff:10.1.2.3', '10.0.0.0/8')).toBe(true);
  });

  it('ignores entries that are not addresses, and matches nothing for an empty list or a bad address', () => {
    expect(addressInList('10.0.0.1', 'office, 10.0.0.0/99, 10.0.0.1/8/2, ')).toBe(false);
    expect(addressInList('10.0.0.1', '')).toBe(false);
    expect(addressInList('not-an-ip', '0.0.0.0/0')).toBe(false);
  });
});
