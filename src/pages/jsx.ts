/**
 * The JSX runtime of the built-in pages: each element becomes its HTML string as it is created, on
 * the server, with no virtual DOM and no dependency. The pages are compiled with the classic
 * transform (`"jsx": "react"`, `"jsxFactory": "h"`, `"jsxFragmentFactory": "Fragment"` in
 * tsconfig.json), so every `.tsx` page imports `h` and `Fragment` from here.
 *
 * What it writes, byte for byte what the pages wrote before they had their own runtime: text and
 * attribute values with `"`, `&` and `<` escaped; an attribute that is `true` or `""` as its bare
 * name, one that is `false`, `null` or `undefined` not at all, except on `aria-*`, `data-*`,
 * `spellcheck` and `draggable`, whose booleans are written `"true"`/`"false"`; empty void elements
 * as `<input …/>`; `dangerouslySetInnerHTML` unescaped; `null`, `undefined` and booleans as children
 * write nothing. Attribute names are written as given: the pages use HTML's own (`class`, `for`,
 * `maxlength`).
 *
 * @example
 * ```tsx
 * import { Fragment, h, renderToString } from "./jsx.js"
 * renderToString(<p class="lead">{"Fish & chips"}</p>) // '<p class="lead">Fish &amp; chips</p>'
 * ```
 * @module
 */

/**
 * Rendered HTML, written into the page as it is: what every element and component gives back. Text
 * is never `Markup` (only {@link h} makes it), so a string child is always escaped.
 *
 * @example
 * ```tsx
 * const item: Markup = <li>one</li>
 * item.html // "<li>one</li>"
 * ```
 */
export class Markup {
  readonly html: string
  constructor(html: string) {
    this.html = html
  }
}

/** What an element or component may hold: markup, text and numbers; `null`, `undefined` and booleans render nothing. */
export type ComponentChildren = Markup | string | number | bigint | boolean | null | undefined | readonly ComponentChildren[]

type AttributeValue = string | number | boolean | null | undefined

/**
 * The attributes the pages write, by their HTML names (so `maxLength`, `className` or `onClick` do
 * not type-check), plus any `data-*` and `aria-*`. Values are text, numbers or booleans, never
 * objects or functions.
 */
export interface HtmlAttributes {
  children?: ComponentChildren
  /** Written unescaped: only for text that is already safe in its element (a stylesheet, a script, an SVG). */
  dangerouslySetInnerHTML?: { __html: string }
  [data: `data-${string}`]: AttributeValue
  [aria: `aria-${string}`]: AttributeValue
  // Global attributes.
  class?: string
  id?: string
  style?: string
  title?: string
  lang?: string
  dir?: "ltr" | "rtl" | "auto"
  role?: string
  hidden?: boolean
  tabindex?: number
  autofocus?: boolean
  spellcheck?: boolean
  // Document and links.
  charset?: string
  name?: string
  content?: string
  href?: string
  rel?: string
  target?: string
  src?: string
  alt?: string
  width?: number | string
  height?: number | string
  // Forms.
  action?: string
  method?: "post" | "get"
  for?: string
  type?: string
  value?: string | number
  placeholder?: string
  required?: boolean
  disabled?: boolean
  readonly?: boolean
  checked?: boolean
  autocomplete?: string
  inputmode?: "none" | "text" | "decimal" | "numeric" | "tel" | "search" | "email" | "url"
  minlength?: number
  maxlength?: number
  min?: number | string
  max?: number | string
  step?: number | string
  pattern?: string
  size?: number
  // SVG.
  viewBox?: string
  fill?: string
  stroke?: string
  "stroke-width"?: number | string
  "stroke-linecap"?: "butt" | "round" | "square"
  "stroke-linejoin"?: "miter" | "round" | "bevel"
  focusable?: "true" | "false"
  d?: string
}

/** The elements the pages use; another one is a type error until it is added here. */
type Tag =
  | "html" | "head" | "meta" | "title" | "style" | "script" | "body" | "main" | "div" | "span" | "p" | "h1" | "a" | "img"
  | "ul" | "li" | "code" | "strong" | "em" | "br" | "details" | "summary" | "form" | "label" | "input" | "button" | "svg" | "path"

