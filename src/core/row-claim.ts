/**
 * The claim marker of the database strategy's token refresh, where the account row is the lock: a
 * request that refreshes swaps the row's refresh token, compare-and-set, for a marker that says
 * until when it holds the refresh and still carries the refresh token it holds
 * (`authflow-refreshing:<until ms>:<nonce>:<refresh token>`).
 *
 * @module
 */

const prefix = "authflow-refreshing:"

/** A marker read back: until when (epoch ms) its holder holds the refresh, and the refresh token it carries. */
export interface RowClaim {
  until: number
  refreshToken: string
}

/**
 * A new marker for `refreshToken`, held until `until` (epoch ms); `nonce` makes two markers of the
 * same token and time differ, so a compare-and-set can tell them apart.
 *
 * @example
 * ```ts
 * rowClaimMarker("rt-1", Date.now() + 30_000, randomHex(8)) // "authflow-refreshing:1700000030000:9f…:rt-1"
 * ```
 */
export function rowClaimMarker(refreshToken: string, until: number, nonce: string): string {
  return `${prefix}${until}:${nonce}:${refreshToken}`
}

/**
 * The claim a stored refresh token is, or `undefined` when it is a refresh token.
 *
 * @example
 * ```ts
 * parseRowClaim("authflow-refreshing:1700000030000:9f3a:rt-1") // { until: 1700000030000, refreshToken: "rt-1" }
 * parseRowClaim("rt-1") // undefined
 * ```
 */
export function parseRowClaim(value: string | undefined): RowClaim | undefined {
  if (!value?.startsWith(prefix)) return undefined
  const [until, , ...rest] = value.slice(prefix.length).split(":")
  return { until: Number(until), refreshToken: rest.join(":") }
}

/**
 * The refresh token a stored value stands for: the one a marker carries, or the value itself.
 *
 * @example
 * ```ts
 * claimedRefreshToken("authflow-refreshing:1700000030000:9f3a:rt-1") // "rt-1"
 * ```
 */
export function claimedRefreshToken(value: string): string {
  return parseRowClaim(value)?.refreshToken ?? value
}
