import net from 'node:net';

/**
 * Whether an address is in a comma-separated list of addresses and CIDR
 * ranges ("203.0.113.7, 10.0.0.0/8, 2001:db8::/32"), as the setting
 * maintenance_ip holds it. An IPv4 address written as IPv6 (::ffff:a.b.c.d,
 * how a dual-stack server sees IPv4 clients) matches its IPv4 entries.
 * Entries that are not addresses are ignored. Framework-free.
 */
export function addressInList(ip: string, list: string): boolean {
  const address = ip.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  const family = net.isIP(address);
  if (!family) return false;
  const block = new net.BlockList();
  for (const raw of list.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const [base, bits, extra] = entry.split('/');
    const baseFamily = net.isIP(base);
    if (!baseFamily || extra !== undefined) continue;
    const type = baseFamily === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) {
      block.addAddress(base, type);
      continue;
    }
    const prefix = Number(bits);
    if (!/^\d{1,3}$/.test(bits) || prefix > (baseFamily === 4 ? 32 : 128)) continue;
    block.addSubnet(base, prefix, type);
  }
  return block.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
