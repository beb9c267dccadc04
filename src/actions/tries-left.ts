/**
 * The tries left that a code page's `?left` names: the code flows redirect back to the page with
 * `left=1`…`9` after a wrong code.
 *
 * @module
 */

/**
 * The number `query.left` names, when it is one digit from 1 to 9; `undefined` for anything else
 * (missing, `0`, several digits, not a number), so a crafted URL cannot make the page say more.
 *
 * @example
 * ```ts
 * triesLeftOf({ left: "2" }) // 2
 * triesLeftOf({ left: "12" }) // undefined
 * ```
 */
export function triesLeftOf(query: { left?: string }): number | undefined {
  return query.left !== undefined && /^[1-9]$/.test(query.left) ? Number(query.left) : undefined
}
