import { describe, expect, it } from "vitest"
import { triesLeftOf } from "../../src/actions/tries-left.js"

describe("triesLeftOf", () => {
  it("reads one digit from 1 to 9", () => {
    expect(triesLeftOf({ left: "1" })).toBe(1)
    expect(triesLeftOf({ left: "9" })).toBe(9)
  })

  it("reads nothing else, so a crafted link cannot make the page promise more tries", () => {
    for (const left of [undefined, "", "0", "10", "99", "-1", "1.5", " 2", "2 ", "x", "Infinity"]) expect(triesLeftOf({ ...(left !== undefined && { left }) }), String(left)).toBeUndefined()
  })
})
