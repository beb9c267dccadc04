/** Just enough HTML reading for the page tests: forms, inputs, labels and attributes by regex. */

export type Attributes = Record<string, string>

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" }

/** The opening tag of `name`, quote-aware: attribute values may hold a raw `>`. */
export function tag(name: string, flags = ""): RegExp {
  return new RegExp(`<${name}\\b(?:[^>"]|"[^"]*")*>`, flags)
}

/** The attributes of the first `name` tag in `html`. */
export function firstTag(html: string, name: string): Attributes | undefined {
  const match = tag(name).exec(html)
  return match ? attributesOf(match[0]) : undefined
}

export function decode(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!)
}

export function attributesOf(source: string): Attributes {
  const attributes: Attributes = {}
  const body = source.replace(/^<[a-z0-9]+/i, "").replace(/\/?>$/, "")
  for (const match of body.matchAll(/([^\s=/>]+)(?:="([^"]*)")?/g)) attributes[match[1]!] = decode(match[2] ?? "")
  return attributes
}

export interface Form {
  attributes: Attributes
  inner: string
  inputs: Attributes[]
  labels: { for: string; text: string }[]
  buttons: string[]
}

export function formsOf(html: string): Form[] {
  const forms = new RegExp(`(${tag("form").source})([\\s\\S]*?)</form>`, "g")
  return [...html.matchAll(forms)].map(([, open, inner]) => ({
    attributes: attributesOf(open!),
    inner: inner!,
    inputs: [...inner!.matchAll(tag("input", "g"))].map(([source]) => attributesOf(source)),
    labels: [...inner!.matchAll(/<label for="([^"]*)">([\s\S]*?)<\/label>/g)].map(([, id, text]) => ({ for: decode(id!), text: decode(text!) })),
    buttons: [...inner!.matchAll(new RegExp(`${tag("button").source}([\\s\\S]*?)</button>`, "g"))].map(([, text]) => decode(text!.replace(/<[^>]+>/g, ""))),
  }))
}

export function textOf(html: string): string {
  const body = html.replace(/<style[\s\S]*?<\/style>/g, "")
  return decode(body.replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ").trim()
}

export function titleOf(html: string): string | undefined {
  const match = /<title>([\s\S]*?)<\/title>/.exec(html)
  return match ? decode(match[1]!) : undefined
}

export function styleOf(html: string): string {
  return /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ""
}
