/**
 * The address a request came from, as the framework wrapper saw it on the socket: recorded beside
 * the request, read by the router when it parses the request. The rate limiter's address handling
 * (`ip.ts`) is loaded only by the flows that count requests.
 *
 * @module
 */

const clientAddresses = new WeakMap<Request, string>()

/**
 * Records the address a request came from (the socket's peer), for the rate limiter. Framework
 * wrappers call it: `authflow/node`'s `toWebRequest` with `req.socket.remoteAddress`, SvelteKit's
 * `handle` with `event.getClientAddress()`. It cannot be set from a header, so a client cannot
 * choose it. Returns the same request.
 *
 * @example
 * ```ts
 * import { withClientAddress } from "authflow/rate-limit"
 * const response = await Auth(withClientAddress(request, socket.remoteAddress), config)
 * ```
 */
export function withClientAddress(request: Request, address: string | undefined | null): Request {
  if (address) clientAddresses.set(request, address)
  return request
}

/**
 * The address recorded for a request by {@link withClientAddress}, if any.
 *
 * @example
 * ```ts
 * peerAddressOf(withClientAddress(request, "203.0.113.7")) // "203.0.113.7"
 * ```
 */
export function peerAddressOf(request: Request): string | undefined {
  return clientAddresses.get(request)
}