type Component<Props> = (props: Props) => Markup

const VOID_ELEMENTS = new Set(["area", "base", "br", "col", "command", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr"])
// A name holding any of these could break out of the tag: such an attribute is left out, such a tag refused.
const UNSAFE_NAME = /[\s\\/='"\0<>]/
// Attributes whose values are the words "true" and "false", not present-or-absent.
const WORD_BOOLEAN = /^(?:aria-|data-|spellcheck$|draggable$)/
const ENTITIES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "<": "&lt;" }

/**
 * Escape text for an HTML text node or a double-quoted attribute value: `"`, `&` and `<`.
 *
 * @example
 * ```ts
 * escapeText('a < b & "c"') // "a &lt; b &amp; &quot;c&quot;"
 * ```
 */
export function escapeText(text: string): string {
  return text.replace(/["&<]/g, (char) => ENTITIES[char]!)
}

/**
 * The HTML of `node`: markup as it is, text escaped, numbers as digits, arrays in order; `null`,
 * `undefined` and booleans give `""`.
 *
 * @example
 * ```tsx
 * renderToString(<html lang="en"><body>{["a", null, 1]}</body></html>) // '<html lang="en"><body>a1</body></html>'
 * ```
 */
export function renderToString(node: ComponentChildren): string {
  if (node instanceof Markup) return node.html
  if (typeof node === "string") return escapeText(node)
  if (typeof node === "number" || typeof node === "bigint") return String(node)
  if (node === null || typeof node !== "object") return ""
  let html = ""
  for (const child of node) html += renderToString(child)
  return html
}

function attributesOf(props: Record<string, unknown>): string {
  let out = ""
  for (const name in props) {
    if (name === "children" || name === "dangerouslySetInnerHTML" || UNSAFE_NAME.test(name)) continue
    let value = props[name]
    if (typeof value === "boolean" && WORD_BOOLEAN.test(name)) value = String(value)
    if (value === null || value === undefined || value === false) continue
    out += value === true || value === "" ? ` ${name}` : ` ${name}="${escapeText(String(value))}"`
  }
  return out
}

/**
 * The JSX factory: an element's HTML, or what a component gives back as markup. Children given
 * after `props` become `props.children` (one child as itself, several as an array).
 *
 * @example
 * ```ts
 * h("input", { type: "hidden", name: "csrfToken", value: "a&b" }).html // '<input type="hidden" name="csrfToken" value="a&amp;b"/>'
 * ```
 */
export function h<Props>(type: Tag | Component<Props>, props: Props | null, ...children: ComponentChildren[]): Markup {
  const all = (children.length === 0 ? { ...props } : { ...props, children: children.length === 1 ? children[0] : children }) as Record<string, unknown> & HtmlAttributes
  if (typeof type === "function") return type(all as Props)
  if (UNSAFE_NAME.test(type)) throw new TypeError(`h: ${JSON.stringify(type)} is not a tag name`)
  const inner = all.dangerouslySetInnerHTML?.__html || renderToString(all.children)
  const open = `<${type}${attributesOf(all)}`
  return new Markup(inner === "" && VOID_ELEMENTS.has(type) ? `${open}/>` : `${open}>${inner}</${type}>`)
}

/**
 * `<>…</>`: its children, with no element around them.
 *
 * @example
 * ```tsx
 * renderToString(<><h1>Title</h1><p>Text</p></>) // "<h1>Title</h1><p>Text</p>"
 * ```
 */
export function Fragment({ children }: { children?: ComponentChildren }): Markup {
  return new Markup(renderToString(children))
}

/** The JSX types TypeScript reads from the factory (`h.JSX`), so no global `JSX` is declared. */
export declare namespace h {
  namespace JSX {
    type Element = Markup
    type IntrinsicElements = { [tag in Tag]: HtmlAttributes }
    interface ElementChildrenAttribute {
      children: unknown
    }
  }
}
