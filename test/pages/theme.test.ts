import { describe, expect, it } from "vitest"
import { safeUrl } from "../../src/pages/layout.js"
import { baseStyles } from "../../src/pages/styles.js"
import { buttonColors, colorSchemeOf, contrastRatio, readableTextColor, sanitizeCssColor, themeStyles } from "../../src/pages/theme.js"

describe("sanitizeCssColor", () => {
  it.each(["#fff", "#FFFA", "#1d4ed8", "#1d4ed8cc", "rgb(1, 2, 3)", "rgba(1,2,3,.5)", "hsl(210deg 50% 40%)", "oklch(0.6 0.2 270 / 80%)", "rebeccapurple", " #abc "])(
    "accepts %j",
    (color) => expect(sanitizeCssColor(color)).toBe(color.trim()),
  )

  it.each(["", "#ff", "#fffff", "#ggg", "red;", "red}", "red</style>", "url(x)", "var(--a)", "rgb(1,2,3));x:y", "calc(1px)", "'red'", "red blue", "#fff\n}", "a".repeat(65)])(
    "refuses %j",
    (color) => expect(sanitizeCssColor(color)).toBeUndefined(),
  )

  it("refuses non-strings", () => {
    expect(sanitizeCssColor(undefined)).toBeUndefined()
    expect(sanitizeCssColor(0xffffff)).toBeUndefined()
  })
})

describe("contrast helpers", () => {
  it("computes WCAG ratios", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21)
    expect(contrastRatio("#777", "#777")).toBeCloseTo(1)
    expect(contrastRatio("red", "#000")).toBeUndefined()
  })

  it("picks black or white text", () => {
    expect(readableTextColor("#24292f")).toBe("#ffffff")
    expect(readableTextColor("#ffd33d")).toBe("#000000")
    expect(readableTextColor("teal")).toBeUndefined()
  })

  it("keeps configured button colours that read well, fixes those that do not", () => {
    expect(buttonColors("#24292f", "#fff")).toEqual({ background: "#24292f", text: "#fff" })
    expect(buttonColors("#24292f", "#333")).toEqual({ background: "#24292f", text: "#ffffff" })
    expect(buttonColors("teal", "white")).toEqual({ background: "teal", text: "white" })
    expect(buttonColors("teal", undefined)).toBeUndefined()
    expect(buttonColors(undefined, "#fff")).toBeUndefined()
  })

  it("reads the colour scheme", () => {
    expect(colorSchemeOf(undefined)).toBe("auto")
    expect(colorSchemeOf({ colorScheme: "light" })).toBe("light")
  })

  it("emits nothing for an empty theme", () => {
    expect(themeStyles({})).toBe("")
    expect(themeStyles({ buttonText: "#000" })).toBe(":root{--button-text-color:#000}")
  })
})

describe("default palette", () => {
  // Read the custom properties of each scheme straight from the stylesheet.
  function palette(selector: string): Record<string, string> {
    const block = new RegExp(`${selector.replace(/[.]/g, "\\.")}\\{([^}]*)\\}`).exec(baseStyles)![1]!
    return Object.fromEntries([...block.matchAll(/--([a-z-]+):(#[0-9a-f]{6})/g)].map(([, name, value]) => [name!, value!]))
  }
  const root = palette(":root")
  const schemes = { light: palette(".__next-auth-theme-light,.__next-auth-theme-auto"), dark: palette(".__next-auth-theme-dark") }

  // [text, background] pairs the pages draw.
  const pairs = [
    ["text", "card-bg"],
    ["muted", "card-bg"],
    ["text", "field-bg"],
    ["muted", "field-bg"],
    ["text", "neutral-bg"],
    ["text", "neutral-hover"],
    ["link", "card-bg"],
    ["alert-text", "alert-bg"],
    ["accent-fg", "accent-bg"],
    ["text", "page-bg"],
  ] as const

  for (const [scheme, colors] of Object.entries(schemes)) {
    for (const [fg, bg] of pairs) {
      it(`${scheme}: ${fg} on ${bg} ≥ 4.5:1`, () => {
        expect(colors[fg], fg).toBeDefined()
        expect(colors[bg], bg).toBeDefined()
        expect(contrastRatio(colors[fg]!, colors[bg]!)).toBeGreaterThanOrEqual(4.5)
      })
    }
    it(`${scheme}: focus ring and field borders stand out from the card (≥ 3:1)`, () => {
      expect(contrastRatio(colors["focus-ring"]!, colors["card-bg"]!)).toBeGreaterThanOrEqual(3)
      expect(contrastRatio(colors["field-border"]!, colors["card-bg"]!)).toBeGreaterThanOrEqual(3)
    })
  }

  it("default button text on the default brand colour ≥ 4.5:1", () => {
    expect(contrastRatio(root["button-text-color"]!, root["brand-color"]!)).toBeGreaterThanOrEqual(4.5)
  })
})

describe("safeUrl", () => {
  it.each([
    ["https://app.example/auth", "https://app.example/auth"],
    ["/auth/signin", "/auth/signin"],
    ["?a=1", "?a=1"],
    ["javascript:alert(1)", "#"],
    [" JAVASCRIPT:alert(1)", "#"],
    ["java\tscript:alert(1)", "#"],
    ["data:text/html,<script>", "#"],
    ["vbscript:x", "#"],
  ])("%j → %j", (input, output) => expect(safeUrl(input)).toBe(output))

  it("allows data: images only where asked", () => {
    expect(safeUrl("data:image/png;base64,AAAA", "", true)).toBe("data:image/png;base64,AAAA")
    expect(safeUrl("data:image/png;base64,AAAA")).toBe("#")
  })
})
