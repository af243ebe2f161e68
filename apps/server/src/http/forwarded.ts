import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';

/**
 * What a request says about the address the browser used, believed only from a proxy the operator trusts
 * (MDS_TRUSTED_PROXIES). DataHub's frontend forwards the browser's headers with `Host` set to mds's own address and
 * adds `X-Forwarded-Host` (the browser-facing host) and `X-Forwarded-Proto`; any other caller could write those
 * headers too, so from an address not on the list they are ignored.
 */
export interface ProxyTrust {
  /** Whether the request's peer is a trusted proxy. */
  trusts(req: IncomingMessage): boolean;
  /** The host the browser addressed: `X-Forwarded-Host` from a trusted proxy, else `Host`. */
  hostOf(req: IncomingMessage): string | undefined;
  /** The scheme the browser used: `X-Forwarded-Proto` from a trusted proxy, else that of the connection itself. */
  protocolOf(req: IncomingMessage): 'http' | 'https';
  /** Whether the request's `X-Forwarded-Proto` was honoured (so `protocolOf` is the browser's, not guessed). */
  forwardedProtocol(req: IncomingMessage): boolean;
}

/** One MDS_TRUSTED_PROXIES entry: an address (`10.0.0.7`, `::1`) or a CIDR block (`10.0.0.0/8`, `fd00::/8`). */
export function isProxyEntry(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export function createProxyTrust(entries: readonly string[]): ProxyTrust {
  const list = new BlockList();
  for (const entry of entries) {
    if (!isProxyEntry(entry)) throw new Error(`Not an address or CIDR block: ${entry}`);
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  const trusts = (req: IncomingMessage): boolean => {
    if (entries.length === 0) return false;
    const peer = unmapped(req.socket.remoteAddress);
    const family = peer ? isIP(peer) : 0;
    return family !== 0 && list.check(peer!, family === 4 ? 'ipv4' : 'ipv6');
  };
  const forwarded = (req: IncomingMessage, name: string): string | undefined => {
    const value = req.headers[name];
    if (typeof value !== 'string' || !trusts(req)) return undefined;
    // A chain of proxies lists one value per hop; the first is what the browser-facing proxy saw.
    const first = value.split(',', 1)[0]!.trim();
    return first === '' ? undefined : first;
  };
  const forwardedProto = (req: IncomingMessage) => {
    const proto = forwarded(req, 'x-forwarded-proto')?.toLowerCase();
    return proto === 'http' || proto === 'https' ? proto : undefined;
  };
  return {
    trusts,
    hostOf: (req) => forwarded(req, 'x-forwarded-host') ?? req.headers.host,
    protocolOf: (req) => forwardedProto(req) ?? ((req.socket as TLSSocket).encrypted ? 'https' : 'http'),
    forwardedProtocol: (req) => forwardedProto(req) !== undefined,
  };
}

/** `::ffff:10.0.0.7` (an IPv4 peer on a dual-stack socket) as `10.0.0.7`. */
function unmapped(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
